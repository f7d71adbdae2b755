package scenario_test

import (
	"errors"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// Issue 24, defect 6: a table that has placed every settlement ends its
// placement early, and its play time starts then: the placement time
// left comes off its clock; the round's own count, paced for its largest
// table, starts its play time once no table is placing.
func TestClockAtPlacementEnded(t *testing.T) {
	g := tournament.GameTime{PerSettlement: time.Minute, Play: 60 * time.Minute}
	tables := []tournament.Table{{ID: 11, Number: 1, Players: []int64{1, 2, 3, 4}}, {ID: 12, Number: 2, Players: []int64{5, 6, 7, 8}}}
	start := ev(tournament.ClockStart, at(0, 0))
	// Table 1 ends its placement halfway through the 6th of 8.
	end1 := tournament.ClockEvent{Kind: tournament.ClockPlacementEnd, TableID: 11, Seconds: -150, At: at(5, 30)}
	c := tournament.ClockAt([]tournament.ClockEvent{start, end1}, g, tables, at(6, 0))
	t1, _ := c.Table(1)
	t2, _ := c.Table(2)
	if t1.Phase.Phase != tournament.PhasePlay || t1.Remaining != 59*time.Minute+30*time.Second || !t1.Deadline.Equal(at(65, 30)) {
		t.Errorf("table 1 after its placement's end: %s, %v left to %v; want play, 59m30s to 65:30", t1.Phase.Phase, t1.Remaining, t1.Deadline.Sub(t0))
	}
	if t2.Phase.Phase != tournament.PhasePlacement || t2.Placement != 7 || !t2.Deadline.Equal(at(68, 0)) {
		t.Errorf("table 2, still placing: %s %d/8 to %v; want placement 7/8 to 68:00", t2.Phase.Phase, t2.Placement, t2.Deadline.Sub(t0))
	}
	if c.Phase.Phase != tournament.PhasePlacement || !c.Deadline.Equal(at(68, 0)) {
		t.Errorf("the round with a table placing: %s to %v, want placement to 68:00", c.Phase.Phase, c.Deadline.Sub(t0))
	}
	// Table 2 ends its placement at the start of the 8th: the round plays.
	end2 := tournament.ClockEvent{Kind: tournament.ClockPlacementEnd, TableID: 12, Seconds: -60, At: at(7, 0)}
	c = tournament.ClockAt([]tournament.ClockEvent{start, end1, end2}, g, tables, at(10, 0))
	t2, _ = c.Table(2)
	if t2.Phase.Phase != tournament.PhasePlay || !t2.Deadline.Equal(at(67, 0)) || c.Phase.Phase != tournament.PhasePlay || !c.Deadline.Equal(at(67, 0)) {
		t.Errorf("every table playing: table 2 %s to %v, the round %s to %v; want play to 67:00 for both",
			t2.Phase.Phase, t2.Deadline.Sub(t0), c.Phase.Phase, c.Deadline.Sub(t0))
	}
	// An end of placement once its play time runs changes nothing.
	late := tournament.ClockEvent{Kind: tournament.ClockPlacementEnd, TableID: 11, At: at(9, 0)}
	if again := tournament.ClockAt([]tournament.ClockEvent{start, end1, end2, late}, g, tables, at(10, 0)); !again.Tables[0].Deadline.Equal(at(65, 30)) {
		t.Errorf("a second end of table 1's placement moved its signal to %v", again.Tables[0].Deadline.Sub(t0))
	}
}

// The judge ends a table's placement through the service: refused before
// the clock runs, recorded with the placement time taken off (a negative
// extension) and audited, then refused once the table plays.
func TestPlacementEndAction(t *testing.T) {
	c := newClockConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "地区予選", Ruleset: "national-2025", Rounds: 3})).OK(t)
	for _, nm := range names[:8] {
		must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name, Kana: nm.Kana, CheckedIn: true})).OK(t)
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	act, refused := clockActions(t, c, tour.ID, 1)
	end := tournament.ClockInput{Action: tournament.ClockPlacementEnd, Table: 2}
	refused("before the start", end, "clock-not-running")
	must(act(tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	refused("a table not there", tournament.ClockInput{Action: tournament.ClockPlacementEnd, Table: 9}, "clock-no-table")
	c.At = at(6, 20) // placement 7 of 8, 40 seconds of it left
	clk := must(act(end)).OK(t)
	if tc, _ := clk.Table(2); tc.Phase.Phase != tournament.PhasePlay || !tc.Deadline.Equal(at(66, 20)) {
		t.Errorf("table 2 after its placement's end: %s to %v, want play to 66:20", tc.Phase.Phase, tc.Deadline.Sub(t0))
	}
	refused("once the table plays", end, "placement-not-under-way")
	rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	if e := rv.Clock[len(rv.Clock)-1]; e.Kind != tournament.ClockPlacementEnd || e.Seconds != -100 || e.TableID != rv.Round.Tables[1].ID || e.Judge != "judge-a" {
		t.Errorf("the placement's end recorded as %+v, want -100 s at table 2 by judge-a", e)
	}
	if log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t); log[0].Action != "clock.placement-end" || log[0].Subject != "round 1 table 2" {
		t.Errorf("the audit log's last line: %s (%s), want clock.placement-end of round 1 table 2", log[0].Action, log[0].Subject)
	}
}

// clockActions acts on round n's clock as judge-a, and checks that an
// action is refused with the violation code.
func clockActions(t *testing.T, c *console, tid int64, n int) (func(tournament.ClockInput) (tournament.Clock, error), func(string, tournament.ClockInput, string)) {
	act := func(in tournament.ClockInput) (tournament.Clock, error) {
		return c.Svc.ClockAction(c.Ctx, "judge-a", tid, n, in)
	}
	refused := func(name string, in tournament.ClockInput, code string) {
		t.Helper()
		_, err := act(in)
		var v *referee.Violation
		if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != code {
			t.Errorf("%s: ClockAction(%+v) error = %v, want the violation %q", name, in, err, code)
		}
	}
	return act, refused
}
