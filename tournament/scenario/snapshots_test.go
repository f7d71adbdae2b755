package scenario_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// eventCounter counts the snapshots' reads of the store: the whole
// event's (Event) and the version's (Version).
type eventCounter struct {
	*store.Store
	events, versions atomic.Int64
}

func (c *eventCounter) Event(ctx context.Context, tid int64) (tournament.EventRecord, error) {
	c.events.Add(1)
	return c.Store.Event(ctx, tid)
}

func (c *eventCounter) Version(ctx context.Context, tid int64) (int64, error) {
	c.versions.Add(1)
	return c.Store.Version(ctx, tid)
}

// take returns the reads counted since the last take.
func (c *eventCounter) take() (events, versions int64) {
	return c.events.Swap(0), c.versions.Swap(0)
}

// sheet is a first score sheet of a table, ended by the judge.
func sheet(tb tournament.Table) tournament.ResultInput {
	in := tournament.ResultInput{Reason: "ジャッジが終了"}
	for i, id := range tb.Players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: 9 - i})
	}
	return in
}

// The readers of a tournament share one read of it until it changes: many
// at once wait for the one read, the next change is read once by the
// first reader after it, and the version moves with every change.
func TestSnapshotIsReadOncePerChange(t *testing.T) {
	st := &eventCounter{Store: tournamenttest.NewStore(t)}
	c := newConsoleOn(t, st.Store)
	c.Svc = tournamenttest.NewServiceOn(t, st, func() time.Time { return c.At })
	tour, _ := c.SetUp(8, 2)
	r1 := must(c.Svc.PairNextRound(c.Ctx, "judge", tour.ID)).OK(t)
	st.take()

	read := func(n int) []*tournament.Snapshot {
		out := make([]*tournament.Snapshot, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				out[i] = must(c.Svc.Snapshot(c.Ctx, tour.ID)).OK(t)
				must(out[i].RoundView(1, c.At)).OK(t)
				must(out[i].Standings()).OK(t)
			})
		}
		wg.Wait()
		return out
	}
	first := read(50)
	if events, versions := st.take(); events != 1 || versions != 0 {
		t.Errorf("50 readers at once read the event %d times and its version %d times, want once and never", events, versions)
	}
	for _, s := range first {
		if s != first[0] {
			t.Fatal("the readers were given different snapshots of one version")
		}
	}
	read(50)
	if events, versions := st.take(); events != 0 || versions != 0 {
		t.Errorf("50 readers after them read the event %d times and its version %d times, want none", events, versions)
	}

	must(c.Svc.SaveResult(c.Ctx, "judge", tour.ID, 1, 1, sheet(r1.Tables[0]))).OK(t)
	after := read(50)
	if events, versions := st.take(); events != 1 || versions != 0 {
		t.Errorf("50 readers after a change read the event %d times and its version %d times, want once and never", events, versions)
	}
	if after[0].Version() <= first[0].Version() {
		t.Errorf("the version after a change is %d, want more than %d", after[0].Version(), first[0].Version())
	}
	rv := must(after[0].RoundView(1, c.At)).OK(t)
	if rv.Tables[0].Result == nil {
		t.Error("the snapshot after the save has no result at table 1")
	}
	if old := must(first[0].RoundView(1, c.At)).OK(t); old.Tables[0].Result != nil {
		t.Error("the snapshot read before the save changed: it shows the result")
	}
}

// twoServers is two servers of one database (two stores on it): a judge's
// console on a, and b's service, whose reads of the store are counted; a
// tournament of 8 players with round 1 paired.
func twoServers(t *testing.T) (*console, *tournament.Service, *eventCounter, tournament.Tournament, tournament.Round) {
	t.Helper()
	dsn := tournamenttest.NewDSN(t)
	a := newConsoleOn(t, tournamenttest.OpenDSN(t, dsn))
	stB := &eventCounter{Store: tournamenttest.OpenDSN(t, dsn)}
	b := tournamenttest.NewServiceOn(t, stB, func() time.Time { return a.At })
	tour, _ := a.SetUp(8, 2)
	return a, b, stB, tour, must(a.Svc.PairNextRound(a.Ctx, "judge", tour.ID)).OK(t)
}

// Two servers on one database (two stores on it), the second deaf to the
// first's notices (no listener runs): a client that saw a version on the
// first is given at least that version by the second, which checks the
// store's version when it knows of none as new; a version no server gave
// costs one read of the version and is served the newest.
func TestReadYourWritesAcrossServers(t *testing.T) {
	a, b, stB, tour, r1 := twoServers(t)
	before := must(b.Snapshot(a.Ctx, tour.ID)).OK(t)

	// The judge saves on a: the request's client has seen the change.
	seen := tournament.NewSeen(nil)
	ctx := tournament.WithSeen(a.Ctx, seen)
	must(a.Svc.SaveResult(ctx, "judge", tour.ID, 1, 1, sheet(r1.Tables[0]))).OK(t)
	if seen.Version(tour.ID) <= before.Version() {
		t.Fatalf("the save's client saw version %d, want more than %d", seen.Version(tour.ID), before.Version())
	}
	if tournamenttest.OnPostgres() {
		// b has heard nothing: without what the client saw it serves
		// what it holds (which is why the client says).
		if rv := must(b.RoundView(a.Ctx, tour.ID, 1)).OK(t); rv.Tables[0].Result != nil {
			t.Fatal("b, deaf to a, shows a's save without being asked: the test proves nothing")
		}
	}
	stB.take()
	// The redirect lands on b.
	next := tournament.WithSeen(a.Ctx, tournament.NewSeen(seen.Versions()))
	rv := must(b.RoundView(next, tour.ID, 1)).OK(t)
	if rv.Tables[0].Result == nil {
		t.Errorf("b served a version older than the client saw: no result at table 1")
	}
	if events, _ := stB.take(); events != 1 {
		t.Errorf("b read the event %d times for the client, want once", events)
	}
	if got := must(b.Snapshot(next, tour.ID)).OK(t).Version(); got < seen.Version(tour.ID) {
		t.Errorf("b's snapshot for the client is version %d, below the %d it saw", got, seen.Version(tour.ID))
	}

	// A version nobody gave: one small read, the newest served, and no
	// more reads of the event for it.
	bogus := tournament.WithSeen(a.Ctx, tournament.NewSeen(map[int64]int64{tour.ID: 1 << 40}))
	stB.take()
	for range 3 {
		must(b.RoundView(bogus, tour.ID, 1)).OK(t)
	}
	if events, versions := stB.take(); events != 0 || versions != 3 {
		t.Errorf("3 reads asking for a version nobody gave read the event %d times and the version %d times, want none and 3", events, versions)
	}
}

// While the other servers go unheard (their notices' connection lost), no
// snapshot is taken as current: each reader checks the store's version,
// and the event is read again only when it moved; once heard again, each
// snapshot is checked once.
func TestUnheardServersCheckTheVersion(t *testing.T) {
	a, b, stB, tour, r1 := twoServers(t)
	must(b.Snapshot(a.Ctx, tour.ID)).OK(t)
	b.Snapshots().Lost()
	stB.take()
	for range 3 {
		must(b.Snapshot(a.Ctx, tour.ID)).OK(t)
	}
	if events, versions := stB.take(); events != 0 || versions != 3 {
		t.Errorf("3 reads while unheard read the event %d times and the version %d times, want none and 3", events, versions)
	}
	must(a.Svc.SaveResult(a.Ctx, "judge", tour.ID, 1, 1, sheet(r1.Tables[0]))).OK(t)
	if rv := must(b.RoundView(a.Ctx, tour.ID, 1)).OK(t); rv.Tables[0].Result == nil {
		t.Error("a read while unheard missed the other server's save")
	}
	if events, _ := stB.take(); events != 1 {
		t.Errorf("the read after the other server's save read the event %d times, want once", events)
	}
	b.Snapshots().Resync()
	for range 3 {
		must(b.Snapshot(a.Ctx, tour.ID)).OK(t)
	}
	if events, versions := stB.take(); events != 0 || versions != 1 {
		t.Errorf("3 reads once heard again read the event %d times and the version %d times, want none and once", events, versions)
	}
}

// A tournament deleted is no longer served from what was kept of it.
func TestDeletedTournamentIsNotServed(t *testing.T) {
	c := newConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge", tournament.TournamentInput{Name: "中止", Rounds: 1})).OK(t)
	must(c.Svc.GetTournament(c.Ctx, tour.ID)).OK(t)
	if err := c.Svc.DeleteTournament(c.Ctx, "judge", tour.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Svc.GetTournament(c.Ctx, tour.ID); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("GetTournament(deleted) error = %v, want ErrNotFound", err)
	}
}

// heldEvent blocks the snapshot's reads of the store until open is closed,
// saying on reading when one began.
type heldEvent struct {
	*store.Store
	reading chan struct{}
	open    chan struct{}
}

func (h *heldEvent) Event(ctx context.Context, tid int64) (tournament.EventRecord, error) {
	select {
	case h.reading <- struct{}{}:
	default:
	}
	<-h.open
	return h.Store.Event(ctx, tid)
}

// A reader waiting for a tournament's snapshot (reading it for everyone,
// or waiting for another's read) gives up what its request holds for the
// wait (tournament.Pause), and takes it again once the snapshot is there:
// a request holding one of a few places to work does not keep it while
// the store is read.
func TestSnapshotReadersPauseWhileTheyWait(t *testing.T) {
	st := &heldEvent{Store: tournamenttest.NewStore(t), reading: make(chan struct{}, 1), open: make(chan struct{})}
	c := newConsoleOn(t, st.Store)
	c.Svc = tournamenttest.NewServiceOn(t, st, func() time.Time { return c.At })
	tour, _ := c.SetUp(8, 2)
	var paused, resumed atomic.Int64
	ctx := tournament.WithPause(c.Ctx, func() func() {
		paused.Add(1)
		return func() { resumed.Add(1) }
	})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() { must(c.Svc.Snapshot(ctx, tour.ID)).OK(t) })
	}
	<-st.reading
	deadline := time.Now().Add(5 * time.Second)
	for paused.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if p, r := paused.Load(), resumed.Load(); p != 3 || r != 0 {
		t.Errorf("3 readers waiting for one read of the store: %d paused, %d resumed; want 3 paused, none resumed", p, r)
	}
	close(st.open)
	wg.Wait()
	if p, r := paused.Load(), resumed.Load(); p != 3 || r != 3 {
		t.Errorf("the snapshot read: %d paused, %d resumed; want every pause resumed", p, r)
	}
	// A snapshot kept is served with no wait, and no pause.
	must(c.Svc.Snapshot(ctx, tour.ID)).OK(t)
	if p := paused.Load(); p != 3 {
		t.Errorf("a snapshot kept served after %d pauses, want none more", p-3)
	}
}
