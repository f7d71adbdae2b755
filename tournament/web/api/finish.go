package api

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// TournamentDetailJSON is one tournament as GET .../{id} answers it, and
// the calls that change it: TournamentJSON with who won it.
type TournamentDetailJSON struct {
	TournamentJSON
	// Winners are the players who won the tournament once it is finished
	// (tournament.Service.Winners): the final's 1st place where a final
	// was played, else the standings' 1st; several when they share it;
	// empty before.
	Winners []int64 `json:"winners"`
}

// detailOf is t as GET .../{id} answers it: its winners are read once it
// is finished, through the kiosk's shared read of the tournament.
func (s *Handlers) detailOf(ctx context.Context, t tournament.Tournament) (TournamentDetailJSON, error) {
	out := TournamentDetailJSON{TournamentJSON: toTournamentJSON(t), Winners: []int64{}}
	if t.Closed == nil {
		return out, nil
	}
	l, err := s.live.Live(ctx, t.ID)
	if err != nil {
		return TournamentDetailJSON{}, err
	}
	for _, w := range l.Winners {
		out.Winners = append(out.Winners, w.PlayerID)
	}
	return out, nil
}

// answer is the status and the body of a call that answers the tournament
// t as GET .../{id} does.
func (s *Handlers) answer(ctx context.Context, status int, t tournament.Tournament) (int, any, error) {
	out, err := s.detailOf(ctx, t)
	if err != nil {
		return 0, nil, err
	}
	return status, out, nil
}

// RemakeFinal makes the final's latest stage again, before any of its
// tables has a result: 200 with the stage as POST .../final answers it;
// 422 remake-reason-missing; 409 final-not-made, final-has-result.
func (s *Handlers) RemakeFinal(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req reasonRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	r, err := s.svc.RemakeFinal(c.Request.Context(), auth.Judge(c), tid, req.Reason)
	if err != nil {
		return 0, nil, err
	}
	v, err := s.svc.RoundView(c.Request.Context(), tid, r.Number)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toFinalJSON(v), nil
}
