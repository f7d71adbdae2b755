package console

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Undoing the latest round (issue 30): the round page's form takes it
// back with everything recorded at its tables, and the overview offers
// to put it back. The service decides when a reason is needed.

// restoreForm is the overview's offer to put an undone round back.
type restoreForm struct {
	N       int
	Summary string // what it holds, in words
	Reason  string
}

func (s *Pages) UndoRound(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	_, err = s.svc.UndoRound(c.Request.Context(), auth.Judge(c), auth.Role(c), tid, n, strings.TrimSpace(c.PostForm("reason")))
	if err == nil {
		return render.SeeOther(route.Path(route.Tournament, tid), "flash.round_undone"), nil
	}
	_, msg, ok := s.refusal(c, err)
	if !ok {
		return render.Result{}, err
	}
	return s.roundPage(c, http.StatusUnprocessableEntity, n, roundForms{UndoError: msg})
}

func (s *Pages) RestoreRound(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	if _, err := s.svc.RestoreRound(c.Request.Context(), auth.Judge(c), tid, n); err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(route.Path(route.Round, tid, n), "flash.round_restored"), nil
}

// restoreForm is the overview's offer to put back the undone round of
// tournament tid, nil when there is none to put back.
func (s *Pages) restoreForm(c *gin.Context, tid int64) (*restoreForm, error) {
	u, ok, err := s.svc.RestorableRound(c.Request.Context(), tid)
	if err != nil || !ok {
		return nil, err
	}
	lang := s.i18n.Lang(c)
	return &restoreForm{N: u.Round, Reason: u.Reason, Summary: s.i18n.Text(lang, "undo.summary",
		map[string]any{"N": u.Round, "Tables": u.Tables, "Results": u.Results, "Penalties": u.Penalties})}, nil
}
