// Package clock shows a round's clock as the pages show it: the time left
// as m:ss, what the clock is doing in words, the last minute and time up,
// and the placement under way. The console's round page and the players'
// kiosk show the same clock.
package clock

import (
	"fmt"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// Face is a round's clock as a page shows it.
type Face struct {
	State     string
	Remaining int // seconds
	// Deadline is when the time runs out, in ms since 1970 by the
	// server's clock (Deadline), for a page rendered once to count down to.
	Deadline int64
	Shown    string // m:ss, or the word for time up
	Label    string // what the clock is doing, in words
	Warn     bool   // the last minute
	Up       bool   // time is up
	// Placement is the placement under way, 「配置 5/8・残り0:41」, in
	// the placement phase (referee.Timing); "" otherwise.
	Placement string
}

// Show describes the clock c in p's language.
func Show(p i18n.Printer, c tournament.Clock) Face {
	f := Face{State: c.State, Remaining: Seconds(c.Remaining), Deadline: Deadline(c.At, c.Remaining)}
	f.Shown = Text(f.Remaining)
	f.Label = p.Text("kiosk.state_"+c.State, nil)
	switch {
	case c.State == tournament.ClockStopped:
		f.Shown = p.Text("kiosk.finished", nil)
	case c.State != tournament.ClockReady && f.Remaining == 0:
		f.Up = true
		f.Shown = p.Text("kiosk.time", nil)
	case c.State == tournament.ClockRunning && c.Remaining <= warnFrom:
		f.Warn = true
	}
	if ph := c.Phase; ph.Phase == tournament.PhasePlacement {
		f.Placement = p.Text("kiosk.placement", map[string]any{"K": ph.Placement, "N": ph.Placements, "T": Text(Seconds(ph.PhaseLeft))})
	}
	return f
}

// Text shows seconds as m:ss.
func Text(sec int) string { return fmt.Sprintf("%d:%02d", sec/60, sec%60) }

// Extension shows an extension as +m:ss, and none as "".
func Extension(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return "+" + Text(Seconds(d))
}

// Seconds rounds a time left up to whole seconds, so that a clock shows
// 0:00 only once the time is really up.
func Seconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// Deadline is the moment d after at, in milliseconds since 1970: where a
// count of the clock computed at at reaches zero, for a page to count down
// to (data-deadline) by the server's time, however long after at it shows.
func Deadline(at time.Time, d time.Duration) int64 { return at.Add(d).UnixMilli() }

// warnFrom is how much time is left when the clock shows the last minute.
const warnFrom = time.Minute

// Until is when the face of the clock c (computed at c.At) next looks
// different but for its countdowns, which the page counts down itself
// between the server's readings: when one of its counts reaches zero (the
// round's time, the placement under way, each table's time, a final
// table's turn, its end and the end's notice, notice before it), or the
// round enters its last minute. A page rendered at c.At shows the clock
// right until then. While the clock does not run nothing changes but by a
// change of the tournament: Until is zero.
func Until(c tournament.Clock, notice time.Duration) time.Time {
	if c.State != tournament.ClockRunning {
		return time.Time{}
	}
	var next time.Duration
	count := func(d time.Duration) {
		if d > 0 && (next == 0 || d < next) {
			next = d
		}
	}
	count(c.Remaining)
	count(c.Remaining - warnFrom)
	if c.Phase.Phase == tournament.PhasePlacement {
		count(c.PhaseLeft)
	}
	for _, t := range c.Tables {
		count(t.Remaining)
		if tl := t.Turns; tl != nil {
			count(tl.Remaining)
			count(tl.EndLeft)
			count(tl.EndLeft - notice)
		}
	}
	if next == 0 {
		return time.Time{}
	}
	return c.At.Add(next)
}
