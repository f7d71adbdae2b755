package live

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// receive drains ch without waiting and reports whether it was closed.
func receive(ch <-chan Event) (got []Event, closed bool) {
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return got, true
			}
			got = append(got, e)
		default:
			return got, false
		}
	}
}

func TestBrokerFansOutPerTournament(t *testing.T) {
	b := NewBroker(4, 0)
	a1, cancelA1, _ := b.Subscribe(1, "client")
	a2, cancelA2, _ := b.Subscribe(1, "client")
	other, cancelOther, _ := b.Subscribe(2, "client")
	defer cancelA1()
	defer cancelA2()
	defer cancelOther()
	b.Publish(1, Event{Kind: "result", Version: 7})
	for i, ch := range []<-chan Event{a1, a2} {
		if got, closed := receive(ch); len(got) != 1 || got[0].Version != 7 || closed {
			t.Errorf("subscriber %d of tournament 1 got %v (closed %v), want the one event", i+1, got, closed)
		}
	}
	if got, _ := receive(other); len(got) != 0 {
		t.Errorf("the subscriber of tournament 2 got %v, want nothing", got)
	}
}

// A subscriber that does not keep up is dropped, not waited for: the
// publisher (a judge saving a result) never blocks, and the others go on.
func TestBrokerDropsSlowSubscribers(t *testing.T) {
	b := NewBroker(2, 0)
	slow, cancelSlow, _ := b.Subscribe(1, "client")
	fast, cancelFast, _ := b.Subscribe(1, "client")
	defer cancelSlow()
	defer cancelFast()
	var fastGot []Event
	for v := range int64(5) {
		b.Publish(1, Event{Kind: "clock", Version: v + 1})
		got, closed := receive(fast)
		if closed {
			t.Fatalf("the fast subscriber was dropped after event %d", v+1)
		}
		fastGot = append(fastGot, got...)
	}
	if len(fastGot) != 5 {
		t.Errorf("the fast subscriber got %d events, want 5", len(fastGot))
	}
	got, closed := receive(slow)
	if !closed || len(got) != 2 {
		t.Errorf("the slow subscriber got %d events, closed %v; want its 2 buffered, then closed", len(got), closed)
	}
	if n := b.Subscribers(); n != 1 {
		t.Errorf("Subscribers() = %d after the drop, want 1", n)
	}
	cancelSlow() // after the drop: a no-op, not a double close
}

func TestBrokerCancel(t *testing.T) {
	b := NewBroker(0, 0)
	ch, cancel, err := b.Subscribe(3, "client")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	cancel()
	if _, closed := receive(ch); !closed {
		t.Error("the channel is open after cancel")
	}
	if n := b.Subscribers(); n != 0 {
		t.Errorf("Subscribers() = %d after cancel, want 0", n)
	}
	b.Publish(3, Event{Kind: "result"}) // nobody listens: nothing happens
}

func TestBrokerLimit(t *testing.T) {
	b := NewBroker(0, 2)
	_, c1, _ := b.Subscribe(1, "client")
	_, c2, _ := b.Subscribe(2, "client")
	if _, _, err := b.Subscribe(1, "client"); !errors.Is(err, problem.ErrBusy) {
		t.Fatalf("a third subscriber with room for 2: error = %v, want problem.ErrBusy", err)
	}
	c1()
	if _, c3, err := b.Subscribe(1, "client"); err != nil {
		t.Errorf("after a cancel: error = %v, want room again", err)
	} else {
		c3()
	}
	c2()
}

// The hook the store calls after a commit publishes the audit entry's
// subject as the kind and its ID as the version; changes outside any
// tournament are not published, but change Version(0), which the reads
// that show people of the registry depend on.
func TestBrokerCommitted(t *testing.T) {
	b := NewBroker(0, 0)
	ch, cancel, _ := b.Subscribe(5, "client")
	defer cancel()
	before := b.Version(0)
	b.Committed(tournament.AuditEntry{ID: 41, TournamentID: 0, Action: "person.merge"})
	if b.Version(0) == before {
		t.Errorf("Version(0) = %d after a change outside any tournament, the same as before", before)
	}
	b.Committed(tournament.AuditEntry{ID: 42, TournamentID: 5, Action: "result.correct"})
	got, _ := receive(ch)
	if len(got) != 1 || got[0] != (Event{Kind: "result", Action: "result.correct", Version: 42}) {
		t.Errorf("published %v, want one result event of version 42", got)
	}
}

// Many publishers, subscribers and cancellations at once: run with -race.
// Nothing is left running afterwards.
func TestBrokerConcurrent(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	b := NewBroker(4, 0)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			ch, cancel, err := b.Subscribe(int64(i%3), fmt.Sprint("client", i))
			if err != nil {
				t.Error(err)
				return
			}
			for range 20 {
				select {
				case _, ok := <-ch:
					if !ok {
						return // dropped
					}
				default:
				}
			}
			cancel()
		})
		wg.Go(func() {
			for v := range 20 {
				b.Publish(int64(i%3), Event{Kind: "clock", Version: int64(v)})
			}
		})
	}
	wg.Wait()
	if n := b.Subscribers(); n != 0 {
		t.Errorf("Subscribers() = %d after everyone left, want 0", n)
	}
}

// One client address holds a few live feeds at most, so that it cannot
// take every slot and lock the phones out; a feed given up frees its slot.
func TestBrokerBoundsFeedsPerClient(t *testing.T) {
	b := NewBroker(0, 10)
	var cancels []func()
	for i := range DefaultPerClient {
		_, cancel, err := b.Subscribe(int64(i%2+1), "10.0.0.1")
		if err != nil {
			t.Fatalf("feed %d of one client: %v", i+1, err)
		}
		cancels = append(cancels, cancel)
	}
	if _, _, err := b.Subscribe(1, "10.0.0.1"); !errors.Is(err, problem.ErrTooManyFeeds) {
		t.Fatalf("feed %d of one client = %v, want problem.ErrTooManyFeeds", DefaultPerClient+1, err)
	}
	_, other, err := b.Subscribe(1, "10.0.0.2")
	if err != nil {
		t.Fatalf("another client: %v", err)
	}
	defer other()
	cancels[0]()
	_, again, err := b.Subscribe(1, "10.0.0.1")
	if err != nil {
		t.Fatalf("a feed after one was given up: %v", err)
	}
	defer again()
	for _, c := range cancels[1:] {
		c()
	}
	if n := b.Subscribers(); n != 2 {
		t.Errorf("Subscribers() = %d, want 2", n)
	}
}

// A tournament's version changes with every change published, whatever
// order their IDs arrive in (other servers' commits arrive in commit
// order), and with every resync; while other servers go unheard every
// call returns a new version, so no read is shared.
func TestBrokerVersion(t *testing.T) {
	b := NewBroker(0, 0)
	seen := map[int64]bool{}
	fresh := func(what string, v int64) {
		t.Helper()
		if seen[v] {
			t.Errorf("%s: version %d seen before, want a new one", what, v)
		}
		seen[v] = true
	}
	fresh("none", b.Version(1))
	b.Committed(tournament.AuditEntry{ID: 11, TournamentID: 1, Action: "result.save"})
	v := b.Version(1)
	fresh("after 11", v)
	if b.Version(1) != v {
		t.Error("the version moved without a change")
	}
	b.Committed(tournament.AuditEntry{ID: 10, TournamentID: 1, Action: "result.save"}) // committed after 11
	fresh("after 10", b.Version(1))
	other := b.Version(2)
	b.Committed(tournament.AuditEntry{ID: 12, TournamentID: 1, Action: "clock.start"})
	if b.Version(2) != other {
		t.Error("a change of tournament 1 moved tournament 2's version")
	}
	b.Lost()
	fresh("lost, first", b.Version(2))
	fresh("lost, second", b.Version(2))
	b.Resync()
	v = b.Version(2)
	fresh("resynced", v)
	if b.Version(2) != v {
		t.Error("the version moved without a change after the resync")
	}
}

// A resync tells every page of every tournament to fetch its state
// afresh, with an event of no version.
func TestBrokerResync(t *testing.T) {
	b := NewBroker(0, 0)
	var chans []<-chan Event
	for tid := range int64(3) {
		ch, cancel, _ := b.Subscribe(tid+1, "client")
		defer cancel()
		chans = append(chans, ch)
	}
	b.Lost()
	b.Resync()
	for i, ch := range chans {
		got, closed := receive(ch)
		if want := (Event{Kind: Resync, Action: Resync}); len(got) != 1 || got[0] != want || closed {
			t.Errorf("tournament %d: got %v (closed %v), want one %v", i+1, got, closed, want)
		}
	}
}
