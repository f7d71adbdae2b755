package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// The ruling view: a judge rebuilds a position on the table's board, piece
// by piece, and reads the rules engine's answer (game.Evaluate and its
// quick answers). Everything is computed here, by the referee: the page's
// script only posts the form (the steps so far, and what was tapped) and
// swaps in the part the server draws (render.Part "live").

// rulingSeat is a player of the ruling view: the steps name them by ID.
type rulingSeat struct {
	ID       string // the player's id, as the steps name them
	Name     string
	Color    string // colour id, the CSS class of the seat dot
	ColorTxt string
	Key      int // 1.. the key that chooses the player
	Hand     string
}

// rulingStep is a step of the position as the view lists it.
type rulingStep struct {
	N    int
	Text string
}

// rulingView is the view model of the ruling view.
type rulingView struct {
	render.Page
	// Call is the judge call the view was opened from, claimed by the
	// judge (issue 27); nil otherwise.
	Call     *callLine
	TID      int64
	N        int
	Number   int
	Recorded bool // the table's board is recorded; else the ruleset's layout is drawn
	Seats    []rulingSeat
	Player   string // the chosen player's id
	Do       string // what a tap places: settlement, city, road or remove
	Steps    string // the steps so far, as JSON
	List     []rulingStep
	Typed    string
	Error    string // a step the engine refused, or a corner or edge not understood
	Board    boardView
	Answer   *rulingAnswer
	Note     string
	NoteErr  string
	Quick    quickForm
	// The choices of what a tap places, and of the resources the bank is
	// short of, as the form shows them.
	Dos       []choice
	Resources []choice
	// Hexes are where the robber may stand, named as the board is drawn.
	Hexes []choice
}

// choice is a radio button or a checkbox of the ruling view.
type choice struct {
	ID, Label, Key string
	Checked        bool
}

// fillChoices sets the form's choices from what is chosen.
func (s *Pages) fillChoices(lang string, vm *rulingView) {
	vm.Dos, vm.Resources = nil, nil
	for _, do := range []struct{ id, key string }{{"settlement", "s"}, {"city", "c"}, {"road", "r"}, {"remove", "x"}} {
		vm.Dos = append(vm.Dos, choice{ID: do.id, Key: do.key, Label: s.i18n.Text(lang, "ruling.tap."+do.id, nil), Checked: vm.Do == do.id})
	}
	for _, r := range resourceNames {
		vm.Resources = append(vm.Resources, choice{ID: r, Label: s.i18n.Text(lang, "resource."+r, nil), Checked: slices.Contains(vm.Quick.Short, r)})
	}
}

// rulingAnswer is the engine's answer after the last step.
type rulingAnswer struct {
	Players     []rulingPlayerLine
	LongestRoad string
	LargestArmy string
	Notes       []string
	Production  []string
	ProdWhy     []string
	Discards    []string
	Robber      []string
	Rates       []string
	Declaration string
	QuickError  string
}

// quickForm is the quick answers' inputs as typed.
type quickForm struct {
	Roll     string
	RobberAt string
	Short    []string // resources the bank cannot pay in full
	Roller   string
	Declarer string
	Current  string
	Shown    string
}

// resourceNames are the resources' ids, in the engine's order.
var resourceNames = func() []string {
	var out []string
	for _, r := range game.Resources {
		out = append(out, r.String())
	}
	return out
}()

// ShowRuling opens the ruling view of a table with nothing on the board.
func (s *Pages) ShowRuling(c *gin.Context) (render.Result, error) {
	ts, vm, err := s.newRulingView(c)
	if err != nil {
		return render.Result{}, err
	}
	s.evaluateRuling(vm.Lang, ts, &vm, nil)
	return render.Show("ruling", vm), nil
}

// PostRuling answers the ruling view's form: a step added (a tap, or a
// corner or edge typed by name), a soldier or a one-point card, the last
// step undone, the quick answers asked, or the ruling saved with the
// judge's note. A request with live=1 (static/ruling.js) gets the part of
// the page that changes.
func (s *Pages) PostRuling(c *gin.Context) (render.Result, error) {
	action := c.PostForm("action")
	var saveErr error
	if action == "save" {
		var res render.Result
		if res, saveErr = s.saveRuling(c); saveErr == nil {
			return res, nil
		}
	}
	ts, vm, err := s.newRulingView(c)
	if err != nil {
		return render.Result{}, err
	}
	steps := s.readRulingForm(c, &vm)
	switch action {
	case "add", "soldier", "point_card":
		st, msg := s.newStep(vm.Lang, action, vm.Do, vm.Player, vm.Typed)
		if msg != "" {
			vm.Error = msg
			break
		}
		// A step the engine cannot place is said, and not kept.
		if _, err := game.Evaluate(ts.t.Ruleset, vm.ids(), append(slices.Clone(steps), st)); err != nil {
			_, vm.Error, _ = problem.Describe(s.i18n.In(vm.Lang), err)
			break
		}
		steps = append(steps, st)
		vm.Typed = ""
	case "undo":
		if len(steps) > 0 {
			steps = steps[:len(steps)-1]
		}
	case "clear":
		steps = nil
	case "save":
		msg, ok := s.formError(c, saveErr)
		if !ok {
			return render.Result{}, saveErr
		}
		var v *referee.Violation
		if errors.As(saveErr, &v) && v.Args["Field"] == "note" {
			vm.NoteErr = msg
		} else {
			vm.Error = msg
		}
	}
	s.evaluateRuling(vm.Lang, ts, &vm, steps)
	return showRuling(c, vm), nil
}

// showRuling answers a ruling form with the view, a refusal's with 422.
func showRuling(c *gin.Context, vm rulingView) render.Result {
	status := http.StatusOK
	if vm.Error != "" || vm.NoteErr != "" {
		status = http.StatusUnprocessableEntity
	}
	if c.PostForm("live") != "" {
		// The script shows the answer, refusals included, in place.
		return render.Part("ruling", "live", vm)
	}
	return render.ShowStatus(status, "ruling", vm)
}

// saveRuling saves the ruling as posted and goes back to the table; only
// a refusal (the error) shows the view, with the steps and the note as
// posted.
func (s *Pages) saveRuling(c *gin.Context) (render.Result, error) {
	tid, n, number, err := route.TableParams(c)
	if err != nil {
		return render.Result{}, err
	}
	in := tournament.RulingInput{Steps: postedSteps(c), Note: strings.TrimSpace(c.PostForm("note"))}
	r, _, err := s.svc.SaveRuling(c.Request.Context(), auth.Judge(c), tid, n, number, in)
	if err != nil {
		return render.Result{}, err
	}
	return render.SeeOther(fmt.Sprintf("%s#ruling-%d", route.Path(route.Table, tid, n, number), r.ID), "flash.ruling_saved"), nil
}

// newRulingView is the ruling view of the table: its players in play
// order in their colours (the ruleset's by pairing order before the table
// is seated) and its board as set up (§3), or the ruleset's layout for a
// table whose board is not recorded. It returns the table it read with it.
func (s *Pages) newRulingView(c *gin.Context) (tableState, rulingView, error) {
	ts, err := s.loadTable(c)
	if err != nil {
		return tableState{}, rulingView{}, err
	}
	lang := s.i18n.Lang(c)
	tv := ts.tv
	vm := rulingView{
		Page:   s.pages.Page(c, s.roundWords(c, "page.ruling", ts.final()), map[string]any{"N": ts.n, "Table": tv.Table.Number}),
		TID:    ts.t.ID,
		N:      ts.n,
		Number: tv.Table.Number,
		Do:     "settlement",
		Steps:  "[]",
	}
	vm.Nav = ts.nav
	labels := map[int64]string{}
	for _, p := range tv.Players {
		labels[p.PlayerID] = p.Label
	}
	vm.Call = s.claimedCall(c, ts.t.ID, ts.n, tv.Table.Number, labels)
	for i, p := range tv.Players {
		color := p.Color
		if color == "" && i < len(ts.t.Ruleset.Colors) {
			color = ts.t.Ruleset.Colors[i]
		}
		vm.Seats = append(vm.Seats, rulingSeat{ID: strconv.FormatInt(p.PlayerID, 10), Name: p.Label, Color: string(color),
			ColorTxt: s.i18n.Text(lang, "color."+string(color), nil), Key: i + 1})
	}
	if len(vm.Seats) > 0 {
		vm.Player = vm.Seats[0].ID
	}
	board := layoutBoard(ts.t.Ruleset)
	if tv.Board != nil {
		board, vm.Recorded = *tv.Board, true
	}
	vm.Board = s.newBoardView("ruling-board", lang, board, nil)
	if !vm.Recorded {
		vm.Board.Title = s.i18n.Text(lang, "ruling.layout_board", nil)
	}
	if board.HasRobber {
		vm.Quick.RobberAt = board.Robber.String()
	}
	return ts, vm, nil
}

// layoutBoard is the ruleset's layout as §3 ア draws it, unturned and
// without number chips: what the ruling view shows for a table whose board
// is not recorded, so that the judge can still name corners and edges.
func layoutBoard(rs referee.Ruleset) referee.Board {
	b := referee.Board{RulesetName: rs.Name, RulesetVersion: rs.Version, Method: rs.Board.Method}
	for i, h := range referee.LandHexes() {
		b.Tiles[i] = referee.Tile{Hex: h, Terrain: rs.Layout.Terrain[i]}
	}
	for i, site := range referee.HarborSites() {
		b.Harbors[i] = referee.Harbor{Kind: rs.Layout.Harbors[i], Edge: site}
	}
	return b
}

// ids are the players' ids as the steps name them, in play order.
func (vm rulingView) ids() []string {
	out := make([]string, len(vm.Seats))
	for i, st := range vm.Seats {
		out[i] = st.ID
	}
	return out
}

// stepJSON is a step as the form carries it: as the position API takes it.
type stepJSON struct {
	Do     string   `json:"do"`
	Player string   `json:"player,omitempty"`
	At     string   `json:"at,omitempty"`
	Edge   []string `json:"edge,omitempty"`
}

// readRulingForm reads the form into vm, and returns the steps so far.
func (s *Pages) readRulingForm(c *gin.Context, vm *rulingView) []game.Step {
	if p := c.PostForm("player"); slices.ContainsFunc(vm.Seats, func(st rulingSeat) bool { return st.ID == p }) {
		vm.Player = p
	}
	if do := c.PostForm("do"); slices.Contains([]string{"settlement", "city", "road", "remove"}, do) {
		vm.Do = do
	}
	vm.Typed = strings.TrimSpace(c.PostForm("typed"))
	vm.Note = strings.TrimSpace(c.PostForm("note"))
	q := &vm.Quick
	q.Roll, q.RobberAt = strings.TrimSpace(c.PostForm("roll")), strings.TrimSpace(c.PostForm("robber_at"))
	q.Short = c.PostFormArray("short")
	q.Roller, q.Declarer, q.Current = c.PostForm("roller"), c.PostForm("declarer"), c.PostForm("current")
	q.Shown = strings.TrimSpace(c.PostForm("shown"))
	for i := range vm.Seats {
		vm.Seats[i].Hand = strings.TrimSpace(c.PostForm("hand_" + vm.Seats[i].ID))
	}
	return postedSteps(c)
}

// cornerName matches a corner's name as the position API writes it.
var cornerName = regexp.MustCompile(`[NSns]\s*\(\s*-?\d+\s*,\s*-?\d+\s*\)`)

// newStep is the step the judge asked for: a soldier or a one-point card
// of the chosen player, or, for a corner or an edge tapped or typed by
// name, what the chosen action places there (a corner takes a settlement,
// a city or a removal; an edge a road or a removal). It returns a message
// for a name it cannot read.
func (s *Pages) newStep(lang, action, do, player, typed string) (game.Step, string) {
	switch action {
	case "soldier", "point_card":
		return game.Step{Do: action, Player: player}, ""
	}
	var names []string
	for _, m := range cornerName.FindAllString(typed, -1) {
		names = append(names, strings.ToUpper(m[:1])+strings.Join(strings.Fields(m[1:]), ""))
	}
	switch len(names) {
	case 1:
		if do == "road" {
			do = "settlement"
		}
		st := game.Step{Do: do, Player: player, At: names[0]}
		if do == "remove" {
			st.Player = ""
		}
		return st, ""
	case 2:
		st := game.Step{Do: "road", Player: player, Edge: names}
		if do == "remove" {
			st = game.Step{Do: "remove", Edge: names}
		}
		return st, ""
	}
	return game.Step{}, s.i18n.Text(lang, "ruling.typed_unknown", map[string]any{"Typed": typed})
}

// evaluateRuling evaluates the steps and fills the answer, the board's
// pieces and trails, and the quick answers asked.
func (s *Pages) evaluateRuling(lang string, ts tableState, vm *rulingView, steps []game.Step) {
	if steps == nil {
		steps = []game.Step{}
	}
	out := make([]stepJSON, len(steps))
	for i, st := range steps {
		out[i] = stepJSON{Do: st.Do, Player: st.Player, At: st.At, Edge: st.Edge}
	}
	data, _ := json.Marshal(out)
	vm.Steps = string(data)
	s.fillChoices(lang, vm)
	seat := map[string]rulingSeat{}
	names := map[int64]string{}
	for _, st := range vm.Seats {
		seat[st.ID] = st
		id, _ := strconv.ParseInt(st.ID, 10, 64)
		names[id] = st.Name
	}
	board := layoutBoard(ts.t.Ruleset)
	if ts.tv.Board != nil {
		board = *ts.tv.Board
	}
	named := drawing.NewPlaces(s.i18n.In(lang), &board)
	vm.Hexes = nil
	for _, h := range referee.LandHexes() {
		vm.Hexes = append(vm.Hexes, choice{ID: h.String(), Label: named.Hex(h), Checked: h.String() == strings.ReplaceAll(vm.Quick.RobberAt, " ", "")})
	}
	vm.List = nil
	for i, st := range steps {
		where := named.Name(st.At)
		if len(st.Edge) == 2 {
			where = named.Name(st.Edge[0] + "-" + st.Edge[1])
		}
		text := s.i18n.Text(lang, "ruling.do."+st.Do, map[string]any{"Player": seat[st.Player].Name, "Where": where})
		vm.List = append(vm.List, rulingStep{N: i + 1, Text: text})
	}
	ev, err := game.Evaluate(ts.t.Ruleset, vm.ids(), steps)
	if err != nil {
		_, vm.Error, _ = problem.Describe(s.i18n.In(lang), named.Error(err))
		return
	}
	vm.Board.Play = s.playLayer(named, ev, vm.Seats, vm.Board)
	p := s.i18n.In(lang)
	say := func(e *game.Error) string {
		return problem.Violation(p, named.Violation(tournament.ReasonOf(e).Violation(names)))
	}
	holder := func(a game.Award) string {
		who := s.i18n.Text(lang, "ruling.bank", nil)
		if a.Holder >= 0 {
			who = vm.Seats[a.Holder].Name
		}
		return who + " — " + say(a.Why)
	}
	ans := &rulingAnswer{LongestRoad: holder(ev.LongestRoad), LargestArmy: holder(ev.LargestArmy)}
	for i, pe := range ev.Players {
		b := referee.Breakdown{Settlements: pe.Settlements, Cities: pe.Cities, LongestRoad: pe.VP.LongestRoad > 0, LargestArmy: pe.VP.LargestArmy > 0, PointCards: pe.PointCards}
		ans.Players = append(ans.Players, rulingPlayerLine{Name: vm.Seats[i].Name, Color: vm.Seats[i].Color, Road: pe.Road, VP: pe.VP.Total(),
			Breakdown: s.breakdownText(lang, &b) + " · " + s.i18n.Text(lang, "ruling.soldiers", map[string]any{"N": pe.Soldiers})})
	}
	for _, n := range ev.Notes {
		ans.Notes = append(ans.Notes, s.i18n.Text(lang, "ruling.step", map[string]any{"N": n.Index + 1})+": "+say(n))
	}
	s.quickAnswers(named, ev, board, vm, ans, say)
	vm.Answer = ans
}

// playLayer draws the pieces of the position, each player's longest trail
// and the corners and edges to tap.
func (s *Pages) playLayer(named drawing.Places, ev *game.Evaluation, seats []rulingSeat, b boardView) *drawing.Play {
	ds := make([]drawing.Seat, len(seats))
	for i, st := range seats {
		ds[i] = drawing.Seat{Name: st.Name, Color: st.Color}
	}
	return drawing.NewPlay(named, ev, ds, b, drawing.Targets{Board: true})
}

// quickAnswers fills the quick answers the form asks: a roll's production
// with the bank's shortages, the discards on a 7 from the hands, where the
// robber may go and whom it may rob, each player's trade rates, and
// whether a declaration is valid.
func (s *Pages) quickAnswers(named drawing.Places, ev *game.Evaluation, b referee.Board, vm *rulingView, ans *rulingAnswer, say func(*game.Error) string) {
	lang, q := named.Lang(), vm.Quick
	fail := func(err error) {
		if ge := (*game.Error)(nil); errors.As(err, &ge) {
			ans.QuickError = say(ge)
			return
		}
		_, ans.QuickError, _ = problem.Describe(s.i18n.In(lang), named.Error(err))
	}
	cards := func(c game.Cards) string {
		var parts []string
		for _, r := range game.Resources {
			if c[r] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", s.i18n.Text(lang, "resource."+r.String(), nil), c[r]))
			}
		}
		if parts == nil {
			return s.i18n.Text(lang, "ruling.nothing", nil)
		}
		return strings.Join(parts, "、")
	}
	var robber *referee.Hex
	if h, ok := parseHex(q.RobberAt); ok {
		robber = &h
	}
	// Production of a roll (§6 ア), with the bank's shortages.
	if sum, err := strconv.Atoi(q.Roll); err == nil {
		bank := game.Bank{}
		for _, name := range q.Short {
			if r, ok := game.ParseResource(name); ok {
				bank.Short = append(bank.Short, r)
			}
		}
		prod, err := ev.Produce(b, game.Rolled{Sum: sum, Robber: robber, Bank: bank})
		if err != nil {
			fail(err)
		} else {
			for i, got := range prod.Got {
				ans.Production = append(ans.Production, vm.Seats[i].Name+": "+cards(got))
			}
			for _, w := range prod.Why {
				ans.ProdWhy = append(ans.ProdWhy, say(w))
			}
			for _, sf := range prod.Shortfalls {
				ans.ProdWhy = append(ans.ProdWhy, say(sf.Why))
			}
		}
	}
	// Discards on a 7 (§6 イ) and the robber (§6 イ) need the hands.
	hands := map[string]int{}
	for _, st := range vm.Seats {
		if n, err := strconv.Atoi(st.Hand); err == nil {
			hands[st.ID] = n
		}
	}
	if len(hands) > 0 {
		dues, err := ev.Discards(hands)
		if err != nil {
			fail(err)
		} else {
			for _, d := range dues {
				ans.Discards = append(ans.Discards, vm.Seats[d.Player].Name+": "+say(d.Why))
			}
		}
	}
	if q.Roller != "" {
		moves, err := ev.Robber(b, robber, q.Roller, hands)
		if err != nil {
			fail(err)
		} else {
			for _, h := range moves.Hexes {
				if !h.Allowed {
					continue
				}
				var rob []string
				for _, p := range h.Rob {
					rob = append(rob, vm.Seats[p].Name)
				}
				line := named.Hex(h.Hex)
				if t, ok := b.TileAt(h.Hex); ok && t.Number != 0 {
					line += " " + s.i18n.Text(lang, "ruling.chip", map[string]any{"Number": t.Number})
				}
				if rob != nil {
					line += " — " + s.i18n.Text(lang, "ruling.may_rob", map[string]any{"Players": strings.Join(rob, "、")})
				}
				ans.Robber = append(ans.Robber, line)
			}
		}
	}
	// Each player's trade rates (§7 イ, ウ).
	for _, st := range vm.Seats {
		rates, err := ev.Rates(b, st.ID)
		if err != nil {
			fail(err)
			break
		}
		var parts []string
		for _, r := range rates.Rates {
			parts = append(parts, fmt.Sprintf("%s %d:1", s.i18n.Text(lang, "resource."+r.Resource.String(), nil), r.Give))
		}
		ans.Rates = append(ans.Rates, st.Name+": "+strings.Join(parts, "、"))
	}
	// A declaration (§11).
	if q.Declarer != "" {
		shown, _ := strconv.Atoi(q.Shown)
		current := q.Current
		if current == "" {
			current = q.Declarer
		}
		d, err := ev.Declaration(q.Declarer, current, shown)
		if err != nil {
			fail(err)
		} else {
			verdict := s.i18n.Text(lang, fmt.Sprintf("ruling.declaration_%t", d.Valid), map[string]any{"VP": d.VP.Total(), "Need": d.Need})
			var why []string
			for _, w := range d.Why {
				why = append(why, say(w))
			}
			ans.Declaration = strings.TrimSpace(verdict + " " + strings.Join(why, " "))
		}
	}
}

// parseHex reads a hex as its name is written: "(q,r)".
func parseHex(s string) (referee.Hex, bool) {
	var h referee.Hex
	if _, err := fmt.Sscanf(strings.ReplaceAll(s, " ", ""), "(%d,%d)", &h.Q, &h.R); err != nil {
		return referee.Hex{}, false
	}
	return h, true
}
