package auth

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// Gate bounds the anonymous work under way at once: a few requests per
// client address (more are refused at once), and over all clients a few
// per core, so that the judges' pages always find a core free. A request
// waits its turn for a while at most; when too many wait already, or the
// wait is over, it is refused as busy.
type Gate struct {
	perClient  int
	maxWaiting int
	wait       time.Duration
	slots      chan struct{}

	mu      sync.Mutex
	clients map[string]int
	waiting int
}

// NewGate admits perClient requests of one client at once, slots over all
// clients, and keeps at most maxWaiting waiting for wait at most.
func NewGate(perClient, slots, maxWaiting int, wait time.Duration) *Gate {
	return &Gate{perClient: perClient, maxWaiting: maxWaiting, wait: wait, slots: make(chan struct{}, slots), clients: map[string]int{}}
}

// NewComputeGate is the gate of the referee API, which computes for
// anyone: a client is one script or one browser, and fewer requests than
// the cores compute at once.
func NewComputeGate() *Gate {
	return NewGate(2, max(1, runtime.GOMAXPROCS(0)-1), 16, 5*time.Second)
}

// NewReadGate is the gate of the kiosk's reads, served from the read cache
// but rendered for each request: a phone loads a page, the live state and
// a QR code at most at once, and a room of phones fetching the live state
// after a change wait their turn for a moment. Half the cores render for
// anonymous readers, the compute gate takes one fewer than all: under a
// flood of both a judge's page still gets a fair share of a core.
func NewReadGate() *Gate {
	return NewGate(6, max(1, runtime.GOMAXPROCS(0)/2), 2048, 10*time.Second)
}

// Enter admits one request of client, or fails with problem.ErrTooManyAtOnce or
// problem.ErrBusy; a request admitted calls the returned function when done.
func (g *Gate) Enter(ctx context.Context, client string) (func(), error) {
	_, done, err := g.enter(ctx, client)
	return done, err
}

// enter is Enter, answering also the slot the request holds.
func (g *Gate) enter(ctx context.Context, client string) (*hold, func(), error) {
	leave, err := g.admit(client)
	if err != nil {
		return nil, nil, err
	}
	h, err := g.take(ctx)
	if err != nil {
		leave()
		return nil, nil, err
	}
	return h, func() { h.release(); leave() }, nil
}

// admit counts one request of client, or fails with
// problem.ErrTooManyAtOnce when it has as many under way as one client
// may; leave uncounts it.
func (g *Gate) admit(client string) (leave func(), err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.clients[client] >= g.perClient {
		return nil, problem.ErrTooManyAtOnce
	}
	g.clients[client]++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.clients[client]--; g.clients[client] <= 0 {
			delete(g.clients, client)
		}
	}, nil
}

// slot waits its turn for one of the gate's slots, for the gate's wait at
// most (then problem.ErrBusy, as when too many wait already); release
// gives it back.
func (g *Gate) slot(ctx context.Context) (release func(), err error) {
	g.mu.Lock()
	if len(g.slots) == cap(g.slots) && g.waiting >= g.maxWaiting {
		g.mu.Unlock()
		return nil, problem.ErrBusy
	}
	g.waiting++
	g.mu.Unlock()
	timer := time.NewTimer(g.wait)
	defer timer.Stop()
	select {
	case g.slots <- struct{}{}:
	case <-timer.C:
		err = problem.ErrBusy
	case <-ctx.Done():
		err = ctx.Err()
	}
	g.mu.Lock()
	g.waiting--
	g.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return func() { <-g.slots }, nil
}

// hold is a slot of a gate one request holds. While the request waits for
// work shared with other readers (tournament.Pause: the snapshot read
// once per change) it gives the slot up, and takes it again after, so
// that the slot bounds the work under way rather than the waits: a room
// of phones queued behind one reader of the snapshot would otherwise wait
// out that read one after another.
type hold struct {
	g   *Gate
	ctx context.Context

	mu     sync.Mutex
	held   bool
	paused int // the request's waits under way
}

// take waits its turn for a slot of g (slot) and answers it held.
func (g *Gate) take(ctx context.Context) (*hold, error) {
	if _, err := g.slot(ctx); err != nil {
		return nil, err
	}
	return &hold{g: g, ctx: ctx, held: true}, nil
}

// pause gives the slot up for a wait; the function it returns takes it
// again once the request's last wait is over.
func (h *hold) pause() (resume func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.paused++; h.paused == 1 && h.held {
		<-h.g.slots
		h.held = false
	}
	return sync.OnceFunc(h.resume)
}

// resume takes the slot again after the request's waits. It is not
// refused as busy: the request was admitted, and may have made a change
// already; it waits for as long as its client does.
func (h *hold) resume() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.paused--; h.paused > 0 || h.held {
		return
	}
	select {
	case h.g.slots <- struct{}{}:
		h.held = true
	case <-h.ctx.Done():
	}
}

// release gives the slot back for good, if it is held.
func (h *hold) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		<-h.g.slots
		h.held = false
	}
}

// pausing is ctx carrying h's pause (tournament.WithPause).
func (h *hold) pausing(ctx context.Context) context.Context {
	return tournament.WithPause(ctx, h.pause)
}

// Pass lets the request through g, or refuses it with fail. The staff
// (an account's session or token, the API token) are not anonymous, and
// pass at once.
func (a *Auth) Pass(c *gin.Context, g *Gate, fail func(*gin.Context, error)) {
	if a.staffActor(c) != nil {
		c.Next()
		return
	}
	ctx := c.Request.Context()
	h, done, err := g.enter(ctx, ClientAddr(c))
	if err != nil {
		refuse(c, err, fail)
		return
	}
	defer done()
	c.Request = c.Request.WithContext(h.pausing(ctx))
	c.Next()
}

// PassShared is Pass for the routes that answer pages rendered once for
// everyone (render.Shared): a client's requests are counted as by Pass,
// but a slot of g is taken only for the real work, when a page must be
// rendered (Work), not to answer bytes made already. A room of phones
// fetching a page after a change then waits for one rendering, not for
// each other's copies of it.
func (a *Auth) PassShared(c *gin.Context, g *Gate, fail func(*gin.Context, error)) {
	if a.staffActor(c) != nil {
		c.Next()
		return
	}
	leave, err := g.admit(ClientAddr(c))
	if err != nil {
		refuse(c, err, fail)
		return
	}
	defer leave()
	c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), workKey{}, g))
	c.Next()
}

// workKey is the context key of the gate whose slot Work takes.
type workKey struct{}

// Work takes a slot of the gate the request passed (PassShared) for real
// work: a rendering, a read of the database. A judge's request, or one
// that passed no such gate, works at once. The work is done with the
// context answered, in which it gives the slot up while it waits for the
// snapshot (tournament.Pause); release gives the slot back.
func Work(ctx context.Context) (context.Context, func(), error) {
	g, ok := ctx.Value(workKey{}).(*Gate)
	if !ok {
		return ctx, func() {}, nil
	}
	h, err := g.take(ctx)
	if err != nil {
		return nil, nil, err
	}
	return h.pausing(ctx), h.release, nil
}

// refuse answers a request the gate did not admit.
func refuse(c *gin.Context, err error, fail func(*gin.Context, error)) {
	if errors.Is(err, context.Canceled) {
		c.Abort() // the client went away while waiting
		return
	}
	c.Header("Retry-After", strconv.Itoa(1))
	fail(c, err)
}
