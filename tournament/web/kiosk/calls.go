package kiosk

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// phoneCall is a judge call of the table as its players read it: what
// happens, and who is on the way.
type phoneCall struct {
	ID     int64
	Status string // tournament.Call.Status
	Text   string
	Note   string
}

// showCalls fills in the table's judge calls, the latest's status in
// words, and whether its players may call (a table of the latest round of
// an open tournament).
func (s *Pages) showCalls(ctx context.Context, vm *tablePage, l tournament.Live) error {
	calls, err := s.svc.TableCalls(ctx, vm.TID, vm.Round, vm.Table)
	if err != nil {
		return err
	}
	p := s.i18n.In(vm.Lang)
	for _, call := range calls {
		pc := phoneCall{ID: call.ID, Status: call.Status, Note: call.Resolution,
			Text: p.Text("calls.phone_"+call.Status, map[string]any{"Judge": call.ClaimedBy + call.ResolvedBy})}
		vm.Calls = append(vm.Calls, pc)
	}
	vm.CanCall = l.Tournament.Closed == nil && l.Round != nil && l.Round.Round.Number == vm.Round
	return nil
}

// openCall is the table's call still waiting for an answer, if any.
func (vm tablePage) OpenCall() *phoneCall {
	for i := len(vm.Calls) - 1; i >= 0; i-- {
		if vm.Calls[i].Status != tournament.CallResolved {
			return &vm.Calls[i]
		}
	}
	return nil
}

// LastCall is the table's latest call, if any.
func (vm tablePage) LastCall() *phoneCall {
	if len(vm.Calls) == 0 {
		return nil
	}
	return &vm.Calls[len(vm.Calls)-1]
}

// CallJudge takes a player's call for a judge from the table's page: who
// they are (the player this phone remembers needs no code) and a note.
func (s *Pages) CallJudge(c *gin.Context) (render.Result, error) {
	vm, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	vm.Calling = true
	vm.CallNote = strings.TrimSpace(c.PostForm("note"))
	code, who := s.readPlayer(c, &vm, "call_code")
	if !who {
		return render.ShowStatus(http.StatusUnprocessableEntity, "report", vm), nil
	}
	err = s.checkCode(c, &vm, code, func() error {
		_, err := s.svc.CallJudge(c.Request.Context(), vm.TID, vm.Player, code, vm.Table, vm.CallNote)
		return err
	})
	return s.answered(c, vm, err, "calls.called")
}

// checkCode runs act, which checks the code of the form's player, within
// the guesses the phone's address and the player have left (auth.Codes),
// and has the phone remember the player once their code was right. A
// remembered code that no longer works (a judge issued a new one) is
// forgotten.
func (s *Pages) checkCode(c *gin.Context, vm *tablePage, code string, act func() error) error {
	err := s.codes.Check(c, vm.TID, vm.Player, act)
	switch {
	case err == nil:
		s.rememberPlayer(c, vm.TID, vm.Player, code)
	case errors.Is(err, tournament.ErrWrongCode) && vm.Player == vm.Me:
		s.setRemember(c, vm.TID, "", -1)
	}
	return err
}
