// Package tournamenttest provides the tournament.Service of tests: a real
// store (SQLite in the test's temporary directory, or a PostgreSQL database
// of its own: database.go), the built-in rulesets,
// and seeds that count up from 1, so that every pairing, seating and board
// of a test is the same on every run. It is to package tournament what
// net/http/httptest is to net/http; only tests import it.
package tournamenttest

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// NewService returns a service over a new store (NewStore) with the
// built-in rulesets, the clock now and seeds 1, 2, 3, ... A WithSeeds in
// opts replaces those seeds. The store is returned too, for the tests that
// read it or hand it to the web layer as its settings.
func NewService(t testing.TB, now func() time.Time, opts ...tournament.Option) (*tournament.Service, *store.Store) {
	t.Helper()
	st := NewStore(t)
	return NewServiceOn(t, st, now, opts...), st
}

// NewServiceOn returns a service over st, as NewService does: for a store
// opened with options (store.WithAfterCommit) or shared by two services.
func NewServiceOn(t testing.TB, st tournament.Store, now func() time.Time, opts ...tournament.Option) *tournament.Service {
	t.Helper()
	opts = append([]tournament.Option{tournament.WithSeeds(Seeds())}, opts...)
	return tournament.NewService(st, Rulesets(t), now, opts...)
}

// NewStore opens a store on a new database of the tests' engine (NewDSN),
// closed when the test ends.
func NewStore(t testing.TB, opts ...store.Option) *store.Store {
	t.Helper()
	return OpenDSN(t, NewDSN(t), opts...)
}

// OpenStore opens the store of the data folder dir (a running server's,
// say), closed when the test ends.
func OpenStore(t testing.TB, dir string, opts ...store.Option) *store.Store {
	t.Helper()
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), dsn, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Rulesets returns the built-in rulesets (config.LoadRulesets).
func Rulesets(t testing.TB) *config.Rulesets {
	t.Helper()
	rs, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// Seeds returns a source of seeds counting up from 1, safe for concurrent
// use (a web test's requests draw seeds from several goroutines).
func Seeds() func() uint64 {
	var n atomic.Uint64
	return func() uint64 { return n.Add(1) }
}

// Clock returns a clock that reads start plus step at the first call, and
// step more at each call after, so that every change a test makes has its
// own time; a step of 0 stops the clock at start. It is safe for
// concurrent use.
func Clock(start time.Time, step time.Duration) func() time.Time {
	var mu sync.Mutex
	at := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(step)
		return at
	}
}

// Damage overwrites every page after the first two of the database in the
// data folder dir, as a failing disk or a stray write would, after moving
// what the write-ahead log holds into it, so that SQLite reads the damage.
// A store may be open on it: its next reads of those pages fail.
func Damage(t testing.TB, dir string) {
	t.Helper()
	db, err := sql.Open("sqlite3", store.DatabaseFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(store.DatabaseFile(dir), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() <= 8192 {
		t.Fatalf("the database of %s has %d bytes: too few pages to damage", dir, info.Size())
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte("Z"), int(info.Size())-8192), 8192); err != nil {
		t.Fatal(err)
	}
}

// SwapAddingRepeat finds a swap of a player of round n's table 1 with one
// of its table 2 that makes players meet again (Service.CheckSwap), and
// fails the test when there is none: the case a judge is asked to confirm.
func SwapAddingRepeat(t testing.TB, svc *tournament.Service, tid int64, n int) (a, b int64, added []tournament.Repeat) {
	t.Helper()
	rv, err := svc.RoundView(context.Background(), tid, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range rv.Round.Tables[0].Players {
		for _, y := range rv.Round.Tables[1].Players {
			rs, err := svc.CheckSwap(context.Background(), tid, n, x, y)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) > 0 {
				return x, y, rs
			}
		}
	}
	t.Fatalf("no swap between round %d's tables 1 and 2 makes a repeat meeting", n)
	return 0, 0, nil
}
