package console

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// declaredTime is the value of the "declared" choice when time ended the game (§12).
const declaredTime = "time"

// scorePage is the view model of a table's score sheet: VP per player in
// seat order, who declared victory or "time", and the placings.
type scorePage struct {
	render.Page
	TID           int64
	Round         int // the round's number
	Table         int // the table's number
	Rows          []scoreRow
	Declared      string // a player ID, declaredTime, or "" when not chosen
	DeclaredError string
	Reason        string
	ReasonError   string
	Version       int // the revision being edited; 0 before the first save
	Error         string
	Conflict      string
	Stale         *staleForm // after a conflict: what this judge typed, beside the saved sheet
	// Base is the revision this judge's input began from, when the sheet
	// carries it over a newer one (HasBase: their changes taken back after
	// a conflict); saving it asks first (Overwrite) before it changes what
	// another judge changed since.
	HasBase   bool
	Base      int
	Overwrite *overwriteForm
	Preview   []placeLine // placings of the sheet as typed, not saved
	Saved     []placeLine // placings of the latest saved revision
	SavedBy   string
	Revisions []revisionLine
	WinVP     int
	VPCap     int
	// RequireBreakdown: the ruleset requires each player's breakdown.
	RequireBreakdown bool
	// Breakdown: the sheet shows the breakdown's fields: the ruleset
	// requires them, the judge asked for them (?breakdown=1), or a row has
	// one. Otherwise the VP fields follow one another, as a judge who
	// types the VP alone tabs through them.
	Breakdown bool
	// Next is the round's next table without a result, offered once this
	// one has a result; 0 when every table has one (AllIn).
	Next  int
	AllIn bool
	// Waiting says what the sheet lacks before its placings can be shown
	// as the judge types (the live preview), or "".
	Waiting string
	// LiveError is the service's refusal of the sheet as typed, shown
	// with the live preview.
	LiveError string
	// TimeUp: the table's time signal has passed (§12). The sheet then
	// defaults to "time", and a declaration needs the judge's LateReason:
	// the one typed, or the standard one the LateConfirmed box stands for.
	TimeUp        bool
	Deadline      string // the table's time signal, for the hint
	LateConfirmed bool
	LateReason    string // as typed
	LateError     string
	// FromReport is the players' report the sheet was filled in from
	// (?report=ID&side=...), 0 for none; FromNotice says which version.
	FromReport int64
	FromNotice string

	revs []tournament.Result // the table's revisions, oldest first
}

type scoreRow struct {
	// Line is the player's line as typed (the VP and the breakdown), with
	// the messages by its fields.
	sheet.Line
	Kana     string
	Seat     int
	Color    string
	ColorTxt string
	Mine     string // after a conflict: what this judge typed, when not what is saved
}

type placeLine struct {
	Place     int
	Name      string
	Breakdown string // the sheet's VP breakdown, said; "" for none
	VP        int
	Sum       string // how the sheet's VP came to VP (showVP); "" when they stand
	Why       string // the penalties behind Sum
	Declared  bool
}

type revisionLine struct {
	Version int
	Judge   string
	At      string
	Reason  string
	Ended   string
	Scores  string
	Late    string // the confirmation of a declaration recorded after the signal (§12)
	// Reported says the revision is a players' report the judge accepted.
	Reported bool
	// FromGame is the moves of the recorded game the revision was saved
	// from, 0 for a sheet.
	FromGame int
}

func (s *Pages) ShowScore(c *gin.Context) (render.Result, error) {
	vm, err := s.openSheet(c)
	if err != nil {
		return render.Result{}, err
	}
	return render.Show("score", vm), nil
}

// openSheet is the score sheet as a judge opens it: the table as recorded
// now, its fields filled from the latest revision or the §12 default.
func (s *Pages) openSheet(c *gin.Context) (scorePage, error) {
	ts, err := s.loadTable(c)
	if err != nil {
		return scorePage{}, err
	}
	vm, err := s.newScorePage(c, ts)
	if err != nil {
		return scorePage{}, err
	}
	vm.fillDraft(ts.tv.Draft())
	vm.Breakdown = vm.Breakdown || c.Query("breakdown") == "1"
	if c.Query("report") != "" {
		if err := s.fillFromReport(c, ts, &vm); err != nil {
			return scorePage{}, err
		}
	}
	return vm, nil
}

// fillFromReport fills the sheet in with a version of a players' report
// of the table (?report=ID&side=reported|disputed), which the judge then
// saves through the sheet's usual checks: saved as it is, the revision is
// the players' report (tournament.ResultInput.ReportID). A report of
// another table, or a side it does not have, is not found.
func (s *Pages) fillFromReport(c *gin.Context, ts tableState, vm *scorePage) error {
	id, err := strconv.ParseInt(c.Query("report"), 10, 64)
	if err != nil {
		return fmt.Errorf("report %q: %w", c.Query("report"), tournament.ErrNotFound)
	}
	r, err := s.svc.GetReport(c.Request.Context(), ts.t.ID, id)
	if err != nil {
		return err
	}
	side := c.Query("side")
	d, ok := r.Sheet(side, vm.Version)
	if !ok || r.Round != ts.n || r.Table != ts.tv.Table.Number {
		return fmt.Errorf("report %d, %q side, of round %d table %d: %w", id, side, ts.n, ts.tv.Table.Number, tournament.ErrNotFound)
	}
	vm.fillDraft(d)
	if d.Version == 0 {
		vm.Reason = d.Reason // §12's reason; a correction asks for its own
	}
	vm.LateReason = d.LateReason
	who := ts.names()[r.ReportedBy]
	if side == tournament.SideDisputed {
		who = ts.names()[r.DisputedBy]
	}
	vm.FromReport = r.ID
	vm.FromNotice = s.i18n.Text(vm.Lang, "score.from_report", map[string]any{
		"Side": s.i18n.Text(vm.Lang, "score.side_"+side, map[string]any{"Name": who}),
	})
	return nil
}

// fillDraft puts the sheet the judge opens in its fields
// (tournament.TableView.Draft): its version, VP and how the game ended.
func (vm *scorePage) fillDraft(d tournament.Draft) {
	vm.Version = d.Version
	switch {
	case d.Declared != 0:
		vm.Declared = strconv.FormatInt(d.Declared, 10)
	case d.ByTime:
		vm.Declared = declaredTime
	}
	for i := range vm.Rows {
		row := &vm.Rows[i]
		vp, ok := d.VP[row.ID]
		if !ok {
			continue
		}
		b, has := d.Breakdown[row.ID]
		if has {
			row.Fill(vp, &b)
			vm.Breakdown = true
		} else {
			row.Fill(vp, nil)
		}
	}
}

// newScorePage fills the parts of the score page that come from what is
// recorded: the players in seat order, the saved placings, the revisions.
func (s *Pages) newScorePage(c *gin.Context, ts tableState) (scorePage, error) {
	lang := s.i18n.Lang(c)
	tv := ts.tv
	vm := scorePage{
		Page:             s.pages.Page(c, s.roundWords(c, "page.score", ts.final()), map[string]any{"N": ts.n, "Table": tv.Table.Number}),
		TID:              ts.t.ID,
		Round:            ts.n,
		Table:            tv.Table.Number,
		WinVP:            ts.t.Ruleset.WinVP,
		VPCap:            ts.t.Ruleset.VPCap,
		RequireBreakdown: ts.t.Ruleset.RequireBreakdown,
		Breakdown:        ts.t.Ruleset.RequireBreakdown,
		TimeUp:           tv.Clock.TimeUp,
	}
	if tv.Result != nil {
		vm.Next, vm.AllIn = ts.next, ts.next == 0
	}
	if vm.TimeUp {
		vm.Deadline = s.i18n.In(lang).Clock(tv.Clock.Deadline)
	}
	vm.Nav = ts.nav
	names := map[int64]string{}
	for _, p := range tv.Players {
		row := scoreRow{Line: sheet.Line{ID: p.PlayerID, Name: p.Label}, Kana: tournament.ReadingBeside(p.Label, p.Name, p.Kana), Seat: p.Seat, Color: string(p.Color)}
		if p.Color != "" {
			row.ColorTxt = s.i18n.Text(lang, "color."+string(p.Color), nil)
		}
		vm.Rows = append(vm.Rows, row)
		names[p.PlayerID] = p.Label
	}
	if r := tv.Result; r != nil {
		vm.Saved = s.placeLines(lang, ts.t.Ruleset, tv.Places, names, r)
		vm.SavedBy = s.i18n.Text(lang, "score.saved_by", map[string]any{"V": r.Version, "Judge": r.Judge, "At": s.i18n.In(lang).Time(r.At)})
		revs, err := s.svc.Revisions(c.Request.Context(), ts.t.ID, ts.n, tv.Table.Number)
		if err != nil {
			return vm, err
		}
		vm.revs = revs
		for i := len(revs) - 1; i >= 0; i-- {
			vm.Revisions = append(vm.Revisions, s.revisionLine(lang, revs[i], names))
		}
	}
	return vm, nil
}

// placeLines are the lines of placings, with the players' names, the
// declared winner marked and every deduction shown as such.
func (s *Pages) placeLines(lang string, rs referee.Ruleset, places []tournament.Placing, names map[int64]string, res *tournament.Result) []placeLine {
	var out []placeLine
	bd := breakdowns(res)
	for _, pl := range places {
		vp := s.showVP(lang, rs, pl)
		out = append(out, placeLine{Place: pl.Place, Name: names[pl.PlayerID], VP: pl.VP, Sum: vp.Sum, Why: vp.Why,
			Declared: res.Declared != 0 && pl.PlayerID == res.Declared, Breakdown: s.breakdownText(lang, bd[pl.PlayerID])})
	}
	return out
}

func (s *Pages) revisionLine(lang string, r tournament.Result, names map[int64]string) revisionLine {
	var parts []string
	for _, sc := range r.Scores {
		part := fmt.Sprintf("%s %d", names[sc.PlayerID], sc.VP)
		if b := s.breakdownText(lang, sc.Breakdown); b != "" {
			part += "（" + b + "）"
		}
		parts = append(parts, part)
	}
	ended := s.i18n.Text(lang, "score.ended_"+r.EndedBy, nil)
	if r.EndedEarly {
		ended += " · " + s.i18n.Text(lang, "score.ended_early", nil)
	}
	if r.Declared != 0 {
		ended = s.i18n.Text(lang, "score.declared_by", map[string]any{"Name": names[r.Declared]})
	}
	return revisionLine{Version: r.Version, Judge: r.Judge, At: s.i18n.In(lang).Time(r.At), Reason: r.Reason, Ended: ended, Scores: strings.Join(parts, "、"), Late: r.LateReason,
		Reported: r.ReportID != 0, FromGame: r.GameMoves}
}

// SaveScore previews or saves the score sheet. The service checks the
// sheet either way, as saving does; a refusal shows next to the field it
// is about (scoreRules), and the preview shows the placings without
// saving anything.
func (s *Pages) SaveScore(c *gin.Context) (render.Result, error) {
	ts, err := s.loadTable(c)
	if err != nil {
		return render.Result{}, err
	}
	vm, err := s.newScorePage(c, ts)
	if err != nil {
		return render.Result{}, err
	}
	if c.PostForm("part") == "preview" {
		return s.livePreview(c, ts, vm), nil
	}
	in, ok := s.readScoreForm(c, &vm)
	if !ok {
		return render.ShowStatus(http.StatusUnprocessableEntity, "score", vm), nil
	}
	if c.PostForm("action") == "preview" {
		tr, err := s.svc.PreviewResult(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number, in)
		if err != nil {
			return s.refuseScore(c, err, vm)
		}
		vm.Preview = s.placeLines(vm.Lang, ts.t.Ruleset, tr.Places, ts.names(), &tr.Result)
		return render.Show("score", vm), nil
	}
	if vm.Overwrite = s.sheetOverwrites(ts, vm); vm.Overwrite != nil && c.PostForm("overwrite") != vm.Overwrite.Token {
		// The judge's own changes, taken back after a conflict, would
		// undo another judge's since: a second confirmation first.
		return render.ShowStatus(http.StatusConflict, "score", vm), nil
	}
	vm.Overwrite = nil
	_, err = s.svc.SaveResult(c.Request.Context(), auth.Judge(c), ts.t.ID, ts.n, ts.tv.Table.Number, in)
	switch {
	case err == nil:
		return render.SeeOther(tableURL(ts)+"/score", "flash.score_saved"), nil
	case errors.As(err, new(*tournament.ConflictError)):
		return s.staleScore(c, vm, err)
	}
	return s.refuseScore(c, err, vm)
}

// livePreview answers the sheet as the judge types, for the script of
// the score page (static/forms.js posts the form with part=preview and
// swaps in the parts the answer marks data-live): each row's VP as the
// referee counts its breakdown, the refusals of the sheet's breakdowns
// next to their fields once every row has something typed, and the
// placings the service gives the sheet as saving would; or what the sheet
// lacks, or why it would be refused. Nothing is saved, and what is not
// typed yet is no error.
func (s *Pages) livePreview(c *gin.Context, ts tableState, vm scorePage) render.Result {
	in, filled := s.readScoreForm(c, &vm)
	vm.DeclaredError = ""
	complete := true
	for i := range vm.Rows {
		if r := &vm.Rows[i]; r.Empty() {
			r.Error, r.Invalid, complete = "", nil, false
		}
	}
	if !filled || !complete {
		vm.Waiting = s.i18n.Text(vm.Lang, "score.live_waiting", nil)
	}
	if !complete || slices.ContainsFunc(vm.Rows, func(r scoreRow) bool { return r.Error != "" || len(r.Problems) > 0 }) {
		return render.Part("score", "live", vm)
	}
	if vm.Declared == declaredTime || !filled {
		in.Declared = 0
	}
	tr, err := s.svc.PreviewResult(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number, in)
	switch {
	case err == nil && filled:
		vm.Preview = s.placeLines(vm.Lang, ts.t.Ruleset, tr.Places, ts.names(), &tr.Result)
	case err == nil:
	case s.placeSheet(vm.Lang, err, &vm) && vm.DeclaredError == "":
		// The refusals show by the fields they are about.
	case filled:
		msg, ok := s.formError(c, err)
		if !ok {
			msg = s.i18n.Text(vm.Lang, "error.internal", nil)
			s.log.Error("score preview", "id", problem.RequestID(c), "err", err)
		}
		vm.LiveError = msg
	}
	return render.Part("score", "live", vm)
}

// scoreRules says where the sheet shows the service's refusals: next to
// the declared winner (§11), the confirmation of a late declaration
// (§12) or the reason of a correction; a player's negative VP goes next
// to that player's VP (refuseScore).
var scoreRules = fieldRules{
	"winner-under-win-vp": {"declared", "score.declared_too_few"},
	"winner-not-at-table": {"declared", ""},
	// The rule's message asks for a reason; the sheet offers the box too.
	"declared-after-time":       {"late", "score.late_missing"},
	"correction-reason-missing": {"reason", "score.reason_missing"},
	"ended-by-time-early":       {"reason", ""},
}

// refuseScore shows the sheet vm again with the service's refusal of it,
// next to the field it is about, or above the form. An error that is not
// a refusal is the error page's.
func (s *Pages) refuseScore(c *gin.Context, err error, vm scorePage) (render.Result, error) {
	msg, ok := s.formError(c, err)
	if !ok {
		return render.Result{}, err
	}
	vm.Preview = nil
	errs := fieldErrors{}
	var v *referee.Violation
	switch {
	case s.placeSheet(vm.Lang, err, &vm):
	case s.place(vm.Lang, err, scoreRules, errs):
		vm.DeclaredError, vm.LateError, vm.ReasonError = errs["declared"], errs["late"], errs["reason"]
	case errors.As(err, &v) && v.Code == "negative-vp":
		id, _ := v.Args["PlayerID"].(int64)
		if i := slices.IndexFunc(vm.Rows, func(r scoreRow) bool { return r.ID == id }); i >= 0 {
			vm.Rows[i].Error = msg
		} else {
			vm.Error = msg
		}
	case errors.Is(err, tournament.ErrNoSpace):
		vm.Error = msg
		return render.ShowStatus(http.StatusInsufficientStorage, "score", vm), nil
	default:
		vm.Error = msg
	}
	return render.ShowStatus(http.StatusUnprocessableEntity, "score", vm), nil
}

// placeSheet shows the refusals of the sheet's breakdowns
// (referee.CheckSheet: codes sheet-*, each naming its players and field)
// next to the fields of the players they are about, and reports whether
// err was such a refusal.
func (s *Pages) placeSheet(lang string, err error, vm *scorePage) bool {
	lines := vm.lines()
	r := sheet.Place(s.i18n.In(lang), err, lines)
	for i := range vm.Rows {
		vm.Rows[i].Line = lines[i]
	}
	if r.Declared != nil {
		vm.DeclaredError = s.i18n.Text(lang, scoreRules[r.Declared.Code].msg, r.Declared.Args)
	}
	if r.Table != "" {
		vm.Error = r.Table
	}
	return r.Placed || r.Declared != nil
}

// lines are the sheet's lines, to place refusals on.
func (vm *scorePage) lines() []sheet.Line {
	out := make([]sheet.Line, len(vm.Rows))
	for i, r := range vm.Rows {
		out[i] = r.Line
	}
	return out
}

// readScoreForm reads the sheet into vm (to show it back) and into a
// ResultInput, with a message next to each field that is not filled in.
func (s *Pages) readScoreForm(c *gin.Context, vm *scorePage) (tournament.ResultInput, bool) {
	lang := vm.Lang
	ok := true
	var in tournament.ResultInput
	for i := range vm.Rows {
		score, good := s.readScoreRow(c, lang, &vm.Rows[i])
		vm.Breakdown = vm.Breakdown || score.Breakdown != nil
		ok = ok && good
		in.Scores = append(in.Scores, score)
	}
	vm.Breakdown = vm.Breakdown || c.PostForm("breakdown") == "1"
	vm.Declared = c.PostForm("declared")
	switch vm.Declared {
	case "":
		vm.DeclaredError = s.i18n.Text(lang, "score.declared_missing", nil)
		ok = false
	case declaredTime:
	default:
		id, err := strconv.ParseInt(vm.Declared, 10, 64)
		found := false
		for _, r := range vm.Rows {
			found = found || r.ID == id
		}
		if err != nil || !found {
			vm.DeclaredError = s.i18n.Text(lang, "score.declared_missing", nil)
			vm.Declared = ""
			ok = false
		}
		in.Declared = id
	}
	// The form names one winner; a forged one may post two.
	if len(c.PostFormArray("declared")) > 1 {
		vm.DeclaredError = s.i18n.Text(lang, "score.declared_twice", nil)
		vm.Declared = ""
		ok = false
	}
	if v, err := strconv.Atoi(c.PostForm("version")); err == nil && v >= 0 {
		in.Version = v
	}
	if b, err := strconv.Atoi(c.PostForm("base")); err == nil && b >= 0 && b < in.Version {
		vm.HasBase, vm.Base = true, b
	}
	in.ReportID, _ = strconv.ParseInt(c.PostForm("report"), 10, 64)
	vm.FromReport = in.ReportID
	vm.Version = in.Version
	vm.Reason = strings.TrimSpace(c.PostForm("reason"))
	in.Reason = vm.Reason
	vm.LateReason = strings.TrimSpace(c.PostForm("late_reason"))
	vm.LateConfirmed = c.PostForm("late_confirmed") != ""
	in.LateReason = vm.LateReason
	if in.LateReason == "" && vm.LateConfirmed {
		// Sheets are collected after the signal, so the box is the usual
		// confirmation (§12); its label, in the judge's language, is the
		// reason recorded. A reason typed in says more and wins.
		in.LateReason = s.i18n.Text(lang, "score.late_confirm", nil)
	}
	return in, ok
}

// readScoreRow reads a player's row of the sheet into row (to show it
// back) and into a Score, with a message next to each field that is not
// filled in.
func (s *Pages) readScoreRow(c *gin.Context, lang string, row *scoreRow) (tournament.Score, bool) {
	return row.Read(s.i18n.In(lang), c.PostForm)
}

// declaredText names the sheet's choice of how the game ended, in lang.
func (s *Pages) declaredText(lang string, vm scorePage) string {
	if vm.Declared == declaredTime {
		return s.i18n.Text(lang, "score.time", nil)
	}
	for _, r := range vm.Rows {
		if strconv.FormatInt(r.ID, 10) == vm.Declared {
			return s.i18n.Text(lang, "score.declared_by", map[string]any{"Name": r.Name})
		}
	}
	return ""
}
