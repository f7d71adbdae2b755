package console

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// staleScore answers a sheet another judge saved a newer revision of
// first (a *tournament.ConflictError). The sheet starts again from what is
// saved now, with what this judge changed from the revision their sheet
// was opened at (the conflict's Base) beside it: saving it as it stands
// never undoes the other judge's change, and the button takes this
// judge's changes, and only those, back over the saved sheet (staleForm).
func (s *Pages) staleScore(c *gin.Context, typed scorePage, conflict error) (render.Result, error) {
	s.log.Info("stale score sheet", "id", problem.RequestID(c), "err", conflict)
	fresh, err := s.openSheet(c)
	if err != nil {
		return render.Result{}, err
	}
	ce := new(tournament.ConflictError)
	errors.As(conflict, &ce)
	lang := fresh.Lang
	_, fresh.Conflict, _ = problem.Describe(s.i18n.In(lang), conflict)
	opened := fresh.withDraft(draftOf(ce.Base, fresh.TimeUp))
	// What this judge changed, where it is not what is saved now.
	mine := s.sheetFields(lang, typed).changedFrom(s.sheetFields(lang, opened)).changedFrom(s.sheetFields(lang, fresh))
	// The judge's input began at the revision their sheet was opened at,
	// or, for changes taken back once already, where those began.
	base := ce.Expected
	if typed.HasBase {
		base = typed.Base
	}
	fresh.Stale = s.staleSheet(lang, typed, fresh, mine, base)
	for i := range fresh.Rows {
		if f, ok := mine.get(fresh.Rows[i].Field()); ok {
			fresh.Rows[i].Mine = f.Text
		}
	}
	return render.ShowStatus(http.StatusConflict, "score", fresh), nil
}

// staleSheet is what the judge changed (mine) on a sheet another judge
// saved first (typed), beside the sheet as saved now (saved), and the form
// that takes those changes back over it, as a preview over the saved
// version that remembers where the judge's input began (base), so that
// saving is a second, deliberate step.
func (s *Pages) staleSheet(lang string, typed, saved scorePage, mine formFields, base int) *staleForm {
	f := &staleForm{
		Action: route.Path(route.Score, saved.TID, saved.Round, saved.Table),
		Button: s.i18n.Text(lang, "stale.use_mine_sheet", nil),
		Again: []hiddenField{
			{Name: "version", Value: strconv.Itoa(saved.Version)},
			{Name: "base", Value: strconv.Itoa(base)},
			{Name: "action", Value: "preview"},
			{Name: "reason", Value: typed.Reason},
			{Name: "late_reason", Value: typed.LateReason},
		},
	}
	if typed.LateConfirmed {
		f.Again = append(f.Again, hiddenField{Name: "late_confirmed", Value: "1"})
	}
	if typed.Breakdown || saved.Breakdown {
		f.Again = append(f.Again, hiddenField{Name: "breakdown", Value: "1"})
	}
	f.Again = append(f.Again, s.sheetFields(lang, saved).with(mine)...)
	for _, m := range mine {
		f.Mine = append(f.Mine, mineLine{Label: m.Label, Value: m.Text})
	}
	if typed.Reason != "" {
		f.Mine = append(f.Mine, mineLine{Label: s.i18n.Text(lang, "score.reason", nil), Value: typed.Reason})
	}
	return f
}

// sheetOverwrites is what saving the sheet vm would undo of other judges'
// changes: nil unless the sheet carries this judge's changes taken back
// over the latest revision (vm.HasBase); then each line or choice another
// judge changed since the revision the judge's input began from, which
// the sheet changes again.
func (s *Pages) sheetOverwrites(ts tableState, vm scorePage) *overwriteForm {
	if !vm.HasBase || ts.tv.Result == nil || vm.Version != ts.tv.Result.Version {
		// An older version is the service's conflict to refuse.
		return nil
	}
	var began *tournament.Result
	if i := slices.IndexFunc(vm.revs, func(r tournament.Result) bool { return r.Version == vm.Base }); i >= 0 {
		began = &vm.revs[i]
	}
	lang := vm.Lang
	over := overwrites(s.sheetFields(lang, vm.withDraft(draftOf(began, vm.TimeUp))), s.sheetFields(lang, vm.withDraft(ts.tv.Draft())), s.sheetFields(lang, vm))
	if len(over) == 0 {
		return nil
	}
	return newOverwriteForm(over, "score-form")
}

// draftOf is the sheet of revision r, or the empty sheet of a table
// without one (ended by time once its signal passed, §12).
func draftOf(r *tournament.Result, timeUp bool) tournament.Draft {
	if r == nil {
		return tournament.Draft{ByTime: timeUp}
	}
	return r.Draft()
}

// withDraft is the sheet vm filled in with d alone.
func (vm scorePage) withDraft(d tournament.Draft) scorePage {
	vm.Rows = slices.Clone(vm.Rows)
	for i := range vm.Rows {
		vm.Rows[i].Line = sheet.Line{ID: vm.Rows[i].ID, Name: vm.Rows[i].Name}
	}
	vm.Declared = ""
	vm.fillDraft(d)
	return vm
}

// sheetFields are the fields of the sheet vm as a judge reads them: each
// player's line (the VP with its breakdown) and how the game ended.
func (s *Pages) sheetFields(lang string, vm scorePage) formFields {
	flag := func(on bool) string {
		if on {
			return "1"
		}
		return ""
	}
	var out formFields
	for _, r := range vm.Rows {
		out = append(out, formField{Key: r.Field(), Label: r.Name, Text: s.lineText(lang, r.Line), Inputs: []hiddenField{
			{Name: r.Field(), Value: normalNumber(r.VP)},
			{Name: r.Input(referee.FieldSettlements), Value: normalNumber(r.Settlements)},
			{Name: r.Input(referee.FieldCities), Value: normalNumber(r.Cities)},
			{Name: r.Input(referee.FieldPointCards), Value: normalNumber(r.PointCards)},
			{Name: r.Input(referee.FieldLongestRoad), Value: flag(r.LongestRoad)},
			{Name: r.Input(referee.FieldLargestArmy), Value: flag(r.LargestArmy)},
		}})
	}
	ended := s.declaredText(lang, vm)
	if ended == "" {
		ended = s.i18n.Text(lang, "stale.empty", nil)
	}
	return append(out, formField{Key: "declared", Label: s.i18n.Text(lang, "score.declared", nil), Text: ended,
		Inputs: []hiddenField{{Name: "declared", Value: vm.Declared}}})
}

// lineText says a player's line as typed: its VP with its counter, and
// its breakdown.
func (s *Pages) lineText(lang string, l sheet.Line) string {
	if l.Empty() {
		return s.i18n.Text(lang, "stale.empty", nil)
	}
	text := l.VP
	if n, err := strconv.Atoi(normalNumber(l.VP)); err == nil {
		text = s.i18n.Text(lang, "kiosk.vp", map[string]any{"N": n})
	}
	if l.HasBreakdown() {
		count := func(v string) int { n, _ := strconv.Atoi(normalNumber(v)); return n }
		b := referee.Breakdown{Settlements: count(l.Settlements), Cities: count(l.Cities), PointCards: count(l.PointCards),
			LongestRoad: l.LongestRoad, LargestArmy: l.LargestArmy}
		text += "（" + s.breakdownText(lang, &b) + "）"
	}
	return text
}
