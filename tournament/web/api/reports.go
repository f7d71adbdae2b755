package api

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// ReportJSON is a players' report of a table's result.
type ReportJSON struct {
	Report     int64         `json:"report"`
	Status     string        `json:"status"`
	ReportedBy int64         `json:"reported_by"`
	Scores     []IdScoreJSON `json:"scores"`
	Declared   *int64        `json:"declared"`
	Reason     string        `json:"reason,omitempty"`
	Confirmed  []int64       `json:"confirmed"`
	DisputedBy int64         `json:"disputed_by,omitempty"`
	Version    int           `json:"version,omitempty"` // the revision it became
}

func toReportJSON(r tournament.Report) ReportJSON {
	return ReportJSON{Report: r.ID, Status: r.Status, ReportedBy: r.ReportedBy, Scores: toScoresJSON(r.Scores), Declared: declaredJSON(r.Declared),
		Reason: r.Reason, Confirmed: r.Confirmed, DisputedBy: r.DisputedBy, Version: r.Version}
}

// reportRequest is a player's report: who they are, and the sheet.
type reportRequest struct {
	playerCodeRequest
	Scores   []IdScoreJSON `json:"scores"`
	Declared *int64        `json:"declared"`
	Reason   string        `json:"reason"`
}

// ReportResult takes a player's report of their table: 201 {"report",
// "status": "awaiting-confirmation"}; the judge's score sheet's refusals
// (422), a wrong code (422, counted), a table with a judge's result (409).
func (s *Handlers) ReportResult(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	var req reportRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	in := tournament.ReportInput{Reason: req.Reason}
	if req.Declared != nil {
		in.Declared = *req.Declared
	}
	for _, sc := range req.Scores {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: sc.Player, VP: sc.VP})
	}
	var r tournament.Report
	err = s.codes.Check(c, tid, req.Player, func() (err error) {
		r, err = s.svc.ReportResult(c.Request.Context(), tid, n, number, req.Player, req.Code, in)
		return err
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, gin.H{"report": r.ID, "status": r.Status}, nil
}

// ConfirmReport records a player's confirmation: 200 {"report","status"}.
func (s *Handlers) ConfirmReport(c *gin.Context) (int, any, error) {
	return s.answerReport(c, s.svc.ConfirmReport)
}

// DisputeReport records a player's dispute: 200 {"report","status":
// "disputed"}.
func (s *Handlers) DisputeReport(c *gin.Context) (int, any, error) {
	return s.answerReport(c, s.svc.DisputeReport)
}

func (s *Handlers) answerReport(c *gin.Context, answer func(ctx context.Context, tournamentID, reportID, player int64, code string) (tournament.Report, error)) (int, any, error) {
	tid, r, err := s.tableReport(c)
	if err != nil {
		return 0, nil, err
	}
	var req playerCodeRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	err = s.codes.Check(c, tid, req.Player, func() (err error) {
		r, err = answer(c.Request.Context(), tid, r.ID, req.Player, req.Code)
		return err
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, gin.H{"report": r.ID, "status": r.Status}, nil
}

// AcceptReport saves a confirmed report as the table's result (a judge):
// 200 {"report","status":"accepted","version"}; 409 when the table has a
// judge's sheet or the report is not confirmed.
func (s *Handlers) AcceptReport(c *gin.Context) (int, any, error) {
	tid, r, err := s.tableReport(c)
	if err != nil {
		return 0, nil, err
	}
	if r, err = s.svc.AcceptReport(c.Request.Context(), auth.Judge(c), tid, r.ID); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, gin.H{"report": r.ID, "status": r.Status, "version": r.Version}, nil
}

// ListReports answers a table's reports, oldest first, for the players
// who confirm them.
func (s *Handlers) ListReports(c *gin.Context) (int, any, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, nil, err
	}
	rs, err := s.svc.Reports(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := []ReportJSON{}
	for _, r := range rs {
		if r.Round == n && r.Table == number {
			out = append(out, toReportJSON(r))
		}
	}
	return http.StatusOK, gin.H{"reports": out}, nil
}

// tableReport reads the :report of the table the path names.
func (s *Handlers) tableReport(c *gin.Context) (int64, tournament.Report, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return 0, tournament.Report{}, err
	}
	id, err := route.ID(c, "report")
	if err != nil {
		return 0, tournament.Report{}, err
	}
	r, err := s.svc.GetReport(c.Request.Context(), tid, id)
	if err == nil && (r.Round != n || r.Table != number) {
		err = fmt.Errorf("report %d of round %d table %d: %w", id, n, number, tournament.ErrNotFound)
	}
	return tid, r, err
}
