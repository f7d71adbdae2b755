package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// playerCodeRequest names a player and carries their code: what a player's
// phone sends for what they do themselves.
type playerCodeRequest struct {
	Player int64  `json:"player"`
	Code   string `json:"code"`
}

// SelfCheckIn checks a player in with their code, when the tournament lets
// players check themselves in: 200 with the player; 422 player-code-wrong
// for a wrong code (counted against the address and the player), 429 once
// either has guessed wrong too often.
func (s *Handlers) SelfCheckIn(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req playerCodeRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	var p tournament.Player
	err = s.codes.Check(c, tid, req.Player, func() (err error) {
		p, err = s.svc.SelfCheckIn(c.Request.Context(), tid, req.Player, req.Code)
		return err
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPlayerJSON(p), nil
}
