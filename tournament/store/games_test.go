package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// addMove appends m as move number of table's record on s.
func addMove(s *store.Store, table int64, number int, m game.MoveSpec) error {
	gm := tournament.GameMove{Number: number, Move: m, Judge: "judge-a", At: t0}
	return s.AddGameMove(context.Background(), table, &gm, change(tournament.ActionGameMove))
}

// A recorded game's moves read back as they were written, every field the
// engine reads apart kept apart: a list or map given empty is not one left
// out (a road building card with no road left, a trade of nothing).
func TestGameMovesRoundTrip(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	table := f.round.Tables[0].ID
	want := []game.MoveSpec{
		{Do: "place", Settlement: "N(0,0)", Road: []string{"N(0,0)", "S(1,-1)"}},
		{Do: "roll", Dice: []int{6, 1}},
		{Do: "discard", Player: "7", Cards: map[string]int{"ore": 2, "wool": 1}},
		{Do: "robber", Hex: &referee.Hex{Q: -1, R: 2}, Rob: "8", Took: "wool"},
		{Do: "trade", With: "9", Give: map[string]int{"wool": 1}, Get: map[string]int{}},
		{Do: "bank", Give: map[string]int{"brick": 4}, Get: map[string]int{"ore": 1}},
		{Do: "build", City: "N(0,0)"},
		{Do: "buy", Card: "point"},
		{Do: "play", Dev: "road_building", Roads: [][]string{}},
		{Do: "play", Dev: "harvest", Take: map[string]int{"ore": 2}},
		{Do: "play", Dev: "monopoly", Resource: "grain"},
		{Do: "declare"},
	}
	for i, m := range want {
		if err := addMove(f.s, table, i+1, m); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	got, err := f.s.GameMoves(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	var specs []game.MoveSpec
	for i, m := range got {
		if m.Number != i+1 || m.Judge != "judge-a" || !m.At.Equal(t0) {
			t.Errorf("move %d = %+v, want number %d by judge-a at %v", i, m, i+1, t0)
		}
		specs = append(specs, m.Move)
	}
	if diff := cmp.Diff(want, specs); diff != "" {
		t.Errorf("GameMoves() differs (-written +read):\n%s", diff)
	}
	if got[8].Move.Roads == nil || got[4].Move.Get == nil || got[0].Move.Cards != nil {
		t.Errorf("empty and absent fields were confused: %+v, %+v, %+v", got[8].Move.Roads, got[4].Move.Get, got[0].Move.Cards)
	}
	r, err := f.s.Round(ctx, f.t.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tables[0].Moves != len(want) {
		t.Errorf("Round() says table 1 has %d moves, want %d", r.Tables[0].Moves, len(want))
	}
}

// A move is stored only as the next of the record: one numbered otherwise
// is a *StaleError naming the record's moves and who entered the last; an
// undo takes only the last move; the record locks the table's seating and
// board; a result saved from it is refused once the record has changed.
func TestGameMovesStale(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	table := f.round.Tables[0]
	roll := game.MoveSpec{Do: "roll", Dice: []int{2, 3}}
	for n := 1; n <= 3; n++ {
		if err := addMove(f.s, table.ID, n, roll); err != nil {
			t.Fatal(err)
		}
	}
	stale := func(what string, err error, current int) {
		t.Helper()
		var se *tournament.StaleError
		if !errors.As(err, &se) || se.Record != tournament.RecordGame || se.Current != current || se.Judge != "judge-a" {
			t.Errorf("%s = %v, want a stale record of %d moves by judge-a", what, err, current)
		}
	}
	stale("AddGameMove(3 again)", addMove(f.s, table.ID, 3, roll), 3)
	stale("AddGameMove(5)", addMove(f.s, table.ID, 5, roll), 3)
	stale("UndoGameMove(2)", f.s.UndoGameMove(ctx, table.ID, 2, change(tournament.ActionGameUndo)), 3)
	if err := f.s.UndoGameMove(ctx, table.ID, 3, change(tournament.ActionGameUndo)); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.s.GameMoves(ctx, table.ID); len(got) != 2 {
		t.Errorf("after the undo the record has %d moves, want 2", len(got))
	}

	seating := tournament.Seating{Judge: "judge-a", At: t0}
	for i, p := range table.Players {
		seating.Seats = append(seating.Seats, tournament.Seat{PlayerID: p, Order: i + 1, Color: referee.Red})
	}
	var v *referee.Violation
	if err := f.s.SetSeating(ctx, table.ID, &seating, nil, change("table.seat")); !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || v.Code != "table-has-game" {
		t.Errorf("SetSeating(a table with a record) = %v, want the conflict table-has-game", err)
	}

	r := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "judge-a", At: t0, GameMoves: 3}
	for _, p := range table.Players {
		r.Scores = append(r.Scores, tournament.Score{PlayerID: p, VP: 2})
	}
	stale("SaveResult(from 3 moves)", f.s.SaveResult(ctx, table.ID, 0, &r, change("result.save")), 2)
	r.GameMoves = 2
	if err := f.s.SaveResult(ctx, table.ID, 0, &r, change("result.save")); err != nil {
		t.Fatal(err)
	}
	revs, err := f.s.Revisions(ctx, table.ID)
	if err != nil || len(revs) != 1 || revs[0].GameMoves != 2 {
		t.Errorf("Revisions() = %+v, %v; want one from 2 moves", revs, err)
	}
}

// Judges on two servers append to one record at once, each on the record
// as it last saw it: every number is stored once, none is skipped, and
// each move has its audit line.
func TestGameMoveRaceAcrossServers(t *testing.T) {
	ctx := context.Background()
	f, other := servers(t)
	stores := []*store.Store{f.s, other}
	table := f.round.Tables[0].ID
	const judges = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored := map[int]string{}
	for j := range judges {
		wg.Go(func() {
			judge := fmt.Sprintf("judge-%d", j)
			s := stores[j%2]
			seen, mine := 0, 0
			for try := 0; mine < 3; try++ {
				if try == 200 {
					t.Errorf("%s: 200 tries for 3 moves", judge)
					return
				}
				gm := tournament.GameMove{Number: seen + 1, Move: game.MoveSpec{Do: "end_turn", Player: judge}, Judge: judge, At: t0}
				err := s.AddGameMove(ctx, table, &gm, tournament.Change{Judge: judge, At: t0, Action: tournament.ActionGameMove})
				var se *tournament.StaleError
				switch {
				case err == nil:
					mu.Lock()
					if prev, ok := stored[gm.Number]; ok {
						t.Errorf("move %d acknowledged to %s and to %s", gm.Number, prev, judge)
					}
					stored[gm.Number] = judge
					mu.Unlock()
					seen, mine = gm.Number, mine+1
				case errors.As(err, &se):
					seen = se.Current
				default:
					t.Errorf("%s: %v", judge, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, s := range stores {
		moves, err := s.GameMoves(ctx, table)
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != judges*3 {
			t.Errorf("%d moves stored, want the %d acknowledged", len(moves), judges*3)
		}
		for i, m := range moves {
			if m.Number != i+1 || m.Judge != stored[m.Number] || m.Move.Player != m.Judge {
				t.Errorf("move %d = %+v, acknowledged to %s", i+1, m, stored[m.Number])
			}
		}
		log, err := s.AuditLog(ctx, f.t.ID)
		if err != nil {
			t.Fatal(err)
		}
		if n := countAction(log, tournament.ActionGameMove); n != len(moves) {
			t.Errorf("%d audit lines for %d moves, want one each", n, len(moves))
		}
	}
}
