package console

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// A player's edit form after a conflict (issue 24), as the score sheet's:
// the form carries the player as it showed them (Base); what this judge
// changed is what differs from it, taken back over the player as saved
// now, and saving that asks first where another judge changed the same
// field since.

// keepApartTaken marks a taken-back form that carries the keep-apart
// requests this judge changed (none posted is then none, not unchanged).
const keepApartTaken = "keep_apart_mine"

// stalePlayer answers an edit another judge's change of the same field
// overtook: the form starts again from the player as saved, with what
// this judge changed beside it.
func (s *Pages) stalePlayer(c *gin.Context, p tournament.Player, typed playerForm, conflict error) (render.Result, error) {
	s.log.Info("stale player form", "id", problem.RequestID(c), "err", conflict)
	lang := s.i18n.Lang(c)
	p, err := s.svc.GetPlayer(c.Request.Context(), p.TournamentID, p.ID)
	if err != nil {
		return render.Result{}, err
	}
	fresh := playerFormOf(p)
	_, fresh.Error, _ = problem.Describe(s.i18n.In(lang), conflict)
	fields, err := s.playerFieldsOf(c, p.TournamentID)
	if err != nil {
		return render.Result{}, err
	}
	opened := typed
	if typed.Base != nil {
		opened = baseForm(*typed.Base)
	}
	// What this judge changed, where it is not what is saved now.
	mine := fields(typed).changedFrom(fields(opened)).changedFrom(fields(fresh))
	f := &staleForm{
		Action: route.Path(route.Player, p.TournamentID, p.ID),
		Button: s.i18n.Text(lang, "stale.use_mine_form", nil),
		Again:  []hiddenField{{Name: "action", Value: "mine"}},
	}
	if b := typed.Base; b != nil {
		f.Again = append(f.Again, hiddenField{Name: "base_name", Value: b.Name}, hiddenField{Name: "base_kana", Value: b.Kana},
			hiddenField{Name: "base_fixed_table", Value: b.FixedTable}, hiddenField{Name: "base_keep_apart", Value: b.KeepApart})
	}
	fresh.Mine = map[string]string{}
	for _, m := range mine {
		f.Mine = append(f.Mine, mineLine{Label: m.Label, Value: m.Text})
		f.Again = append(f.Again, m.Inputs...)
		if m.Key == "keep_apart" {
			f.Again = append(f.Again, hiddenField{Name: keepApartTaken, Value: "1"})
		}
		fresh.Mine[m.Key] = m.Text
	}
	fresh.Stale = f
	return s.playerPage(c, http.StatusConflict, p, fresh)
}

// takeBackPlayer is the edit form of p as saved now with the fields this
// judge changed, posted by the stale form, over it; its base stays the
// player as this judge's form first showed them.
func (s *Pages) takeBackPlayer(c *gin.Context, p tournament.Player, posted playerForm) playerForm {
	form := playerFormOf(p)
	if _, ok := c.GetPostForm("name"); ok {
		form.Name = posted.Name
	}
	if _, ok := c.GetPostForm("kana"); ok {
		form.Kana = posted.Kana
	}
	if _, ok := c.GetPostForm("fixed_table"); ok {
		form.FixedTable = posted.FixedTable
	}
	if c.PostForm(keepApartTaken) == "1" {
		form.KeepApart = posted.KeepApart
	}
	if posted.Base != nil {
		form.Base = posted.Base
	}
	form.Merged = true
	return form
}

// playerOverwrites asks before the edit form (this judge's changes taken
// back over the player p as saved now) changes a field another judge
// changed since the form's base; nil when it changes none.
func (s *Pages) playerOverwrites(c *gin.Context, p tournament.Player, form playerForm) *overwriteForm {
	fields, err := s.playerFieldsOf(c, p.TournamentID)
	if err != nil {
		return nil
	}
	over := overwrites(fields(baseForm(*form.Base)), fields(playerFormOf(p)), fields(form))
	if len(over) == 0 {
		return nil
	}
	return newOverwriteForm(over, "player-form")
}

// overBase is the base of an edit the judge confirmed over what another
// judge saved: the player as saved now for each field confirmed, so that
// the store writes it (a field changed again since still conflicts).
func overBase(base *tournament.PlayerEdit, p tournament.Player, f *overwriteForm) *tournament.PlayerEdit {
	out := *base
	for _, o := range f.Fields {
		switch o.Key {
		case "name":
			out.Name = p.Name
		case "kana":
			out.Kana = p.Kana
		case "fixed_table":
			out.FixedTable = p.FixedTable
		case "keep_apart":
			out.KeepApart = slices.Clone(p.KeepApart)
		}
	}
	return &out
}

// baseForm is the edit form as its base says the page showed it.
func baseForm(b playerBase) playerForm {
	f := playerForm{Name: b.Name, Kana: b.Kana, FixedTable: b.FixedTable}
	for _, part := range strings.Split(b.KeepApart, ",") {
		if id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64); err == nil {
			f.KeepApart = append(f.KeepApart, id)
		}
	}
	return f
}

// playerFieldsOf returns the fields of a player's edit form of tournament
// tid as a judge reads them, the players kept apart by name.
func (s *Pages) playerFieldsOf(c *gin.Context, tid int64) (func(playerForm) formFields, error) {
	players, err := s.svc.Players(c.Request.Context(), tid)
	if err != nil {
		return nil, err
	}
	names := tournament.Labels(players)
	lang := s.i18n.Lang(c)
	said := func(v string) string {
		if v == "" {
			return s.i18n.Text(lang, "stale.empty", nil)
		}
		return v
	}
	return func(f playerForm) formFields {
		table := normalNumber(f.FixedTable)
		if table == "0" {
			table = "" // no fixed table, as the form shows it
		}
		ids := slices.Sorted(slices.Values(f.KeepApart))
		var apart []string
		var inputs []hiddenField
		for _, id := range slices.Compact(ids) {
			apart = append(apart, names[id])
			inputs = append(inputs, hiddenField{Name: "keep_apart", Value: strconv.FormatInt(id, 10)})
		}
		return formFields{
			{Key: "name", Label: s.i18n.Text(lang, "player.name", nil), Text: said(strings.TrimSpace(f.Name)), Inputs: []hiddenField{{Name: "name", Value: strings.TrimSpace(f.Name)}}},
			{Key: "kana", Label: s.i18n.Text(lang, "player.kana", nil), Text: said(strings.TrimSpace(f.Kana)), Inputs: []hiddenField{{Name: "kana", Value: strings.TrimSpace(f.Kana)}}},
			{Key: "fixed_table", Label: s.i18n.Text(lang, "player.fixed_table", nil), Text: said(table), Inputs: []hiddenField{{Name: "fixed_table", Value: table}}},
			{Key: "keep_apart", Label: s.i18n.Text(lang, "player.keep_apart", nil), Text: said(strings.Join(apart, "、")), Inputs: inputs},
		}
	}, nil
}
