package console

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// tablePage is the view model of a table's set-up page: the play order from
// the capsule rolls (§3 オ, カ) and the board (§3 ア–エ).
type tablePage struct {
	render.Page
	TID       int64
	Round     int // the round's number
	Table     int // the table's number
	Players   []seatLine
	Seated    bool
	SeatAuto  bool
	History   []rollRound // the recorded capsule rolls
	Rolls     rollsForm
	HasResult bool // a result locks the seating and the board
	// Locked says the seating and the board no longer change: a result,
	// or a game recorded on them (tournament.TableView.Locked).
	Locked bool
	Reseat bool // the judge asked to enter the rolls again

	Board       *boardView
	BoardRoll   referee.CapsuleRoll
	Spiral      bool       // the ruleset lays the chips by the national rules' spiral
	Corners     string     // Spiral: the corners by die, "1 北西 · 2 北東 · ..."
	BoardSpiral spiralText // Spiral: the board's corner die, its corner and the terrain seed
	BoardAuto   bool
	HandDealt   bool
	Redeals     int
	BoardForm   boardForm
	Deal        dealForm
	DealBoard   *boardView // the deal as typed, drawn with its red clumps
	DangoRule   string
	Rebuilding  bool // the judge asked to set the board again

	// The versions of the seating and the board the page shows, carried by
	// their forms: a save decided on an older one is refused (a conflict),
	// and the page then shows what is saved with what was typed beside it.
	SeatVersion  int
	BoardVersion int
	Stale        *staleForm // the seating, after a conflict
	StaleNotice  string
	BoardStale   *staleForm // the board or the deal, after a conflict
	BoardNotice  string

	// Rulings are the rulings recorded at the table, newest first; the
	// page lists them when RulingsShown (the page as opened, not a form's
	// answer).
	Rulings      []rulingLine
	RulingsShown bool

	// Moves are the moves of the table's recorded game; RecordMissing
	// says what the table lacks before one can be recorded.
	Moves         int
	RecordMissing string

	// Devices are the table devices open at the table (issue 27).
	Devices []deviceLine
}

// rollRound is one round of capsule rolls: every player first, then each
// round of re-rolls of the tied groups.
type rollRound struct {
	Label string
	Rolls []rollCell
}

type rollCell struct {
	Name        string
	White, Blue int
	Sum         int
}

// rollsForm is the capsule-roll entry as the judge typed it. Earlier rounds
// ride along as hidden fields, because nothing is stored until the rolls
// settle the play order.
type rollsForm struct {
	Previous []rollRound
	Hidden   []hiddenField
	Round    int // the round being entered: 0 for the first rolls
	Groups   [][]rollerInput
	Tie      string // who must re-roll, after a tie
	Error    string
}

type hiddenField struct{ Name, Value string }

type rollerInput struct {
	ID     int64
	Name   string
	White  string
	Blue   string
	WField string
	BField string
	WError string
	BError string
}

type boardForm struct {
	White, Blue string
	Corner      string // a spiral board's corner die
	Errors      fieldErrors
	Error       string
}

// spiralText says how a spiral board was set up: the corner die, the corner
// it names, and the seed of the terrain shuffle.
type spiralText struct {
	Corner int
	Start  string // translated
	Seed   string
}

type dealForm struct {
	Rows   []dealRow
	Error  string
	Redeal string // the deal breaks the dango rule and must be dealt again
	// Overwrite asks before the deal changes chips another judge changed
	// since the form was opened (after this judge's chips were taken back
	// over theirs).
	Overwrite *overwriteForm
	// TakenBack says the form carries a judge's chips taken back after a
	// conflict: kept through every page that shows it again.
	TakenBack bool
}

// tableState is what the table and score pages read: the tournament, its
// navigation and the table as the round view shows it.
type tableState struct {
	t   tournament.Tournament
	nav *render.Nav
	tv  tournament.TableView
	n   int
	// next is the round's next table after this one, in number order and
	// round again from the first, that has no result: 0 when every other
	// table has one.
	next int
}

// lockedTable is the refusal of a seating, board or deal form for a table
// a result has locked (tournament.TableView.Locked): the page no longer
// offers those forms, so it could not show a message about their fields.
func lockedTable(err error) error {
	switch code(err) {
	case "table-has-result":
		return &problem.Forbidden{ID: "table.locked", Detail: err.Error()}
	case "table-has-game":
		return &problem.Forbidden{ID: "record.locked", Detail: err.Error()}
	}
	return err
}

func (s *Pages) loadTable(c *gin.Context) (tableState, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return tableState{}, err
	}
	t, nav, err := s.loadTournament(c, fmt.Sprintf("round%d", n))
	if err != nil {
		return tableState{}, err
	}
	rv, err := s.svc.RoundView(c.Request.Context(), tid, n)
	if err != nil {
		return tableState{}, err
	}
	for i, tv := range rv.Tables {
		if tv.Table.Number == number {
			return tableState{t: t, nav: nav, tv: tv, n: n, next: nextOpenTable(rv.Tables, i)}, nil
		}
	}
	return tableState{}, problem.ErrNoRoute
}

// nextOpenTable is the number of the first table after tables[i], going
// round to the first, that has no result; 0 when there is none.
func nextOpenTable(tables []tournament.TableView, i int) int {
	for k := 1; k < len(tables); k++ {
		if tv := tables[(i+k)%len(tables)]; tv.Result == nil {
			return tv.Table.Number
		}
	}
	return 0
}

func (s *Pages) ShowTable(c *gin.Context) (render.Result, error) {
	ts, err := s.loadTable(c)
	if err != nil {
		return render.Result{}, err
	}
	vm := s.newTablePage(c, ts)
	vm.Reseat = c.Query("reseat") == "1"
	vm.Rebuilding = c.Query("rebuild") == "1"
	rulings, err := s.svc.Rulings(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number)
	if err != nil {
		return render.Result{}, err
	}
	vm.Rulings, vm.RulingsShown = s.rulingLines(vm.Lang, ts, rulings), true
	if vm.Devices, err = s.deviceLines(c, ts); err != nil {
		return render.Result{}, err
	}
	if _, err := s.svc.Game(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number); errors.Is(err, tournament.ErrConflict) {
		_, vm.RecordMissing, _ = problem.Describe(s.i18n.In(vm.Lang), err)
	} else if err != nil {
		return render.Result{}, err
	}
	return render.Show("table", vm), nil
}

// newTablePage is the table page as recorded, its forms empty: the first
// capsule rolls to enter, the chips of the board to deal.
func (s *Pages) newTablePage(c *gin.Context, ts tableState) tablePage {
	lang := s.i18n.Lang(c)
	tv := ts.tv
	vm := tablePage{
		Page:      s.pages.Page(c, s.roundWords(c, "page.table", ts.final()), map[string]any{"N": ts.n, "Table": tv.Table.Number}),
		TID:       ts.t.ID,
		Round:     ts.n,
		Table:     tv.Table.Number,
		Seated:    tv.Table.Seating != nil,
		HasResult: tv.Result != nil,
		Locked:    tv.Locked,
		Moves:     tv.Table.Moves,
		DangoRule: s.i18n.Text(lang, "dango."+string(ts.t.Ruleset.Dango), nil),
		BoardForm: boardForm{Errors: fieldErrors{}},
		Spiral:    ts.t.Ruleset.Board.Method == referee.SpiralBoard,
	}
	if vm.Spiral {
		vm.Corners = s.cornersText(lang, ts.t.Ruleset)
	}
	vm.Nav = ts.nav
	names := map[int64]string{}
	for _, p := range tv.Players {
		line := seatLine{ID: p.PlayerID, Name: p.Label, Kana: tournament.ReadingBeside(p.Label, p.Name, p.Kana), Seat: p.Seat, Color: string(p.Color)}
		if p.Color != "" {
			line.ColorTxt = s.i18n.Text(lang, "color."+string(p.Color), nil)
		}
		vm.Players = append(vm.Players, line)
		names[p.PlayerID] = p.Label
	}
	if st := tv.Table.Seating; st != nil {
		vm.SeatVersion = st.Version
		vm.SeatAuto = st.Auto
		for k, round := range st.Rolls {
			vm.History = append(vm.History, s.rollRound(lang, k, round, names))
		}
	}
	vm.Rolls = s.firstRolls(ts, nil)
	vm.Deal.Rows = s.dealRows(lang, tv.Board, currentDeal(tv), nil)
	vm.Deal.opened(currentDeal(tv))
	if tv.Board != nil {
		bv := s.newBoardView("board-drawing", lang, *tv.Board, nil)
		vm.Board = &bv
		rec := tv.Table.Board
		vm.BoardRoll, vm.BoardAuto, vm.HandDealt, vm.Redeals = rec.Roll, rec.RollAuto, rec.Deal != nil, tv.Board.Redeals
		vm.BoardVersion = rec.Version
		vm.BoardSpiral = s.spiralText(lang, *tv.Board)
	}
	return vm
}

// spiralText says how a spiral board was set up; zero for a capsule board.
func (s *Pages) spiralText(lang string, b referee.Board) spiralText {
	if b.Method != referee.SpiralBoard {
		return spiralText{}
	}
	return spiralText{Corner: b.Corner, Start: s.i18n.Text(lang, "rulesets.corner."+string(b.Start), nil), Seed: strconv.FormatUint(b.Seed, 10)}
}

func (s *Pages) rollRound(lang string, k int, round []tournament.Roll, names map[int64]string) rollRound {
	rr := rollRound{Label: s.i18n.Text(lang, "seating.round_first", nil)}
	if k > 0 {
		rr.Label = s.i18n.Text(lang, "seating.round_reroll", map[string]any{"N": k})
	}
	for _, r := range round {
		rr.Rolls = append(rr.Rolls, rollCell{Name: names[r.PlayerID], White: r.White, Blue: r.Blue, Sum: r.Sum()})
	}
	return rr
}

// firstRolls is the empty entry of the first capsule rolls, one line per
// player in pairing order, keeping what was typed in values.
func (s *Pages) firstRolls(ts tableState, values map[string]string) rollsForm {
	var group []rollerInput
	for _, p := range ts.tv.Players {
		group = append(group, rollerInput{ID: p.PlayerID, Name: p.Label})
	}
	f := rollsForm{Groups: [][]rollerInput{group}}
	f.fill(values, nil)
	return f
}

// fill names the inputs of the round being entered and puts back what was typed.
func (f *rollsForm) fill(values map[string]string, errs fieldErrors) {
	for g := range f.Groups {
		for i := range f.Groups[g] {
			in := &f.Groups[g][i]
			in.WField, in.BField = rollField(f.Round, in.ID, "w"), rollField(f.Round, in.ID, "b")
			in.White, in.Blue = values[in.WField], values[in.BField]
			in.WError, in.BError = errs[in.WField], errs[in.BField]
		}
	}
}

// maxRollRounds bounds the capsule-roll rounds read from one form.
const maxRollRounds = 50

// rollField names the input of one die of one player's roll in round k.
func rollField(k int, id int64, die string) string { return fmt.Sprintf("r%d_%d_%s", k, id, die) }

// typedRolls is the capsule rolls a seating form posted, round by round:
// the values as typed by field, their messages, and the rolls read.
type typedRolls struct {
	values map[string]string
	errs   fieldErrors
	rounds [][]tournament.Roll
}

// readRolls reads the capsule rolls a seating form posted. A table settles
// its play order in a few rounds; the bound only stops a forged form from
// making the loop long.
func (s *Pages) readRolls(c *gin.Context, ts tableState) typedRolls {
	lang := s.i18n.Lang(c)
	r := typedRolls{values: map[string]string{}, errs: fieldErrors{}}
	for k := 0; k < maxRollRounds; k++ {
		var round []tournament.Roll
		for _, p := range ts.tv.Players {
			wf, bf := rollField(k, p.PlayerID, "w"), rollField(k, p.PlayerID, "b")
			w, wok := c.GetPostForm(wf)
			b, bok := c.GetPostForm(bf)
			if !wok && !bok {
				continue
			}
			r.values[wf], r.values[bf] = strings.TrimSpace(w), strings.TrimSpace(b)
			white, ok1 := s.formInt(lang, r.values[wf], 1, 6, true, r.errs, wf)
			blue, ok2 := s.formInt(lang, r.values[bf], 1, 6, true, r.errs, bf)
			if ok1 && ok2 {
				round = append(round, tournament.Roll{PlayerID: p.PlayerID, CapsuleRoll: referee.CapsuleRoll{White: white, Blue: blue}})
			}
		}
		if _, ok := c.GetPostForm(fmt.Sprintf("round_%d", k)); !ok {
			break
		}
		r.rounds = append(r.rounds, round)
	}
	return r
}

// SetSeating records the play order from the capsule rolls, or rolls for
// the table. A tie is not saved: the page asks the tied players to re-roll
// (§3 オ) and carries the rolls so far in the form.
func (s *Pages) SetSeating(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	in, posted := s.postedSeating(c)
	if posted {
		if _, err = s.svc.SetSeating(c.Request.Context(), auth.Judge(c), tid, n, number, in); err == nil {
			return render.SeeOther(route.Path(route.Table, tid, n, number)+"#seating", "flash.seated"), nil
		}
	}
	ts, err2 := s.loadTable(c)
	if err2 != nil {
		return render.Result{}, err2
	}
	lang := s.i18n.Lang(c)
	vm := s.newTablePage(c, ts)
	// The form shows again, with its message: a seated table's too.
	vm.Reseat = true
	if in.Version != nil {
		// A tie's re-rolls go on from the version the rolls were started on.
		vm.SeatVersion = *in.Version
	}
	var typed typedRolls
	if !in.Auto {
		typed = s.readRolls(c, ts)
	}
	if !posted {
		if res, refused := s.refuseRolls(lang, ts, typed, &vm); refused {
			return res, nil
		}
		in.Rolls = typed.rounds
		_, err = s.svc.SetSeating(c.Request.Context(), auth.Judge(c), ts.t.ID, ts.n, ts.tv.Table.Number, in)
	}
	var tie *tournament.TieError
	switch {
	case err == nil:
		return render.SeeOther(tableURL(ts)+"#seating", "flash.seated"), nil
	case errors.As(err, new(*tournament.StaleError)):
		return s.staleTable(c, err)
	case errors.As(err, &tie):
		// §3 オ: tied players re-roll among themselves to order that tie only.
		// The rounds go back as the table reads them (as the service keeps
		// them), in its order.
		vm.Rolls = s.rerolls(lang, ts, typed.rounds, tie)
		return render.Show("table", vm), nil
	}
	msg, ok := s.formError(c, lockedTable(err))
	if !ok {
		return render.Result{}, lockedTable(err)
	}
	vm.Rolls = s.firstRolls(ts, typed.values)
	vm.Rolls.Error = msg
	return render.ShowStatus(http.StatusUnprocessableEntity, "table", vm), nil
}

// rerolls is the rolls form after a tie: the rounds so far, and the tied
// groups to roll again.
func (s *Pages) rerolls(lang string, ts tableState, rounds [][]tournament.Roll, tie *tournament.TieError) rollsForm {
	f := s.rollsAfter(lang, ts, rounds)
	f.Round = len(rounds)
	names := ts.names()
	for _, g := range tie.Groups {
		var group []rollerInput
		for _, id := range g {
			group = append(group, rollerInput{ID: id, Name: names[id]})
		}
		f.Groups = append(f.Groups, group)
	}
	f.fill(nil, nil)
	f.Tie = s.i18n.Text(lang, "seating.tie", map[string]any{"Players": groupNames(f.Groups)})
	return f
}

// names are the table's players' names by ID.
func (ts tableState) names() map[int64]string {
	names := map[int64]string{}
	for _, p := range ts.tv.Players {
		names[p.PlayerID] = p.Label
	}
	return names
}

// tableURL is the table page of ts.
func tableURL(ts tableState) string {
	return route.Path(route.Table, ts.t.ID, ts.n, ts.tv.Table.Number)
}

// rollsAfter is the rolls form after the given accepted rounds: they show as
// history and ride along as hidden fields.
func (s *Pages) rollsAfter(lang string, ts tableState, rounds [][]tournament.Roll) rollsForm {
	var f rollsForm
	names := ts.names()
	for k, round := range rounds {
		f.Previous = append(f.Previous, s.rollRound(lang, k, round, names))
		f.Hidden = append(f.Hidden, hiddenField{Name: fmt.Sprintf("round_%d", k), Value: "1"})
		for _, r := range round {
			f.Hidden = append(f.Hidden,
				hiddenField{Name: rollField(k, r.PlayerID, "w"), Value: strconv.Itoa(r.White)},
				hiddenField{Name: rollField(k, r.PlayerID, "b"), Value: strconv.Itoa(r.Blue)})
		}
	}
	return f
}

// rollersIn returns, as one group, the players who rolled in round k as typed.
func rollersIn(ts tableState, k int, values map[string]string) [][]rollerInput {
	var group []rollerInput
	for _, p := range ts.tv.Players {
		if _, ok := values[rollField(k, p.PlayerID, "w")]; ok {
			group = append(group, rollerInput{ID: p.PlayerID, Name: p.Label})
		}
	}
	return [][]rollerInput{group}
}

func groupNames(groups [][]rollerInput) string {
	var parts []string
	for _, g := range groups {
		var names []string
		for _, p := range g {
			names = append(names, p.Name)
		}
		parts = append(parts, strings.Join(names, "・"))
	}
	return strings.Join(parts, " / ")
}

// SetBoard records the capsule roll that turns the board (§3 イ), as rolled
// at the table or rolled by the console, with the chips dealt by the console;
// under the national rules, the die that chooses the chips' starting corner.
// The dice as posted go to the service without the table's page, which is
// built only to show a refusal, or the fields that need their messages.
func (s *Pages) SetBoard(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	in, ok := postedDice(c)
	if ok {
		_, err = s.svc.SetBoard(c.Request.Context(), auth.Judge(c), tid, n, number, in)
		if err == nil {
			return render.SeeOther(route.Path(route.Table, tid, n, number)+"#board", "flash.board_set"), nil
		}
	}
	ts, err2 := s.loadTable(c)
	if err2 != nil {
		return render.Result{}, err2
	}
	lang := s.i18n.Lang(c)
	in = tournament.BoardInput{Auto: c.PostForm("auto") == "1", Version: formVersion(c)}
	vm := s.newTablePage(c, ts)
	vm.Rebuilding = true
	switch f := &vm.BoardForm; {
	case in.Auto:
	case vm.Spiral:
		f.Corner = strings.TrimSpace(c.PostForm("corner"))
		in.Corner, _ = s.formInt(lang, f.Corner, 1, 6, true, f.Errors, "corner")
	default:
		f.White, f.Blue = strings.TrimSpace(c.PostForm("white")), strings.TrimSpace(c.PostForm("blue"))
		in.Roll.White, _ = s.formInt(lang, f.White, 1, 6, true, f.Errors, "white")
		in.Roll.Blue, _ = s.formInt(lang, f.Blue, 1, 6, true, f.Errors, "blue")
	}
	if !ok {
		if len(vm.BoardForm.Errors) > 0 && !ts.tv.Locked {
			return render.ShowStatus(http.StatusUnprocessableEntity, "table", vm), nil
		}
		_, err = s.svc.SetBoard(c.Request.Context(), auth.Judge(c), ts.t.ID, ts.n, ts.tv.Table.Number, in)
		if err == nil {
			return render.SeeOther(tableURL(ts)+"#board", "flash.board_set"), nil
		}
	}
	if errors.As(err, new(*tournament.StaleError)) {
		return s.staleTable(c, err)
	}
	if vm.BoardForm.Error, ok = s.formError(c, lockedTable(err)); !ok {
		return render.Result{}, lockedTable(err)
	}
	return render.ShowStatus(http.StatusUnprocessableEntity, "table", vm), nil
}

// postedDice reads the board's dice as posted, without reading the
// table: the console's roll, the corner die of a spiral board's form, or
// the capsule roll's two dice; false when a field is not a die's face
// (the page then says which) or the form holds neither.
func postedDice(c *gin.Context) (tournament.BoardInput, bool) {
	in := tournament.BoardInput{Auto: c.PostForm("auto") == "1", Version: formVersion(c)}
	die := func(name string) (int, bool) {
		v, err := strconv.Atoi(strings.TrimSpace(c.PostForm(name)))
		return v, err == nil && v >= 1 && v <= 6
	}
	if in.Auto {
		return in, true
	}
	if _, spiral := c.GetPostForm("corner"); spiral {
		var ok bool
		in.Corner, ok = die("corner")
		return in, ok
	}
	white, ok1 := die("white")
	blue, ok2 := die("blue")
	in.Roll.White, in.Roll.Blue = white, blue
	return in, ok1 && ok2
}

// currentDeal returns the chips on the table's board as form values.
func currentDeal(tv tournament.TableView) map[string]string {
	values := map[string]string{}
	if tv.Board == nil || tv.Table.Board == nil || tv.Table.Board.Deal == nil {
		return values
	}
	for _, ch := range tv.Board.Chips() {
		values[chipField(ch.Hex)] = strconv.Itoa(ch.Number)
	}
	return values
}

// SetDeal records the number chips of the physical board as the judge
// entered them. A deal with a red clump (§3 ウ) must be collected and dealt
// again: the page says so and draws the clump.
func (s *Pages) SetDeal(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	in, posted := s.postedDeal(c)
	if posted {
		if _, err = s.svc.SetDeal(c.Request.Context(), auth.Judge(c), tid, n, number, in); err == nil {
			return render.SeeOther(route.Path(route.Table, tid, n, number)+"#board", "flash.deal_set"), nil
		}
	}
	ts, err2 := s.loadTable(c)
	if err2 != nil {
		return render.Result{}, err2
	}
	lang := s.i18n.Lang(c)
	vm := s.newTablePage(c, ts)
	vm.Deal.TakenBack = c.PostForm(takenBackField) != ""
	values, errs, chips := s.typedChips(c, lang)
	vm.Deal.Rows = s.dealRows(lang, ts.tv.Board, values, errs)
	was := openedDeal(c, ts)
	vm.Deal.opened(was)
	if !posted {
		// A chip typed wrong shows by its field; on a table without a board
		// there are no fields yet, and the service says what comes first.
		if len(errs) > 0 && !ts.tv.Locked && ts.tv.Board != nil {
			return render.ShowStatus(http.StatusUnprocessableEntity, "table", vm), nil
		}
		if vm.Deal.Overwrite = vm.Deal.overwrites(was, currentDeal(ts.tv), values); vm.Deal.Overwrite != nil &&
			formVersion(c) != nil && *formVersion(c) == vm.BoardVersion && c.PostForm("overwrite") != vm.Deal.Overwrite.Token {
			// This judge's chips, taken back after a conflict, would undo
			// another judge's since: a second confirmation first.
			return render.ShowStatus(http.StatusConflict, "table", vm), nil
		}
		vm.Deal.Overwrite = nil
		_, err = s.svc.SetDeal(c.Request.Context(), auth.Judge(c), ts.t.ID, ts.n, ts.tv.Table.Number, tournament.DealInput{Chips: chips, Version: formVersion(c)})
	}
	var de *tournament.DealError
	switch {
	case err == nil:
		return render.SeeOther(tableURL(ts)+"#board", "flash.deal_set"), nil
	case errors.As(err, new(*tournament.StaleError)):
		return s.staleTable(c, err)
	case errors.As(err, &de):
		// The deal as typed, with the clumps the service found drawn on it.
		bv := s.newBoardView("deal-drawing", lang, de.Board, de.Clumps)
		vm.DealBoard = &bv
		vm.Deal.Redeal = s.i18n.Text(lang, "deal.redeal", map[string]any{"Rule": vm.DangoRule})
		return render.ShowStatus(http.StatusUnprocessableEntity, "table", vm), nil
	}
	vm.Deal.nameHex(err)
	var ok bool
	if vm.Deal.Error, ok = s.formError(c, lockedTable(err)); !ok {
		return render.Result{}, lockedTable(err)
	}
	return render.ShowStatus(http.StatusUnprocessableEntity, "table", vm), nil
}

// nameHex names the hex a refused deal speaks of as the chip entry does,
// by terrain and place (「山地（1段目・左から1）」), not by the coordinates
// the rules use, and marks its cell.
func (f *dealForm) nameHex(err error) {
	v := new(referee.Violation)
	if !errors.As(err, &v) {
		return
	}
	hex, ok := v.Args["Hex"].(string)
	if !ok {
		return
	}
	for i := range f.Rows {
		for j := range f.Rows[i].Cells {
			cell := &f.Rows[i].Cells[j]
			if cell.Hex != hex {
				continue
			}
			args := maps.Clone(v.Args)
			args["Hex"] = cell.Label
			v.Args = args
			cell.Invalid = true
		}
	}
}

// staleTable answers a seating, board or deal form that another judge's
// change overtook (a *tournament.StaleError): the page shows the table as
// it is recorded now, says who changed what when, and shows what this
// judge typed with a button that replaces the recorded one with it, over
// its new version.
func (s *Pages) staleTable(c *gin.Context, err error) (render.Result, error) {
	se := new(tournament.StaleError)
	errors.As(err, &se)
	s.log.Info("stale table form", "id", problem.RequestID(c), "err", err)
	ts, err := s.loadTable(c)
	if err != nil {
		return render.Result{}, err
	}
	if ts.tv.Locked {
		// A result came meanwhile: nothing can replace what it was played on.
		return render.Result{}, &problem.Forbidden{ID: "table.locked", Detail: fmt.Sprintf("round %d table %d has a result", ts.n, ts.tv.Table.Number)}
	}
	lang := s.i18n.Lang(c)
	vm := s.newTablePage(c, ts)
	notice := s.i18n.Text(lang, "stale."+se.Record, map[string]any{"Judge": se.Judge, "At": s.i18n.In(lang).Time(se.At), "Version": se.Current})
	f := &staleForm{Button: s.i18n.Text(lang, "stale.use_mine_replace", nil)}
	// Everything the judge posted rides along, over the version now.
	form := c.Request.PostForm
	for _, k := range slices.Sorted(maps.Keys(form)) {
		if k == "version" {
			continue
		}
		for _, v := range form[k] {
			f.Again = append(f.Again, hiddenField{Name: k, Value: v})
		}
	}
	version := vm.BoardVersion
	switch {
	case se.Record == tournament.RecordSeating:
		f.Action, version = tableURL(ts)+"/seating", vm.SeatVersion
		f.Mine = s.typedRolls(lang, ts, form)
		vm.Stale, vm.StaleNotice = f, notice
	case strings.HasSuffix(c.FullPath(), "/deal"):
		f.Action = tableURL(ts) + "/deal"
		f.Mine, f.Again = vm.Deal.takeBack(openedDeal(c, ts), form)
		vm.BoardStale, vm.BoardNotice = f, notice
	default:
		f.Action = tableURL(ts) + "/board"
		f.Mine = []mineLine{s.typedBoard(lang, ts.t.Ruleset, form)}
		vm.BoardStale, vm.BoardNotice = f, notice
	}
	f.Again = append(f.Again, hiddenField{Name: "version", Value: strconv.Itoa(version)})
	return render.ShowStatus(http.StatusConflict, "table", vm), nil
}

// typedBoard says what a board form posted, to show beside the board
// recorded: the console's roll, the capsule dice, or a spiral's corner die.
func (s *Pages) typedBoard(lang string, rs referee.Ruleset, form url.Values) mineLine {
	spiral := rs.Board.Method == referee.SpiralBoard
	line := mineLine{Label: s.i18n.Text(lang, "board.enter", nil)}
	if spiral {
		line.Label = s.i18n.Text(lang, "board.enter_corner", nil)
	}
	switch {
	case form.Get("auto") == "1" && spiral:
		line.Value = s.i18n.Text(lang, "board.auto_corner", nil)
	case form.Get("auto") == "1":
		line.Value = s.i18n.Text(lang, "board.auto", nil)
	case spiral:
		line.Value = form.Get("corner")
		if die, err := strconv.Atoi(line.Value); err == nil && die >= 1 && die <= len(rs.Board.Corners) {
			line.Value = s.i18n.Text(lang, "board.corner", map[string]any{"Corner": die,
				"Start": s.i18n.Text(lang, "rulesets.corner."+string(rs.Board.Corners[die-1]), nil)})
		}
	default:
		line.Value = s.i18n.Text(lang, "board.roll", map[string]any{"White": form.Get("white"), "Blue": form.Get("blue")})
	}
	return line
}

// typedRolls lists the capsule rolls a seating form posted, player by
// player and round by round, to show beside the seating recorded.
func (s *Pages) typedRolls(lang string, ts tableState, form url.Values) []mineLine {
	if form.Get("auto") == "1" {
		return []mineLine{{Label: s.i18n.Text(lang, "seating.enter", nil), Value: s.i18n.Text(lang, "seating.auto", nil)}}
	}
	var out []mineLine
	for k := 0; k < maxRollRounds; k++ {
		if _, ok := form["round_"+strconv.Itoa(k)]; !ok {
			break
		}
		for _, p := range ts.tv.Players {
			w, b := form.Get(rollField(k, p.PlayerID, "w")), form.Get(rollField(k, p.PlayerID, "b"))
			if w == "" && b == "" {
				continue
			}
			label := p.Label
			if k > 0 {
				label += " (" + s.i18n.Text(lang, "seating.round_reroll", map[string]any{"N": k}) + ")"
			}
			out = append(out, mineLine{Label: label, Value: s.i18n.Text(lang, "board.roll", map[string]any{"White": w, "Blue": b})})
		}
	}
	return out
}
