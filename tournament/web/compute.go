package web

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// publicPairingEvals bounds the pairing search of one request to the
// public referee API, in swap evaluations: about half a second of one core
// here at most, against several seconds for the package's own budget. The
// judges' pairings (the tournament service) keep the full budget.
const publicPairingEvals = 8_000_000

// errTooManyAtOnce is an anonymous request refused because its client
// already has as many under way as one client may.
var errTooManyAtOnce = errors.New("too many computations at once from this client")

// gate bounds the anonymous work under way at once: a few requests per
// client address (more are refused at once), and over all clients a few
// per core, so that the judges' pages always find a core free. A request
// waits its turn for a while at most; when too many wait already, or the
// wait is over, it is refused as busy.
type gate struct {
	perClient  int
	maxWaiting int
	wait       time.Duration
	slots      chan struct{}

	mu      sync.Mutex
	clients map[string]int
	waiting int
}

func newGate(perClient, slots, maxWaiting int, wait time.Duration) *gate {
	return &gate{perClient: perClient, maxWaiting: maxWaiting, wait: wait, slots: make(chan struct{}, slots), clients: map[string]int{}}
}

// newComputeGate is the gate of the referee API, which computes for
// anyone: a client is one script or one browser, and fewer requests than
// the cores compute at once.
func newComputeGate() *gate {
	return newGate(2, max(1, runtime.GOMAXPROCS(0)-1), 16, 5*time.Second)
}

// newReadGate is the gate of the kiosk's reads, served from the read cache
// but rendered for each request: a phone loads a page, the live state and
// a QR code at most at once, and a room of phones fetching the live state
// after a change wait their turn for a moment. Half the cores render for
// anonymous readers, the compute gate takes one fewer than all: under a
// flood of both a judge's page still gets a fair share of a core.
func newReadGate() *gate {
	return newGate(6, max(1, runtime.GOMAXPROCS(0)/2), 2048, 10*time.Second)
}

// enter admits one request of client, or fails with errTooManyAtOnce or
// errBusy; a request admitted calls the returned function when done.
func (g *gate) enter(ctx context.Context, client string) (func(), error) {
	g.mu.Lock()
	if g.clients[client] >= g.perClient {
		g.mu.Unlock()
		return nil, errTooManyAtOnce
	}
	if len(g.slots) == cap(g.slots) && g.waiting >= g.maxWaiting {
		g.mu.Unlock()
		return nil, errBusy
	}
	g.clients[client]++
	g.waiting++
	g.mu.Unlock()
	leave := func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.clients[client]--; g.clients[client] <= 0 {
			delete(g.clients, client)
		}
	}
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	var err error
	select {
	case g.slots <- struct{}{}:
	case <-timer.C:
		err = errBusy
	case <-ctx.Done():
		err = ctx.Err()
	}
	g.mu.Lock()
	g.waiting--
	g.mu.Unlock()
	if err != nil {
		leave()
		return nil, err
	}
	return func() { <-g.slots; leave() }, nil
}

// gateCompute is the guard of the public referee API's routes.
func (s *Server) gateCompute(c *gin.Context) { s.pass(c, s.compute) }

// gateReads is the guard of the kiosk's reads (the live feed has its own
// bounds in the broker).
func (s *Server) gateReads(c *gin.Context) { s.pass(c, s.reads) }

// pass lets the request through g, or refuses it. A judge (the API token
// or a session) is not anonymous, and passes at once.
func (s *Server) pass(c *gin.Context, g *gate) {
	if _, ok := s.sessionJudge(c); ok || s.checkToken(c) == tokenValid {
		c.Next()
		return
	}
	done, err := g.enter(c.Request.Context(), clientAddr(c))
	switch {
	case errors.Is(err, context.Canceled):
		c.Abort() // the client went away while waiting
		return
	case err != nil:
		c.Header("Retry-After", strconv.Itoa(1))
		s.fail(c, err)
		return
	}
	defer done()
	c.Next()
}
