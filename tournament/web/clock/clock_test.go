package clock

import (
	"fmt"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// face is what a page of the clock shows but for its countdowns: the
// state, the last minute and time up, the placement under way, and each
// table's status and turn limit (over, announced, ended).
func face(c tournament.Clock, notice time.Duration) string {
	s := fmt.Sprintf("%s up=%v warn=%v phase=%s/%d", c.State, c.Remaining == 0, c.Remaining <= warnFrom, c.Phase.Phase, c.Phase.Placement)
	for _, t := range c.Tables {
		s += fmt.Sprintf(" | %d %s up=%v", t.Number, t.Status, t.TimeUp)
		if tl := t.Turns; tl != nil {
			s += fmt.Sprintf(" turn=%d over=%v announce=%v ended=%v notice=%v", tl.Turn, tl.Remaining == 0, tl.Announce,
				!tl.End.IsZero() && tl.EndLeft == 0, tl.EndLeft > notice)
		}
	}
	return s
}

// Until is exact: from any moment of a round, the face of the clock stays
// as it is until Until, and changes there, unless a judge's action comes
// first (a change of the tournament, which renders the page again
// anyway). Checked at every 200 ms of a round with placements, a table's
// extension and a pause, and of a final table under the turn limit with
// turns passed and an end set.
func TestUntilIsWhenTheFaceChanges(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	four, three := []int64{1, 2, 3, 4}, []int64{5, 6, 7}
	rounds := []struct {
		name   string
		g      tournament.GameTime
		tables []tournament.Table
		events []tournament.ClockEvent
		span   time.Duration
	}{
		{"a qualifying round", tournament.GameTime{PerSettlement: 20 * time.Second, Play: 3 * time.Minute},
			[]tournament.Table{{ID: 11, Number: 1, Players: four}, {ID: 12, Number: 2, Players: three}, {ID: 13, Number: 3, Players: four}},
			[]tournament.ClockEvent{
				{Kind: tournament.ClockStart, At: at(0)},
				{Kind: tournament.ClockExtend, TableID: 12, Seconds: 45, At: at(time.Minute)},
				{Kind: tournament.ClockPause, At: at(2 * time.Minute)},
				{Kind: tournament.ClockResume, At: at(150 * time.Second)},
				{Kind: tournament.ClockExtend, Seconds: 30, At: at(4 * time.Minute)},
			}, 9 * time.Minute},
		{"a final table", tournament.GameTime{Play: 2 * time.Minute, TurnLimit: time.Minute, EndNotice: 2 * time.Minute},
			[]tournament.Table{{ID: 21, Number: 1, Players: four}},
			[]tournament.ClockEvent{
				{Kind: tournament.ClockStart, At: at(0)},
				{Kind: tournament.ClockTurn, TableID: 21, PlayerID: 2, At: at(150 * time.Second)},
				{Kind: tournament.ClockEnd, TableID: 21, Seconds: 300, At: at(3 * time.Minute)},
				{Kind: tournament.ClockTurn, TableID: 21, At: at(320 * time.Second)},
			}, 10 * time.Minute},
	}
	for _, r := range rounds {
		clockAt := func(now time.Time) tournament.Clock { return tournament.ClockAt(r.events, r.g, r.tables, now) }
		nextEvent := func(now time.Time) time.Time {
			for _, e := range r.events {
				if e.At.After(now) {
					return e.At
				}
			}
			return at(24 * time.Hour)
		}
		boundaries := 0
		for d := -10 * time.Second; d < r.span; d += 200 * time.Millisecond {
			now := at(d)
			c := clockAt(now)
			shown := face(c, r.g.EndNotice)
			until, next := Until(c, r.g.EndNotice), nextEvent(now)
			if until.IsZero() {
				if c.State == tournament.ClockRunning {
					t.Errorf("%s at %v: the clock runs, and Until says nothing changes", r.name, d)
				}
				if got := face(clockAt(next.Add(-time.Millisecond)), r.g.EndNotice); got != shown {
					t.Errorf("%s at %v: Until says nothing changes, but before the next action the face is\n%s\nnot\n%s", r.name, d, got, shown)
				}
				continue
			}
			if !until.After(now) {
				t.Fatalf("%s at %v: Until = %v, not after now", r.name, d, until.Sub(t0))
			}
			// Until then, or a judge's action if it comes first, the face
			// stays as it is.
			end := until
			if next.Before(until) {
				end = next
			}
			for _, then := range []time.Time{now.Add(end.Sub(now) / 3), now.Add(end.Sub(now) * 2 / 3), end.Add(-time.Millisecond)} {
				if got := face(clockAt(then), r.g.EndNotice); then.After(now) && got != shown {
					t.Errorf("%s at %v: before Until (%v) the face at %v is\n%s\nnot\n%s", r.name, d, until.Sub(t0), then.Sub(t0), got, shown)
				}
			}
			if !until.Before(next) {
				continue
			}
			if face(clockAt(until), r.g.EndNotice) == shown {
				t.Errorf("%s at %v: at Until (%v) the face is still %s", r.name, d, until.Sub(t0), shown)
			}
			boundaries++
		}
		if boundaries < 100 {
			t.Errorf("%s: %d moments checked against a change, want the round's many", r.name, boundaries)
		}
	}
}
