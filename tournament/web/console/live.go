package console

import (
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// fillLive fills the round page's parts that follow the round live: the
// results waiting for confirmation and the round's judge calls, with the
// refusals of f.
func (s *Pages) fillLive(c *gin.Context, vm *roundPage, rv tournament.RoundView, f roundForms) error {
	vm.Pending = s.pendingLines(c, vm.Lang, rv, f.Confirm)
	calls, err := s.svc.Calls(c.Request.Context(), vm.TID)
	if err != nil {
		return err
	}
	vm.Calls, vm.CallError = s.callLines(c, vm.TID, vm.N, calls, rv.Labels), f.CallError
	return nil
}

// ShowRoundLive renders the round page's live parts alone (the calls,
// the results waiting for confirmation, the players' reports and the
// tables with their results), as the server reads them now:
// console-live.js swaps them in when the tournament's feed tells of a
// change, as the kiosk does.
func (s *Pages) ShowRoundLive(c *gin.Context) (render.Result, error) {
	_, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	r, err := s.roundPage(c, 200, n, roundForms{})
	if err != nil {
		return render.Result{}, err
	}
	return r.Block("live"), nil
}
