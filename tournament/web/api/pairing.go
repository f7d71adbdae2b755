package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

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
	Seed    uint64            `json:"seed"`
	Cost    costJSON          `json:"cost"`
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
		sched, err := pairing.DrawSchedule(preq, req.Rounds)
		if err != nil {
			return 0, nil, err
		}
		out := ScheduleJSON{Repeats: sched.Repeats, Seed: sched.Seed, Cost: costJSON(sched.Cost)}
		for _, r := range sched.Rounds {
			out.Rounds = append(out.Rounds, toPairedRoundJSON(r))
		}
		return http.StatusOK, out, nil
	default:
		return 0, nil, &problem.BadRequest{ID: "error.mode", Detail: "mode " + req.Mode}
	}
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPairedRoundJSON(r), nil
}
