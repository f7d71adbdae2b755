package kiosk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// tablePage is a table on a player's phone: its players, and its open
// report to confirm or dispute, or the form to report it. What a report
// may hold is the service's to say (the judge's score sheet's checks):
// the page shows its refusal by the field it is about.
type tablePage struct {
	Lang, Title, Path string
	Heading           string
	TID               int64
	Name              string // the tournament's
	Round, Table      int
	Open              bool // the tournament takes players' reports
	Players           []tableSeat
	Report            *tournament.Report
	Declared          string // the report's declared winner, "" for time
	Status            string // the report's status in words
	// Called says a player disputed the report: a judge is called.
	Called bool
	// Dispute is the disputing player's version beside the report's, and
	// their note; nil when they gave neither.
	Dispute   *disputeView
	HasResult bool // the judges' result is recorded
	// Placings are the recorded result, by place: what players come to
	// see once the table is recorded.
	Placings []resultLine
	// Sheet is the sheet the form holds: a new report, or, on an open
	// report, the version of a player who disputes it (the report's to
	// start with).
	Sheet sheetForm
	// Disputing says the dispute's form is the one sent (it opens again
	// with its refusal); Note is its note as typed.
	Disputing bool
	Note      string
	// Player is the player the form was sent for, with the messages by
	// the choice of player and by the code.
	Player                 int64
	PlayerError, CodeError string
	Error, Done            string
	whoLabel               string // the words before the choice of player

	// Me is the player this phone remembers, when they are at the table
	// (remember.go): the forms then ask for no code. meCode is their code.
	Me     int64
	MeName string
	meCode string
	// Calls are the table's judge calls (calls.go), CanCall says that a
	// player may call one.
	Calls    []phoneCall
	CanCall  bool
	CallNote string // the call form's note, as typed
	Calling  bool   // the call form is the one sent
}

type tableSeat struct {
	ID        int64
	Name      string
	VP        string // as reported
	Breakdown string // the report's breakdown in words, "" for none
	Confirmed bool
	// Disputed is the VP the disputing player gives, with its breakdown,
	// and Differs whether it is not the report's.
	Disputed, DisputedBreakdown string
	Differs                     bool
}

// disputeView is what a disputing player said besides their VP.
type disputeView struct {
	Version         bool   // they gave their own sheet
	Declared        string // the winner they give, "" for time
	DeclaredDiffers bool
	Note            string
}

// sheetForm is a table's sheet as a player types it on their phone.
type sheetForm struct {
	Lines []sheet.Line
	// Declared is a player's ID, or "0" when time ended the game (§12).
	Declared      string
	DeclaredError string
	// Breakdown opens every line's breakdown: the ruleset requires it
	// (RequireBreakdown). A line that gives one, or has a message about
	// one, opens its own.
	Breakdown, RequireBreakdown bool
	// The reasons of §12, asked once the service asked for them (or given).
	AskReason, AskLate    bool
	Reason, ReasonError   string
	LateReason, LateError string
	Error                 string // a refusal about the sheet as a whole
}

// whoForm is who sends a form: the choice of player, the field of their
// code, and the messages by each.
type whoForm struct {
	Label                  string
	PlayerField, CodeField string
	Choices                []tableSeat
	Player                 int64
	PlayerError, CodeError string
	// Me is the player this phone remembers, among Choices: the form
	// names them and asks for no code, with the button that forgets them
	// (to TID's forget form, back to Back).
	Me     int64
	MeName string
	TID    int64
	Back   string
}

// Who is who sends the report, or confirms the report open: a player who
// has not confirmed it yet.
func (vm tablePage) Who() whoForm {
	w := vm.who("player", "code", vm.unconfirmed())
	if !vm.Disputing && !vm.Calling {
		w.Player, w.PlayerError, w.CodeError = vm.Player, vm.PlayerError, vm.CodeError
	}
	return w
}

// CallWho is who calls a judge: any player at the table.
func (vm tablePage) CallWho() whoForm {
	w := vm.who("call_player", "call_code", vm.Players)
	w.Label = vm.whoLabel
	if vm.Calling {
		w.Player, w.PlayerError, w.CodeError = vm.Player, vm.PlayerError, vm.CodeError
	}
	return w
}

// who is a form's who, player and code fields named playerField and
// codeField, of the players choices, with the player this phone
// remembers when they are among them.
func (vm tablePage) who(playerField, codeField string, choices []tableSeat) whoForm {
	w := whoForm{Label: vm.whoLabel, PlayerField: playerField, CodeField: codeField, Choices: choices, TID: vm.TID, Back: vm.Path}
	if slices.ContainsFunc(choices, func(p tableSeat) bool { return p.ID == vm.Me }) {
		w.Me, w.MeName = vm.Me, vm.MeName
	}
	return w
}

// DisputeWho is who disputes the report open.
func (vm tablePage) DisputeWho() whoForm {
	w := vm.who("dispute_player", "dispute_code", vm.unconfirmed())
	if vm.Disputing {
		w.Player, w.PlayerError, w.CodeError = vm.Player, vm.PlayerError, vm.CodeError
	}
	return w
}

func (vm tablePage) unconfirmed() []tableSeat {
	var out []tableSeat
	for _, p := range vm.Players {
		if !p.Confirmed {
			out = append(out, p)
		}
	}
	return out
}

// ReportTable takes a player's report of their table; part=check answers
// the live check of the sheet as typed (static/forms.js).
func (s *Pages) ReportTable(c *gin.Context) (render.Result, error) {
	vm, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	in, filled := s.readSheet(c, vm.Lang, &vm.Sheet)
	if c.PostForm("part") == "check" {
		return s.checkSheet(c, vm, in)
	}
	code, who := s.readPlayer(c, &vm, "code")
	if !filled || !who {
		return render.ShowStatus(http.StatusUnprocessableEntity, "report", vm), nil
	}
	err = s.checkCode(c, &vm, code, func() error {
		_, err := s.svc.ReportResult(c.Request.Context(), vm.TID, vm.Round, vm.Table, vm.Player, code, in)
		return err
	})
	return s.answered(c, vm, err, "report.sent")
}

// AnswerReport takes a player's confirmation (action=confirm) or dispute
// of their table's report; a dispute carries the player's version of the
// sheet and a note. part=check answers the live check of that version.
func (s *Pages) AnswerReport(c *gin.Context) (render.Result, error) {
	vm, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	id, _ := strconv.ParseInt(c.Param("report"), 10, 64)
	if vm.Report == nil || vm.Report.ID != id {
		return render.Result{}, fmt.Errorf("report %d of round %d table %d: %w", id, vm.Round, vm.Table, tournament.ErrNotFound)
	}
	vm.Disputing = c.PostForm("action") == "dispute" || c.PostForm("part") == "check"
	if !vm.Disputing {
		code, who := s.readPlayer(c, &vm, "code")
		if !who {
			return render.ShowStatus(http.StatusUnprocessableEntity, "report", vm), nil
		}
		err = s.checkCode(c, &vm, code, func() error {
			_, err := s.svc.ConfirmReport(c.Request.Context(), vm.TID, id, vm.Player, code)
			return err
		})
		return s.answered(c, vm, err, "report.confirmed")
	}
	in, filled := s.readSheet(c, vm.Lang, &vm.Sheet)
	if c.PostForm("part") == "check" {
		return s.checkSheet(c, vm, in)
	}
	vm.Note = strings.TrimSpace(c.PostForm("note"))
	code, who := s.readPlayer(c, &vm, "dispute_code")
	if !filled || !who {
		return render.ShowStatus(http.StatusUnprocessableEntity, "report", vm), nil
	}
	err = s.checkCode(c, &vm, code, func() error {
		_, err := s.svc.DisputeReport(c.Request.Context(), vm.TID, id, vm.Player, code, tournament.DisputeInput{ReportInput: in, Note: vm.Note})
		return err
	})
	return s.answered(c, vm, err, "report.disputed")
}

// readPlayer reads who sends the form and their code (from the field
// codeField), with a message by each that is missing: a form sent
// without them counts as no guess at anyone's code.
func (s *Pages) readPlayer(c *gin.Context, vm *tablePage, codeField string) (string, bool) {
	vm.Player, _ = strconv.ParseInt(c.PostForm("player"), 10, 64)
	code := c.PostForm(codeField)
	// The player this phone remembers sends no code: theirs is used.
	if vm.Me != 0 && strings.TrimSpace(code) == "" && (vm.Player == 0 || vm.Player == vm.Me) {
		vm.Player, code = vm.Me, vm.meCode
	}
	ok := true
	if !slices.ContainsFunc(vm.Players, func(p tableSeat) bool { return p.ID == vm.Player }) {
		vm.Player, vm.PlayerError, ok = 0, s.i18n.Text(vm.Lang, "report.choose_player", nil), false
	}
	if strings.TrimSpace(code) == "" {
		vm.CodeError, ok = s.i18n.Text(vm.Lang, "form.required", nil), false
	}
	return code, ok
}

// readSheet reads the sheet typed into f (to show it back) and into a
// ReportInput, with a message by each field not filled in.
func (s *Pages) readSheet(c *gin.Context, lang string, f *sheetForm) (tournament.ReportInput, bool) {
	p := s.i18n.In(lang)
	ok := true
	var in tournament.ReportInput
	for i := range f.Lines {
		score, good := f.Lines[i].Read(p, c.PostForm)
		ok = ok && good
		in.Scores = append(in.Scores, score)
	}
	f.Declared = c.PostForm("declared")
	if f.Declared == "0" {
		in.Declared = 0
	} else if id, err := strconv.ParseInt(f.Declared, 10, 64); err == nil && slices.ContainsFunc(f.Lines, func(l sheet.Line) bool { return l.ID == id }) {
		in.Declared = id
	} else {
		f.Declared, f.DeclaredError, ok = "", p.Text("report.declared_missing", nil), false
	}
	f.Reason, f.LateReason = strings.TrimSpace(c.PostForm("reason")), strings.TrimSpace(c.PostForm("late_reason"))
	f.AskReason, f.AskLate = f.AskReason || f.Reason != "", f.AskLate || f.LateReason != ""
	in.Reason, in.LateReason = f.Reason, f.LateReason
	return in, ok
}

// checkSheet answers the live check of a sheet as typed: each line's VP
// as the referee counts its breakdown, and the refusals of the sheet's
// breakdowns and of its winner by their fields (tournament.Service's
// CheckSheet, which reads the table alone), once every line has something
// typed. What is not typed yet is no error, and nothing is saved; the
// code is not asked for. The reasons of §12 are said when the sheet is
// sent.
func (s *Pages) checkSheet(c *gin.Context, vm tablePage, in tournament.ReportInput) (render.Result, error) {
	f := &vm.Sheet
	f.DeclaredError = ""
	complete := true
	for i := range f.Lines {
		if l := &f.Lines[i]; l.Empty() {
			l.Error, l.Invalid, complete = "", nil, false
		}
	}
	if !complete || sheet.Bad(f.Lines) {
		return render.Part("report", "live", vm), nil
	}
	if f.Declared == "" {
		in.Declared = 0
	}
	_, err := s.svc.CheckSheet(c.Request.Context(), vm.TID, vm.Round, vm.Table, tournament.ResultInput{Scores: in.Scores, Declared: in.Declared})
	if status, _, _ := problem.Describe(s.i18n.In(vm.Lang), err); err != nil && status >= http.StatusInternalServerError {
		return render.Result{}, err
	}
	if err != nil {
		s.placeSheet(vm.Lang, err, f)
	}
	return render.Part("report", "live", vm), nil
}

// sheetRules are the refusals of a players' sheet said in the page's own
// words: the reasons of §12 are the players' to give here, where the
// judge's sheet asks for the judge's.
var sheetRules = map[string]string{
	"ended-by-time-early": "report.early_missing",
	"declared-after-time": "report.late_missing",
}

// placeSheet puts the service's refusal of the sheet by the field it is
// about, and reports whether it did.
func (s *Pages) placeSheet(lang string, err error, f *sheetForm) bool {
	p := s.i18n.In(lang)
	r := sheet.Place(p, err, f.Lines)
	if r.Declared != nil {
		f.DeclaredError = p.Text("score.declared_too_few", r.Declared.Args)
	}
	if r.Table != "" {
		f.Error = r.Table
	}
	return r.Placed || r.Declared != nil
}

// answered shows the table after a player's form: the refusal by the
// field it is about (or above the form), or the table as it is now with
// what was done.
func (s *Pages) answered(c *gin.Context, vm tablePage, err error, done string) (render.Result, error) {
	if err != nil {
		status, msg, _ := problem.Describe(s.i18n.In(vm.Lang), err)
		if status >= http.StatusInternalServerError {
			return render.Result{}, err
		}
		s.refuse(vm.Lang, err, msg, &vm)
		return render.ShowStatus(status, "report", vm), nil
	}
	now, err := s.tablePage(c)
	if err != nil {
		return render.Result{}, err
	}
	now.Done = s.i18n.Text(vm.Lang, done, nil)
	return render.Show("report", now), nil
}

// refuse puts the refusal err, whose message is msg, by the field it is
// about, or above the form.
func (s *Pages) refuse(lang string, err error, msg string, vm *tablePage) {
	f := &vm.Sheet
	if s.placeSheet(lang, err, f) {
		return
	}
	var v *referee.Violation
	if !errors.As(err, &v) {
		vm.Error = msg
		return
	}
	if id, ok := sheetRules[v.Code]; ok {
		msg = s.i18n.Text(lang, id, v.Args)
	}
	switch v.Code {
	case "ended-by-time-early":
		f.AskReason, f.ReasonError = true, msg
	case "declared-after-time":
		f.AskLate, f.LateError = true, msg
	case "winner-not-at-table":
		f.DeclaredError = msg
	case "player-code-wrong":
		vm.CodeError = msg
	case "report-not-at-table":
		vm.PlayerError = msg
	case "negative-vp":
		id, _ := v.Args["PlayerID"].(int64)
		for i := range f.Lines {
			if f.Lines[i].ID == id {
				f.Lines[i].Error = msg
				return
			}
		}
		f.Error = msg
	default:
		vm.Error = msg
	}
}

// tablePage reads the table the path names, with its open (or latest)
// report, and the sheet its form starts from: an empty one, or the
// report's, for a player who disputes it to change.
func (s *Pages) tablePage(c *gin.Context) (tablePage, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return tablePage{}, err
	}
	me, err := s.rememberedAt(c, tid)
	if err != nil {
		return tablePage{}, err
	}
	return s.readTablePage(c.Request.Context(), tid, n, number, s.i18n.Lang(c), c.Request.URL.RequestURI(), me)
}

// readTablePage is round n's table number on its players' phones in
// lang, at path, for the player me this phone remembers (none: zero).
func (s *Pages) readTablePage(ctx context.Context, tid int64, n, number int, lang, path string, me rememberedPlayer) (tablePage, error) {
	// The kiosk's reads, kept until the tournament's next change: phones
	// open this page, and check a sheet, many times over.
	l, err := s.live.Live(ctx, tid)
	if err != nil {
		return tablePage{}, err
	}
	t := l.Tournament
	rv, err := s.live.Round(ctx, tid, n)
	if err != nil {
		return tablePage{}, err
	}
	if number < 1 || number > len(rv.Tables) {
		return tablePage{}, fmt.Errorf("round %d table %d: %w", n, number, tournament.ErrNotFound)
	}
	tv := rv.Tables[number-1]
	vm := tablePage{
		Lang: lang, Path: path, TID: tid, Name: t.Name, Round: n, Table: number,
		Title:     s.i18n.In(lang).TextFor("report.title", rv.Round.Mode == tournament.ModeFinal, map[string]any{"Round": n, "Table": number, "Name": t.Name}),
		Heading:   s.i18n.In(lang).TextFor("report.heading", rv.Round.Mode == tournament.ModeFinal, map[string]any{"Round": n, "Table": number}),
		Open:      t.SelfReport == tournament.SelfReportApprove || t.SelfReport == tournament.SelfReportAuto,
		HasResult: tv.Result != nil,
		Sheet:     sheetForm{Breakdown: t.Ruleset.RequireBreakdown, RequireBreakdown: t.Ruleset.RequireBreakdown},
		whoLabel:  s.i18n.Text(lang, "report.who", nil),
	}
	for _, p := range tv.Players {
		vm.Players = append(vm.Players, tableSeat{ID: p.PlayerID, Name: p.Label})
		vm.Sheet.Lines = append(vm.Sheet.Lines, sheet.Line{ID: p.PlayerID, Name: p.Label})
	}
	// The table's own reports, by its ID: a phone's read (the live check's
	// too) never grows with the event.
	reports, err := s.svc.TableReports(ctx, tid, tv.Table.ID)
	if err != nil {
		return tablePage{}, err
	}
	if len(reports) > 0 {
		vm.Report = &reports[len(reports)-1]
	}
	if vm.Report != nil {
		s.showReport(&vm)
	}
	if tv.Result != nil {
		s.showResult(&vm, tv)
	}
	if i := slices.IndexFunc(vm.Players, func(p tableSeat) bool { return p.ID == me.Player }); me.Player != 0 && i >= 0 {
		vm.Me, vm.MeName, vm.meCode = me.Player, vm.Players[i].Name, me.Code
	}
	if err := s.showCalls(ctx, &vm, l); err != nil {
		return tablePage{}, err
	}
	return vm, nil
}

// resultLine is a player's line of a table's recorded result.
type resultLine struct {
	Place     int
	Name      string
	VP        int
	Breakdown string
}

// showResult fills in the table's recorded result, by place.
func (s *Pages) showResult(vm *tablePage, tv tournament.TableView) {
	p := s.i18n.In(vm.Lang)
	names, said := map[int64]string{}, map[int64]string{}
	for _, pl := range tv.Players {
		names[pl.PlayerID] = pl.Label
	}
	for _, sc := range tv.Result.Scores {
		said[sc.PlayerID] = sheet.Said(p, sc.Breakdown)
	}
	for _, pl := range tv.Places {
		vm.Placings = append(vm.Placings, resultLine{Place: pl.Place, Name: names[pl.PlayerID], VP: pl.VP, Breakdown: said[pl.PlayerID]})
	}
	slices.SortStableFunc(vm.Placings, func(a, b resultLine) int { return a.Place - b.Place })
}

// showReport fills in the table's report: each player's VP as reported
// and confirmed, the disputing player's version beside it, and the sheet
// a disputing player starts from.
func (s *Pages) showReport(vm *tablePage) {
	r := vm.Report
	p := s.i18n.In(vm.Lang)
	names := map[int64]string{}
	for _, pl := range vm.Players {
		names[pl.ID] = pl.Name
	}
	vm.Declared = names[r.Declared]
	vm.Called = r.Status == tournament.ReportDisputed
	vm.whoLabel = p.Text("checkin.player", nil)
	// The players read what happens next, not what a judge is to do.
	vm.Status = p.Text("reports.player_status_"+r.Outcome(), map[string]any{
		"N": len(r.Confirmed), "M": len(r.Scores), "Name": names[r.DisputedBy], "Reporter": names[r.ReportedBy], "Version": r.Version,
	})
	differs, declaredDiffers := r.Differs()
	if d := r.Dispute; d != nil {
		vm.Dispute = &disputeView{Version: d.HasVersion(), Declared: names[d.Declared], DeclaredDiffers: declaredDiffers, Note: d.Note}
	}
	vm.Sheet.Declared = strconv.FormatInt(r.Declared, 10)
	for i := range vm.Players {
		seat := &vm.Players[i]
		for _, sc := range r.Scores {
			if sc.PlayerID == seat.ID {
				seat.VP, seat.Breakdown = strconv.Itoa(sc.VP), sheet.Said(p, sc.Breakdown)
				vm.Sheet.Lines[i].Fill(sc.VP, sc.Breakdown)
			}
		}
		if r.Dispute.HasVersion() {
			for _, sc := range r.Dispute.Scores {
				if sc.PlayerID == seat.ID {
					seat.Disputed, seat.DisputedBreakdown, seat.Differs = strconv.Itoa(sc.VP), sheet.Said(p, sc.Breakdown), differs[seat.ID]
				}
			}
		}
		for _, id := range r.Confirmed {
			seat.Confirmed = seat.Confirmed || id == seat.ID
		}
	}
}
