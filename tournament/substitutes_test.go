package tournament_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// A helper sits in at the short table of round 1 and wins it: the others'
// places are as played (the 2nd stays 2nd), and the helper's game counts
// for nobody or at the ruleset's fixed value, a 4th with 0 VP
// (testdata/substitute-*.golden). The helper is never paired.
func TestSubstituteSitsIn(t *testing.T) {
	for _, count := range referee.SubstituteCounts {
		t.Run(string(count), func(t *testing.T) {
			rs := lateRuleset(t, "substitute-"+string(count), func(rs *referee.Ruleset) { rs.Substitutes.Count = count })
			c := newEventConsole(t, rs)
			tour, _ := c.enter(rs, 7, 2)
			helper := c.latePlayers(tour, "助っ人")[0]
			if _, err := c.Svc.SitIn(c.Ctx, "judge-a", tour.ID, 1, 2, helper); !errors.Is(err, tournament.ErrNotFound) {
				t.Errorf("SitIn before round 1 = %v, want not found", err)
			}
			must(c.Svc.MarkSubstitute(c.Ctx, "judge-a", tour.ID, helper, true)).OK(t)
			r1 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			if slices.ContainsFunc(r1.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, helper) }) {
				t.Fatal("round 1 paired the substitute")
			}
			short := r1.Tables[slices.IndexFunc(r1.Tables, func(tb tournament.Table) bool { return len(tb.Players) == 3 })].Number
			if _, err := c.Svc.SitIn(c.Ctx, "judge-a", tour.ID, 1, 3-short, helper); code(err) != "sit-in-table-full" {
				t.Errorf("SitIn at the table of 4 = %v, want sit-in-table-full", err)
			}
			tb := must(c.Svc.SitIn(c.Ctx, "judge-a", tour.ID, 1, short, helper)).OK(t)
			if len(tb.Players) != 4 || tb.Players[3] != helper {
				t.Errorf("table after SitIn = %v, want the helper 4th", tb.Players)
			}
			// The helper is last in pairing order at the short table, and
			// declares: 1st; the three players are 2nd, 3rd and 4th as played.
			r := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round
			for _, t4 := range r.Tables {
				if t4.Number == short {
					c.Save(tour, 1, t4.Number, 0, []int{8, 6, 5, 10}, 3, "")
				} else {
					c.Save(tour, 1, t4.Number, 0, []int{10, 7, 6, 4}, 0, "")
				}
			}
			r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			if slices.ContainsFunc(r2.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, helper) }) {
				t.Error("round 2 paired the substitute")
			}
			c.play(tour, 2, []int{10, 9, 6, 3}, []int{10, 7, 7})
			tournamenttest.Golden(t, filepath.Join("testdata", "substitute-"+string(count)+".golden"), c.lateStandingsText(tour), *update)
			c.mustAudit(tour, tournament.ActionSitIn, `"Player":`)
			c.recordChecksAndImports(t, tour)
			if _, err := c.Svc.MarkSubstitute(c.Ctx, "judge-a", tour.ID, r2.Tables[0].Players[0], true); code(err) != "substitute-has-played" {
				t.Errorf("marking a player who played = %v, want substitute-has-played", err)
			}
		})
	}
}

// A player who does not come to their table of 4 is taken from it and
// dropped from the next round; their seat counts as the ruleset says
// (testdata/no-show-*.golden). A table of 3 keeps its three.
func TestNoShow(t *testing.T) {
	for _, effect := range referee.Misseds {
		t.Run(string(effect), func(t *testing.T) {
			rs := lateRuleset(t, "no-show-"+string(effect), func(rs *referee.Ruleset) { rs.NoShow = effect })
			c := newEventConsole(t, rs)
			tour, _ := c.enter(rs, 7, 2)
			r1 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			var four, three tournament.Table
			for _, tb := range r1.Tables {
				if len(tb.Players) == 4 {
					four = tb
				} else {
					three = tb
				}
			}
			must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, four.Number, tournament.SeatingInput{Auto: true})).OK(t)
			if _, err := c.Svc.NoShow(c.Ctx, "judge-a", tour.ID, 1, three.Number, three.Players[0]); code(err) != "no-show-table-of-3" {
				t.Errorf("a no-show at the table of 3 = %v, want no-show-table-of-3", err)
			}
			if _, err := c.Svc.NoShow(c.Ctx, "judge-a", tour.ID, 1, four.Number, three.Players[0]); code(err) != "no-show-not-at-table" {
				t.Errorf("a no-show of another table's player = %v, want no-show-not-at-table", err)
			}
			absent := four.Players[3]
			p := must(c.Svc.NoShow(c.Ctx, "judge-b", tour.ID, 1, four.Number, absent)).OK(t)
			if p.NoShowRound != 1 || p.DroppedRound != 2 {
				t.Errorf("no-show = %+v, want round 1 and dropped from round 2", p)
			}
			tb := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round.Tables[four.Number-1]
			if len(tb.Players) != 3 || slices.Contains(tb.Players, absent) || tb.Seating != nil {
				t.Errorf("table after the no-show = %v seated %v, want the three left, to seat again", tb.Players, tb.Seating != nil)
			}
			c.play(tour, 1, []int{10, 7, 6, 4}, []int{10, 8, 5})
			r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			if slices.ContainsFunc(r2.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, absent) }) {
				t.Error("round 2 paired the no-show")
			}
			c.play(tour, 2, []int{10, 9, 6, 3}, []int{10, 7, 7})
			tournamenttest.Golden(t, filepath.Join("testdata", "no-show-"+string(effect)+".golden"), c.lateStandingsText(tour), *update)
			c.mustAudit(tour, tournament.ActionNoShow, `"NoShowRound":1`)
			c.recordChecksAndImports(t, tour)
		})
	}
}
