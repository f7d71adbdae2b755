package tournament_test

import (
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// The record of an event where a late player's missed round counted as a
// last place checks, and imported it ranks everyone as the event did.
func TestRecordOfALateEntryChecks(t *testing.T) {
	rs := lateRuleset(t, "late-record", func(rs *referee.Ruleset) {
		rs.LateEntry = referee.LateEntry{Join: referee.LateFill, Missed: referee.MissedLastPlace}
	})
	c := newEventConsole(t, rs)
	tour, _ := c.enter(rs, 7, 2)
	must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
	must(c.svc.SetSeating(c.ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).ok(t)
	ids := c.latePlayers(tour, "遅刻 一郎")
	must(c.svc.SeatLate(c.ctx, "judge-b", tour.ID, 1, ids)).ok(t)
	c.play(tour, 1, []int{10, 7, 6, 4}, []int{10, 8, 5})
	must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
	c.play(tour, 2, []int{10, 9, 6, 3}, []int{10, 7, 7})
	rec := readRecordText(t, recordText(t, c, tour.ID))
	if check := tournament.CheckRecord(rec); len(check.Disagreements) > 0 {
		t.Errorf("the record of a late entry: disagreements %v, want none", check.Disagreements)
	}
	other := newConsole(t)
	imported := must(other.svc.ImportRecord(c.ctx, "審判長", "event.json", rec)).ok(t)
	want := must(c.svc.Standings(c.ctx, tour.ID)).ok(t)
	got := must(other.svc.Standings(c.ctx, imported.ID)).ok(t)
	for i := range want {
		if i >= len(got) || got[i].Name != want[i].Name || got[i].Played != want[i].Played || got[i].Points != want[i].Points {
			t.Errorf("imported standings line %d = %+v, want %+v", i, got[min(i, len(got)-1)], want[i])
		}
	}
}
