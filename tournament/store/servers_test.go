package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// servers are two stores on one database: two servers of one event, whose
// write queues know nothing of each other.
func servers(t *testing.T) (fixture, *store.Store) {
	t.Helper()
	dsn := tournamenttest.NewDSN(t)
	f := newFixtureOn(t, tournamenttest.OpenDSN(t, dsn), 16, 4, 4, 4, 4)
	return f, tournamenttest.OpenDSN(t, dsn)
}

// Judges on two servers save the same version of one table at once:
// exactly one wins, every other save is a *ConflictError holding the
// winner; then each saves on top of what it last saw until every judge has
// had several revisions accepted, and none of them is lost.
func TestSaveResultRaceAcrossServers(t *testing.T) {
	ctx := context.Background()
	f, other := servers(t)
	stores := []*store.Store{f.s, other}
	table := f.round.Tables[0]
	sheet := func(judge string, vp int) tournament.Result {
		r := tournament.Result{EndedBy: tournament.EndedByTime, Judge: judge, At: t0, Reason: "recount"}
		for i, p := range table.Players {
			r.Scores = append(r.Scores, tournament.Score{PlayerID: p, VP: (vp + i) % 11})
		}
		return r
	}
	raceFirstSave(t, table, stores...)

	// Every judge corrects the sheet on top of the latest revision it saw,
	// until three of its own are accepted.
	const judges = 8
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	acked := map[int]string{} // version → judge
	for j := range judges {
		wg.Go(func() {
			judge := fmt.Sprintf("judge-%d", j)
			s := stores[j%2]
			seen, mine := 1, 0
			for try := 0; mine < 3; try++ {
				if try == 200 {
					t.Errorf("%s: 200 tries for 3 revisions", judge)
					return
				}
				r := sheet(judge, try)
				err := s.SaveResult(ctx, table.ID, seen, &r, tournament.Change{Judge: judge, At: t0, Action: "result.correct"})
				var ce *tournament.ConflictError
				switch {
				case err == nil:
					mu.Lock()
					if prev, ok := acked[r.Version]; ok {
						t.Errorf("version %d acknowledged to %s and to %s", r.Version, prev, judge)
					}
					acked[r.Version] = judge
					mu.Unlock()
					seen, mine = r.Version, mine+1
				case errors.As(err, &ce):
					seen = ce.Current.Version
				default:
					t.Errorf("%s: %v", judge, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, s := range stores {
		revs, err := s.Revisions(ctx, table.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(revs) != 1+len(acked) {
			t.Errorf("%d revisions stored, want 1 + the %d acknowledged", len(revs), len(acked))
		}
		for i, r := range revs {
			if want := acked[r.Version]; i > 0 && r.Judge != want {
				t.Errorf("revision %d by %s, but it was acknowledged to %s", r.Version, r.Judge, want)
			}
		}
		log, err := s.AuditLog(ctx, f.t.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := countAction(log, "result.save") + countAction(log, "result.correct"); got != len(revs) {
			t.Errorf("%d result audit lines for %d revisions, want one each", got, len(revs))
		}
	}
}

// Judges on two servers fix players to one table at once: the decision
// "the table has room" is made inside each write, and holds across the
// servers, so the table never takes more than tournament.MaxFixedPerTable.
func TestFixedTableRaceAcrossServers(t *testing.T) {
	ctx := context.Background()
	f, other := servers(t)
	stores := []*store.Store{f.s, other}
	for range 3 {
		var (
			wg   sync.WaitGroup
			mu   sync.Mutex
			wins int
		)
		for i, id := range f.players {
			wg.Go(func() {
				s := stores[i%2]
				before, err := s.Player(ctx, id)
				if err != nil {
					t.Error(err)
					return
				}
				after := before
				after.FixedTable = 1
				err = s.UpdatePlayer(ctx, before, after, nil, change("player.fix"))
				var v *referee.Violation
				switch {
				case err == nil:
					mu.Lock()
					wins++
					mu.Unlock()
				case !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || v.Code != "fixed-table-full":
					t.Errorf("UpdatePlayer(fix player %d to table 1) error = %v, want nil or fixed-table-full", id, err)
				}
			})
		}
		wg.Wait()
		players, err := other.Players(ctx, f.t.ID)
		if err != nil {
			t.Fatal(err)
		}
		fixed := 0
		for _, p := range players {
			if p.FixedTable == 1 {
				fixed++
			}
		}
		if fixed != tournament.MaxFixedPerTable || wins != fixed {
			t.Fatalf("%d players fixed to table 1 (%d writes won), want %d", fixed, wins, tournament.MaxFixedPerTable)
		}
		// Free the table for the next go.
		for _, p := range players {
			if p.FixedTable == 1 {
				free := p
				free.FixedTable = 0
				if err := f.s.UpdatePlayer(ctx, p, free, nil, change("player.fix")); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// A tournament closed on one server refuses a correction sent to the other
// at the same moment, or the correction lands before the close: never
// after it. The audit log orders them.
func TestCloseRaceAcrossServers(t *testing.T) {
	ctx := context.Background()
	f, other := servers(t)
	for _, table := range f.round.Tables {
		r := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "judge-a", At: t0}
		for _, p := range table.Players {
			r.Scores = append(r.Scores, tournament.Score{PlayerID: p, VP: 5})
		}
		if err := f.s.SaveResult(ctx, table.ID, 0, &r, change("result.save")); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var closeErr error
	saveErrs := make([]error, len(f.round.Tables))
	wg.Go(func() {
		closeErr = f.s.SetClosed(ctx, f.t.ID, &tournament.Closure{Judge: "judge-a", At: t0}, change(tournament.ActionClose))
	})
	for i, table := range f.round.Tables {
		wg.Go(func() {
			r := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "judge-b", At: t0, Reason: "recount"}
			for _, p := range table.Players {
				r.Scores = append(r.Scores, tournament.Score{PlayerID: p, VP: 6})
			}
			saveErrs[i] = other.SaveResult(ctx, table.ID, 1, &r, change("result.correct"))
		})
	}
	wg.Wait()
	if closeErr != nil {
		t.Fatal(closeErr)
	}
	var closedAt int64
	log, err := other.AuditLog(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if e.Action == tournament.ActionClose {
			closedAt = e.ID
		}
	}
	corrected := 0
	for _, e := range log {
		if e.Action == "result.correct" {
			corrected++
			if e.ID > closedAt {
				t.Errorf("a correction (audit line %d) was written after the close (line %d)", e.ID, closedAt)
			}
		}
	}
	refused := 0
	for i, err := range saveErrs {
		var v *referee.Violation
		switch {
		case err == nil:
		case errors.As(err, &v) && v.Code == "tournament-finished":
			refused++
		default:
			t.Errorf("table %d: correction error = %v, want nil or tournament-finished", i+1, err)
		}
	}
	if corrected+refused != len(f.round.Tables) {
		t.Errorf("%d corrections written and %d refused, want %d in all", corrected, refused, len(f.round.Tables))
	}
}
