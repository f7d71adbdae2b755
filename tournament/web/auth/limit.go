package auth

import (
	"net"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/time/rate"
)

// loginLimiter limits the guesses at a judge's credentials per client
// address, wrong passwords and wrong API tokens alike, so that neither can
// be guessed quickly from the shop's network. Only failures count: several
// judges behind one router, or everyone logging in again after "log out
// everyone", are never held up by their own correct logins.
type loginLimiter struct {
	every time.Duration
	burst int

	mu      sync.Mutex
	clients map[string]*loginClient
}

type loginClient struct {
	lim  *rate.Limiter
	seen time.Time
}

// newLoginLimiter allows burst failures at once and one more every every.
func newLoginLimiter(every time.Duration, burst int) *loginLimiter {
	return &loginLimiter{every: every, burst: burst, clients: map[string]*loginClient{}}
}

// client returns addr's limiter, forgetting limiters idle long enough to
// be full again: they hold no state worth keeping, and forgetting them
// bounds the map by the recent clients.
func (l *loginLimiter) client(addr string, now time.Time) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	idle := l.every * time.Duration(l.burst)
	if len(l.clients) > 256 {
		for a, c := range l.clients {
			if now.Sub(c.seen) > idle {
				delete(l.clients, a)
			}
		}
	}
	c, ok := l.clients[addr]
	if !ok {
		c = &loginClient{lim: rate.NewLimiter(rate.Every(l.every), l.burst)}
		l.clients[addr] = c
	}
	c.seen = now
	return c.lim
}

// blocked reports whether addr has no attempt left now: the login form is
// then refused before it is read.
func (l *loginLimiter) blocked(addr string, now time.Time) bool {
	return l.client(addr, now).TokensAt(now) < 1
}

// attempt takes one attempt for addr and reports whether it may go ahead.
// The attempt is taken before the credential is checked, so that many
// guesses sent at once cannot all slip through before the first fails;
// the caller calls succeeded when the credential was right, which gives
// the attempt back.
func (l *loginLimiter) attempt(addr string, now time.Time) (ok bool, succeeded func()) {
	r := l.client(addr, now).ReserveN(now, 1)
	if !r.OK() || r.DelayFrom(now) > 0 {
		r.CancelAt(now)
		return false, nil
	}
	// CancelAt at the reservation's own time restores the token.
	return true, func() { r.CancelAt(now) }
}

// allow takes one attempt for addr that counts as a failure.
func (l *loginLimiter) allow(addr string, now time.Time) bool {
	ok, _ := l.attempt(addr, now)
	return ok
}

// retryAfter is the Retry-After of a refused attempt, in seconds.
func (l *loginLimiter) retryAfter() int { return int((l.every + time.Second - 1) / time.Second) }

// ClientAddr is what a per-client limit counts against: the address of the
// connection, or behind a reverse proxy the server was told to trust
// (Deps.TrustedProxies), the client address the proxy names in
// X-Forwarded-For (gin's ClientIP); a header from anyone else is ignored.
// An IPv6 address is cut to its /64, which one device's temporary
// addresses share.
func ClientAddr(c *gin.Context) string {
	ip := net.ParseIP(c.ClientIP())
	switch {
	case ip == nil:
		return c.ClientIP()
	case ip.To4() != nil:
		return ip.To4().String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}
