package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/clock"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// ClockJSON is a round's clock as the API and the kiosk read it. The
// server's clock is the reference: remaining_seconds is computed from the
// recorded facts at the moment of the request, and a page counts down
// from it locally until its next fetch.
type ClockJSON struct {
	State            string           `json:"state"`    // ready, running, paused, over, done (every table has its result) or stopped
	Deadline         *time.Time       `json:"deadline"` // the round's time signal; null while ready
	RemainingSeconds int              `json:"remaining_seconds"`
	GameSeconds      int              `json:"game_seconds"`
	ExtensionSeconds int              `json:"extension_seconds"` // the whole round's extensions
	Phase            string           `json:"phase"`             // placement, play or turns
	Placement        *placementJSON   `json:"placement"`         // null outside the placement phase
	Tables           []tableClockJSON `json:"tables"`
}

type tableClockJSON struct {
	Number           int            `json:"number"`
	Deadline         *time.Time     `json:"deadline"`
	RemainingSeconds int            `json:"remaining_seconds"`
	ExtensionSeconds int            `json:"extension_seconds"` // this table's own extensions
	Status           string         `json:"status"`            // ready, playing, finished or over
	Phase            string         `json:"phase"`
	Placement        *placementJSON `json:"placement"`
	Turns            *turnsJSON     `json:"turns"` // a final table's turn limit; null before it
}

// placementJSON is the placement under way: 「配置 5/8・残り0:41」.
type placementJSON struct {
	Number           int `json:"number"`
	Of               int `json:"of"`
	RemainingSeconds int `json:"remaining_seconds"`
}

type turnsJSON struct {
	LimitSeconds        int           `json:"limit_seconds"`
	Turn                int           `json:"turn"`
	Player              int64         `json:"player"` // 0 when not known
	RemainingSeconds    int           `json:"remaining_seconds"`
	OverSeconds         int           `json:"over_seconds"`
	Overruns            []overrunJSON `json:"overruns"`
	End                 *time.Time    `json:"end"` // null until the judge sets it
	EndRemainingSeconds int           `json:"end_remaining_seconds"`
	Announce            bool          `json:"announce"`
}

type overrunJSON struct {
	Turn        int   `json:"turn"`
	Player      int64 `json:"player"`
	OverSeconds int   `json:"over_seconds"`
}

func placementOf(p tournament.Phase) *placementJSON {
	if p.Phase != tournament.PhasePlacement {
		return nil
	}
	return &placementJSON{Number: p.Placement, Of: p.Placements, RemainingSeconds: clock.Seconds(p.PhaseLeft)}
}

func turnsOf(t *tournament.TurnClock) *turnsJSON {
	if t == nil {
		return nil
	}
	out := &turnsJSON{
		LimitSeconds: clock.Seconds(t.Limit), Turn: t.Turn, Player: t.Player, RemainingSeconds: clock.Seconds(t.Remaining),
		OverSeconds: int(t.Over / time.Second), Overruns: []overrunJSON{}, End: deadlineJSON(t.End),
		EndRemainingSeconds: clock.Seconds(t.EndLeft), Announce: t.Announce,
	}
	for _, o := range t.Overruns {
		out.Overruns = append(out.Overruns, overrunJSON{Turn: o.Turn, Player: o.Player, OverSeconds: int(o.By / time.Second)})
	}
	return out
}

func deadlineJSON(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func toClockJSON(c tournament.Clock) *ClockJSON {
	out := &ClockJSON{
		State:            c.State,
		Deadline:         deadlineJSON(c.Deadline),
		RemainingSeconds: clock.Seconds(c.Remaining),
		GameSeconds:      clock.Seconds(c.GameLength),
		ExtensionSeconds: clock.Seconds(c.Extension),
		Phase:            c.Phase.Phase,
		Placement:        placementOf(c.Phase),
		Tables:           []tableClockJSON{},
	}
	for _, t := range c.Tables {
		out.Tables = append(out.Tables, tableClockJSON{
			Number: t.Number, Deadline: deadlineJSON(t.Deadline), RemainingSeconds: clock.Seconds(t.Remaining),
			ExtensionSeconds: clock.Seconds(t.Extension), Status: t.Status,
			Phase: t.Phase.Phase, Placement: placementOf(t.Phase), Turns: turnsOf(t.Turns),
		})
	}
	return out
}

// clockRequest is a judge's action on the clock.
type clockRequest struct {
	Action  string `json:"action"` // start, pause, resume, extend, turn or end
	Table   int    `json:"table"`  // extend: the table, or 0 for the whole round; turn, end: the table
	Seconds int    `json:"seconds"`
	Reason  string `json:"reason"`
	Player  int64  `json:"player"` // turn: whose turn begins, or 0 for the next in play order
}

func (s *Handlers) ShowClock(c *gin.Context) (int, any, error) {
	v, err := s.liveRound(c)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toClockJSON(v.Timer), nil
}

func (s *Handlers) RecordClock(c *gin.Context) (int, any, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req clockRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.ClockInput(req)
	clock, err := s.svc.ClockAction(c.Request.Context(), auth.Judge(c), tid, n, in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toClockJSON(clock), nil
}
