package console

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/clock"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// clockPanel is the round clock on the judge's round page: its state, each
// table's status (playing, finished, over time), the start, pause and resume
// buttons, and the extension form.
type clockPanel struct {
	Lang      string
	TID       int64
	N         int
	State     string
	StateTxt  string
	Remaining int    // seconds
	Shown     string // m:ss
	Warn, Up  bool
	Extension string // given to the whole round, "+m:ss"
	// Placement says the time to the round's signal ("試合終了まで") in
	// the placement phase, PlacementLeft seconds, beside the placement's
	// own countdown (Shown); "" otherwise.
	Placement      string
	PlacementLeft  int
	PlacementShown string // m:ss
	Tables         []clockTableLine
	Playing        int
	Finished       int
	Over           int
	Form           extendForm
	KioskURL       string

	// Turns and Still are as clock.Face's: the big number is a final
	// table's turn, or stands still.
	Turns, Still bool
	Final        bool // the round is a stage of the final: its tables are 決勝卓
	// CanRun says the account viewing it may run the clock (a
	// scorekeeper or more): the buttons and the extension form.
	CanRun bool
}

type clockTableLine struct {
	Number    int
	Placing   bool // in its placement phase: the judge may end it (ClockPlacementEnd)
	Status    string
	StatusTxt string
	Remaining int
	Shown     string
	Extension string
}

// extendForm is the extension form as typed, with its messages.
type extendForm struct {
	Table   string
	Seconds string
	Reason  string
	Errors  fieldErrors
	Error   string
}

// extendRules says where the extension form shows the service's refusals
// of its fields.
var extendRules = fieldRules{
	"extension-reason":  {"extend_reason", "form.reason_required"},
	"extension-seconds": {"extend_seconds", "form.range"},
}

// clockPanel builds the round page's clock from the round as read, with
// the extension form f as typed (nil for an empty one).
func (s *Pages) clockPanel(c *gin.Context, lang string, tid int64, rv tournament.RoundView, f *extendForm) clockPanel {
	k := clock.Show(s.i18n.In(lang), rv.Timer)
	p := clockPanel{
		Lang: lang, TID: tid, N: rv.Round.Number, State: k.State, StateTxt: k.Label, Remaining: k.Remaining,
		Shown: k.Shown, Warn: k.Warn, Up: k.Up, Turns: k.Turns, Still: k.Still, Extension: clock.Extension(rv.Timer.Extension),
		Form:     extendForm{Seconds: "60"},
		KioskURL: route.Path(route.Kiosk, tid),
		Final:    rv.Round.Mode == tournament.ModeFinal,
		CanRun:   auth.Role(c).Allows(tournament.RoleScorekeeper),
	}
	if k.Placement != "" {
		// The placement's countdown is the big number; the time to the
		// signal counts down beside it.
		p.Placement = s.i18n.Text(lang, "clock.placement_total", nil)
		p.PlacementLeft, p.PlacementShown = k.Total, clock.Text(k.Total)
	}
	if f != nil {
		p.Form = *f
	}
	for _, t := range rv.Timer.Tables {
		r := clock.Seconds(t.Remaining)
		p.Tables = append(p.Tables, clockTableLine{
			Number: t.Number, Placing: t.Status == tournament.TablePlaying && t.Phase.Phase == tournament.PhasePlacement,
			Status: t.Status, StatusTxt: s.i18n.Text(lang, "kiosk.status_"+t.Status, nil),
			Remaining: r, Shown: clock.Text(r), Extension: clock.Extension(t.Extension),
		})
		switch t.Status {
		case tournament.TablePlaying:
			p.Playing++
		case tournament.TableFinished:
			p.Finished++
		case tournament.TableOver:
			p.Over++
		}
	}
	return p
}

// ShowClockPanel renders the round page's clock panel alone, as the server
// reads the clock now: console-clock.js swaps it in when the tournament's
// feed tells of a change or a countdown reaches zero, so that the panel,
// and the chime, learn of the time up and a phase's end from the server.
func (s *Pages) ShowClockPanel(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	rv, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return render.Result{}, err
	}
	return render.Part("round", "clockpanel", s.clockPanel(c, s.i18n.Lang(c), tid, rv, nil)), nil
}

// RecordClock starts, pauses or resumes the round's clock, or gives an
// extension, from the round page.
func (s *Pages) RecordClock(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	in := tournament.ClockInput{Action: c.PostForm("action")}
	f := extendForm{Seconds: "60", Errors: fieldErrors{}}
	if in.Action == tournament.ClockPlacementEnd {
		in.Table, _ = s.formInt(lang, c.PostForm("table"), 1, 1000, true, f.Errors, "extend_table")
	}
	if in.Action == tournament.ClockExtend {
		f = extendForm{Table: c.PostForm("table"), Seconds: strings.TrimSpace(c.PostForm("seconds")),
			Reason: strings.TrimSpace(c.PostForm("reason")), Errors: fieldErrors{}}
		in.Table, _ = s.formInt(lang, f.Table, 0, 1000, false, f.Errors, "extend_table")
		in.Seconds = s.formNumber(lang, f.Seconds, true, f.Errors, "extend_seconds")
		in.Reason = f.Reason
	}
	if len(f.Errors) == 0 {
		_, err := s.svc.ClockAction(c.Request.Context(), auth.Judge(c), tid, n, in)
		if err == nil {
			return render.SeeOther(route.Path(route.Round, tid, n)+"#clock", "flash.clock_"+in.Action), nil
		}
		if in.Action != tournament.ClockExtend || !s.place(lang, err, extendRules, f.Errors) {
			var ok bool
			if f.Error, ok = s.formError(c, err); !ok {
				return render.Result{}, err
			}
		}
	}
	return s.roundPage(c, http.StatusUnprocessableEntity, n, roundForms{Extend: &f})
}
