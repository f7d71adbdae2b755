package console

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// reportLine is a players' report of a table of the round, in the judges'
// queue on the round page: what the players entered, who confirmed, the
// disputing player's version beside it with the differences marked, and
// beside a disputed or conflicting one, the judge's sheet.
type reportLine struct {
	ID, Table  int
	Status     string // the status's words
	Code       string // tournament.Report.Status, for the page's styling
	ReportedBy string
	Lines      []reportScore
	Declared   string // the declared winner's name; "" when ended by time
	Acceptable bool   // confirmed by every player, no judge's sheet: the accept button
	Judge      *judgeSheet
	// Reasons are the reasons of §12 the report and the dispute gave, and
	// the disputing player's note, in words.
	Reasons []string
	// Dispute is the disputing player's side; nil when nobody disputed.
	Dispute *disputeSide
	// OpenReported and OpenDisputed open the table's score sheet filled in
	// with either version, while the report waits for a judge; "" when
	// not offered.
	OpenReported, OpenDisputed string
}

type reportScore struct {
	Name      string
	VP        int
	Breakdown string // the breakdown in words, "" for none
	Confirmed bool
	// Disputed is the VP the disputing player gives, with its breakdown,
	// and Differs whether it is not the report's.
	Disputed          int
	DisputedBreakdown string
	Differs           bool
}

// disputeSide is who disputed a report and what they gave besides VP.
type disputeSide struct {
	By              string
	Version         bool   // they gave their own sheet: the lines show both
	Declared        string // the winner they give, "" for time
	DeclaredDiffers bool
}

// judgeSheet is the judge's latest sheet of a reported table, shown beside
// the report.
type judgeSheet struct {
	Version int
	Lines   []reportScore
}

// reportLines lists round n's reports that a judge should see: every
// report but those accepted long ago is kept (accepted ones show as done).
func (s *Pages) reportLines(ctx context.Context, lang string, tid int64, n int, rv tournament.RoundView) ([]reportLine, error) {
	rs, err := s.svc.Reports(ctx, tid)
	if err != nil {
		return nil, err
	}
	ps, err := s.svc.Players(ctx, tid)
	if err != nil {
		return nil, err
	}
	names := tournament.Labels(ps)
	var out []reportLine
	for _, r := range rs {
		if r.Round == n {
			out = append(out, s.reportLine(lang, tid, r, rv, names))
		}
	}
	return out, nil
}

// reportLine is report r as the round page shows it.
func (s *Pages) reportLine(lang string, tid int64, r tournament.Report, rv tournament.RoundView, names map[int64]string) reportLine {
	p := s.i18n.In(lang)
	l := reportLine{ID: int(r.ID), Table: r.Table, Code: r.Status, ReportedBy: names[r.ReportedBy], Declared: names[r.Declared]}
	l.Status = p.Text("reports.status_"+r.Outcome(), map[string]any{
		"N": len(r.Confirmed), "M": len(r.Scores), "Name": names[r.DisputedBy], "Reporter": names[r.ReportedBy], "Version": r.Version,
	})
	differs, declaredDiffers := r.Differs()
	disputed := map[int64]tournament.Score{}
	if d := r.Dispute; r.DisputedBy != 0 {
		l.Dispute = &disputeSide{By: names[r.DisputedBy]}
		if d.HasVersion() {
			l.Dispute.Version, l.Dispute.Declared, l.Dispute.DeclaredDiffers = true, names[d.Declared], declaredDiffers
			for _, sc := range d.Scores {
				disputed[sc.PlayerID] = sc
			}
		}
	}
	for _, sc := range r.Scores {
		line := reportScore{Name: names[sc.PlayerID], VP: sc.VP, Breakdown: sheet.Said(p, sc.Breakdown), Confirmed: slices.Contains(r.Confirmed, sc.PlayerID)}
		if d, ok := disputed[sc.PlayerID]; ok {
			line.Disputed, line.DisputedBreakdown, line.Differs = d.VP, sheet.Said(p, d.Breakdown), differs[sc.PlayerID]
		}
		l.Lines = append(l.Lines, line)
	}
	l.Reasons = reportReasons(p, r)
	for _, tv := range rv.Tables {
		if res := tv.Table.Result; tv.Table.Number == r.Table && res != nil && r.Status != tournament.ReportAccepted {
			js := &judgeSheet{Version: res.Version}
			for _, sc := range res.Scores {
				js.Lines = append(js.Lines, reportScore{Name: names[sc.PlayerID], VP: sc.VP})
			}
			l.Judge = js
		}
	}
	for _, tv := range rv.Tables {
		if tv.Table.Number == r.Table && r.Superseded(tv.Table.Result) {
			l.Code = "superseded"
			l.Status = p.Text("reports.status_superseded", map[string]any{"Version": tv.Table.Result.Version})
		}
	}
	l.Acceptable = r.Status == tournament.ReportConfirmed && l.Judge == nil
	if r.Status == tournament.ReportConfirmed || r.Status == tournament.ReportDisputed {
		sheetURL := route.Path(route.Score, tid, r.Round, r.Table) + fmt.Sprintf("?report=%d&side=", r.ID)
		l.OpenReported = sheetURL + tournament.SideReported
		if r.Dispute.HasVersion() {
			l.OpenDisputed = sheetURL + tournament.SideDisputed
		}
	}
	return l
}

// reportReasons are the reasons of §12 a report and its dispute gave,
// and the disputing player's note, in p's language.
func reportReasons(p i18n.Printer, r tournament.Report) []string {
	var out []string
	add := func(id, reason string) {
		if reason != "" {
			out = append(out, p.Text(id, map[string]any{"Reason": reason, "Note": reason}))
		}
	}
	add("reports.reason", r.Reason)
	add("reports.late_reason", r.LateReason)
	if d := r.Dispute; d != nil {
		add("reports.reason", d.Reason)
		add("reports.late_reason", d.LateReason)
		add("reports.note", d.Note)
	}
	return out
}

// AcceptReport saves a confirmed report as its table's result, in the
// judge's name; a refusal (a sheet saved meanwhile) shows on the round page.
func (s *Pages) AcceptReport(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	id, err := strconv.ParseInt(c.Param("report"), 10, 64)
	if err != nil {
		return render.Result{}, err
	}
	if _, err := s.svc.AcceptReport(c.Request.Context(), auth.Judge(c), tid, id); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.roundPage(c, status, n, roundForms{PairError: msg})
	}
	return render.SeeOther(route.Path(route.Round, tid, n)+"#reports", "flash.report_accepted"), nil
}
