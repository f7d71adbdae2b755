package console

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// roundPage is the view model of /judge/t/:id/rounds/:n.
type roundPage struct {
	render.Page
	TID      int64
	N        int
	Mode     string
	PairedBy string
	PairedAt string
	Repeats  int
	// RepeatLines name each repeat meeting: who meets again, at which
	// table, having met in which rounds.
	RepeatLines []string
	Tables      []tableCard
	Byes        []personRef
	Missing     []personRef
	Withdrawn   []personRef
	Changes     []amendmentLine
	Started     bool // something is recorded at a table or on the clock
	// ChangeForms shows the swap and move forms: before the round starts,
	// or to say why a change sent from an older page was refused.
	ChangeForms bool
	Latest      bool   // the latest round: the only one that can be re-paired
	CanPair     bool   // the next round may be paired from here
	PairError   string // why pairing or re-pairing was refused, next to the buttons
	NextRound   int
	Done        int // tables with a result
	Choices     []playerGroup
	Swap        swapForm
	Move        moveForm
	Clock       clockPanel
	// Final says the round is a final stage: Standings links to its cut.
	Final   bool
	Reports []reportLine // the players' reports of the round's tables
	// UndoError says why undoing the round was refused (undo.go).
	UndoError string
	// Late is the card of late players, substitutes and no-shows (late.go).
	Late *lateCard

	// TurnLimit says its tables play a turn limit after their game time
	// (the ruleset's): they have a turn page.
	TurnLimit bool
	// Remake offers to make the final's stage again (RemakeFinal): the
	// latest round, a stage of the final, no table of which has a result.
	Remake bool
	// The staff's live round (issue 27): the tables whose results wait
	// for a second account's confirmation, the judge calls of the round,
	// and a refused answer to one.
	Pending   []pendingLine
	Calls     []callLine
	CallError string
}

type personRef struct {
	ID   int64
	Name string
	Kana string
}

// tableCard is one table on the round page.
type tableCard struct {
	Number  int
	Players []seatLine
	Seated  bool
	Board   bool
	Version int // latest result revision; 0 for none
	Ended   string
	// Pending says the latest result waits for a second account's
	// confirmation: it counts nowhere yet.
	Pending bool
}

type seatLine struct {
	ID       int64
	Name     string
	Kana     string
	Seat     int
	Color    string // colour id, also the CSS class of the seat dot
	ColorTxt string
	Place    int
	VP       int
	Sum      string // a deduction as such (showVP)
	Why      string
	// Breakdown is the VP breakdown the score sheet gave, said; "" for none.
	Breakdown string
}

type amendmentLine struct {
	Text   string
	Reason string
	Judge  string
	At     string
}

// playerGroup is a table (or the byes) in the swap form's player lists.
type playerGroup struct {
	Label   string
	Players []personRef
}

type swapForm struct {
	A, B   string
	Reason string
	Errors fieldErrors
	Error  string
	// Repeats, when not empty, are the repeat meetings the swap would add:
	// the form asks the judge to confirm them (confirm=1) before swapping.
	Repeats []string
}

type moveForm struct {
	A, Table string
	Reason   string
	Errors   fieldErrors
	Error    string
	Repeats  []string // as swapForm's
}

// shown says the swap form is shown again with something to say.
func (f swapForm) shown() bool { return f.Error != "" || len(f.Errors) > 0 || len(f.Repeats) > 0 }

// shown says the move form is shown again with something to say.
func (f moveForm) shown() bool { return f.Error != "" || len(f.Errors) > 0 || len(f.Repeats) > 0 }

// roundForms is what the round page shows again after a refused action:
// the swap, move and extension forms as typed, or the message of a refused
// pairing or re-pairing next to their buttons.
type roundForms struct {
	Swap      swapForm
	Move      moveForm
	Extend    *extendForm // nil for an empty one
	PairError string
	UndoError string // why undoing the round was refused (undo.go)
	LateError string // a refusal of the late players' card (late.go)
	// Confirm is a refused confirmation's message, by table; CallError a
	// refused answer to a call.
	Confirm   map[int]string
	CallError string
}

func (s *Pages) ShowRound(c *gin.Context) (render.Result, error) {
	return s.roundPageOf(c, http.StatusOK, roundForms{})
}

// roundPageOf shows the :n round with the forms f.
func (s *Pages) roundPageOf(c *gin.Context, status int, f roundForms) (render.Result, error) {
	_, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	return s.roundPage(c, status, n, f)
}

// roundPage shows round n of the :id tournament with the forms f.
func (s *Pages) roundPage(c *gin.Context, status, n int, f roundForms) (render.Result, error) {
	t, nav, err := s.loadTournament(c, fmt.Sprintf("round%d", n))
	if err != nil {
		return render.Result{}, err
	}
	rv, err := s.svc.RoundView(c.Request.Context(), t.ID, n)
	if err != nil {
		return render.Result{}, err
	}
	canPair, err := s.svc.CanPair(c.Request.Context(), t.ID)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	vm := roundPage{
		Page:      s.pages.Page(c, s.roundWords(c, "page.round", rv.Round.Mode == tournament.ModeFinal), map[string]any{"N": n, "Name": t.Name}),
		TID:       t.ID,
		N:         n,
		Mode:      s.i18n.Text(lang, "round.mode_"+rv.Round.Mode, nil),
		Final:     rv.Round.Mode == tournament.ModeFinal,
		TurnLimit: t.TurnLimit(rv.Round) > 0,
		PairedBy:  rv.Round.PairedBy,
		PairedAt:  s.i18n.In(lang).Time(rv.Round.PairedAt),
		Repeats:   rv.Round.Repeats,
		Latest:    n == len(nav.Rounds),
		NextRound: len(nav.Rounds) + 1,
		Started:   rv.Started,
		Swap:      f.Swap,
		Move:      f.Move,
		PairError: f.PairError,
		UndoError: f.UndoError,
		Clock:     s.clockPanel(c, lang, t.ID, rv, f.Extend),
	}
	vm.Nav = nav
	vm.CanPair = vm.Latest && canPair
	vm.Remake = vm.Latest && t.Closed == nil && rv.Remakeable()
	s.fillRound(lang, t.Ruleset, &vm, rv)
	vm.RepeatLines = s.repeatLines(lang, rv.Repeats, roundNames(rv))
	vm.ChangeForms = !rv.Started || f.Swap.shown() || f.Move.shown()
	if vm.Reports, err = s.reportLines(c.Request.Context(), lang, t.ID, n, rv); err != nil {
		return render.Result{}, err
	}
	if err := s.fillLive(c, &vm, rv, f); err != nil {
		return render.Result{}, err
	}
	if vm.Late, err = s.lateCard(c, lang, t, rv, f.LateError); err != nil {
		return render.Result{}, err
	}
	return render.ShowStatus(status, "round", vm), nil
}

// roundNames are the labels of round rv's players, by ID.
func roundNames(rv tournament.RoundView) map[int64]string {
	return rv.Labels
}

// repeatLines says each repeat meeting as a judge reads it: "第2卓: 青木 と
// 井上（第1回戦でも同卓）".
func (s *Pages) repeatLines(lang string, rs []tournament.Repeat, names map[int64]string) []string {
	var out []string
	for _, r := range rs {
		var rounds []string
		for _, n := range r.Rounds {
			rounds = append(rounds, s.i18n.Text(lang, "nav.round", map[string]any{"N": n}))
		}
		out = append(out, s.i18n.Text(lang, "round.repeat_line", map[string]any{
			"Table": r.Table, "A": names[r.A], "B": names[r.B], "Rounds": strings.Join(rounds, s.i18n.Text(lang, "list.sep", nil)),
		}))
	}
	return out
}

// fillRound lists the round's tables, byes, players left out and changes.
func (s *Pages) fillRound(lang string, rs referee.Ruleset, vm *roundPage, rv tournament.RoundView) {
	names := map[int64]string{}
	for _, tv := range rv.Tables {
		card := tableCard{Number: tv.Table.Number, Seated: tv.Table.Seating != nil, Board: tv.Board != nil, Pending: tv.Entered != nil}
		if tv.Result != nil {
			card.Version = tv.Result.Version
			card.Ended = s.i18n.Text(lang, "score.ended_"+tv.Result.EndedBy, nil)
			vm.Done++
		}
		group := playerGroup{Label: s.i18n.Text(lang, "round.table", map[string]any{"N": tv.Table.Number})}
		for _, p := range tv.Players {
			line := s.seatLine(lang, p)
			for _, pl := range tv.Places {
				if pl.PlayerID == p.PlayerID {
					vp := s.showVP(lang, rs, pl)
					line.Place, line.VP, line.Sum, line.Why = pl.Place, pl.VP, vp.Sum, vp.Why
					line.Breakdown = s.breakdownText(lang, breakdowns(tv.Result)[p.PlayerID])
				}
			}
			card.Players = append(card.Players, line)
			group.Players = append(group.Players, personRef{ID: p.PlayerID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)})
			names[p.PlayerID] = p.Label
		}
		vm.Tables = append(vm.Tables, card)
		vm.Choices = append(vm.Choices, group)
	}
	byes := playerGroup{Label: s.i18n.Text(lang, "round.byes", nil)}
	for _, p := range rv.Byes {
		ref := personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)}
		vm.Byes = append(vm.Byes, ref)
		byes.Players = append(byes.Players, ref)
		names[p.ID] = rv.Labels[p.ID]
	}
	if len(byes.Players) > 0 {
		vm.Choices = append(vm.Choices, byes)
	}
	for _, p := range rv.Missing {
		vm.Missing = append(vm.Missing, personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)})
	}
	for _, p := range rv.Withdrawn {
		vm.Withdrawn = append(vm.Withdrawn, personRef{ID: p.ID, Name: p.Name, Kana: tournament.Hiragana(p.Kana)})
	}
	for _, a := range rv.Round.Amendments {
		line := amendmentLine{Reason: a.Reason, Judge: a.Judge, At: s.i18n.In(lang).Time(a.At)}
		if a.B != 0 {
			line.Text = s.i18n.Text(lang, "round.swapped", map[string]any{"A": names[a.A], "B": names[a.B]})
		} else {
			line.Text = s.i18n.Text(lang, "round.moved", map[string]any{"A": names[a.A], "N": a.Table})
		}
		vm.Changes = append(vm.Changes, line)
	}
}

// seatLine is a player at a table: their seat and colour once seated.
func (s *Pages) seatLine(lang string, p tournament.SeatView) seatLine {
	line := seatLine{ID: p.PlayerID, Name: p.Label, Kana: tournament.ReadingBeside(p.Label, p.Name, p.Kana), Seat: p.Seat, Color: string(p.Color)}
	if p.Color != "" {
		line.ColorTxt = s.i18n.Text(lang, "color."+string(p.Color), nil)
	}
	return line
}

// PairRound pairs the next round. A refusal goes back next to the button
// pressed: on the round page the form names, else on the overview.
func (s *Pages) PairRound(c *gin.Context) (render.Result, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return render.Result{}, err
	}
	r, err := s.svc.PairNextRound(c.Request.Context(), auth.Judge(c), tid)
	if err == nil {
		return render.SeeOther(route.Path(route.Round, tid, r.Number), "flash.paired"), nil
	}
	status, msg, ok := s.refusal(c, err)
	if !ok {
		return render.Result{}, err
	}
	if n, err := strconv.Atoi(c.PostForm("from")); err == nil && n > 0 {
		return s.roundPage(c, status, n, roundForms{PairError: msg})
	}
	return s.overview(c, status, overviewForms{pairError: msg})
}

func (s *Pages) RepairRound(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	before, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return render.Result{}, err
	}
	after, err := s.svc.RepairRound(c.Request.Context(), auth.Judge(c), tid, n)
	if err != nil {
		status, msg, ok := s.refusal(c, err)
		if !ok {
			return render.Result{}, err
		}
		return s.roundPage(c, status, n, roundForms{PairError: msg})
	}
	if tournament.SamePairing(before.Round, after) {
		return render.SeeOtherNotice(route.Path(route.Round, tid, n), "flash.repaired_same"), nil
	}
	return render.SeeOther(route.Path(route.Round, tid, n), "flash.repaired"), nil
}

// swapRules and moveRules say where the swap and move forms show the
// service's refusals of their fields.
var (
	swapRules = fieldRules{
		"amend-swap-self":      {"swap_b", "round.swap_same"},
		"amend-reason-missing": {"swap_reason", "form.reason_required"},
	}
	moveRules = fieldRules{"amend-reason-missing": {"move_reason", "form.reason_required"}}
)

// SwapPlayers trades two players' places.
func (s *Pages) SwapPlayers(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	f := swapForm{A: c.PostForm("a"), B: c.PostForm("b"), Reason: strings.TrimSpace(c.PostForm("reason")), Errors: fieldErrors{}}
	a, errA := strconv.ParseInt(f.A, 10, 64)
	b, errB := strconv.ParseInt(f.B, 10, 64)
	if errA != nil {
		f.Errors["swap_a"] = s.i18n.Text(lang, "form.choose", nil)
	}
	if errB != nil {
		f.Errors["swap_b"] = s.i18n.Text(lang, "form.choose", nil)
	}
	status := http.StatusUnprocessableEntity
	// The confirmation names the swap it confirms: a judge who changes the
	// players after the question is asked again.
	if len(f.Errors) == 0 && f.Reason != "" && c.PostForm("confirm") != f.A+"-"+f.B {
		if f.Repeats, err = s.askRepeats(c, tid, n, func(ctx context.Context) ([]tournament.Repeat, error) {
			return s.svc.CheckSwap(ctx, tid, n, a, b)
		}); err != nil || len(f.Repeats) > 0 {
			return s.roundPageOrErr(c, n, roundForms{Swap: f}, err)
		}
	}
	if len(f.Errors) == 0 {
		_, err := s.svc.SwapPlayers(c.Request.Context(), auth.Judge(c), tid, n, a, b, f.Reason)
		if err == nil {
			return render.SeeOther(route.Path(route.Round, tid, n), "flash.swapped"), nil
		}
		var ok bool
		if status, f.Error, ok = s.placeRefusal(c, lang, err, swapRules, f.Errors); !ok {
			return render.Result{}, err
		}
	}
	return s.roundPage(c, status, n, roundForms{Swap: f})
}

// askRepeats names the repeat meetings a change of round n would add, as
// check (CheckSwap, CheckMove) finds them, for the judge to confirm; none
// when it adds none. A refusal of the change is left to the change itself,
// which says it next to its form.
func (s *Pages) askRepeats(c *gin.Context, tid int64, n int, check func(context.Context) ([]tournament.Repeat, error)) ([]string, error) {
	added, err := check(c.Request.Context())
	if err != nil || len(added) == 0 {
		return nil, nil
	}
	rv, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return nil, err
	}
	return s.repeatLines(s.i18n.Lang(c), added, roundNames(rv)), nil
}

// roundPageOrErr shows round n with the forms f asking to confirm, or
// answers err.
func (s *Pages) roundPageOrErr(c *gin.Context, n int, f roundForms, err error) (render.Result, error) {
	if err != nil {
		return render.Result{}, err
	}
	return s.roundPage(c, http.StatusOK, n, f)
}

// MovePlayer moves a player to another table.
func (s *Pages) MovePlayer(c *gin.Context) (render.Result, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return render.Result{}, err
	}
	lang := s.i18n.Lang(c)
	f := moveForm{A: c.PostForm("a"), Table: strings.TrimSpace(c.PostForm("table")), Reason: strings.TrimSpace(c.PostForm("reason")), Errors: fieldErrors{}}
	a, errA := strconv.ParseInt(f.A, 10, 64)
	if errA != nil {
		f.Errors["move_a"] = s.i18n.Text(lang, "form.choose", nil)
	}
	// The table is the pairing's to check against the round (§2): it may
	// have more than 100.
	table := s.formNumber(lang, f.Table, true, f.Errors, "move_table")
	status := http.StatusUnprocessableEntity
	if len(f.Errors) == 0 && f.Reason != "" && c.PostForm("confirm") != f.A+"-"+f.Table {
		if f.Repeats, err = s.askRepeats(c, tid, n, func(ctx context.Context) ([]tournament.Repeat, error) {
			return s.svc.CheckMove(ctx, tid, n, a, table)
		}); err != nil || len(f.Repeats) > 0 {
			return s.roundPageOrErr(c, n, roundForms{Move: f}, err)
		}
	}
	if len(f.Errors) == 0 {
		_, err := s.svc.MovePlayer(c.Request.Context(), auth.Judge(c), tid, n, a, table, f.Reason)
		if err == nil {
			return render.SeeOther(route.Path(route.Round, tid, n), "flash.moved"), nil
		}
		var ok bool
		if status, f.Error, ok = s.placeRefusal(c, lang, err, moveRules, f.Errors); !ok {
			return render.Result{}, err
		}
	}
	return s.roundPage(c, status, n, roundForms{Move: f})
}
