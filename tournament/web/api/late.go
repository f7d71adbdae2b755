package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Late entries, substitutes and no-shows (issue 30).

// LateSeatingJSON says what entering late players did in a round.
type LateSeatingJSON struct {
	Round     int            `json:"round"`
	Join      string         `json:"join"`
	Missed    string         `json:"missed"`
	Seated    []LateSeatJSON `json:"seated"`
	NextRound []int64        `json:"next_round"`
}

// LateSeatJSON is a late player seated in the round.
type LateSeatJSON struct {
	Player   int64 `json:"player"`
	Table    int   `json:"table"`
	NewTable bool  `json:"new_table"`
}

type lateRequest struct {
	Players []int64 `json:"players"`
}

// SeatLate enters late players in the latest round: 200 with where they
// sit, or that they start from the next round.
func (s *Handlers) SeatLate(c *gin.Context) (int, any, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req lateRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	l, err := s.svc.SeatLate(c.Request.Context(), auth.Judge(c), tid, n, req.Players)
	if err != nil {
		return 0, nil, err
	}
	out := LateSeatingJSON{Round: l.Round, Join: string(l.Join), Missed: string(l.Missed), Seated: []LateSeatJSON{}, NextRound: []int64{}}
	for _, st := range l.Seated {
		out.Seated = append(out.Seated, LateSeatJSON{Player: st.Player, Table: st.Table, NewTable: st.NewTable})
	}
	out.NextRound = append(out.NextRound, l.Next...)
	return http.StatusOK, out, nil
}

type substituteRequest struct {
	Substitute bool `json:"substitute"`
}

// MarkSubstitute marks a player a substitute, or a player again: 200 with
// the player.
func (s *Handlers) MarkSubstitute(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	var req substituteRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.svc.MarkSubstitute(c.Request.Context(), auth.Judge(c), tid, pid, req.Substitute)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

type tablePlayerRequest struct {
	Player int64 `json:"player"`
}

// SitInJSON is a table a substitute sat in at.
type SitInJSON struct {
	Round   int     `json:"round"`
	Table   int     `json:"table"`
	Players []int64 `json:"players"`
}

// SitIn seats a substitute at a table of 3: 200 with the table's players.
func (s *Handlers) SitIn(c *gin.Context) (int, any, error) {
	tid, n, number, req, err := tablePlayer(c)
	if err != nil {
		return 0, nil, err
	}
	t, err := s.svc.SitIn(c.Request.Context(), auth.Judge(c), tid, n, number, req.Player)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, SitInJSON{Round: n, Table: t.Number, Players: t.Players}, nil
}

// NoShow takes a player who did not come from their table: 200 with the
// player, dropped from the next round.
func (s *Handlers) NoShow(c *gin.Context) (int, any, error) {
	tid, n, number, req, err := tablePlayer(c)
	if err != nil {
		return 0, nil, err
	}
	p, err := s.svc.NoShow(c.Request.Context(), auth.Judge(c), tid, n, number, req.Player)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

// tablePlayer reads a table's path and a {"player"} body.
func tablePlayer(c *gin.Context) (int64, int, int, tablePlayerRequest, error) {
	var req tablePlayerRequest
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, 0, 0, req, err
	}
	return tid, n, number, req, decodeJSON(c, &req)
}
