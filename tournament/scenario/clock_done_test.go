package scenario_test

import (
	"errors"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// Issue 24, defect 3: once every table of the round has its result the
// round is over, whatever time is left: the clock is done and stands
// where it did at the last result, read however much later.
func TestClockAtDoneWithEveryResult(t *testing.T) {
	g := tournament.GameTime{Play: 7 * time.Minute}
	start := ev(tournament.ClockStart, at(0, 0))
	result := func(m, s int) *tournament.Result { return &tournament.Result{Version: 1, At: at(m, s)} }
	tables := []tournament.Table{
		{ID: 11, Number: 1, Result: result(2, 10), ResultAt: at(2, 10)},
		{ID: 12, Number: 2, Result: result(6, 50), ResultAt: at(3, 11)}, // corrected at 6:50
	}
	for _, now := range []time.Time{at(3, 11), at(5, 0), at(20, 0)} {
		c := tournament.ClockAt([]tournament.ClockEvent{start}, g, tables, now)
		if c.State != tournament.ClockDone || c.Remaining != 3*time.Minute+49*time.Second {
			t.Errorf("ClockAt(%v) = %s with %v left, want done with the 3m49s left at the last result", now.Sub(t0), c.State, c.Remaining)
		}
		for _, tc := range c.Tables {
			if tc.Status != tournament.TableFinished {
				t.Errorf("ClockAt(%v): table %d is %s, want finished", now.Sub(t0), tc.Number, tc.Status)
			}
		}
	}
	// A table without a result: the clock counts on.
	open := append([]tournament.Table{{ID: 13, Number: 3}}, tables...)
	if c := tournament.ClockAt([]tournament.ClockEvent{start}, g, open, at(5, 0)); c.State != tournament.ClockRunning || c.Remaining != 2*time.Minute {
		t.Errorf("ClockAt with a table playing = %s with %v left, want running with 2m0s", c.State, c.Remaining)
	}
	// A round never started is over too once its results are in.
	if c := tournament.ClockAt(nil, g, tables, at(5, 0)); c.State != tournament.ClockDone || c.Remaining != g.Play {
		t.Errorf("ClockAt unstarted with every result = %s with %v left, want done with the whole game time", c.State, c.Remaining)
	}
}

// The service's clock of a round whose tables all have their results:
// done at the last one, read later and after a correction alike, and the
// judge's pause, resumption and extension refused with 409 round-done.
func TestClockDoneRefusesActions(t *testing.T) {
	c := newClockConsole(t)
	tour, _ := c.SetUp(8, 3)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	c.At = at(2, 10)
	c.Save(tour, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	c.At = at(3, 11)
	c.Save(tour, 1, 2, 0, []int{10, 8, 6, 4}, 0, "")
	c.At = at(6, 0)
	c.Save(tour, 1, 2, 1, []int{10, 7, 6, 4}, 0, "VP typo")
	for _, now := range []time.Time{at(6, 0), at(30, 0)} {
		c.At = now
		clk := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Timer
		if clk.State != tournament.ClockDone || clk.Remaining != 3*time.Minute+49*time.Second {
			t.Errorf("the clock at %v: %s with %v left, want done with the 3m49s left at the last result", now.Sub(t0), clk.State, clk.Remaining)
		}
	}
	for _, in := range []tournament.ClockInput{
		{Action: tournament.ClockPause},
		{Action: tournament.ClockResume},
		{Action: tournament.ClockExtend, Seconds: 60, Reason: "ruling"},
		{Action: tournament.ClockExtend, Table: 1, Seconds: 60, Reason: "ruling"},
	} {
		_, err := c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, in)
		var v *referee.Violation
		if !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || v.Code != "round-done" {
			t.Errorf("ClockAction(%+v) once the round is done: error = %v, want the conflict round-done", in, err)
		}
	}
}
