package console

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The disqualification page (issue 30): the judge chooses the effect on
// the games the player played, the ruleset's chosen to begin with, gives
// a reason, and reads what the effect does to which games before
// confirming. The service decides all of it (PreviewDisqualify); the page
// only says it.

// dqPage is the view model of the disqualification page.
type dqPage struct {
	render.Page
	TID     int64
	Player  playerLine
	Effects []dqChoice
	Reason  string
	Errors  fieldErrors
	Error   string
	// Preview is what the chosen effect does, shown with the button that
	// confirms it; nil while the judge chooses.
	Preview *dqPreview
}

// dqChoice is one effect of the form.
type dqChoice struct {
	ID, Name, Hint   string
	Checked, Ruleset bool
}

// dqPreview is what a disqualification would do, in words.
type dqPreview struct {
	Effect, Name, Says, Drop string
	Games                    []string
}

// dqRules says where the form shows the service's refusals of its fields.
var dqRules = fieldRules{
	"dq-reason-missing": {"reason", "form.reason_required"},
	"unknown-dq-effect": {"effect", "form.choose"},
}

func (s *Pages) ShowDisqualify(c *gin.Context) (render.Result, error) {
	p, err := s.tournamentPlayer(c)
	if err != nil {
		return render.Result{}, err
	}
	return s.dqView(c, http.StatusOK, p, "", "", nil, nil)
}

// Disqualify shows what the chosen effect does (the first post), or
// disqualifies the player once the judge confirms it (confirm=1).
func (s *Pages) Disqualify(c *gin.Context) (render.Result, error) {
	p, err := s.tournamentPlayer(c)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	in := tournament.DisqualifyInput{Reason: strings.TrimSpace(c.PostForm("reason")), Effect: referee.DQEffect(c.PostForm("effect"))}
	var pv tournament.DQPreview
	if c.PostForm("confirm") == "1" {
		var done tournament.Player
		if done, err = s.svc.Disqualify(c.Request.Context(), auth.Judge(c), p.TournamentID, p.ID, in); err == nil {
			return render.SeeOther(route.Path(route.Player, p.TournamentID, p.ID), "flash.disqualified_"+string(done.DQEffect)), nil
		}
	} else if pv, err = s.svc.PreviewDisqualify(c.Request.Context(), p.TournamentID, p.ID, in); err == nil {
		return s.dqView(c, http.StatusOK, p, in.Effect, in.Reason, &pv, nil)
	}
	errs := fieldErrors{}
	if !s.place(lang, err, dqRules, errs) {
		msg, ok := s.formError(c, err)
		if !ok {
			return render.Result{}, err
		}
		errs[""] = msg
	}
	return s.dqView(c, http.StatusUnprocessableEntity, p, in.Effect, in.Reason, nil, errs)
}

// dqView is the disqualification page of p with the form as typed
// (effect "" for the ruleset's), the preview of it when pv is not nil,
// and the refusals errs.
func (s *Pages) dqView(c *gin.Context, status int, p tournament.Player, effect referee.DQEffect, reason string, pv *tournament.DQPreview, errs fieldErrors) (render.Result, error) {
	t, nav, err := s.loadTournament(c, "players")
	if err != nil {
		return render.Result{}, err
	}
	vm := dqPage{
		Page: s.pages.Page(c, "page.disqualify", map[string]any{"Name": p.Name}), TID: t.ID, Reason: reason, Errors: errs,
		Player: playerLine{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana), Dropped: p.DroppedRound},
	}
	vm.Nav = nav
	if errs != nil {
		vm.Error = errs[""]
	}
	ruleset := t.Ruleset.WithDefaults().Disqualification
	if effect == "" {
		effect = ruleset
	}
	text := func(id string, data map[string]any) string { return s.i18n.Text(vm.Lang, id, data) }
	for _, e := range referee.DQEffects {
		vm.Effects = append(vm.Effects, dqChoice{ID: string(e), Name: text("dq.effect."+string(e), nil), Hint: text("dq.hint."+string(e), nil),
			Checked: e == effect, Ruleset: e == ruleset})
	}
	if pv != nil {
		v := &dqPreview{Effect: string(pv.Effect), Name: text("dq.effect."+string(pv.Effect), nil),
			Says: text("dq.says."+string(pv.Effect), map[string]any{"Name": p.Name, "N": len(pv.Games)}),
			Drop: text("dq.drop_from", map[string]any{"Name": p.Name, "N": pv.DropFrom})}
		for _, g := range pv.Games {
			v.Games = append(v.Games, text("audit.where_table", map[string]any{"Round": g.Round, "Table": g.Table}))
		}
		vm.Preview = v
	}
	return render.ShowStatus(status, "disqualify", vm), nil
}
