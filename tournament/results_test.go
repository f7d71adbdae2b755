package tournament_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// A player's event round by round, as their page shows it: the table,
// seat, colour and placing of each round, the breakdown where the sheet
// gave it, the standings position after each complete round, and the
// penalties players are shown (a deduction; not a warning, not a revoked
// one).
func TestPlayerHistory(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(8, 2)
	r1 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(t)
	me := r1.Tables[0].Players[0]
	in := tournament.ResultInput{Declared: me}
	for i, p := range r1.Tables[0].Players {
		sc := tournament.Score{PlayerID: p, VP: 10 - 2*i}
		if p == me {
			sc.Breakdown = &referee.Breakdown{Settlements: 2, Cities: 3, LongestRoad: true, PointCards: 0}
		}
		in.Scores = append(in.Scores, sc)
	}
	must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, in)).OK(t)
	c.Save(tour, 1, 2, 0, []int{10, 8, 6, 4}, 0, "")
	// In round 2: a warning (not shown), a deduction revoked (not shown),
	// a deduction (shown).
	r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	record := func(level referee.Level) tournament.Penalty {
		return must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: me, Round: 2, Offence: "note-taking", Level: level})).OK(t)
	}
	record(referee.Warning)
	revoked := record(referee.VPDeduction)
	must(c.Svc.RevokePenalty(c.Ctx, "judge-a", tour.ID, revoked.ID, "別の人")).OK(t)
	deduction := record(referee.VPDeduction)
	var mine tournament.Table
	for _, tb := range r2.Tables {
		for _, p := range tb.Players {
			if p == me {
				mine = tb
			}
		}
	}

	res := must(c.Svc.EventResults(c.Ctx, tour.ID)).OK(t)
	h, ok := res.PlayerHistory(me)
	if !ok || len(h.Rounds) != 2 {
		t.Fatalf("PlayerHistory(%d) = %+v, %v; want two rounds", me, h, ok)
	}
	one, two := h.Rounds[0], h.Rounds[1]
	if one.Table != 1 || one.Seat == 0 || one.Color == "" || one.Placing == nil || one.Placing.Place != 1 || one.Placing.VP != 10 ||
		one.Breakdown == nil || one.Breakdown.Cities != 3 || one.Rank != 1 || len(one.Players) != 4 {
		t.Errorf("round 1 = %+v, want table 1 seated, 1st with 10 VP and its breakdown, ranked 1st after it", one)
	}
	if two.Table != mine.Number || two.Seat != 0 || two.Placing != nil || two.Rank != 0 {
		t.Errorf("round 2 = %+v, want table %d, not seated, no result, no rank yet", two, mine.Number)
	}
	if diff := cmp.Diff([]int64{deduction.ID}, ids(two.Penalties)); diff != "" {
		t.Errorf("round 2's penalties shown (-want +got):\n%s", diff)
	}
	if h.Rank != 1 || h.Standing == nil || h.Standing.Played != 1 {
		t.Errorf("rank %d, standing %+v; want 1st after round 1", h.Rank, h.Standing)
	}
	if len(res.Rounds[0].Standings) == 0 || res.Rounds[1].Standings != nil {
		t.Errorf("standings after each round: %d after round 1, %v after round 2; want round 1's, none for round 2 (no result yet)",
			len(res.Rounds[0].Standings), res.Rounds[1].Standings)
	}
	if _, ok := res.PlayerHistory(players[0].ID + 1000); ok {
		t.Errorf("PlayerHistory(someone else) found a player")
	}
}

// ids lists the IDs of penalties.
func ids(ps []tournament.Penalty) []int64 {
	var out []int64
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// A mistaken registration deleted takes the person it added with it, and
// so does a tournament deleted; a returning person stays, with the events
// they played.
func TestDeletePlayerKeepsReturningPerson(t *testing.T) {
	c := newConsole(t)
	oct := c.event("10月定例会", "2025-10-18")
	nov := c.event("11月定例会", "2025-11-15")
	sato := c.register(oct.ID, tournament.PlayerInput{Name: "佐藤", Kana: "さとう"})
	again := c.register(nov.ID, tournament.PlayerInput{Name: "佐藤", Kana: "さとう"})
	typo := c.register(nov.ID, tournament.PlayerInput{Name: "佐籐", Kana: "さとー"})
	must(c.Svc.DeletePlayer(c.Ctx, "judge-a", nov.ID, again.ID)).OK(t)
	must(c.Svc.DeletePlayer(c.Ctx, "judge-a", nov.ID, typo.ID)).OK(t)
	if p, err := c.Svc.Person(c.Ctx, sato.PersonID); err != nil || p.EventsPlayed() != 1 {
		t.Errorf("Person(佐藤) = %+v, %v; want kept with October", p, err)
	}
	if _, err := c.Svc.Person(c.Ctx, typo.PersonID); err == nil {
		t.Errorf("the person of a deleted mistaken registration is still in the registry")
	}
	// A tournament created by mistake, deleted: its newcomers go with it,
	// and 佐藤, who played October, stays.
	dec := c.event("12月定例会", "2025-12-20")
	c.register(dec.ID, tournament.PlayerInput{Name: "佐藤", Kana: "さとう"})
	newcomer := c.register(dec.ID, tournament.PlayerInput{Name: "新人", Kana: "しんじん"})
	if err := c.Svc.DeleteTournament(c.Ctx, "judge-a", dec.ID); err != nil {
		t.Fatal(err)
	}
	if p, err := c.Svc.Person(c.Ctx, sato.PersonID); err != nil || p.EventsPlayed() != 1 {
		t.Errorf("Person(佐藤) after the deletion = %+v, %v; want kept with October", p, err)
	}
	if _, err := c.Svc.Person(c.Ctx, newcomer.PersonID); err == nil {
		t.Errorf("the newcomer of a deleted tournament is still in the registry")
	}
}
