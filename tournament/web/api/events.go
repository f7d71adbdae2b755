package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Events as they really go (issue 30): disqualifications with their
// effect on the games played.

// DisqualificationJSON is a player's disqualification.
type DisqualificationJSON struct {
	// Effect is what it did to the games the player played: "keep",
	// "remove" or "void".
	Effect string `json:"effect"`
	Reason string `json:"reason"`
}

func toDisqualificationJSON(p tournament.Player) *DisqualificationJSON {
	if p.DQEffect == "" {
		return nil
	}
	return &DisqualificationJSON{Effect: string(p.DQEffect), Reason: p.DQReason}
}

type disqualifyRequest struct {
	Reason string `json:"reason"`
	// Effect left out takes the ruleset's.
	Effect string `json:"effect"`
}

// Disqualify disqualifies a player: 200 with the player, their
// disqualification's effect and reason.
func (s *Handlers) Disqualify(c *gin.Context) (int, any, error) {
	tid, pid, err := route.IDs(c, "pid")
	if err != nil {
		return 0, nil, err
	}
	var req disqualifyRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.DisqualifyInput{Reason: req.Reason, Effect: referee.DQEffect(req.Effect)}
	p, err := s.svc.Disqualify(c.Request.Context(), auth.Judge(c), tid, pid, in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}

// UndoneRoundJSON says what undoing or restoring a round took away or
// put back.
type UndoneRoundJSON struct {
	Round     int    `json:"round"`
	Tables    int    `json:"tables"`
	Results   int    `json:"results"`
	Reports   int    `json:"reports"`
	Penalties int    `json:"penalties"`
	GameMoves int    `json:"game_moves"`
	Rulings   int    `json:"rulings"`
	Reason    string `json:"reason,omitempty"`
}

func toUndoneRoundJSON(u tournament.UndoneRound) UndoneRoundJSON {
	return UndoneRoundJSON{Round: u.Round, Tables: u.Tables, Results: u.Results, Reports: u.Reports,
		Penalties: u.Penalties, GameMoves: u.GameMoves, Rulings: u.Rulings, Reason: u.Reason}
}

// UndoRound undoes the latest round: 200 with what went; the body
// {"reason"} may be left out while nothing was recorded at its tables.
func (s *Handlers) UndoRound(c *gin.Context) (int, any, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req reasonRequest
	if c.Request.ContentLength != 0 {
		if err := decodeJSON(c, &req); err != nil {
			return 0, nil, err
		}
	}
	u, err := s.svc.UndoRound(c.Request.Context(), auth.Judge(c), auth.Role(c), tid, n, req.Reason)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toUndoneRoundJSON(u), nil
}

// RestoreRound puts an undone round back: 200 with what came back.
func (s *Handlers) RestoreRound(c *gin.Context) (int, any, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return 0, nil, err
	}
	u, err := s.svc.RestoreRound(c.Request.Context(), auth.Judge(c), tid, n)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toUndoneRoundJSON(u), nil
}
