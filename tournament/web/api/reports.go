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
	LateReason string        `json:"late_reason,omitempty"`
	Confirmed  []int64       `json:"confirmed"`
	DisputedBy int64         `json:"disputed_by,omitempty"`
	// Dispute is what the disputing player said: their version of the
	// sheet (scores and declared, when they gave one) and their note.
	Dispute *DisputeJSON `json:"dispute,omitempty"`
	Version int          `json:"version,omitempty"` // the revision it became
	// Side is the version of the report that became it: "reported" or
	// "disputed" (absent for a report accepted before sides were kept).
	Side string `json:"side,omitempty"`
}

// DisputeJSON is a disputing player's version of their table's result.
type DisputeJSON struct {
	Scores     []IdScoreJSON `json:"scores,omitempty"`
	Declared   *int64        `json:"declared"`
	Reason     string        `json:"reason,omitempty"`
	LateReason string        `json:"late_reason,omitempty"`
	Note       string        `json:"note,omitempty"`
}

func toReportJSON(r tournament.Report) ReportJSON {
	out := ReportJSON{Report: r.ID, Status: r.Status, ReportedBy: r.ReportedBy, Scores: toScoresJSON(r.Scores), Declared: declaredJSON(r.Declared),
		Reason: r.Reason, LateReason: r.LateReason, Confirmed: r.Confirmed, DisputedBy: r.DisputedBy, Version: r.Version, Side: r.Side}
	if d := r.Dispute; d != nil {
		out.Dispute = &DisputeJSON{Reason: d.Reason, LateReason: d.LateReason, Note: d.Note}
		if d.HasVersion() {
			out.Dispute.Scores, out.Dispute.Declared = toScoresJSON(d.Scores), declaredJSON(d.Declared)
		}
	}
	return out
}

// reportRequest is a player's report: who they are, and the sheet, each
// score as the score sheet's PUT takes it (the VP, the breakdown, or both).
type reportRequest struct {
	playerCodeRequest
	sheetRequest
}

// sheetRequest is a players' version of a table's result.
type sheetRequest struct {
	Scores     []ScoreRequest `json:"scores"`
	Declared   *int64         `json:"declared"`
	Reason     string         `json:"reason"`
	LateReason string         `json:"late_reason"`
}

func (r sheetRequest) input() tournament.ReportInput {
	in := tournament.ReportInput{Scores: scoresOf(r.Scores), Reason: r.Reason, LateReason: r.LateReason}
	if r.Declared != nil {
		in.Declared = *r.Declared
	}
	return in
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
	var r tournament.Report
	err = s.codes.Check(c, tid, req.Player, func() (err error) {
		r, err = s.svc.ReportResult(c.Request.Context(), tid, n, number, req.Player, req.Code, req.input())
		return err
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, gin.H{"report": r.ID, "status": r.Status}, nil
}

// ConfirmReport records a player's confirmation: 200 {"report","status"}.
func (s *Handlers) ConfirmReport(c *gin.Context) (int, any, error) {
	var req playerCodeRequest
	return s.answerReport(c, &req, &req, func(ctx context.Context, tid, id int64) (tournament.Report, error) {
		return s.svc.ConfirmReport(ctx, tid, id, req.Player, req.Code)
	})
}

// disputeRequest is a player's dispute: who they are, and, optionally,
// their own version of the sheet and a note for the judge.
type disputeRequest struct {
	playerCodeRequest
	sheetRequest
	Note string `json:"note"`
}

// DisputeReport records a player's dispute, with their version of the
// sheet if they give one: 200 {"report","status":"disputed"}; a version
// is refused as a report is (422), and when it is the report's own
// (report-dispute-same).
func (s *Handlers) DisputeReport(c *gin.Context) (int, any, error) {
	var req disputeRequest
	return s.answerReport(c, &req, &req.playerCodeRequest, func(ctx context.Context, tid, id int64) (tournament.Report, error) {
		return s.svc.DisputeReport(ctx, tid, id, req.Player, req.Code, tournament.DisputeInput{ReportInput: req.input(), Note: req.Note})
	})
}

// answerReport reads the report the path names and the body into req,
// whose player and code are who, and answers with what answer makes of
// it, the code's guesses counted.
func (s *Handlers) answerReport(c *gin.Context, req any, who *playerCodeRequest, answer func(ctx context.Context, tid, id int64) (tournament.Report, error)) (int, any, error) {
	tid, r, err := s.tableReport(c)
	if err != nil {
		return 0, nil, err
	}
	if err := decodeJSON(c, req); err != nil {
		return 0, nil, err
	}
	err = s.codes.Check(c, tid, who.Player, func() (err error) {
		r, err = answer(c.Request.Context(), tid, r.ID)
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
	// The table from the kiosk's kept reads, then its own reports by its
	// ID: a public read that never decodes the whole event's reports.
	rv, err := s.live.Round(c.Request.Context(), tid, n)
	if err != nil {
		return 0, nil, err
	}
	if number < 1 || number > len(rv.Tables) {
		return 0, nil, fmt.Errorf("round %d table %d: %w", n, number, tournament.ErrNotFound)
	}
	rs, err := s.svc.TableReports(c.Request.Context(), tid, rv.Tables[number-1].Table.ID)
	if err != nil {
		return 0, nil, err
	}
	out := []ReportJSON{}
	for _, r := range rs {
		out = append(out, toReportJSON(r))
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
