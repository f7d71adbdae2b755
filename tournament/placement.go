package tournament

import (
	"fmt"
	"time"
)

// endPlacement ends table i's placement phase where it stands (ClockAt):
// docs/rules.md (The national rules preset) paces the initial placement
// at a minute a settlement, a placement not made in its minute skipped;
// ruling (the rules are silent, issue 24): a table that has placed every settlement
// before its time is up starts its play time at once, the placement time
// left taken off its clock, as a negative extension. Once no table of the
// round is placing any more, the round's own count, paced for its largest
// table, starts its play time too.
func endPlacement(round *budget, each []budget, i int, g GameTime, seats int, tables []Table) {
	skipPlacement(&each[i], g.Placements(len(tables[i].Players)))
	for k, t := range tables {
		if b := each[k]; !b.out && b.cur < g.Placements(len(t.Players)) {
			return
		}
	}
	skipPlacement(round, g.Placements(seats))
}

// skipPlacement moves the count b, of placements placements, to its play
// time, unless it is there already.
func skipPlacement(b *budget, placements int) {
	if b.out || b.cur >= placements {
		return
	}
	for k := b.cur; k < placements; k++ {
		b.left[k] = 0
	}
	b.cur = placements
}

// checkPlacementEnd validates the end of a table's placement (a judge's
// action on the table, ClockPlacementEnd) while the clock runs and the
// table is placing, and fills it into e, with the placement time it takes
// off the table's clock as a negative number of seconds.
func checkPlacementEnd(c Clock, g GameTime, n int, in ClockInput, e *ClockEvent) error {
	args := map[string]any{"Round": n, "Table": in.Table}
	tc, ok := c.Table(in.Table)
	switch {
	case !ok:
		return invalid("clock-no-table", fmt.Sprintf("round %d has no table %d", n, in.Table), args)
	case tc.Status == TableFinished:
		return invalid("extension-finished", fmt.Sprintf("%s already has a result", tableSubject(n, in.Table)), args)
	case tc.Status == TableOver:
		return invalid("extension-time-up", fmt.Sprintf("the time of %s is up (§12)", tableSubject(n, in.Table)), args)
	case c.State != ClockRunning:
		return invalid("clock-not-running", fmt.Sprintf("the clock of round %d is not running", n), map[string]any{"Round": n})
	case tc.Phase.Phase != PhasePlacement:
		return invalid("placement-not-under-way", fmt.Sprintf("%s is not placing: its play time has started", tableSubject(n, in.Table)), args)
	}
	left := tc.PhaseLeft + time.Duration(tc.Placements-tc.Placement)*g.PerSettlement
	e.TableID, e.Seconds = tc.TableID, -int((left+time.Second-1)/time.Second)
	return nil
}
