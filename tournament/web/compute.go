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

// errTooManyAtOnce is a public computation refused because its client
// already has as many under way as one client may.
var errTooManyAtOnce = errors.New("too many computations at once from this client")

// computeGate bounds the work of the public referee API under way at once:
// a few requests per client address (more are refused at once), and over
// all clients fewer than the machine's cores, so that the judges' pages
// always find one free. A request waits its turn for a while at most;
// when too many wait already, or the wait is over, it is refused as busy.
type computeGate struct {
	perClient  int
	maxWaiting int
	wait       time.Duration
	slots      chan struct{}

	mu      sync.Mutex
	clients map[string]int
	waiting int
}

// The gate's limits: a client is one script or one browser, and a shop's
// laptop has few cores.
const (
	computePerClient  = 2
	computeMaxWaiting = 16
	computeWait       = 5 * time.Second
)

func newComputeGate() *computeGate {
	return &computeGate{
		perClient: computePerClient, maxWaiting: computeMaxWaiting, wait: computeWait,
		slots:   make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1)),
		clients: map[string]int{},
	}
}

// enter admits one request of client, or fails with errTooManyAtOnce or
// errBusy; a request admitted calls the returned function when done.
func (g *computeGate) enter(ctx context.Context, client string) (func(), error) {
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
func (s *Server) gateCompute(c *gin.Context) {
	done, err := s.compute.enter(c.Request.Context(), clientAddr(c))
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
