package console

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/clock"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// turnsPage is the view model of /judge/t/:id/rounds/:n/tables/:tn/turns:
// a final table's turn limit on a phone or tablet at the table. The judge
// opens it; once the game time is over it counts down the current
// player's turn, a tap passes the turn, and the turns that ran past the
// limit are listed. The judge sets the table's end time there too.
type turnsPage struct {
	render.Page
	TID    int64
	N      int
	Table  int
	Final  bool   // the round is a final stage
	Status string // tournament.TableReady, TablePlaying, TableFinished or TableOver
	// Before the turn limit: the table's phase and time left.
	Phase     string
	Remaining int // seconds of the game time left
	Shown     string
	// Under the turn limit.
	Turns     bool
	Turn      int
	Current   string // whose turn, "" until a pass names a player
	Next      string // who plays after them
	Left      int    // seconds of this turn's limit left
	Over      int    // seconds past the limit
	TurnShown string // m:ss left, or +m:ss past the limit
	Limit     string // m:ss
	Overruns  []overrunLine
	End       string // the end the judge set, as a clock time; "" for none
	EndLeft   int
	EndShown  string // m:ss
	Announce  bool   // within the ruleset's notice of the end
	Notice    int    // the notice, in minutes (referee.Timing.EndNoticeMinutes)
	Players   []turnPlayer
	Error     string
	Minutes   string // the end form as typed

	// Limited says its tables have a turn limit after their game time:
	// the ruleset has one (national-2025; proshop-2003 has none).
	Limited bool
}

type turnPlayer struct {
	ID   int64
	Name string
	Seat int
}

type overrunLine struct {
	Turn int
	Name string
	By   string // m:ss
}

func (s *Pages) ShowTurns(c *gin.Context) (render.Result, error) {
	return s.turnsPage(c, http.StatusOK, "", "")
}

// turnsPage renders the turn page with status, the refusal msg of a form
// just posted and the end form's minutes as typed.
func (s *Pages) turnsPage(c *gin.Context, status int, msg, minutes string) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	t, nav, err := s.loadTournament(c, "rounds")
	if err != nil {
		return render.Result{}, err
	}
	rv, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return render.Result{}, err
	}
	i := -1
	for k, tv := range rv.Tables {
		if tv.Table.Number == number {
			i = k
		}
	}
	if i < 0 {
		return render.Result{}, tournament.ErrNotFound
	}
	tv := rv.Tables[i]
	lang := s.i18n.Lang(c)
	p := s.i18n.In(lang)
	vm := turnsPage{
		Page: s.pages.Page(c, s.roundWords(c, "page.turns", rv.Round.Mode == tournament.ModeFinal), map[string]any{"Name": t.Name, "N": n, "Table": number}),
		TID:  tid, N: n, Table: number, Final: rv.Round.Mode == tournament.ModeFinal, Status: tv.Clock.Status,
		Error: msg, Minutes: minutes, Notice: t.Ruleset.Timing.EndNoticeMinutes, Limited: t.TurnLimit(rv.Round) > 0,
	}
	vm.Nav = nav
	if vm.Minutes == "" {
		vm.Minutes = "10"
	}
	names := map[int64]string{}
	for _, sv := range tv.Players {
		vm.Players = append(vm.Players, turnPlayer{ID: sv.PlayerID, Name: sv.Label, Seat: sv.Seat})
		names[sv.PlayerID] = sv.Label
	}
	tc := tv.Clock
	vm.Remaining = clock.Seconds(tc.Remaining)
	vm.Shown = clock.Text(vm.Remaining)
	vm.Phase = p.Text("turns.phase_"+tc.Phase.Phase, map[string]any{"K": tc.Placement, "N": tc.Placements})
	if tc.Turns != nil {
		vm.fillTurns(p, tc.Turns, names)
	}
	return render.ShowStatus(status, "turns", vm), nil
}

// fillTurns shows the turn limit tl of table tv: whose turn, its time left
// or past the limit, the overruns and the end the judge set.
func (vm *turnsPage) fillTurns(p i18n.Printer, tl *tournament.TurnClock, names map[int64]string) {
	vm.Turns, vm.Turn, vm.Current = true, tl.Turn, names[tl.Player]
	vm.Left, vm.Over, vm.Limit = clock.Seconds(tl.Remaining), clock.Seconds(tl.Over), clock.Text(clock.Seconds(tl.Limit))
	vm.TurnShown = clock.Text(vm.Left)
	if vm.Over > 0 {
		vm.TurnShown = "+" + clock.Text(vm.Over)
	}
	vm.Next = names[tl.Next]
	for _, o := range tl.Overruns {
		name := names[o.Player]
		if name == "" {
			name = p.Text("turns.unknown_player", nil)
		}
		vm.Overruns = append(vm.Overruns, overrunLine{Turn: o.Turn, Name: name, By: clock.Text(clock.Seconds(o.By))})
	}
	if !tl.End.IsZero() {
		vm.End, vm.EndLeft, vm.Announce = p.Clock(tl.End), clock.Seconds(tl.EndLeft), tl.Announce
		vm.EndShown = clock.Text(vm.EndLeft)
	}
}

// RecordTurn passes the turn (action "turn", to player or the next in play
// order) or sets the table's end (action "end", minutes from now), and
// shows the turn page again.
func (s *Pages) RecordTurn(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	in := tournament.ClockInput{Action: c.PostForm("action"), Table: number}
	minutes := strings.TrimSpace(c.PostForm("minutes"))
	errs := fieldErrors{}
	switch in.Action {
	case tournament.ClockTurn:
		p, _ := s.formInt(lang, c.PostForm("player"), 0, 1<<62, false, errs, "player")
		in.Player = int64(p)
	case tournament.ClockEnd:
		m, _ := s.formInt(lang, minutes, 1, 60, true, errs, "minutes")
		in.Seconds = 60 * m
	}
	if len(errs) > 0 {
		return s.turnsPage(c, http.StatusUnprocessableEntity, errs["minutes"]+errs["player"], minutes)
	}
	if _, err := s.svc.ClockAction(c.Request.Context(), auth.Judge(c), tid, n, in); err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.turnsPage(c, status, msg, minutes)
	}
	return render.SeeOther(route.Path(route.Turns, tid, n, number), "flash.clock_"+in.Action), nil
}
