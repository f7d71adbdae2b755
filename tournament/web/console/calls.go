package console

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// callLine is a judge call as the console lists it: on the round page,
// and above the ruling view of the judge who claimed it.
type callLine struct {
	ID           int64
	TID          int64
	Round, Table int
	Player       string
	Note         string
	Status       string // tournament.Call.Status, for the styling
	StatusText   string // the status in words, with who claimed it
	At           string
	Dispute      bool // a dispute of the table's report called
	Open         bool
	// Can says the account viewing it may answer it (a judge or head).
	Can bool
}

// callLines lists the calls of round n (every round's when n is 0) in
// words, the open ones first, then the latest resolved ones.
func (s *Pages) callLines(c *gin.Context, tid int64, n int, calls []tournament.Call, labels map[int64]string) []callLine {
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	can := auth.Role(c).Allows(tournament.RoleJudge)
	var open, done []callLine
	for _, call := range calls {
		if n != 0 && call.Round != n {
			continue
		}
		l := callLine{ID: call.ID, TID: tid, Round: call.Round, Table: call.Table, Player: labels[call.PlayerID], Note: call.Note,
			Status: call.Status, At: p.Clock(call.At), Dispute: call.ReportID != 0, Open: call.Open(), Can: can}
		l.StatusText = p.Text("calls.status_"+call.Status, map[string]any{"Judge": call.ClaimedBy + call.ResolvedBy, "By": call.EscalatedBy})
		if l.Open {
			open = append(open, l)
		} else {
			done = append(done, l)
		}
	}
	slices.Reverse(done)
	return append(open, done[:min(len(done), 5)]...)
}

// callRing names an open call for the chime, as the round page's list and
// the navigation's count both give it.
func callRing(id int64) string { return "call-" + strconv.FormatInt(id, 10) }

// callsBadge is the open calls of a tournament for the navigation of every
// console page: how many, at which tables.
func (s *Pages) callsBadge(ctx context.Context, tid int64) (*render.CallsBadge, error) {
	calls, err := s.svc.Calls(ctx, tid)
	if err != nil {
		return nil, err
	}
	b := &render.CallsBadge{TID: tid}
	for _, c := range calls {
		if !c.Open() {
			continue
		}
		b.Open++
		b.Escalated = b.Escalated || c.Status == tournament.CallEscalated
		b.Waiting = b.Waiting || c.Status == tournament.CallOpen
		if !slices.Contains(b.Tables, c.Table) {
			b.Tables = append(b.Tables, c.Table)
		}
		b.Round = max(b.Round, c.Round)
		b.Rings = strings.TrimSpace(b.Rings + " " + callRing(c.ID))
	}
	slices.Sort(b.Tables)
	return b, nil
}

// ShowCalls renders the navigation's calls alone, for console-live.js to
// swap in when the tournament's feed tells of a change.
func (s *Pages) ShowCalls(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	b, err := s.callsBadge(c.Request.Context(), tid)
	if err != nil {
		return render.Result{}, err
	}
	return render.Part("round", "callsbadge", b), nil
}

// ClaimCall claims a call and opens the table's ruling view on its board,
// the call above it, so that the judge arrives knowing the position.
func (s *Pages) ClaimCall(c *gin.Context) (render.Result, error) {
	return s.answerCall(c, func(ctx context.Context, tid, id int64) (tournament.Call, string, error) {
		call, err := s.svc.ClaimCall(ctx, auth.Judge(c), tid, id)
		return call, route.Path(route.Ruling, tid, call.Round, call.Table) + "?call=" + strconv.FormatInt(id, 10), err
	})
}

// EscalateCall passes a call to the head judges.
func (s *Pages) EscalateCall(c *gin.Context) (render.Result, error) {
	return s.answerCall(c, func(ctx context.Context, tid, id int64) (tournament.Call, string, error) {
		call, err := s.svc.EscalateCall(ctx, auth.Judge(c), tid, id)
		return call, "", err
	})
}

// ResolveCall closes a call with what was decided.
func (s *Pages) ResolveCall(c *gin.Context) (render.Result, error) {
	return s.answerCall(c, func(ctx context.Context, tid, id int64) (tournament.Call, string, error) {
		call, err := s.svc.ResolveCall(ctx, auth.Judge(c), tid, id, c.PostForm("note"))
		return call, "", err
	})
}

// answerCall answers the :call with answer, and goes where it says, or
// back to the call's round page; a refusal (claimed by another judge
// meanwhile, resolved) shows there.
func (s *Pages) answerCall(c *gin.Context, answer func(ctx context.Context, tid, id int64) (tournament.Call, string, error)) (render.Result, error) {
	tid, id, err := route.IDs(c, "call")
	if err != nil {
		return render.Result{}, err
	}
	call, to, err := answer(c.Request.Context(), tid, id)
	if err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		stored, rerr := s.svc.Calls(c.Request.Context(), tid)
		if rerr != nil {
			return render.Result{}, rerr
		}
		n := 0
		for _, cl := range stored {
			if cl.ID == id {
				n = cl.Round
			}
		}
		if n == 0 {
			return render.Result{}, err
		}
		return s.roundPage(c, status, n, roundForms{CallError: msg})
	}
	if to == "" {
		to = route.Path(route.Round, tid, call.Round) + "#calls"
	}
	return render.SeeOther(to, "flash.call_"+call.Status), nil
}

// claimedCall is the call the ruling view was opened from (?call=), for
// the banner above it; nil without one, or for another table's.
func (s *Pages) claimedCall(c *gin.Context, tid int64, n, table int, labels map[int64]string) *callLine {
	id, err := strconv.ParseInt(c.Query("call"), 10, 64)
	if err != nil {
		return nil
	}
	calls, err := s.svc.TableCalls(c.Request.Context(), tid, n, table)
	if err != nil {
		return nil
	}
	for _, l := range s.callLines(c, tid, n, calls, labels) {
		if l.ID == id {
			return &l
		}
	}
	return nil
}
