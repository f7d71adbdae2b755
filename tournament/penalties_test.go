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
	tour, _ := c.setUp(8, 2)
	r := must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
	aoki, other := r.Tables[0].Players[0], r.Tables[1].Players[0]
	pen := must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{
		PlayerID: aoki, Round: 1, Offence: "note-taking", Level: referee.VPDeduction,
	})).ok(t)
	caution := must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{
		PlayerID: other, Round: 1, Offence: "needless-talk",
	})).ok(t)
	if pen.Table != 1 || caution.Table != 2 {
		t.Fatalf("penalties at tables %d and %d, want 1 and 2", pen.Table, caution.Table)
	}
	must(c.svc.SwapPlayers(c.ctx, "judge-a", tour.ID, 1, aoki, other, "席の入れ替え")).ok(t)

	c.timeUp(tour, 1)
	one := c.save(tour, 1, 1, 0, []int{9, 8, 7, 6}, -1, "")
	two := c.save(tour, 1, 2, 0, []int{9, 8, 7, 6}, -1, "")
	if got := placingOf(t, two.Places, aoki); got.VP != 9-tour.Ruleset.DeductVP {
		t.Errorf("table 2 placing of the penalised player = %+v, want %d VP after the deduction", got, 9-tour.Ruleset.DeductVP)
	}
	if got := placingOf(t, one.Places, other); got.VP != 9 {
		t.Errorf("table 1 placing of the player swapped in = %+v, want 9 VP: the deduction is not theirs", got)
	}
	v := must(c.svc.RoundView(c.ctx, tour.ID, 1)).ok(t)
	if got := placingOf(t, v.Tables[1].Places, aoki); got.VP != 9-tour.Ruleset.DeductVP {
		t.Errorf("RoundView table 2 placing = %+v, want the deduction", got)
	}
	pens := must(c.svc.Penalties(c.ctx, tour.ID)).ok(t)
	if pens[0].Table != 1 {
		t.Errorf("penalty table after the swap = %d, want 1 as given", pens[0].Table)
	}
	must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
}

// A VP deduction or a game loss changes a game, so it needs a round in
// which the player sat at a table; a disqualification outside a game still
// drops the player.
func TestGamePenaltiesNeedAGame(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.setUp(5, 2)
	r := must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
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
			_, err := c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tc.in)
			var v *referee.Violation
			if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != "penalty-needs-game" {
				t.Errorf("RecordPenalty(%+v) error = %v, want the violation penalty-needs-game", tc.in, err)
			}
		})
	}
	if pens := must(c.svc.Penalties(c.ctx, tour.ID)).ok(t); len(pens) != 0 {
		t.Errorf("refused penalties were recorded: %+v", pens)
	}
	c.save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	if st := must(c.svc.Standings(c.ctx, tour.ID)).ok(t); st[0].PlayerID != seated {
		t.Errorf("standings lead %d, want %d: no refused penalty may count", st[0].PlayerID, seated)
	}
	// Cautions and warnings need no game.
	must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: bye, Round: 1, Offence: "needless-talk"})).ok(t)
	must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: seated, Offence: "note-taking"})).ok(t)
	// A disqualification outside a game drops the player from the next round.
	dq := must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: bye, Offence: "unsporting-conduct", Level: referee.Disqualification})).ok(t)
	if p := must(c.svc.GetPlayer(c.ctx, tour.ID, dq.PlayerID)).ok(t); p.DroppedRound != 2 {
		t.Errorf("disqualified outside a game: DroppedRound = %d, want 2", p.DroppedRound)
	}
}

// A disqualification recorded late for an earlier round drops the player
// from the first round not yet started, not from rounds they already played.
func TestLateDisqualificationKeepsPlayedRounds(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.setUp(8, 3)
	r1 := must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
	c.save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	c.save(tour, 1, 2, 0, []int{10, 8, 6, 4}, 0, "")
	r2 := must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
	cheat := r1.Tables[0].Players[1]
	i := slices.IndexFunc(r2.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, cheat) })
	must(c.svc.SetSeating(c.ctx, "judge-a", tour.ID, 2, r2.Tables[i].Number, tournament.SeatingInput{Auto: true})).ok(t)

	must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{
		PlayerID: cheat, Round: 1, Offence: "unsporting-conduct", Level: referee.Disqualification,
	})).ok(t)
	if p := must(c.svc.GetPlayer(c.ctx, tour.ID, cheat)).ok(t); p.DroppedRound != 3 {
		t.Errorf("disqualified for round 1 while round 2 is played: DroppedRound = %d, want 3", p.DroppedRound)
	}
	if v := must(c.svc.RoundView(c.ctx, tour.ID, 2)).ok(t); len(v.Withdrawn) != 0 {
		t.Errorf("round 2 withdrawn %+v, want none: the player is playing it", v.Withdrawn)
	}
}

// Each standing line counts the player's standing penalties, for the
// console and the export alike; a revoked penalty does not count.
func TestStandingsCountPenalties(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.setUp(4, 1)
	r := must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
	p := r.Tables[0].Players
	must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Round: 1, Offence: "needless-talk"})).ok(t)
	must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[0], Offence: "note-taking"})).ok(t)
	wrong := must(c.svc.RecordPenalty(c.ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: p[1], Round: 1, Offence: "note-taking"})).ok(t)
	must(c.svc.RevokePenalty(c.ctx, "judge-a", wrong.TournamentID, wrong.ID, "人違い")).ok(t)
	want := map[int64]int{p[0]: 2, p[1]: 0, p[2]: 0, p[3]: 0}
	st := must(c.svc.Standings(c.ctx, tour.ID)).ok(t)
	exp := must(c.svc.ExportData(c.ctx, tour.ID)).ok(t).Standings
	for i, s := range st {
		if s.Penalties != want[s.PlayerID] || exp[i].Penalties != s.Penalties {
			t.Errorf("standing of player %d counts %d penalties (export %d), want %d", s.PlayerID, s.Penalties, exp[i].Penalties, want[s.PlayerID])
		}
	}
}
