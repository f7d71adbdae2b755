package console

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// penaltiesPage is the view model of /judge/t/:id/penalties: the penalties
// given, the form that records one from the ruleset's catalogue, and the
// catalogue itself with its rulebook sections.
type penaltiesPage struct {
	render.Page
	TID       int64
	Lines     []penaltyLine
	Players   []penaltyPlayer
	Rounds    []int
	Offences  []offenceOption
	Levels    []levelOption
	Form      penaltyForm
	Suggested string // the level the escalation rules suggest for the form's player and offence
	Revoke    revokeForm
}

// penaltyPlayer is a player the form offers, with the table they play at
// in each round, for the form's script to fill in the table
// (static/console.js): "1:3 2:1" is table 3 in round 1, table 1 in round 2.
type penaltyPlayer struct {
	personRef
	Tables string
}

type penaltyLine struct {
	ID           int64
	At           string
	Player       string
	Kana         string // the player's reading, to tell two of one name apart
	Round, Table int
	Offence      string
	Section      string
	Level        string
	LevelID      string
	Judge        string
	Note         string
	Revoked      bool
	RevokedBy    string
	RevokeReason string
}

type offenceOption struct {
	Code      string
	Section   string
	Name      string
	Level     string
	Remedy    string
	Escalates bool
}

type levelOption struct {
	ID   string
	Name string
}

type penaltyForm struct {
	Player, Round, Table, Offence, Level, Note string
	Errors                                     fieldErrors
	Error                                      string
}

// revokeForm is the revocation of one penalty as typed, kept when refused.
type revokeForm struct {
	ID     int64
	Reason string
	Error  string
}

// penaltyRules says where the penalty form shows the service's refusals
// of its fields.
var penaltyRules = fieldRules{"unknown-offence": {"offence", "form.choose"}}

// ShowPenalties shows the penalties page, its form for the round, table and
// player of the query string: by default the latest round, as a judge
// called to a table records a penalty in the round being played.
func (s *Pages) ShowPenalties(c *gin.Context) (render.Result, error) {
	form := penaltyForm{Round: c.Query("round"), Table: c.Query("table"), Player: c.Query("player")}
	return s.penaltiesPage(c, http.StatusOK, form, "", revokeForm{})
}

// penaltiesAfter is where a recorded penalty goes back to: the form in the
// same round, at the same table when the judge named it, for the next
// penalty of the same call.
func penaltiesAfter(tid int64, f penaltyForm) string {
	q := url.Values{"round": {f.Round}}
	if f.Table != "" {
		q.Set("table", f.Table)
	}
	return route.Path(route.Penalties, tid) + "?" + q.Encode() + "#record-h"
}

func (s *Pages) penaltiesPage(c *gin.Context, status int, form penaltyForm, suggested string, revoke revokeForm) (render.Result, error) {
	t, nav, players, err := s.loadPlayers(c, "penalties")
	if err != nil {
		return render.Result{}, err
	}
	ctx := c.Request.Context()
	pens, err := s.svc.Penalties(ctx, t.ID)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	vm := penaltiesPage{
		Page: s.pages.Page(c, "page.penalties", map[string]any{"Name": t.Name}),
		TID:  t.ID, Rounds: nav.Rounds, Form: form, Suggested: suggested, Revoke: revoke,
	}
	vm.Nav = nav
	if _, ok := c.GetQuery("round"); !ok && c.Request.Method == http.MethodGet && len(nav.Rounds) > 0 {
		vm.Form.Round = strconv.Itoa(slices.Max(nav.Rounds))
	}
	rounds, err := s.svc.Rounds(ctx, t.ID)
	if err != nil {
		return render.Result{}, err
	}
	tables := map[int64][]string{}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			for _, id := range tb.Players {
				tables[id] = append(tables[id], fmt.Sprintf("%d:%d", r.Number, tb.Number))
			}
		}
	}
	names, kana := map[int64]string{}, map[int64]string{}
	for _, p := range players {
		names[p.ID], kana[p.ID] = p.Name, tournament.Hiragana(p.Kana)
		vm.Players = append(vm.Players, penaltyPlayer{personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)}, strings.Join(tables[p.ID], " ")})
	}
	rs := t.Ruleset
	vm.Offences = s.offenceOptions(lang, rs)
	for _, l := range rs.Ladder {
		vm.Levels = append(vm.Levels, levelOption{ID: string(l), Name: s.i18n.In(lang).Level(l)})
	}
	// Newest first: the judge looks for what just happened.
	for _, p := range slices.Backward(pens) {
		line := s.penaltyLine(lang, rs, p, names)
		line.Kana = kana[p.PlayerID]
		vm.Lines = append(vm.Lines, line)
	}
	return render.ShowStatus(status, "penalties", vm), nil
}

// penaltyLine is one penalty as the list shows it.
func (s *Pages) penaltyLine(lang string, rs referee.Ruleset, p tournament.Penalty, names map[int64]string) penaltyLine {
	line := penaltyLine{
		ID: p.ID, At: s.i18n.In(lang).Time(p.At), Player: names[p.PlayerID], Round: p.Round, Table: p.Table,
		Offence: p.Offence, Level: s.i18n.In(lang).Level(p.Level), LevelID: string(p.Level), Judge: p.Judge, Note: p.Note,
	}
	if p.Level == referee.VPDeduction {
		// The list says how many points: 「勝利点 −2」 (the ruleset's deduct_vp).
		line.Level = s.i18n.Text(lang, "penalty.level_deducted", map[string]any{"N": rs.DeductVP})
	}
	if o, ok := rs.Offence(p.Offence); ok {
		line.Section = o.Section
		line.Offence = o.NameJA
		if lang == "en" {
			line.Offence = o.NameEN
		}
	}
	if r := p.Revoked; r != nil {
		line.Revoked = true
		line.RevokedBy = s.i18n.Text(lang, "penalty.revoked_by", map[string]any{"Judge": r.Judge, "At": s.i18n.In(lang).Time(r.At)})
		line.RevokeReason = r.Reason
	}
	return line
}

// readPenaltyForm reads the penalty form: a player chosen, the round and
// table numbers.
func (s *Pages) readPenaltyForm(c *gin.Context, lang string) (penaltyForm, tournament.PenaltyInput) {
	f := penaltyForm{
		Player: c.PostForm("player"), Round: c.PostForm("round"), Table: strings.TrimSpace(c.PostForm("table")),
		Offence: c.PostForm("offence"), Level: c.PostForm("level"), Note: strings.TrimSpace(c.PostForm("note")),
		Errors: fieldErrors{},
	}
	in := tournament.PenaltyInput{Offence: f.Offence, Level: referee.Level(f.Level), Note: f.Note}
	var err error
	if in.PlayerID, err = strconv.ParseInt(f.Player, 10, 64); err != nil {
		f.Errors["player"] = s.i18n.Text(lang, "form.choose", nil)
	}
	in.Round, _ = s.formInt(lang, f.Round, 0, 30, false, f.Errors, "round")
	// The table is the service's to check against the round's pairing: a
	// hall of more than 400 players has more than 100 tables.
	in.Table = s.formNumber(lang, f.Table, false, f.Errors, "table")
	return f, in
}

// RecordPenalty records a penalty, or with action=suggest shows the level
// the escalation rules suggest for the chosen player and offence.
func (s *Pages) RecordPenalty(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	f, in := s.readPenaltyForm(c, lang)
	if len(f.Errors) > 0 {
		return s.penaltiesPage(c, http.StatusUnprocessableEntity, f, "", revokeForm{})
	}
	if c.PostForm("action") == "suggest" {
		var sg referee.Suggestion
		if sg, err = s.svc.PenaltySuggestion(c.Request.Context(), tid, in.PlayerID, in.Offence); err == nil {
			if f.Level == "" {
				f.Level = string(sg.Level)
			}
			t, err := s.svc.GetTournament(c.Request.Context(), tid)
			if err != nil {
				return render.Result{}, err
			}
			return s.penaltiesPage(c, http.StatusOK, f, s.suggestionText(lang, t.Ruleset, sg), revokeForm{})
		}
	} else if _, err = s.svc.RecordPenalty(c.Request.Context(), auth.Judge(c), tid, in); err == nil {
		return render.SeeOther(penaltiesAfter(tid, f), "flash.penalty_recorded"), nil
	}
	var ok bool
	if f.Error, ok = s.placeFormError(c, lang, err, penaltyRules, f.Errors); !ok {
		return render.Result{}, err
	}
	return s.penaltiesPage(c, http.StatusUnprocessableEntity, f, "", revokeForm{})
}

func (s *Pages) RevokePenalty(c *gin.Context) (render.Result, error) {
	tid, id, err := route.IDs(c, "penalty")
	if err != nil {
		return render.Result{}, err
	}
	rf := revokeForm{ID: id, Reason: strings.TrimSpace(c.PostForm("reason"))}
	_, err = s.svc.RevokePenalty(c.Request.Context(), auth.Judge(c), tid, id, rf.Reason)
	switch {
	case err == nil:
		return render.SeeOther(route.Path(route.Penalties, tid)+fmt.Sprintf("#pen%d", id), "flash.penalty_revoked"), nil
	case code(err) == "revoke-reason-missing":
		rf.Error = s.i18n.Text(s.i18n.Lang(c), "form.reason_required", nil)
	default:
		var ok bool
		if rf.Error, ok = s.formError(c, err); !ok {
			return render.Result{}, err
		}
	}
	return s.penaltiesPage(c, http.StatusUnprocessableEntity, penaltyForm{}, "", rf)
}

// suggestionIDs are the messages of the ways the escalation rules reach a
// suggestion (referee.Suggestion.Why).
var suggestionIDs = map[string]string{
	referee.SuggestFirst:     "penalty.suggested",
	referee.SuggestEscalated: "penalty.suggested_escalated",
	referee.SuggestFixed:     "penalty.suggested_fixed",
	referee.SuggestBelow:     "penalty.suggested_below",
	referee.SuggestRepeat:    "penalty.suggested_repeat",
}

// suggestionText says the suggested level and how the escalation rules
// reached it (docs/rules.md, Penalties): "推奨レベル: 警告（2回目: 前回の最高 注意 → 警告）".
func (s *Pages) suggestionText(lang string, rs referee.Ruleset, sg referee.Suggestion) string {
	data := map[string]any{
		"Level": s.i18n.In(lang).Level(sg.Level), "Nth": sg.Nth, "Default": s.i18n.In(lang).Level(sg.Start),
		"Highest": s.i18n.In(lang).Level(sg.Highest), "From": s.i18n.In(lang).Level(rs.EscalateFrom),
	}
	return s.i18n.Text(lang, suggestionIDs[sg.Why], data)
}

// offenceOptions lists the ruleset's penalty catalogue in lang.
func (s *Pages) offenceOptions(lang string, rs referee.Ruleset) []offenceOption {
	var out []offenceOption
	for _, o := range rs.Penalties {
		opt := offenceOption{Code: o.Code, Section: o.Section, Name: o.NameJA, Level: s.i18n.In(lang).Level(o.Level), Escalates: o.Escalates}
		if lang == "en" {
			opt.Name = o.NameEN
		}
		if o.Remedy != "" {
			opt.Remedy = s.i18n.Text(lang, "remedy."+o.Remedy, nil)
		}
		out = append(out, opt)
	}
	return out
}
