package scenario_test

import (
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// gameTable pairs a round of 4 players and sets up table 1 for a record:
// seated by the console and its board rolled.
func (c *console) gameTable() tournament.Tournament {
	c.T.Helper()
	tour, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(c.T)
	must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(c.T)
	must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 3, Blue: 5}})).OK(c.T)
	return tour
}

// record appends moves to table 1's record one by one, each on the record
// as it stands.
func (c *console) record(tour tournament.Tournament, judge string, moves ...game.MoveSpec) tournament.Game {
	c.T.Helper()
	g := must(c.Svc.Game(c.Ctx, tour.ID, 1, 1)).OK(c.T)
	for i, m := range moves {
		var err error
		g, _, err = c.Svc.AppendMove(c.Ctx, judge, tour.ID, 1, 1, tournament.MoveInput{Move: m, Expected: len(g.Moves)})
		if err != nil {
			c.T.Fatalf("move %d %+v: %v", i+1, m, err)
		}
	}
	return g
}

// countActions counts the audit entries of action.
func (c *console) countActions(tour tournament.Tournament, action string) int {
	c.T.Helper()
	n := 0
	for _, e := range must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(c.T) {
		if e.Action == action {
			n++
		}
	}
	return n
}

// A table carries a record once it has its play order and its board: until
// then the record says what is missing.
func TestGameNeedsSeatingAndBoard(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	for _, step := range []struct {
		code string
		then func()
	}{
		{"game-not-seated", func() {
			must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(t)
		}},
		{"game-no-board", func() {
			must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Auto: true})).OK(t)
		}},
	} {
		_, err := c.Svc.Game(c.Ctx, tour.ID, 1, 1)
		_, _, aerr := c.Svc.AppendMove(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.MoveInput{Move: tournamenttest.Placements[0]})
		var v *referee.Violation
		if !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || v.Code != step.code || !errors.Is(aerr, tournament.ErrConflict) {
			t.Fatalf("Game() = %v and AppendMove() = %v, want the conflict %s", err, aerr, step.code)
		}
		step.then()
	}
	g := must(c.Svc.Game(c.Ctx, tour.ID, 1, 1)).OK(t)
	if len(g.Moves) != 0 || g.State().Phase() != game.Setup || len(g.Players) != 4 || g.Evaluation == nil {
		t.Errorf("Game() = %d moves, phase %v, players %v; want an empty record at §4", len(g.Moves), g.State().Phase(), g.Players)
	}
}

// Moves are appended as the engine plays them: a move the rules refuse is
// said with its rule and section and never stored; a move entered on a
// record another judge has changed since is a stale conflict; the last
// move can be undone; every change is audited; and the record locks the
// table's seating and board.
func TestAppendMove(t *testing.T) {
	c := newConsole(t)
	tour := c.gameTable()
	g := c.record(tour, "judge-a", tournamenttest.Placements[:3]...)
	first := g.Players[0]
	if len(g.Moves) != 3 || g.Moves[2].Number != 3 || g.Moves[2].Judge != "judge-a" || g.State().Current() != 3 {
		t.Fatalf("after 3 placements: %d moves, the last %+v, player %d to place; want the 4th to place", len(g.Moves), g.Moves[2], g.State().Current())
	}

	tests := []struct {
		name     string
		in       tournament.MoveInput
		code     string // the engine's rule, or "" for a stale record
		section  string
		stale    int // the record's moves a stale refusal names
		wantName string
	}{
		{name: "distance rule", in: tournament.MoveInput{Expected: 3, Move: game.MoveSpec{Do: "place", Settlement: "N(0,-2)", Road: []string{"N(0,-2)", "S(1,-3)"}}},
			code: "distance-rule", section: "§4 ア"},
		{name: "not the placer", in: tournament.MoveInput{Expected: 3, Move: game.MoveSpec{Do: "roll", Dice: []int{3, 4}}},
			code: "placement-first", section: "§4"},
		{name: "another's turn", in: tournament.MoveInput{Expected: 3, Move: game.MoveSpec{Do: "place", Player: strconv.FormatInt(first, 10),
			Settlement: tournamenttest.Placements[3].Settlement, Road: tournamenttest.Placements[3].Road}}, code: "not-your-turn", section: "§4"},
		{name: "stale", in: tournament.MoveInput{Expected: 2, Move: tournamenttest.Placements[3]}, stale: 3},
		{name: "ahead", in: tournament.MoveInput{Expected: 4, Move: tournamenttest.Placements[3]}, stale: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := c.Svc.AppendMove(c.Ctx, "judge-b", tour.ID, 1, 1, tt.in)
			var ge *game.Error
			var se *tournament.StaleError
			switch {
			case tt.code != "" && (!errors.As(err, &ge) || ge.Code != tt.code || ge.Section != tt.section || ge.Index != -1):
				t.Errorf("AppendMove(%+v) = %v, want the engine's %s (%s)", tt.in.Move, err, tt.code, tt.section)
			case tt.code == "" && (!errors.As(err, &se) || se.Record != tournament.RecordGame || se.Current != tt.stale || se.Judge != "judge-a"):
				t.Errorf("AppendMove(on %d moves) = %v, want a stale record of %d moves by judge-a", tt.in.Expected, err, tt.stale)
			}
			if got := must(c.Svc.Game(c.Ctx, tour.ID, 1, 1)).OK(t); len(got.Moves) != 3 {
				t.Errorf("after a refused move the record has %d moves, want 3", len(got.Moves))
			}
		})
	}
	// The turn that is not the player's names both players, by name.
	_, _, err := c.Svc.AppendMove(c.Ctx, "judge-b", tour.ID, 1, 1, tests[2].in)
	var v *referee.Violation
	if !errors.As(err, &v) || v.Args["Player"] != playerOf(t, c, tour, first).Name || v.Args["Current"] != playerOf(t, c, tour, g.Players[3]).Name {
		t.Errorf("not-your-turn says %v, want the players' names", err)
	}

	// The undo of a move that is not the last is stale; of the last, done.
	if _, err := c.Svc.UndoMove(c.Ctx, "judge-b", tour.ID, 1, 1, 2); !errors.As(err, new(*tournament.StaleError)) {
		t.Errorf("UndoMove(2 of 3) = %v, want a stale record", err)
	}
	g = must(c.Svc.UndoMove(c.Ctx, "judge-b", tour.ID, 1, 1, 3)).OK(t)
	if len(g.Moves) != 2 || g.State().Current() != 2 {
		t.Errorf("after the undo: %d moves, player %d to place; want 2 and the 3rd", len(g.Moves), g.State().Current())
	}
	if got := must(c.Svc.Game(c.Ctx, tour.ID, 1, 1)).OK(t); len(got.Moves) != 2 {
		t.Errorf("the stored record has %d moves after the undo, want 2", len(got.Moves))
	}
	if n, u := c.countActions(tour, tournament.ActionGameMove), c.countActions(tour, tournament.ActionGameUndo); n != 3 || u != 1 {
		t.Errorf("audit log: %d moves and %d undos, want 3 and 1", n, u)
	}

	// The record locks the table's seating and board.
	for name, err := range map[string]error{
		"seating": func() error {
			_, err := c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})
			return err
		}(),
		"board": func() error {
			_, err := c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Auto: true})
			return err
		}(),
	} {
		if !errors.As(err, &v) || v.Code != "table-has-game" {
			t.Errorf("a new %s over a recorded game = %v, want table-has-game", name, err)
		}
	}
	if rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); rv.Tables[0].Table.Moves != 2 || !rv.Tables[0].Locked {
		t.Errorf("the round view's table has %d moves, locked %v; want 2 and locked", rv.Tables[0].Table.Moves, rv.Tables[0].Locked)
	}
}

// playerOf returns the player with id.
func playerOf(t *testing.T, c *console, tour tournament.Tournament, id int64) tournament.Player {
	t.Helper()
	ps := must(c.Svc.Players(c.Ctx, tour.ID)).OK(t)
	return ps[slices.IndexFunc(ps, func(p tournament.Player) bool { return p.ID == id })]
}

// A finished game's result is saved from its record, through the score
// sheet's rules: the engine's VP with their breakdown and the declared
// winner, in a revision that says it came from the record. Before the end
// it is refused; over a judge's sheet it is a correction that needs its
// reason and the version it corrects; from a record changed since the
// judge saw it, a stale conflict. Once the table has a result, the record
// takes no move and no undo.
func TestSaveGameResult(t *testing.T) {
	c := newConsole(t)
	tour := c.gameTable()
	g := must(c.Svc.Game(c.Ctx, tour.ID, 1, 1)).OK(t)
	players := make([]string, len(g.Players))
	for i, id := range g.Players {
		players[i] = strconv.FormatInt(id, 10)
	}
	moves := tournamenttest.PlayedGame(t, tour.Ruleset, g.Board, players, 26, 600)
	// The game's first moves, as entered earlier (through the store, to
	// keep the test short), then the last ones through the service.
	table := g.TableID
	for i, m := range moves[:len(moves)-2] {
		gm := tournament.GameMove{Number: i + 1, Move: m, Judge: "judge-a", At: c.At}
		if err := c.St.AddGameMove(c.Ctx, table, &gm, tournament.Change{Judge: "judge-a", Action: tournament.ActionGameMove}); err != nil {
			t.Fatal(err)
		}
	}
	g = c.record(tour, "judge-a", moves[len(moves)-2])

	var v *referee.Violation
	if _, err := c.Svc.SaveGameResult(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.GameResultInput{Moves: len(g.Moves)}); !errors.As(err, &v) || v.Code != "game-not-over" {
		t.Fatalf("SaveGameResult(before the end) = %v, want game-not-over", err)
	}
	g = c.record(tour, "judge-a", moves[len(moves)-1])
	if !g.Over() || g.State().EndedBy() != game.ByDeclaration {
		t.Fatalf("the played game ended %v, want a declaration", g.State().EndedBy())
	}
	// A judge's sheet comes first, by hand.
	c.Save(tour, 1, 1, 0, []int{5, 4, 3, 2}, -1, "審判が終了")
	winner := g.Players[g.State().Winner()]

	for _, tt := range []struct {
		name string
		in   tournament.GameResultInput
		want func(error) bool
	}{
		{"a stale record", tournament.GameResultInput{Moves: len(g.Moves) - 1, Version: 1, Reason: "棋譜"},
			func(err error) bool { return errors.As(err, new(*tournament.StaleError)) }},
		{"over a newer sheet", tournament.GameResultInput{Moves: len(g.Moves)},
			func(err error) bool { return errors.As(err, new(*tournament.ConflictError)) }},
		{"a correction without its reason", tournament.GameResultInput{Moves: len(g.Moves), Version: 1},
			func(err error) bool { return errors.As(err, &v) && v.Code == "correction-reason-missing" }},
	} {
		if _, err := c.Svc.SaveGameResult(c.Ctx, "judge-b", tour.ID, 1, 1, tt.in); !tt.want(err) {
			t.Errorf("SaveGameResult(%s) = %v", tt.name, err)
		}
	}
	tr := must(c.Svc.SaveGameResult(c.Ctx, "judge-b", tour.ID, 1, 1, tournament.GameResultInput{Moves: len(g.Moves), Version: 1, Reason: "棋譜から"})).OK(t)
	res := tr.Result
	if res.Version != 2 || res.GameMoves != len(g.Moves) || res.Declared != winner || res.EndedBy != tournament.EndedByDeclaration || res.Reason != "棋譜から" {
		t.Errorf("the saved revision = %+v, want version 2 from %d moves, declared by %d", res, len(g.Moves), winner)
	}
	for i, sc := range res.Scores {
		vp := g.State().VP(i)
		if sc.PlayerID != g.Players[i] || sc.VP != vp.Total() || sc.Breakdown == nil || sc.Breakdown.VP() != vp.Total() ||
			sc.Breakdown.LongestRoad != (g.State().LongestRoad() == i) {
			t.Errorf("score %d = %+v (%+v), want the engine's %+v", i, sc, sc.Breakdown, vp)
		}
	}
	if tr.Places[0].PlayerID != winner || tr.Places[0].Place != 1 {
		t.Errorf("placings %+v, want the declarer 1st", tr.Places)
	}
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t)
	if len(revs) != 2 || revs[0].GameMoves != 0 || revs[1].GameMoves != len(g.Moves) {
		t.Errorf("revisions %+v, want the judge's sheet, then the record's", revs)
	}
	// The record stays what the result was saved from: no undo, no move.
	if _, err := c.Svc.UndoMove(c.Ctx, "judge-a", tour.ID, 1, 1, len(g.Moves)); !errors.As(err, &v) || v.Code != "game-has-result" {
		t.Errorf("UndoMove(after the result) = %v, want the conflict game-has-result", err)
	}
	if _, _, err := c.Svc.AppendMove(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.MoveInput{Move: game.MoveSpec{Do: "end_turn"}, Expected: len(g.Moves)}); !errors.As(err, &v) || v.Code != "game-has-result" {
		t.Errorf("AppendMove(after the result) = %v, want the conflict game-has-result", err)
	}
	// The store refuses it too, for a result saved after the service read.
	gm := tournament.GameMove{Number: len(g.Moves) + 1, Move: game.MoveSpec{Do: "end_turn"}, Judge: "judge-a", At: c.At}
	if err := c.St.AddGameMove(c.Ctx, table, &gm, tournament.Change{Judge: "judge-a", Action: tournament.ActionGameMove}); !errors.As(err, &v) || v.Code != "game-has-result" {
		t.Errorf("Store.AddGameMove(after the result) = %v, want the conflict game-has-result", err)
	}
	if err := c.St.UndoGameMove(c.Ctx, table, len(g.Moves), tournament.Change{Judge: "judge-a", Action: tournament.ActionGameUndo}); !errors.As(err, &v) || v.Code != "game-has-result" {
		t.Errorf("Store.UndoGameMove(after the result) = %v, want the conflict game-has-result", err)
	}
	if got := must(c.Svc.Game(c.Ctx, tour.ID, 1, 1)).OK(t); len(got.Moves) != len(g.Moves) {
		t.Errorf("the record has %d moves after the refusals, want %d", len(got.Moves), len(g.Moves))
	}
}

// A game ended by the judge's time signal is saved as ended by time: the
// engine's VP, nobody declared; before the table's time is up that needs
// the judge's reason, as a sheet does (§12).
func TestSaveGameResultByTime(t *testing.T) {
	c := newConsole(t)
	tour := c.gameTable()
	g := c.record(tour, "judge-a", append(slices.Clone(tournamenttest.Placements), game.MoveSpec{Do: "time_up"})...)
	in := tournament.GameResultInput{Moves: len(g.Moves)}
	var v *referee.Violation
	if _, err := c.Svc.SaveGameResult(c.Ctx, "judge-a", tour.ID, 1, 1, in); !errors.As(err, &v) || v.Code != "ended-by-time-early" {
		t.Fatalf("SaveGameResult(time up, the clock not started) = %v, want ended-by-time-early", err)
	}
	in.Reason = "審判が終了を宣言"
	tr := must(c.Svc.SaveGameResult(c.Ctx, "judge-a", tour.ID, 1, 1, in)).OK(t)
	if tr.Result.EndedBy != tournament.EndedByTime || tr.Result.Declared != 0 || !tr.Result.EndedEarly || tr.Result.GameMoves != 9 {
		t.Errorf("the saved result = %+v, want ended by time, early, from 9 moves", tr.Result)
	}
	for _, sc := range tr.Result.Scores {
		if sc.VP != 2 || sc.Breakdown.Settlements != 2 {
			t.Errorf("score %+v, want the 2 settlements of §4", sc)
		}
	}
}
