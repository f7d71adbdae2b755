package kiosk

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// tablePage is a table on a player's phone: its players, and its open
// report to confirm or dispute, or the form to report it. What a report
// may hold is the service's to say (the judge's score sheet's checks):
// the page shows its refusal.
type tablePage struct {
	Lang, Title, Path string
	Heading           string
	TID               int64
	Name              string // the tournament's
	Round, Table      int
	Open              bool // the tournament takes players' reports
	Players           []tableSeat
	Report            *tournament.Report
	Declared          string // the report's declared winner, "" for time
	Status            string // the report's status in words
	HasResult         bool   // the judges' result is recorded
	Player            int64  // the player the form was sent for
	Error, Done       string
}

type tableSeat struct {
	ID        int64
	Name      string
	VP        string // as typed, or as reported
	Confirmed bool
}

// ShowTable shows round :n table :tn to its players.
func (s *Pages) ShowTable(c *gin.Context) (render.Result, error) {
	vm, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	return render.Show("report", vm), nil
}

// ReportTable takes a player's report of their table.
func (s *Pages) ReportTable(c *gin.Context) (render.Result, error) {
	vm, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	vm.Player, _ = strconv.ParseInt(c.PostForm("player"), 10, 64)
	in := tournament.ReportInput{Reason: c.PostForm("reason")}
	in.Declared, _ = strconv.ParseInt(c.PostForm("declared"), 10, 64)
	for i, p := range vm.Players {
		vm.Players[i].VP = c.PostForm("vp_" + strconv.FormatInt(p.ID, 10))
		vp, err := strconv.Atoi(vm.Players[i].VP)
		if err != nil {
			vp = -1 // the service refuses it with the sheet's own message
		}
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p.ID, VP: vp})
	}
	err = s.codes.Check(c, vm.TID, vm.Player, func() error {
		_, err := s.svc.ReportResult(c.Request.Context(), vm.TID, vm.Round, vm.Table, vm.Player, c.PostForm("code"), in)
		return err
	})
	return s.answered(c, vm, err, "report.sent")
}

// AnswerReport takes a player's confirmation (action=confirm) or dispute
// of their table's report.
func (s *Pages) AnswerReport(c *gin.Context) (render.Result, error) {
	vm, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	vm.Player, _ = strconv.ParseInt(c.PostForm("player"), 10, 64)
	id, _ := strconv.ParseInt(c.Param("report"), 10, 64)
	answer, done := s.svc.ConfirmReport, "report.confirmed"
	if c.PostForm("action") == "dispute" {
		answer, done = s.svc.DisputeReport, "report.disputed"
	}
	if vm.Report == nil || vm.Report.ID != id {
		return render.Result{}, fmt.Errorf("report %d of round %d table %d: %w", id, vm.Round, vm.Table, tournament.ErrNotFound)
	}
	err = s.codes.Check(c, vm.TID, vm.Player, func() error {
		_, err := answer(c.Request.Context(), vm.TID, id, vm.Player, c.PostForm("code"))
		return err
	})
	return s.answered(c, vm, err, done)
}

// answered shows the table after a player's form: the refusal next to
// the form, or the table as it is now with what was done.
func (s *Pages) answered(c *gin.Context, vm tablePage, err error, done string) (render.Result, error) {
	if err != nil {
		status, msg, _ := problem.Describe(s.i18n.In(vm.Lang), err)
		if status >= http.StatusInternalServerError {
			return render.Result{}, err
		}
		vm.Error = msg
		return render.ShowStatus(status, "report", vm), nil
	}
	now, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	now.Done = s.i18n.Text(vm.Lang, done, nil)
	return render.Show("report", now), nil
}

// tablePage reads the table the path names, with its open (or latest) report.
func (s *Pages) tablePage(c *gin.Context) (tablePage, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return tablePage{}, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), tid)
	if err != nil {
		return tablePage{}, err
	}
	rv, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return tablePage{}, err
	}
	if number < 1 || number > len(rv.Tables) {
		return tablePage{}, fmt.Errorf("round %d table %d: %w", n, number, tournament.ErrNotFound)
	}
	tv := rv.Tables[number-1]
	lang := s.i18n.Lang(c)
	vm := tablePage{
		Lang: lang, Path: c.Request.URL.RequestURI(), TID: tid, Name: t.Name, Round: n, Table: number,
		Title:     s.i18n.Text(lang, "report.title", map[string]any{"Round": n, "Table": number, "Name": t.Name}),
		Heading:   s.i18n.Text(lang, "report.heading", map[string]any{"Round": n, "Table": number}),
		Open:      t.SelfReport == tournament.SelfReportApprove || t.SelfReport == tournament.SelfReportAuto,
		HasResult: tv.Result != nil,
	}
	names := map[int64]string{}
	for _, p := range tv.Players {
		names[p.PlayerID] = p.Name
		vm.Players = append(vm.Players, tableSeat{ID: p.PlayerID, Name: p.Name})
	}
	reports, err := s.svc.Reports(c.Request.Context(), tid)
	if err != nil {
		return tablePage{}, err
	}
	for _, r := range reports {
		if r.Round == n && r.Table == number {
			vm.Report = &r
		}
	}
	if r := vm.Report; r != nil {
		vm.Declared = names[r.Declared]
		vm.Status = s.i18n.Text(lang, "reports.status_"+r.Status, map[string]any{
			"N": len(r.Confirmed), "M": len(r.Scores), "Name": names[r.DisputedBy], "Version": r.Version,
		})
		for i, p := range vm.Players {
			for _, sc := range r.Scores {
				if sc.PlayerID == p.ID {
					vm.Players[i].VP = strconv.Itoa(sc.VP)
				}
			}
			for _, id := range r.Confirmed {
				vm.Players[i].Confirmed = vm.Players[i].Confirmed || id == p.ID
			}
		}
	}
	return vm, nil
}
