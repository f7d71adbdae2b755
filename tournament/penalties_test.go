package tournament_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// placingOf returns a player's placing in a table's placings.
func placingOf(t *testing.T, places []tournament.Placing, id int64) tournament.Placing {
	t.Helper()
	i := slices.IndexFunc(places, func(p tournament.Placing) bool { return p.PlayerID == id })
	if i < 0 {
		t.Fatalf("placings %+v do not place player %d", places, id)
	}
	return places[i]
}

// A penalty's effect follows the player to the game they play in its round:
// a swap after the penalty leaves both tables able to save, and the
// deduction lands where the player now sits. The penalty keeps the table
// it was given at, as a record.
func TestPenaltyFollowsThePlayerAfterASwap(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(8, 2)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	aoki, other := r.Tables[0].Players[0], r.Tables[1].Players[0]
	pen := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{
		PlayerID: aoki, Round: 1, Offence: "note-taking", Level: referee.VPDeduction,
	})).OK(t)
	caution := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{
		PlayerID: other, Round: 1, Offence: "needless-talk",
	})).OK(t)
	if pen.Table != 1 || caution.Table != 2 {
		t.Fatalf("penalties at tables %d and %d, want 1 and 2", pen.Table, caution.Table)
	}
	must(c.Svc.SwapPlayers(c.Ctx, "judge-a", tour.ID, 1, aoki, other, "席の入れ替え")).OK(t)

	c.timeUp(tour, 1)
	one := c.Save(tour, 1, 1, 0, []int{9, 8, 7, 6}, -1, "")
	two := c.Save(tour, 1, 2, 0, []int{9, 8, 7, 6}, -1, "")
	if got := placingOf(t, two.Places, aoki); got.VP != 9-tour.Ruleset.DeductVP {
		t.Errorf("table 2 placing of the penalised player = %+v, want %d VP after the deduction", got, 9-tour.Ruleset.DeductVP)
	}
	if got := placingOf(t, one.Places, other); got.VP != 9 {
		t.Errorf("table 1 placing of the player swapped in = %+v, want 9 VP: the deduction is not theirs", got)
	}
	v := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	if got := placingOf(t, v.Tables[1].Places, aoki); got.VP != 9-tour.Ruleset.DeductVP {
		t.Errorf("RoundView table 2 placing = %+v, want the deduction", got)
	}
	pens := must(c.Svc.Penalties(c.Ctx, tour.ID)).OK(t)
	if pens[0].Table != 1 {
		t.Errorf("penalty table after the swap = %d, want 1 as given", pens[0].Table)
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
}

// A VP deduction or a game loss changes a game, so it needs a round in
// which the player sat at a table; a disqualification outside a game still
// drops the player.
func TestGamePenaltiesNeedAGame(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(5, 2)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if len(r.Byes) != 1 {
		t.Fatalf("round 1 of 5 players has byes %v, want one", r.Byes)
	}
	seated, bye := r.Tables[0].Players[0], r.Byes[0]
	for _, tc := range []struct {
		name string
		in   tournament.PenaltyInput
	}{
		{"game loss outside a round", tournament.PenaltyInput{PlayerID: seated, Offence: "ignored-judge", Level: referee.GameLoss}},
		{"vp deduction outside a round", tournament.PenaltyInput{PlayerID: seated, Offence: "note-taking", Level: referee.VPDeduction}},
		{"game loss in a bye", tournament.PenaltyInput{PlayerID: bye, Round: 1, Offence: "ignored-judge"}},
		{"vp deduction in a bye", tournament.PenaltyInput{PlayerID: bye, Round: 1, Offence: "note-taking", Level: referee.VPDeduction}},
		{"disqualification in a bye", tournament.PenaltyInput{PlayerID: bye, Round: 1, Offence: "unsporting-conduct", Level: referee.Disqualification}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tc.in)
			var v *referee.Violation
			if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != "penalty-needs-game" {
				t.Errorf("RecordPenalty(%+v) error = %v, want the violation penalty-needs-game", tc.in, err)
			}
		})
	}
	if pens := must(c.Svc.Penalties(c.Ctx, tour.ID)).OK(t); len(pens) != 0 {
		t.Errorf("refused penalties were recorded: %+v", pens)
	}
	c.Save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	if st := must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t); st[0].PlayerID != seated {
		t.Errorf("standings lead %d, want %d: no refused penalty may count", st[0].PlayerID, seated)
	}
	// Cautions and warnings need no game.
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: bye, Round: 1, Offence: "needless-talk"})).OK(t)
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: seated, Offence: "note-taking"})).OK(t)
	// A disqualification outside a game drops the player from the next round.
	dq := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: bye, Offence: "unsporting-conduct", Level: referee.Disqualification})).OK(t)
	if p := must(c.Svc.GetPlayer(c.Ctx, tour.ID, dq.PlayerID)).OK(t); p.DroppedRound != 2 {
		t.Errorf("disqualified outside a game: DroppedRound = %d, want 2", p.DroppedRound)
	}
}

// A disqualification recorded late for an earlier round drops the player
// from the first round not yet started, not from rounds they already played.
func TestLateDisqualificationKeepsPlayedRounds(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(8, 3)
	r1 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.Save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	c.Save(tour, 1, 2, 0, []int{10, 8, 6, 4}, 0, "")
	r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	cheat := r1.Tables[0].Players[1]
	i := slices.IndexFunc(r2.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, cheat) })
	must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 2, r2.Tables[i].Number, tournament.SeatingInput{Auto: true})).OK(t)

	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{
		PlayerID: cheat, Round: 1, Offence: "unsporting-conduct", Level: referee.Disqualification,
	})).OK(t)
	if p := must(c.Svc.GetPlayer(c.Ctx, tour.ID, cheat)).OK(t); p.DroppedRound != 3 {
		t.Errorf("disqualified for round 1 while round 2 is played: DroppedRound = %d, want 3", p.DroppedRound)
	}
	if v := must(c.Svc.RoundView(c.Ctx, tour.ID, 2)).OK(t); len(v.Withdrawn) != 0 {
		t.Errorf("round 2 withdrawn %+v, want none: the player is playing it", v.Withdrawn)
	}
}

// Each standing line counts the player's standing penalties, for the
// console and the export alike; a revoked penalty does not count.
func TestStandingsCountPenalties(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "needless-talk"})).OK(t)
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Offence: "note-taking"})).OK(t)
	wrong := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[1], Round: 1, Offence: "note-taking"})).OK(t)
	must(c.Svc.RevokePenalty(c.Ctx, "judge-a", wrong.TournamentID, wrong.ID, "人違い")).OK(t)
	want := map[int64]int{p[0]: 2, p[1]: 0, p[2]: 0, p[3]: 0}
	st := must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t)
	exp := must(c.Svc.ExportData(c.Ctx, tour.ID)).OK(t).Standings
	for i, s := range st {
		if s.Penalties != want[s.PlayerID] || exp[i].Penalties != s.Penalties {
			t.Errorf("standing of player %d counts %d penalties (export %d), want %d", s.PlayerID, s.Penalties, exp[i].Penalties, want[s.PlayerID])
		}
	}
}
