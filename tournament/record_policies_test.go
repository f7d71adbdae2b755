package tournament_test

import (
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
)

// recordChecksAndImports fails t unless the record of tour checks and,
// imported into another database, ranks everyone as the event does: the
// record carries what a policy of issue 30 (a late entry, a substitute, a
// no-show) changed.
func (c *console) recordChecksAndImports(t *testing.T, tour tournament.Tournament) {
	t.Helper()
	rec := readRecordText(t, recordText(t, c, tour.ID))
	if check := tournament.CheckRecord(rec); len(check.Disagreements) > 0 {
		t.Errorf("the record: disagreements %v, want none", check.Disagreements)
	}
	other := newConsole(t)
	imported := must(other.Svc.ImportRecord(c.Ctx, "審判長", "event.json", rec)).OK(t)
	want := must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t)
	got := must(other.Svc.Standings(c.Ctx, imported.ID)).OK(t)
	if len(got) != len(want) {
		t.Fatalf("imported standings have %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Played != want[i].Played || got[i].Points != want[i].Points || got[i].VP != want[i].VP {
			t.Errorf("imported standings line %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// A team event's record carries its teams: imported, they rank as the
	// event's did.
	if tour.Team {
		if got, want := teamStandingsText(t, other, imported.ID), teamStandingsText(t, c, tour.ID); got != want || want == "" {
			t.Errorf("imported team standings:\n%s\nwant\n%s", got, want)
		}
	}
}

// The record of an event where a late player's missed round counted as a
// last place checks, and imported it ranks everyone as the event did.
func TestRecordOfALateEntryChecks(t *testing.T) {
	rs := lateRuleset(t, "late-record", func(rs *referee.Ruleset) {
		rs.LateEntry = referee.LateEntry{Join: referee.LateFill, Missed: referee.MissedLastPlace}
	})
	c := newEventConsole(t, rs)
	tour, _ := c.enter(rs, 7, 2)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Auto: true})).OK(t)
	ids := c.latePlayers(tour, "遅刻 一郎")
	must(c.Svc.SeatLate(c.Ctx, "judge-b", tour.ID, 1, ids)).OK(t)
	c.play(tour, 1, []int{10, 7, 6, 4}, []int{10, 8, 5})
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.play(tour, 2, []int{10, 9, 6, 3}, []int{10, 7, 7})
	c.recordChecksAndImports(t, tour)
	// A way of joining no ruleset knows is refused, naming the player.
	text := recordText(t, c, tour.ID)
	bad := strings.Replace(text, `"late_join": "next-round"`, `"late_join": "someday"`, 1)
	if bad == text {
		t.Fatalf("the record does not say how the late player joined:\n%s", text)
	}
	f := must(recordfile.Read(strings.NewReader(bad))).OK(t)
	if _, _, err := f.Record(); err == nil || !strings.Contains(err.Error(), "someday") {
		t.Errorf("a record with late_join someday = %v, want it refused", err)
	}
}
