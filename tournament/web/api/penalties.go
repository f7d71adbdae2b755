package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

type penaltyRequest struct {
	Player  int64  `json:"player"`
	Round   int    `json:"round"`
	Table   int    `json:"table"`
	Offence string `json:"offence"`
	Level   string `json:"level"`
	Note    string `json:"note"`
}

type PenaltyJSON struct {
	ID      int64           `json:"id"`
	Player  int64           `json:"player"`
	Round   int             `json:"round"`
	Table   int             `json:"table"`
	Offence string          `json:"offence"`
	Level   string          `json:"level"`
	Judge   string          `json:"judge"`
	Note    string          `json:"note"`
	Revoked *revocationJSON `json:"revoked"`
}

type revocationJSON struct {
	Judge  string `json:"judge"`
	Reason string `json:"reason"`
}

func (s *Handlers) RecordPenalty(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req penaltyRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.svc.RecordPenalty(c.Request.Context(), auth.Judge(c), tid, tournament.PenaltyInput{
		PlayerID: req.Player, Round: req.Round, Table: req.Table, Offence: req.Offence, Level: referee.Level(req.Level), Note: req.Note,
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, toPenaltyJSON(p), nil
}

func toPenaltyJSON(p tournament.Penalty) PenaltyJSON {
	out := PenaltyJSON{
		ID: p.ID, Player: p.PlayerID, Round: p.Round, Table: p.Table, Offence: p.Offence,
		Level: string(p.Level), Judge: p.Judge, Note: p.Note,
	}
	if p.Revoked != nil {
		out.Revoked = &revocationJSON{Judge: p.Revoked.Judge, Reason: p.Revoked.Reason}
	}
	return out
}

func (s *Handlers) ListPenalties(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	ps, err := s.svc.Penalties(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := make([]PenaltyJSON, len(ps))
	for i, p := range ps {
		out[i] = toPenaltyJSON(p)
	}
	return http.StatusOK, gin.H{"penalties": out}, nil
}

func (s *Handlers) RevokePenalty(c *gin.Context) (int, any, error) {
	tid, id, err := route.IDs(c, "penalty")
	if err != nil {
		return 0, nil, err
	}
	var req reasonRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	p, err := s.svc.RevokePenalty(c.Request.Context(), auth.Judge(c), tid, id, req.Reason)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toPenaltyJSON(p), nil
}
