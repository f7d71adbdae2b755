package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// CallJSON is a judge call as the staff read it.
type CallJSON struct {
	ID         int64     `json:"id"`
	Round      int       `json:"round"`
	Table      int       `json:"table"`
	Player     int64     `json:"player"`
	Note       string    `json:"note"`
	Status     string    `json:"status"`
	At         time.Time `json:"at"`
	ClaimedBy  string    `json:"claimed_by,omitempty"`
	Resolution string    `json:"resolution,omitempty"`
}

func toCallJSON(c tournament.Call) CallJSON {
	return CallJSON{ID: c.ID, Round: c.Round, Table: c.Table, Player: c.PlayerID, Note: c.Note, Status: c.Status, At: c.At,
		ClaimedBy: c.ClaimedBy, Resolution: c.Resolution}
}

type callRequest struct {
	playerCodeRequest
	Table int    `json:"table"`
	Note  string `json:"note"`
}

// CallJudge records a player's call for a judge at their table of the
// latest round, with their code (counted as a check-in's guesses are):
// 201 {"id","status"}; a table with a call waiting answers that call.
func (s *Handlers) CallJudge(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req callRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	var call tournament.Call
	err = s.codes.Check(c, tid, req.Player, func() (err error) {
		call, err = s.svc.CallJudge(c.Request.Context(), tid, req.Player, req.Code, req.Table, req.Note)
		return err
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, gin.H{"id": call.ID, "status": call.Status}, nil
}

// ListCalls answers {"calls":[...]}, the oldest first.
func (s *Handlers) ListCalls(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	calls, err := s.svc.Calls(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := []CallJSON{}
	for _, call := range calls {
		out = append(out, toCallJSON(call))
	}
	return http.StatusOK, gin.H{"calls": out}, nil
}

// ClaimCall answers a call: 200 the call, claimed by the account.
func (s *Handlers) ClaimCall(c *gin.Context) (int, any, error) {
	return s.answerCall(c, func(tid, id int64) (tournament.Call, error) {
		return s.svc.ClaimCall(c.Request.Context(), auth.Judge(c), tid, id)
	})
}

// EscalateCall passes a call to the head judges: 200 the call.
func (s *Handlers) EscalateCall(c *gin.Context) (int, any, error) {
	return s.answerCall(c, func(tid, id int64) (tournament.Call, error) {
		return s.svc.EscalateCall(c.Request.Context(), auth.Judge(c), tid, id)
	})
}

type resolveRequest struct {
	Note string `json:"note"`
}

// ResolveCall closes a call with what was decided: 200 the call.
func (s *Handlers) ResolveCall(c *gin.Context) (int, any, error) {
	var req resolveRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	return s.answerCall(c, func(tid, id int64) (tournament.Call, error) {
		return s.svc.ResolveCall(c.Request.Context(), auth.Judge(c), tid, id, req.Note)
	})
}

// answerCall reads the :call of the tournament the path names and
// answers what answer makes of it.
func (s *Handlers) answerCall(c *gin.Context, answer func(tid, id int64) (tournament.Call, error)) (int, any, error) {
	tid, id, err := route.IDs(c, "call")
	if err != nil {
		return 0, nil, err
	}
	call, err := answer(tid, id)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toCallJSON(call), nil
}

type confirmRequest struct {
	Version int    `json:"version"`
	Reason  string `json:"reason"`
}

// ConfirmResult confirms a result entered under the two-person rule: 200
// the revision with its "confirmed_by"; 409 confirm-self for the account
// that entered it (a head may, with a "reason"), stale-result for a
// version no longer the latest.
func (s *Handlers) ConfirmResult(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req confirmRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	res, err := s.svc.ConfirmResult(c.Request.Context(), auth.Judge(c), auth.Role(c) == tournament.RoleHead, tid, n, number, req.Version, req.Reason)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toRevisionJSON(res), nil
}

type deviceRequest struct {
	Record bool `json:"record"`
}

// OpenDevice opens a table device: 201 {"url","expires_at"}; the link
// opens the table's turn page (and its record page with "record").
func (s *Handlers) OpenDevice(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req deviceRequest
	if c.Request.ContentLength != 0 {
		if err := decodeJSON(c, &req); err != nil {
			return 0, nil, err
		}
	}
	in, url := s.devices.New(req.Record)
	d, err := s.svc.OpenDevice(c.Request.Context(), auth.Judge(c), tid, n, number, in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, gin.H{"url": url, "expires_at": d.Expires.UTC().Format(time.RFC3339)}, nil
}

// RevokeDevices ends the table's devices, on every server: 204.
func (s *Handlers) RevokeDevices(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	if err := s.svc.RevokeDevices(c.Request.Context(), auth.Judge(c), tid, n, number); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}
