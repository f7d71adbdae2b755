package web

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
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
	// Placement names the placement under way ("配置 5/8・残り") in the
	// placement phase, with PlacementLeft seconds left; "" otherwise.
	Placement      string
	PlacementLeft  int
	PlacementShown string // m:ss
	Tables         []clockTableLine
	Playing        int
	Finished       int
	Over           int
	Form           extendForm
	KioskURL       string
}

type clockTableLine struct {
	Number    int
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

// clockFormKey keeps, in the gin context, a refused extension form for the
// round page that shows it again.
const clockFormKey = "clock_form"

// clockPanel builds the round page's clock from the round as read.
func (s *Server) clockPanel(c *gin.Context, tid int64, rv tournament.RoundView) clockPanel {
	lang := s.i18n.lang(c)
	k := s.kioskClock(lang, rv.Timer)
	p := clockPanel{
		Lang: lang, TID: tid, N: rv.Round.Number, State: k.State, StateTxt: k.Label, Remaining: k.Remaining,
		Shown: k.Shown, Warn: k.Warn, Up: k.Up, Extension: extensionText(rv.Timer.Extension),
		Form:     extendForm{Seconds: "60"},
		KioskURL: fmt.Sprintf("/kiosk/%d", tid),
	}
	if k.Placement != "" {
		p.Placement = s.i18n.text(lang, "clock.placement", map[string]any{"K": k.PlacementK, "N": k.PlacementOf})
		p.PlacementLeft, p.PlacementShown = k.PlacementLeft, clockText(k.PlacementLeft)
	}
	if f, ok := c.Get(clockFormKey); ok {
		p.Form = f.(extendForm)
	}
	for _, t := range rv.Timer.Tables {
		r := seconds(t.Remaining)
		p.Tables = append(p.Tables, clockTableLine{
			Number: t.Number, Status: t.Status, StatusTxt: s.i18n.text(lang, "kiosk.status_"+t.Status, nil),
			Remaining: r, Shown: clockText(r), Extension: extensionText(t.Extension),
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

// recordClock starts, pauses or resumes the round's clock, or gives an
// extension, from the round page.
func (s *Server) recordClock(c *gin.Context) {
	tid, n, err := roundParams(c)
	if err != nil {
		s.failPage(c, err)
		return
	}
	lang := s.i18n.lang(c)
	in := tournament.ClockInput{Action: c.PostForm("action")}
	back := fmt.Sprintf("/judge/t/%d/rounds/%d#clock", tid, n)
	f := extendForm{Seconds: "60"}
	if in.Action == tournament.ClockExtend {
		f = extendForm{Table: c.PostForm("table"), Seconds: strings.TrimSpace(c.PostForm("seconds")),
			Reason: strings.TrimSpace(c.PostForm("reason")), Errors: fieldErrors{}}
		in.Table, _ = s.formInt(lang, f.Table, 0, 1000, false, f.Errors, "extend_table")
		in.Seconds, _ = s.formInt(lang, f.Seconds, math.MinInt, math.MaxInt, true, f.Errors, "extend_seconds")
		in.Reason = f.Reason
		if len(f.Errors) > 0 {
			c.Set(clockFormKey, f)
			s.renderRound(c, http.StatusUnprocessableEntity, swapForm{}, moveForm{})
			return
		}
	}
	if _, err := s.deps.Service.ClockAction(c.Request.Context(), c.GetString(judgeKey), tid, n, in); err != nil {
		var v *referee.Violation
		if errors.As(err, &v) && in.Action == tournament.ClockExtend {
			switch v.Code {
			case "extension-reason":
				f.Errors["extend_reason"] = s.i18n.text(lang, "form.reason_required", nil)
			case "extension-seconds":
				f.Errors["extend_seconds"] = s.i18n.text(lang, "form.range", map[string]any{"Min": 1, "Max": v.Args["Max"]})
			}
			if len(f.Errors) > 0 {
				c.Set(clockFormKey, f)
				s.renderRound(c, http.StatusUnprocessableEntity, swapForm{}, moveForm{})
				return
			}
		}
		msg := s.formError(c, err)
		if msg == "" {
			return
		}
		f.Error = msg
		c.Set(clockFormKey, f)
		s.renderRound(c, http.StatusUnprocessableEntity, swapForm{}, moveForm{})
		return
	}
	seeOther(c, back, "flash.clock_"+in.Action)
}
