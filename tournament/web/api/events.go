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
