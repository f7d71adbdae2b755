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
	Remaining int    // seconds
	Shown     string // m:ss, or the word for time up
	Label     string // what the clock is doing, in words
	Warn      bool   // the last minute
	Up        bool   // time is up
	// Placement is the time to the round's signal in the placement
	// phase (referee.Timing), 「試合終了まで68:41」, shown beside the
	// placement's own countdown, which is then the big number (Remaining,
	// Shown) and Label names (「配置 1/8の残り」); "" otherwise.
	Placement string
	Total     int // the seconds to the round's signal, in the placement phase
	// Turns says a final table plays on turn by turn after the game time
	// (TurnLimit): the big number is its turn's countdown, not time up.
	Turns bool
	// Still says the page counts nothing down: Shown stands as it is (a
	// turn past its limit, +0:12).
	Still bool
}

// Show describes the clock c in p's language.
func Show(p i18n.Printer, c tournament.Clock) Face {
	f := Face{State: c.State, Remaining: Seconds(c.Remaining)}
	f.Shown = Text(f.Remaining)
	f.Label = p.Text("kiosk.state_"+c.State, nil)
	switch {
	case c.State == tournament.ClockStopped:
		f.Shown = p.Text("kiosk.finished", nil)
	case c.State == tournament.ClockDone:
		// Every table has its result: the round is over, and says so
		// rather than the time left (issue 24).
		f.Shown = p.Text("clock.done", nil)
	case c.State != tournament.ClockReady && f.Remaining == 0:
		f.Up = true
		f.Shown = p.Text("kiosk.time", nil)
	case c.State == tournament.ClockRunning && f.Remaining <= 60:
		f.Warn = true
	}
	if f.Up {
		f = turnLimit(p, f, c)
	}
	if ph, ok := Placing(c); ok {
		// Issue 24: the placement under way is what the room watches; the
		// time to the signal is said beside it.
		f.Total = f.Remaining
		f.Placement = p.Text("kiosk.placement_total", map[string]any{"T": Text(f.Total)})
		f.Remaining = Seconds(ph.PhaseLeft)
		f.Shown = Text(f.Remaining)
		f.Label = p.Text("clock.placement_left", map[string]any{"K": ph.Placement, "N": ph.Placements})
	}
	return f
}

// turnLimit is the face f of a clock c whose time is up while a final
// table plays on turn by turn (national rules): players read red 時間です
// as the game over, so it says 決勝卓 手番制限中 with the turn's countdown
// of the one table so playing, or only that turns are limited when
// several are, each table's card counting its own.
func turnLimit(p i18n.Printer, f Face, c tournament.Clock) Face {
	var turns []*tournament.TurnClock
	for _, t := range c.Tables {
		if t.Turns != nil && t.Status == tournament.TablePlaying {
			turns = append(turns, t.Turns)
		}
	}
	if len(turns) == 0 {
		return f
	}
	f.Up, f.Turns, f.Label = false, true, p.Text("clock.turn_limit", nil)
	switch tl := turns[0]; {
	case len(turns) > 1 || tl.Player == 0:
		f.Shown, f.Still = p.Text("clock.turns_big", nil), true
		if len(turns) > 1 {
			f.Label = p.Text("clock.turns_each", nil)
		}
	case tl.Over > 0:
		f.Remaining, f.Shown, f.Still = 0, "+"+Text(Seconds(tl.Over)), true
	default:
		f.Remaining = Seconds(tl.Remaining)
		f.Shown = Text(f.Remaining)
	}
	return f
}

// Placing returns the placement under way on the clock c, when it shows
// one: in the placement phase (referee.Timing) of a round still played.
func Placing(c tournament.Clock) (tournament.Phase, bool) {
	ph := c.Phase
	return ph, ph.Phase == tournament.PhasePlacement && c.State != tournament.ClockDone && c.State != tournament.ClockStopped
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
