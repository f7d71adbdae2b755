package console

import (
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// roundWords is the message id of a round's words in the request's
// language (i18n.Printer.ForRound): a stage of the final is named 決勝,
// its table 決勝卓.
func (s *Pages) roundWords(c *gin.Context, id string, final bool) string {
	return s.i18n.In(s.i18n.Lang(c)).ForRound(id, final)
}

// final reports whether the table's round is a stage of the final.
func (ts tableState) final() bool { return ts.nav.IsFinal(ts.n) }

// RemakeFinal makes the final's latest stage again, with the judge's
// reason, from the final's round page (tournament.Service.RemakeFinal).
func (s *Pages) RemakeFinal(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	if _, err := s.svc.RemakeFinal(c.Request.Context(), auth.Judge(c), tid, c.PostForm("reason")); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.roundPage(c, status, n, roundForms{PairError: msg})
	}
	return render.SeeOther(route.Path(route.Round, tid, n), "flash.final_remade"), nil
}
