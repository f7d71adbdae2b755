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

// selfCheckInJSON is the answer to a player's self check-in: who checked
// in, and no more. A code proves only that its holder is the player, so
// the judges' arrangements (kept apart, a fixed table, the registry's
// person) are not theirs to read.
type selfCheckInJSON struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	CheckedIn bool   `json:"checked_in"`
}

// SelfCheckIn checks a player in with their code, when the tournament lets
// players check themselves in: 200 with who checked in; 422 player-code-wrong
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
	return http.StatusOK, selfCheckInJSON{ID: p.ID, Name: p.Name, CheckedIn: p.CheckedIn}, nil
}
