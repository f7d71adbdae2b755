package console

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// pendingLine is a table whose result waits for a second account's
// confirmation (the two-person rule), on the round page: what was entered,
// by whom, and the button that confirms it as it stands.
type pendingLine struct {
	Table     int
	Version   int
	EnteredBy string
	At        string
	Lines     []seatLine
	// Self says the account viewing the page entered it: another account
	// confirms it, or, for a head, this one with a reason.
	Self bool
	// Can says the viewer may confirm it now (not their own, or a head's
	// own with a reason: Reason asks for it).
	Can, Reason bool
	Error       string // a refused confirmation, as typed
}

// pendingLines lists round rv's tables waiting for confirmation.
func (s *Pages) pendingLines(c *gin.Context, lang string, rv tournament.RoundView, refused map[int]string) []pendingLine {
	me, role := auth.Judge(c), auth.Role(c)
	var out []pendingLine
	for _, tv := range rv.Tables {
		e := tv.Entered
		if e == nil {
			continue
		}
		l := pendingLine{Table: tv.Table.Number, Version: e.Version, EnteredBy: e.Judge, At: s.i18n.In(lang).Clock(e.At), Self: e.Judge == me,
			Error: refused[tv.Table.Number]}
		l.Can = role.Allows(tournament.RoleScorekeeper) && (!l.Self || role == tournament.RoleHead)
		l.Reason = l.Self && role == tournament.RoleHead
		for _, p := range tv.Players {
			line := s.seatLine(lang, p)
			for _, pl := range tv.EnteredPlaces {
				if pl.PlayerID == p.PlayerID {
					line.Place, line.VP = pl.Place, pl.VP
				}
			}
			l.Lines = append(l.Lines, line)
		}
		out = append(out, l)
	}
	return out
}

// ConfirmResult confirms the entered result of the :tn table, the version
// the form showed; back to the round page, where a refusal (confirm-self,
// a correction saved meanwhile) shows by the table's line.
func (s *Pages) ConfirmResult(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	version, _ := strconv.Atoi(c.PostForm("version"))
	reason := strings.TrimSpace(c.PostForm("reason"))
	_, err = s.svc.ConfirmResult(c.Request.Context(), auth.Judge(c), auth.Role(c) == tournament.RoleHead, tid, n, number, version, reason)
	if err == nil {
		return render.SeeOther(route.Path(route.Round, tid, n)+"#confirm", "flash.confirmed"), nil
	}
	status, msg, ok := s.refusal(c, err)
	if !ok {
		return render.Result{}, err
	}
	if status == 0 {
		status = http.StatusConflict
	}
	return s.roundPage(c, status, n, roundForms{Confirm: map[int]string{number: msg}})
}
