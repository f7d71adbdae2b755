package auth

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// The gate admits two requests of one client at once and refuses a third
// at once; over all clients it computes as many at once as it has slots,
// queues a few more for a while, and refuses the rest as busy.
func TestComputeGate(t *testing.T) {
	// A wait long enough for the second request below to outlast the
	// checks made while it waits, on a loaded machine too.
	g := NewGate(2, 1, 1, 2*time.Second)
	ctx := context.Background()
	a1, err := g.Enter(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	// a's second request waits for the one slot, and gives up busy.
	if _, err := g.Enter(ctx, "a"); !errors.Is(err, problem.ErrBusy) {
		t.Errorf("a second request while the slot is taken = %v after waiting, want problem.ErrBusy", err)
	}
	var wg sync.WaitGroup
	got := make(chan func(), 1)
	wg.Go(func() {
		done, err := g.Enter(ctx, "a")
		if err != nil {
			t.Errorf("a's second request, the slot freed meanwhile: %v", err)
		}
		got <- done // nil when refused, so that the test fails, not hangs
	})
	// Wait for the state, not for time: the request is queued.
	for queued := false; !queued; {
		g.mu.Lock()
		queued = g.waiting == 1
		g.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	if _, err := g.Enter(ctx, "a"); !errors.Is(err, problem.ErrTooManyAtOnce) {
		t.Errorf("a's third request at once = %v, want problem.ErrTooManyAtOnce", err)
	}
	if _, err := g.Enter(ctx, "b"); !errors.Is(err, problem.ErrBusy) {
		t.Errorf("b's request with the queue full = %v, want problem.ErrBusy at once", err)
	}
	a1()
	wg.Wait()
	if done := <-got; done != nil {
		done()
	} else {
		t.FailNow()
	}
	b, err := g.Enter(ctx, "b")
	if err != nil {
		t.Fatalf("b's request with the slot free: %v", err)
	}
	b()
	if len(g.clients) != 0 || g.waiting != 0 || len(g.slots) != 0 {
		t.Errorf("after every request: clients %v, waiting %d, slots taken %d; want none", g.clients, g.waiting, len(g.slots))
	}
}

// A request for a page rendered once for everyone (PassShared) is counted
// against its client, but takes a slot only for real work (Work): with
// every slot taken, copies are still answered, and a rendering waits its
// turn, then is refused as busy like any request.
func TestSharedPagesTakeASlotOnlyToRender(t *testing.T) {
	g := NewGate(2, 1, 0, 50*time.Millisecond)
	busy, err := g.Enter(context.Background(), "renderer")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := g.admit("phone"); err != nil {
			t.Fatalf("a copy with every slot taken: %v, want it admitted", err)
		}
	}
	if _, err := g.admit("phone"); !errors.Is(err, problem.ErrTooManyAtOnce) {
		t.Errorf("a third request of one client at once = %v, want problem.ErrTooManyAtOnce", err)
	}
	ctx := context.WithValue(context.Background(), workKey{}, g)
	if _, _, err := Work(ctx); !errors.Is(err, problem.ErrBusy) {
		t.Errorf("a rendering with every slot taken and no room to wait = %v, want problem.ErrBusy", err)
	}
	busy()
	_, release, err := Work(ctx)
	if err != nil {
		t.Fatalf("a rendering with the slot free: %v", err)
	}
	if len(g.slots) != 1 {
		t.Errorf("a rendering holds %d slots, want 1", len(g.slots))
	}
	release()
	if _, release, err := Work(context.Background()); err != nil {
		t.Errorf("work outside any gate (a judge's) = %v, want it done at once", err)
	} else {
		release()
	}
}

// A request holding a slot gives it up while it waits for the snapshot
// (tournament.Pause), so that another request works meanwhile, and takes
// it again after without being refused as busy, however long it waits
// for it; the slot is given back once when the request is done.
func TestASlotIsGivenUpWhileWaitingForTheSnapshot(t *testing.T) {
	g := NewGate(6, 1, 0, 20*time.Millisecond)
	ctx := context.Background()
	h, done, err := g.enter(ctx, "phone-a")
	if err != nil {
		t.Fatal(err)
	}
	waiting := h.pausing(ctx)
	resume := tournament.Pause(waiting)
	if len(g.slots) != 0 {
		t.Fatalf("waiting for the snapshot, the request holds %d slots, want none", len(g.slots))
	}
	other, err := g.Enter(ctx, "phone-b")
	if err != nil {
		t.Fatalf("another request while the first waits for the snapshot: %v, want it admitted", err)
	}
	back := make(chan struct{})
	go func() { resume(); close(back) }()
	time.Sleep(3 * g.wait)
	select {
	case <-back:
		t.Fatal("the first request took a slot back while the other held the only one")
	default:
	}
	other()
	<-back
	if len(g.slots) != 1 {
		t.Errorf("after the wait the request holds %d slots, want 1", len(g.slots))
	}
	resume() // a resume called twice takes nothing more
	if _, err := g.Enter(ctx, "phone-c"); !errors.Is(err, problem.ErrBusy) {
		t.Errorf("a request while the first works again = %v, want problem.ErrBusy", err)
	}
	done()
	if len(g.slots) != 0 || len(g.clients) != 0 {
		t.Errorf("after the request: slots taken %d, clients %v; want none", len(g.slots), g.clients)
	}
	// Work's context pauses the same way.
	wctx, release, err := Work(context.WithValue(ctx, workKey{}, g))
	if err != nil {
		t.Fatal(err)
	}
	resume = tournament.Pause(wctx)
	if len(g.slots) != 0 {
		t.Errorf("a rendering waiting for the snapshot holds %d slots, want none", len(g.slots))
	}
	resume()
	release()
	if len(g.slots) != 0 {
		t.Errorf("after the rendering: %d slots taken, want none", len(g.slots))
	}
}
