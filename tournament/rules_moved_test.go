package tournament_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// tableWrites counts the store's writes of a table's seating and board, so
// that a test can tell the service refused a change before writing it.
type tableWrites struct {
	*store.Store
	writes int
}

func (s *tableWrites) SetSeating(ctx context.Context, tableID int64, st *tournament.Seating, expected *int, c tournament.Change) error {
	s.writes++
	return s.Store.SetSeating(ctx, tableID, st, expected, c)
}

func (s *tableWrites) SetBoard(ctx context.Context, tableID int64, b *tournament.BoardRecord, from *tournament.BoardRecord, expected *int, c tournament.Change) error {
	s.writes++
	return s.Store.SetBoard(ctx, tableID, b, from, expected, c)
}

// A result locks its table: the service itself refuses a new seating, board
// or deal there (the store refuses it again in its transaction, for a
// result saved meanwhile), and the table's view says it is locked.
func TestResultLocksTheTable(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Auto: true})).OK(t)
	if v := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); v.Tables[0].Locked {
		t.Errorf("table 1 without a result is locked")
	}
	c.Save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	if v := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); !v.Tables[0].Locked {
		t.Errorf("table 1 with a result is not locked")
	}
	st := &tableWrites{Store: c.St}
	svc := tournamenttest.NewServiceOn(t, st, tournamenttest.Clock(c.At, 0))
	chips := []referee.Chip{{Hex: referee.Hex{Q: 0, R: -2}, Number: 5}}
	for name, change := range map[string]func() error{
		"SetSeating": func() error {
			_, err := svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})
			return err
		},
		"SetBoard": func() error {
			_, err := svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Auto: true})
			return err
		},
		"SetDeal": func() error {
			_, err := svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: chips})
			return err
		},
	} {
		conflict(t, name+"(a table with a result)", change(), "table-has-result")
	}
	if st.writes != 0 {
		t.Errorf("the store was asked to write %d times, want the service to refuse first", st.writes)
	}
}

// A score sheet opens on the latest revision; before one, on "time" once
// the table's signal has passed (§12), else with nothing chosen.
func TestDraftOfAScoreSheet(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(7, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	draft := func(table int) tournament.Draft {
		t.Helper()
		return must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Tables[table-1].Draft()
	}
	if got := draft(1); !cmp.Equal(got, tournament.Draft{}) {
		t.Errorf("Draft() before the clock = %+v, want an empty sheet", got)
	}
	res := c.Save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	want := tournament.Draft{Version: 1, Declared: r.Tables[0].Players[0], VP: map[int64]int{}}
	for _, sc := range res.Result.Scores {
		want.VP[sc.PlayerID] = sc.VP
	}
	if diff := cmp.Diff(want, draft(1)); diff != "" {
		t.Errorf("Draft() after a declared win (-want +got):\n%s", diff)
	}
	c.timeUp(tour, 1)
	if got := draft(2); !cmp.Equal(got, tournament.Draft{ByTime: true}) {
		t.Errorf("Draft() after the signal = %+v, want a sheet ended by time", got)
	}
}

// A tournament reaches only its own players and penalties: another
// tournament's ID finds nothing, whatever the use case.
func TestTournamentScopesItsPlayers(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(4, 1)
	other := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "別大会", Rounds: 1})).OK(t)
	p := ps[0]
	pen := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p.ID, Offence: "note-taking"})).OK(t)
	for name, call := range map[string]func(tid int64) error{
		"GetPlayer":       func(tid int64) error { _, err := c.Svc.GetPlayer(c.Ctx, tid, p.ID); return err },
		"CheckIn":         func(tid int64) error { _, err := c.Svc.CheckIn(c.Ctx, "judge-a", tid, p.ID, false); return err },
		"DropPlayer":      func(tid int64) error { _, err := c.Svc.DropPlayer(c.Ctx, "judge-a", tid, p.ID); return err },
		"ReinstatePlayer": func(tid int64) error { _, err := c.Svc.ReinstatePlayer(c.Ctx, "judge-a", tid, p.ID); return err },
		"DeletePlayer":    func(tid int64) error { _, err := c.Svc.DeletePlayer(c.Ctx, "judge-a", tid, p.ID); return err },
		"CheckDelete":     func(tid int64) error { return c.Svc.CheckDelete(c.Ctx, tid, p.ID) },
		"EditPlayer": func(tid int64) error {
			_, err := c.Svc.EditPlayer(c.Ctx, "judge-a", tid, p.ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: "別名"}})
			return err
		},
		"RevokePenalty": func(tid int64) error {
			_, err := c.Svc.RevokePenalty(c.Ctx, "judge-a", tid, pen.ID, "取り違え")
			return err
		},
	} {
		if err := call(other.ID); !errors.Is(err, tournament.ErrNotFound) {
			t.Errorf("%s(another tournament) error = %v, want ErrNotFound", name, err)
		}
	}
	if got := must(c.Svc.GetPlayer(c.Ctx, tour.ID, p.ID)).OK(t); got.Name != p.Name || !got.CheckedIn || got.DroppedRound != 0 {
		t.Errorf("player after the refused calls = %+v, want them as registered", got)
	}
}

// An edit form that changes nothing writes nothing: no audit line.
func TestUnchangedEditSavesNothing(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(4, 1)
	before := len(must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t))
	p := ps[1]
	got := must(c.Svc.EditPlayer(c.Ctx, "judge-a", tour.ID, p.ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: " " + p.Name, Kana: p.Kana}})).OK(t)
	if got.Name != p.Name {
		t.Errorf("EditPlayer(unchanged) = %+v, want the player as recorded", got)
	}
	if after := len(must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)); after != before {
		t.Errorf("audit entries after an unchanged edit = %d, want %d", after, before)
	}
}

func TestCountAttendance(t *testing.T) {
	ps := []tournament.Player{
		{ID: 1, CheckedIn: true}, {ID: 2}, {ID: 3, CheckedIn: true, DroppedRound: 2}, {ID: 4, DroppedRound: 1}, {ID: 5, CheckedIn: true},
	}
	want := tournament.Attendance{Registered: 5, Active: 3, CheckedIn: 2, Dropped: 2}
	if got := tournament.CountAttendance(ps); got != want {
		t.Errorf("CountAttendance = %+v, want %+v", got, want)
	}
}

// A deduction shows as such (docs/rules.md, Penalties).
func TestPlacingSum(t *testing.T) {
	gameLoss := []tournament.Penalty{{Level: referee.GameLoss}}
	tests := []struct {
		name string
		p    tournament.Placing
		want string
	}{
		{"as written", tournament.Placing{Reported: 7, VP: 7}, ""},
		{"capped", tournament.Placing{Reported: 12, VP: 10}, "12 → 10"},
		{"deducted", tournament.Placing{Reported: 6, VP: 4, Deducted: 2}, "6 − 2 = 4"},
		{"capped and deducted", tournament.Placing{Reported: 11, VP: 8, Deducted: 2}, "11 → 10 − 2 = 8"},
		{"game loss", tournament.Placing{Reported: 6, VP: 0, Deducted: 6, Penalties: gameLoss}, "6 → 0"},
		{"game loss of 0 VP", tournament.Placing{Reported: 0, VP: 0, Penalties: gameLoss}, ""},
	}
	for _, tt := range tests {
		if got := tt.p.Sum(); got != tt.want {
			t.Errorf("%s: Sum() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// A deal the dango rule refuses carries the deal as typed, laid on the
// table's board, for the page to draw.
func TestRefusedDealCarriesTheTypedBoard(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 3, Blue: 2}})).OK(t)
	board := *must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Tables[0].Board
	chips := dangoDeal(t, board)
	_, err := c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: chips})
	var de *tournament.DealError
	if !errors.As(err, &de) {
		t.Fatalf("SetDeal(a red clump) error = %v, want a *DealError", err)
	}
	typed := map[referee.Hex]int{}
	for _, ch := range chips {
		typed[ch.Hex] = ch.Number
	}
	for _, tile := range de.Board.Tiles {
		if tile.Number != typed[tile.Hex] || tile.Terrain != mustTile(t, board, tile.Hex).Terrain {
			t.Errorf("DealError.Board at %v = %+v, want the terrain of the board with chip %d", tile.Hex, tile, typed[tile.Hex])
		}
	}
}

func mustTile(t *testing.T, b referee.Board, h referee.Hex) referee.Tile {
	t.Helper()
	tile, ok := b.TileAt(h)
	if !ok {
		t.Fatalf("no tile at %v", h)
	}
	return tile
}
