package tournament_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

func TestCreateTournamentValidation(t *testing.T) {
	c := newConsole(t)
	for _, tc := range []struct {
		name string
		in   tournament.TournamentInput
		code string
	}{
		{"no name", tournament.TournamentInput{Rounds: 3}, "tournament-name-missing"},
		{"no rounds", tournament.TournamentInput{Name: "x"}, "rounds-out-of-range"},
		{"bad date", tournament.TournamentInput{Name: "x", Rounds: 3, Date: "22/11/2025"}, "date-format"},
		{"unknown ruleset", tournament.TournamentInput{Name: "x", Rounds: 3, Ruleset: "nope"}, "unknown-ruleset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Svc.CreateTournament(c.Ctx, "judge-a", tc.in)
			var v *referee.Violation
			if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != tc.code {
				t.Errorf("CreateTournament(%+v) error = %v, want ErrInvalid with a *referee.Violation %q", tc.in, err, tc.code)
			}
		})
	}
	if got := must(c.Svc.ListTournaments(c.Ctx)).OK(t); len(got) != 0 {
		t.Errorf("ListTournaments() after refused creations = %v, want none", got)
	}
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "x", Rounds: 3, GameMinutes: 30})).OK(t)
	if tour.GameMinutes != 30 || tour.Ruleset.GameMinutes != 7 {
		t.Errorf("CreateTournament(30 minutes) = %d minutes, ruleset %d; want 30 and the copied 7", tour.GameMinutes, tour.Ruleset.GameMinutes)
	}
}

func seatedWith(r tournament.Round, a, b int64) bool {
	return slices.ContainsFunc(r.Tables, func(t tournament.Table) bool {
		return slices.Contains(t.Players, a) && slices.Contains(t.Players, b)
	})
}

func TestPairingRequests(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(8, 3)
	a, b := players[0].ID, players[1].ID
	must(keepApart(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, a, []int64{b})).OK(t)
	must(fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, players[2].ID, 2)).OK(t)
	if got := must(c.Svc.GetPlayer(c.Ctx, tour.ID, b)).OK(t).KeepApart; !slices.Equal(got, []int64{a}) {
		t.Errorf("KeepApart of the other player = %v, want [%d]", got, a)
	}
	if _, err := keepApart(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, a, []int64{a}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SetKeepApart(self) error = %v, want ErrInvalid", err)
	}
	// Player 8 has not checked in: not paired.
	must(c.Svc.CheckIn(c.Ctx, "judge-a", players[7].TournamentID, players[7].ID, false)).OK(t)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if seatedWith(r, a, b) {
		t.Errorf("round 1 seats %d with %d despite keep-apart: %v", a, b, r.Tables)
	}
	if !slices.Contains(r.Tables[1].Players, players[2].ID) {
		t.Errorf("round 1 table 2 = %v, want fixed player %d", r.Tables[1].Players, players[2].ID)
	}
	if slices.ContainsFunc(r.Tables, func(t tournament.Table) bool { return slices.Contains(t.Players, players[7].ID) }) {
		t.Errorf("round 1 pairs player %d, who has not checked in", players[7].ID)
	}
}

func TestRepairAndAmendRound(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(10, 3)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if got := tableSizes(r); !slices.Equal(got, []int{4, 3, 3}) || len(r.Byes) != 0 {
		t.Fatalf("round 1 tables %v byes %v, want [4 3 3] and none", got, r.Byes)
	}

	// A late entry and a drop before round 1 starts: both wait for a repair.
	late := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "遅刻", Kana: "ちこく"})).OK(t)
	late = must(c.Svc.CheckIn(c.Ctx, "judge-a", late.TournamentID, late.ID, true)).OK(t)
	gone := must(c.Svc.DropPlayer(c.Ctx, "judge-a", players[0].TournamentID, players[0].ID)).OK(t)
	if late.LateEntryRound != 1 || gone.DroppedRound != 1 {
		t.Errorf("before round 1 starts: late entry round %d, drop round %d; want 1 and 1", late.LateEntryRound, gone.DroppedRound)
	}
	v := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	if len(v.Missing) != 1 || v.Missing[0].ID != late.ID || len(v.Withdrawn) != 1 || v.Withdrawn[0].ID != gone.ID {
		t.Errorf("RoundView Missing %v Withdrawn %v, want the late entry and the drop", v.Missing, v.Withdrawn)
	}
	r = must(c.Svc.RepairRound(c.Ctx, "judge-b", tour.ID, 1)).OK(t)
	v = must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	if len(v.Missing) != 0 || len(v.Withdrawn) != 0 || r.PairedBy != "judge-b" || r.Seed == 0 {
		t.Errorf("after RepairRound: Missing %v Withdrawn %v, round %+v", v.Missing, v.Withdrawn, r)
	}

	// Swap a player of table 1 with one of table 2, with a reason.
	x, y := r.Tables[0].Players[0], r.Tables[1].Players[0]
	if _, err := c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 1, x, y, " "); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SwapPlayers(no reason) error = %v, want ErrInvalid", err)
	}
	r = must(c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 1, x, y, "同じ店舗の常連")).OK(t)
	if !slices.Contains(r.Tables[0].Players, y) || !slices.Contains(r.Tables[1].Players, x) || len(r.Amendments) != 1 || r.Amendments[0].Reason != "同じ店舗の常連" {
		t.Errorf("after SwapPlayers: tables %v amendments %+v", r.Tables, r.Amendments)
	}
	if _, err := c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 1, x, 999, "x"); !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("SwapPlayers(stranger) error = %v, want invalid", err)
	}
	// The pairing's refusals are violations that name the players, not the
	// IDs the pairing knows them by.
	_, err := c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 1, x, x, "x")
	var rv *referee.Violation
	if !errors.Is(err, referee.ErrInvalid) || !errors.As(err, &rv) || rv.Code != "amend-swap-self" || rv.Args["Player"] != nameOf(append(players, late), x) {
		t.Errorf("SwapPlayers(x with x) error = %v (%+v), want the violation amend-swap-self naming %s", err, rv, nameOf(append(players, late), x))
	}

	// Once a table is seated, its players no longer change and the round is
	// not re-paired. The pairing may number its tables in any order.
	four := slices.IndexFunc(r.Tables, func(t tournament.Table) bool { return len(t.Players) == 4 })
	var threes []int
	for i, tb := range r.Tables {
		if len(tb.Players) == 3 {
			threes = append(threes, i)
		}
	}
	seated, open := r.Tables[threes[0]], r.Tables[threes[1]]
	must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, seated.Number, tournament.SeatingInput{Auto: true})).OK(t)
	if _, err := c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 1, r.Tables[four].Players[0], seated.Players[0], "x"); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("SwapPlayers(seated table) error = %v, want ErrConflict", err)
	}
	if _, err := c.Svc.RepairRound(c.Ctx, "judge-a", tour.ID, 1); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("RepairRound(started) error = %v, want ErrConflict", err)
	}
	// A move between unseated tables is fine, as long as every table keeps
	// 3 or 4 players.
	if _, err := c.Svc.MovePlayer(c.Ctx, "judge-a", tour.ID, 1, open.Players[0], r.Tables[four].Number, "x"); !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("MovePlayer(leaving 2 at a table) error = %v, want referee.ErrInvalid", err)
	}
	mover := r.Tables[four].Players[0]
	r = must(c.Svc.MovePlayer(c.Ctx, "judge-a", tour.ID, 1, mover, open.Number, "車椅子席")).OK(t)
	if !slices.Contains(r.Tables[threes[1]].Players, mover) || len(r.Tables[four].Players) != 3 || len(r.Amendments) != 2 {
		t.Errorf("after MovePlayer: tables %v, want player %d at table %d", r.Tables, mover, open.Number)
	}
	// A drop once round 1 has started takes effect from round 2.
	if p := must(c.Svc.DropPlayer(c.Ctx, "judge-a", players[1].TournamentID, players[1].ID)).OK(t); p.DroppedRound != 2 {
		t.Errorf("DropPlayer(round 1 started) DroppedRound = %d, want 2", p.DroppedRound)
	}
	if _, err := c.Svc.DropPlayer(c.Ctx, "judge-a", players[1].TournamentID, players[1].ID); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("DropPlayer(twice) error = %v, want ErrInvalid", err)
	}
	if p := must(c.Svc.ReinstatePlayer(c.Ctx, "judge-a", players[1].TournamentID, players[1].ID)).OK(t); p.DroppedRound != 0 {
		t.Errorf("ReinstatePlayer() DroppedRound = %d, want 0", p.DroppedRound)
	}
}

// A round lists its repeat meetings, table by table, with the rounds the
// pair met in; CheckSwap names the ones a swap would add, recording
// nothing, and the swap made shows them on the round.
func TestRepeatMeetings(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(12, 3)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	for tb := 1; tb <= 3; tb++ {
		c.Save(tour, 1, tb, 0, []int{10, 7, 5, 3}, 0, "")
	}
	r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	r1 := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round
	table1 := map[int64]int{}
	for _, tb := range r1.Tables {
		for _, id := range tb.Players {
			table1[id] = tb.Number
		}
	}
	view := must(c.Svc.RoundView(c.Ctx, tour.ID, 2)).OK(t)
	if len(view.Repeats) != r2.Repeats {
		t.Errorf("round 2 lists %d repeats, its pairing counts %d", len(view.Repeats), r2.Repeats)
	}
	for _, rp := range view.Repeats {
		if table1[rp.A] != table1[rp.B] || !slices.Equal(rp.Rounds, []int{1}) || rp.A >= rp.B {
			t.Errorf("repeat %+v: not a pair of round 1's same table", rp)
		}
	}
	// Find a swap that adds a repeat.
	var a, b int64
	var added []tournament.Repeat
	for _, x := range r2.Tables[0].Players {
		for _, y := range r2.Tables[1].Players {
			rs, err := c.Svc.CheckSwap(c.Ctx, tour.ID, 2, x, y)
			if err != nil {
				t.Fatal(err)
			}
			if len(rs) > 0 && added == nil {
				a, b, added = x, y, rs
			}
		}
	}
	if added == nil {
		t.Fatal("no swap between tables 1 and 2 adds a repeat")
	}
	if again := must(c.Svc.RoundView(c.Ctx, tour.ID, 2)).OK(t); len(again.Repeats) != len(view.Repeats) {
		t.Error("CheckSwap changed the round")
	}
	for _, rp := range added {
		if rp.A != a && rp.B != a && rp.A != b && rp.B != b {
			t.Errorf("added repeat %+v involves neither swapped player", rp)
		}
	}
	must(c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 2, a, b, "席の希望")).OK(t)
	after := must(c.Svc.RoundView(c.Ctx, tour.ID, 2)).OK(t)
	for _, rp := range added {
		if !slices.ContainsFunc(after.Repeats, func(x tournament.Repeat) bool { return x.A == rp.A && x.B == rp.B }) {
			t.Errorf("after the swap round 2 does not list the repeat %+v", rp)
		}
	}
	if tournament.SamePairing(view.Round, after.Round) || !tournament.SamePairing(after.Round, after.Round) {
		t.Error("SamePairing does not tell the swapped round from the drawn one")
	}
}
