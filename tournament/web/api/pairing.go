package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

type pairingPlayerJSON struct {
	ID         string `json:"id"`
	Standing   int    `json:"standing"`
	FixedTable int    `json:"fixed_table"`
}

type pairingRequest struct {
	Players   []pairingPlayerJSON `json:"players"`
	History   [][]string          `json:"history"`
	KeepApart [][2]string         `json:"keep_apart"`
	Mode      string              `json:"mode"`
	Rounds    int                 `json:"rounds"`
	Seed      *uint64             `json:"seed"`
	// Ruleset and Priority choose what a schedule puts first: Priority
	// ("spread" or "repeats") when given, else the ruleset's
	// event.schedule_priority (the server's default ruleset unless named).
	Ruleset  string `json:"ruleset"`
	Priority string `json:"priority"`
}

type PairedRoundJSON struct {
	Tables  [][]string `json:"tables"`
	Byes    []string   `json:"byes"`
	Repeats int        `json:"repeats"`
	Seed    uint64     `json:"seed"`
	Cost    costJSON   `json:"cost"`
}

type costJSON struct {
	Unfair    int64 `json:"unfair"`
	Meetings  int64 `json:"meetings"`
	Exposure  int64 `json:"exposure"`
	Standings int64 `json:"standings"`
}

type ScheduleJSON struct {
	Rounds  []PairedRoundJSON `json:"rounds"`
	Repeats int               `json:"repeats"`
	// LowerBound is the fewest repeats any schedule of the request can
	// have under its priority; Bound says what proves it.
	LowerBound int    `json:"lower_bound"`
	Bound      string `json:"bound"`
	Status     string `json:"status"`
	Priority   string `json:"priority"`
	// Other is the best-known figure under the other priority, where it
	// differs (a bare size of the table of best-known schedules).
	Other *FigureJSON `json:"other,omitempty"`
	Seed  uint64      `json:"seed"`
	Cost  costJSON    `json:"cost"`
}

// FigureJSON is what is known of a size's schedules under one priority.
type FigureJSON struct {
	Priority   string `json:"priority"`
	Repeats    int    `json:"repeats"`
	LowerBound int    `json:"lower_bound"`
	Bound      string `json:"bound"`
	Status     string `json:"status"`
}

func toScheduleJSON(sched pairing.Schedule) ScheduleJSON {
	out := ScheduleJSON{Repeats: sched.Repeats, LowerBound: sched.LowerBound.Repeats, Bound: string(sched.LowerBound.By),
		Status: string(sched.Status), Priority: string(sched.Priority), Seed: sched.Seed, Cost: costJSON(sched.Cost)}
	if o := sched.Other; o != nil {
		out.Other = &FigureJSON{Priority: string(o.Priority), Repeats: o.Repeats, LowerBound: o.LowerBound.Repeats,
			Bound: string(o.LowerBound.By), Status: string(o.Status)}
	}
	for _, r := range sched.Rounds {
		out.Rounds = append(out.Rounds, toPairedRoundJSON(r))
	}
	return out
}

func toPairedRoundJSON(r pairing.Round) PairedRoundJSON {
	out := PairedRoundJSON{Tables: r.Tables, Byes: r.Byes, Repeats: r.Repeats, Seed: r.Seed, Cost: costJSON(r.Cost)}
	if out.Byes == nil {
		out.Byes = []string{}
	}
	return out
}

// PairPlayers pairs one round (random or Swiss) or draws a whole schedule.
func (s *Handlers) PairPlayers(c *gin.Context) (int, any, error) {
	var req pairingRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	// Anyone may ask: the search is bounded well below the judges' own.
	preq := pairing.Request{History: req.History, KeepApart: req.KeepApart, Seed: seedOr(req.Seed), MaxEvals: s.PairingEvals}
	for _, p := range req.Players {
		preq.Players = append(preq.Players, pairing.Player{ID: p.ID, Standing: p.Standing, FixedTable: p.FixedTable})
	}
	var (
		r   pairing.Round
		err error
	)
	switch req.Mode {
	case "swiss", "":
		r, err = pairing.Swiss(preq)
	case "random":
		r, err = pairing.Random(preq)
	case "schedule":
		if preq.Priority, err = s.schedulePriority(req.Ruleset, req.Priority); err != nil {
			return 0, nil, err
		}
		sched, err := pairing.DrawSchedule(preq, req.Rounds)
		if err != nil {
			return 0, nil, err
		}
		return http.StatusOK, toScheduleJSON(sched), nil
	default:
		return 0, nil, &problem.BadRequest{ID: "error.mode", Detail: "mode " + req.Mode}
	}
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPairedRoundJSON(r), nil
}

// schedulePriority is the request's priority, or its ruleset's.
func (s *Handlers) schedulePriority(ruleset, priority string) (referee.SchedulePriority, error) {
	switch p := referee.SchedulePriority(priority); p {
	case referee.SpreadFirst, referee.RepeatsFirst:
		return p, nil
	case "":
	default:
		return "", &problem.BadRequest{ID: "error.priority", Detail: "priority " + priority}
	}
	rs, err := s.ruleset(ruleset)
	if err != nil {
		return "", err
	}
	return rs.WithDefaults().Event.SchedulePriority, nil
}
