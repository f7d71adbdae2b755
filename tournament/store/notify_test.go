package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// heard is what a listening store was told of the other servers.
type heard struct {
	mu       sync.Mutex
	changes  []tournament.AuditEntry
	settings int
	lost     int
	resyncs  int
	signal   chan struct{}
}

func newHeard() *heard { return &heard{signal: make(chan struct{}, 100)} }

func (h *heard) peers() store.Peers {
	note := func(f func()) {
		h.mu.Lock()
		f()
		h.mu.Unlock()
		h.signal <- struct{}{}
	}
	return store.Peers{
		Changed:  func(e tournament.AuditEntry) { note(func() { h.changes = append(h.changes, e) }) },
		Settings: func() { note(func() { h.settings++ }) },
		Lost:     func(error) { note(func() { h.lost++ }) },
		Resync:   func() { note(func() { h.resyncs++ }) },
	}
}

// waitFor waits until cond holds of what was heard, or fails.
func (h *heard) waitFor(t *testing.T, what string, cond func(h *heard) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		h.mu.Lock()
		ok := cond(h)
		h.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-h.signal:
		case <-deadline:
			t.Fatalf("not heard within 10s: %s", what)
		}
	}
}

// listening starts s listening until the test ends.
func listening(t *testing.T, s *store.Store, h *heard) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Listen(ctx, h.peers()) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Listen = %v, want context.Canceled", err)
		}
	})
}

// A server hears each change another server commits on the database, as
// it commits, with the tournament, action and audit ID, and never its own
// changes, nor a change rolled back; a logout or a setting changed on the
// other server tells it to read them again; each connection made is told
// as a resync, and a listening connection killed as lost, after which it
// connects and hears again. A quiet connection survives its checks.
func TestListenAcrossServers(t *testing.T) {
	store.SetListenTimings(t, 200*time.Millisecond, 10*time.Millisecond)
	ctx := context.Background()
	dsn := tournamenttest.NewPostgresDSN(t)
	a := tournamenttest.OpenDSN(t, dsn)
	b := tournamenttest.OpenDSN(t, dsn)
	h := newHeard()
	listening(t, a, h)
	// Listen has connected once a notice sent now is heard: a setting
	// from b, repeated until one arrives.
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := b.SetSetting(ctx, "probe", "1"); err != nil {
			t.Fatal(err)
		}
		h.mu.Lock()
		n := h.settings
		h.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the listener heard nothing within 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}

	tour := tournament.Tournament{Name: "x", Ruleset: preset(t), Rounds: 1, GameMinutes: 7}
	if err := b.CreateTournament(ctx, &tour, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, "b's tournament.create", func(h *heard) bool { return len(h.changes) == 1 })
	h.mu.Lock()
	got := h.changes[0]
	h.mu.Unlock()
	log, err := b.AuditLog(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	v, err := b.Version(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := (tournament.AuditEntry{ID: log[0].ID, TournamentID: tour.ID, Action: "tournament.create", Version: v}); got != want {
		t.Errorf("heard %+v, want %+v", got, want)
	}

	// a's own change, then one of b's refused (rolled back), then one of
	// b's: only the last is heard.
	add := func(s *store.Store, tid int64, name string) error {
		return s.AddPlayer(ctx, &tournament.Player{TournamentID: tid, Name: name}, tournament.Progress{}, change("player.add"))
	}
	if err := add(a, tour.ID, "A"); err != nil {
		t.Fatal(err)
	}
	if err := add(b, tour.ID+1000, "B"); err == nil {
		t.Fatal("AddPlayer to a missing tournament succeeded")
	}
	if err := add(b, tour.ID, "C"); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, "b's player.add", func(h *heard) bool { return len(h.changes) >= 2 })
	// A quiet connection is checked (every 200ms here) and stays.
	time.Sleep(time.Second)
	h.mu.Lock()
	if len(h.changes) != 2 || h.changes[1].Action != "player.add" || h.lost != 0 || h.resyncs != 1 {
		t.Errorf("heard %+v, %d losses and %d resyncs, want tournament.create, then b's player.add, no loss and the first connection's resync", h.changes, h.lost, h.resyncs)
	}
	h.mu.Unlock()

	// The listening connection is killed: lost, back, resynced, hearing.
	if err := store.Exec(b, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '"+store.ListenerName+"'"); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, "the loss and the resync", func(h *heard) bool { return h.lost == 1 && h.resyncs == 2 })
	if err := b.EndSession(ctx, "s1", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := add(b, tour.ID, "E"); err != nil {
		t.Fatal(err)
	}
	h.waitFor(t, "b's logout and player.add after the resync", func(h *heard) bool { return len(h.changes) == 3 && h.settings >= 2 })
}

// On SQLite, which one server alone uses, Listen refuses at once.
func TestListenSQLite(t *testing.T) {
	dsn, err := store.FileDSN(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := tournamenttest.OpenDSN(t, dsn)
	if err := s.Listen(context.Background(), store.Peers{}); err == nil {
		t.Error("Listen on SQLite = nil, want an error")
	}
}

// Two servers starting at once on an empty database add a setting each:
// both end up with the one value stored.
func TestAddSettingRace(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			var dsn string
			if engine == "postgres" {
				dsn = tournamenttest.NewPostgresDSN(t)
			} else {
				var err error
				if dsn, err = store.FileDSN(t.TempDir()); err != nil {
					t.Fatal(err)
				}
			}
			stores := []*store.Store{tournamenttest.OpenDSN(t, dsn), tournamenttest.OpenDSN(t, dsn)}
			for round := range 20 {
				key := "k" + string(rune('a'+round))
				got := make([]string, len(stores))
				var wg sync.WaitGroup
				for i, s := range stores {
					wg.Go(func() {
						v, err := s.AddSetting(context.Background(), key, string(rune('0'+i)))
						if err != nil {
							t.Error(err)
						}
						got[i] = v
					})
				}
				wg.Wait()
				stored, err := stores[0].GetSetting(context.Background(), key)
				if err != nil {
					t.Fatal(err)
				}
				if got[0] != stored || got[1] != stored {
					t.Fatalf("AddSetting(%s) = %q and %q, stored %q: want the stored value twice", key, got[0], got[1], stored)
				}
			}
		})
	}
}
