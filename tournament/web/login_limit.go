package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// loginLimiter limits login attempts per client address, so the shared
// judge password cannot be guessed quickly from the shop's network.
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

// newLoginLimiter allows burst attempts at once and one more every every.
func newLoginLimiter(every time.Duration, burst int) *loginLimiter {
	return &loginLimiter{every: every, burst: burst, clients: map[string]*loginClient{}}
}

// allow takes one attempt for addr and reports whether it may go ahead.
func (l *loginLimiter) allow(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A limiter idle long enough to be full again holds no state worth
	// keeping; forgetting it bounds the map by the recent clients.
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
	return c.lim.AllowN(now, 1)
}
