package console

import (
	"context"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// reportLine is a players' report of a table of the round, in the judges'
// queue on the round page: what the players entered, who confirmed, and
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
}

type reportScore struct {
	Name      string
	VP        int
	Confirmed bool
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
	names := map[int64]string{}
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	p := s.i18n.In(lang)
	var out []reportLine
	for _, r := range rs {
		if r.Round != n {
			continue
		}
		l := reportLine{ID: int(r.ID), Table: r.Table, Code: r.Status, ReportedBy: names[r.ReportedBy], Declared: names[r.Declared]}
		l.Status = p.Text("reports.status_"+r.Status, map[string]any{
			"N": len(r.Confirmed), "M": len(r.Scores), "Name": names[r.DisputedBy], "Version": r.Version,
		})
		for _, sc := range r.Scores {
			confirmed := false
			for _, c := range r.Confirmed {
				confirmed = confirmed || c == sc.PlayerID
			}
			l.Lines = append(l.Lines, reportScore{Name: names[sc.PlayerID], VP: sc.VP, Confirmed: confirmed})
		}
		for _, tv := range rv.Tables {
			if res := tv.Table.Result; tv.Table.Number == r.Table && res != nil && r.Status != tournament.ReportAccepted {
				js := &judgeSheet{Version: res.Version}
				for _, sc := range res.Scores {
					js.Lines = append(js.Lines, reportScore{Name: names[sc.PlayerID], VP: sc.VP})
				}
				l.Judge = js
			}
		}
		l.Acceptable = r.Status == tournament.ReportConfirmed && l.Judge == nil
		out = append(out, l)
	}
	return out, nil
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
