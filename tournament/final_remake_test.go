package tournament_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// Issue 24, defect 4: the final is made again, with the judge's reason,
// until it has a result: a finalist dropped since is replaced by the next
// in the standings, the stage is seated anew and whatever was recorded at
// its table goes (its seating, its clock); the audit log keeps the reason.
func TestRemakeFinal(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) {})
	c := newEventConsole(t, rs)
	tour, _ := c.enter(rs, 8, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	c.play(tour, 1, []int{10, 8, 6, 4}, nil)
	if _, err := c.Svc.RemakeFinal(c.Ctx, "judge-a", tour.ID, "早すぎる"); code(err) != "final-not-made" {
		t.Errorf("RemakeFinal before the final: error %v, want final-not-made", err)
	}
	first := must(c.Svc.MakeFinal(c.Ctx, "judge-a", tour.ID)).OK(t)
	must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 2, 1, tournament.SeatingInput{Auto: true})).OK(t)
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 2, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	if _, err := c.Svc.RemakeFinal(c.Ctx, "judge-a", tour.ID, " "); code(err) != "remake-reason-missing" || !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("RemakeFinal without a reason: error %v, want remake-reason-missing", err)
	}
	gone := first.Tables[0].Players[3]
	must(c.Svc.DropPlayer(c.Ctx, "judge-a", tour.ID, gone)).OK(t)
	again := must(c.Svc.RemakeFinal(c.Ctx, "judge-a", tour.ID, "体調不良で棄権")).OK(t)
	if again.Number != 2 || again.Mode != tournament.ModeFinal || slices.Contains(again.Tables[0].Players, gone) || len(again.Tables[0].Players) != 4 || again.Cut.Seed == first.Cut.Seed {
		t.Errorf("the final made again = %+v (seed %d, was %d; %d dropped), want round 2 of 4 without the dropped player, with a new seed", again, again.Cut.Seed, first.Cut.Seed, gone)
	}
	rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 2)).OK(t)
	if rv.Tables[0].Table.Seating != nil || len(rv.Clock) != 0 || rv.Timer.State != tournament.ClockReady {
		t.Errorf("the final made again keeps its old seating %v or clock %v", rv.Tables[0].Table.Seating, rv.Clock)
	}
	if log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t); log[0].Action != "final.remake" || !strings.Contains(log[0].After, "体調不良で棄権") {
		t.Errorf("the audit log's last line = %s %s, want final.remake with the reason", log[0].Action, log[0].After)
	}
	if _, err := c.Svc.RepairRound(c.Ctx, "judge-a", tour.ID, 2); code(err) != "repair-final" {
		t.Errorf("RepairRound(the final) error %v, want repair-final", err)
	}
	c.At = c.At.Add(time.Minute)
	c.Save(tour, 2, 1, 0, []int{10, 8, 6, 4}, 0, "")
	if _, err := c.Svc.RemakeFinal(c.Ctx, "judge-a", tour.ID, "遅すぎる"); code(err) != "final-has-result" || !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("RemakeFinal once the final has a result: error %v, want the conflict final-has-result", err)
	}
}
