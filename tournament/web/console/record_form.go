package console

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// recordForm is the entry of a move as typed, tapped and chosen, kept
// when the move is refused.
type recordForm struct {
	Expected int    // the moves of the record the move is entered on
	Tap      string // what a tap on the board fills in (recordTaps)
	// Corner, Edge and Roads name corners and edges as the rules engine
	// does: N(0,0), and an edge by its two corners.
	Corner, Edge, Roads string
	Hex, Rob, Took      string // the robber: its hex "(q,r)", the player robbed, the card taken
	Dice, White, Blue   string
	Discarder           string
	Discard, Give, Get  map[string]string // cards by resource, as typed
	Partner             string            // "bank" or a player's id
	Card                string            // the development card drawn
	Take1, Take2        string            // the harvest's two resources
	Monopoly            string
	// The result's save: the revision corrected, the reason, the
	// confirmation of a declaration after the time signal (§12).
	Version       int
	Reason        string
	LateReason    string
	LateConfirmed bool
}

// recordTaps are what a tap on the board fills in, with their keys: a
// placement's settlement then its road (§4), a settlement, a city, a road,
// the robber's hex, the roads of a road building card.
var recordTaps = []struct{ id, key string }{
	{"place", "p"}, {"settlement", "s"}, {"city", "c"}, {"road", "r"}, {"robber", "x"}, {"roads", "g"},
}

// readRecordForm reads the record page's form.
func readRecordForm(c *gin.Context) recordForm {
	f := recordForm{Discard: map[string]string{}, Give: map[string]string{}, Get: map[string]string{}}
	trim := func(k string) string { return strings.TrimSpace(c.PostForm(k)) }
	f.Expected, _ = strconv.Atoi(c.PostForm("expected"))
	f.Version, _ = strconv.Atoi(c.PostForm("version"))
	f.Tap = c.PostForm("tap")
	f.Corner, f.Edge, f.Roads = trim("corner"), trim("edge"), trim("roads")
	f.Hex, f.Rob, f.Took = c.PostForm("hex"), c.PostForm("rob"), c.PostForm("took")
	f.Dice, f.White, f.Blue = trim("dice"), c.PostForm("white"), c.PostForm("blue")
	f.Discarder, f.Partner, f.Card = c.PostForm("discarder"), c.PostForm("partner"), c.PostForm("card")
	f.Take1, f.Take2, f.Monopoly = c.PostForm("take1"), c.PostForm("take2"), c.PostForm("monopoly")
	for _, r := range resourceNames {
		f.Discard[r], f.Give[r], f.Get[r] = trim("discard_"+r), trim("give_"+r), trim("get_"+r)
	}
	f.Reason, f.LateReason, f.LateConfirmed = trim("reason"), trim("late_reason"), c.PostForm("late_confirmed") != ""
	return f
}

// lateReason is the confirmation of a declaration recorded after the time
// signal (§12): the one typed, or the standard one the box stands for.
func (f recordForm) lateReason(s *Pages, lang string) string {
	if f.LateReason == "" && f.LateConfirmed {
		return s.i18n.Text(lang, "score.late_confirm", nil)
	}
	return f.LateReason
}

// recordMove is the move the button do enters, from the form: the names
// it needs read, with a message in errs by each field that lacks one.
// Whether the move is allowed is the rules engine's to say.
func (s *Pages) recordMove(lang, do string, f recordForm, errs fieldErrors) (game.MoveSpec, bool) {
	need := func(field, msg string, ok bool) {
		if !ok {
			errs[field] = s.i18n.Text(lang, "record.need_"+msg, nil)
		}
	}
	corner := func() string {
		names := corners(f.Corner)
		need("corner", "corner", len(names) == 1)
		if len(names) == 1 {
			return names[0]
		}
		return ""
	}
	edge := func() []string {
		names := corners(f.Edge)
		need("edge", "edge", len(names) == 2)
		return names
	}
	var m game.MoveSpec
	switch do {
	case "place":
		m = game.MoveSpec{Do: "place", Settlement: corner(), Road: edge()}
	case "settlement":
		m = game.MoveSpec{Do: "build", Settlement: corner()}
	case "city":
		m = game.MoveSpec{Do: "build", City: corner()}
	case "road":
		m = game.MoveSpec{Do: "build", Road: edge()}
	case "roll":
		dice := s.recordDice(f)
		need("dice", "dice", len(dice) == 2)
		m = game.MoveSpec{Do: "roll", Dice: dice}
	case "robber", "soldier":
		m = game.MoveSpec{Do: "robber", Rob: f.Rob, Took: f.Took}
		h, ok := parseHex(f.Hex)
		need("hex", "hex", ok)
		m.Hex = &h
		if do == "soldier" {
			m.Do, m.Dev = "play", "soldier"
		}
	case "discard":
		need("discarder", "player", f.Discarder != "")
		m = game.MoveSpec{Do: "discard", Player: f.Discarder, Cards: s.recordCards(lang, "discard_", f.Discard, errs)}
	case "trade":
		need("partner", "partner", f.Partner != "")
		m = game.MoveSpec{Do: "trade", With: f.Partner, Give: s.recordCards(lang, "give_", f.Give, errs), Get: s.recordCards(lang, "get_", f.Get, errs)}
		if f.Partner == "bank" {
			m.Do, m.With = "bank", ""
		}
	case "buy":
		need("card", "card", f.Card != "")
		m = game.MoveSpec{Do: "buy", Card: f.Card}
	case "road_building":
		names := corners(f.Roads)
		need("roads", "roads", len(names) == 2 || len(names) == 4)
		m = game.MoveSpec{Do: "play", Dev: "road_building", Roads: [][]string{}}
		for i := 0; i+1 < len(names); i += 2 {
			m.Roads = append(m.Roads, names[i:i+2])
		}
	case "harvest":
		m = game.MoveSpec{Do: "play", Dev: "harvest", Take: map[string]int{}}
		for _, r := range []string{f.Take1, f.Take2} {
			if r != "" {
				m.Take[r]++
			}
		}
	case "monopoly":
		need("monopoly", "resource", f.Monopoly != "")
		m = game.MoveSpec{Do: "play", Dev: "monopoly", Resource: f.Monopoly}
	case "declare", "end_turn", "time_up":
		m = game.MoveSpec{Do: do}
	default:
		errs["do"] = s.i18n.Text(lang, "record.need_move", nil)
	}
	return m, len(errs) == 0
}

// corners reads the corners named in s, in order, as the rules engine
// writes them: N(0,0), S(1,-1).
func corners(s string) []string {
	var names []string
	for _, m := range cornerName.FindAllString(s, -1) {
		names = append(names, strings.ToUpper(m[:1])+strings.Join(strings.Fields(m[1:]), ""))
	}
	return names
}

// recordDice reads the two dice (§6 ア): typed as "3 4", or picked white
// and blue.
func (s *Pages) recordDice(f recordForm) []int {
	var dice []int
	for _, r := range sheet.HalfWidth(f.Dice) {
		if r >= '0' && r <= '9' {
			dice = append(dice, int(r-'0'))
		}
	}
	if f.Dice == "" {
		for _, d := range []string{f.White, f.Blue} {
			if n, err := strconv.Atoi(d); err == nil {
				dice = append(dice, n)
			}
		}
	}
	return dice
}

// recordCards reads cards typed by resource into counts by name; a count
// that is not a number is said by its field.
func (s *Pages) recordCards(lang, prefix string, typed map[string]string, errs fieldErrors) map[string]int {
	out := map[string]int{}
	for _, r := range resourceNames {
		if n := s.formNumber(lang, typed[r], false, errs, prefix+r); n != 0 {
			out[r] = n
		}
	}
	return out
}

// fillRecordChoices sets the form's choices: what a tap fills in (by
// default what the phase asks for), the hexes by terrain and place, the
// resources and the development cards.
func (s *Pages) fillRecordChoices(vm *recordPage) {
	lang := vm.Lang
	if !slices.ContainsFunc(recordTaps, func(t struct{ id, key string }) bool { return t.id == vm.Form.Tap }) {
		vm.Form.Tap = map[string]string{"setup": "place", "robber": "robber"}[vm.Phase]
		if vm.Form.Tap == "" {
			vm.Form.Tap = "road"
		}
	}
	ch := &vm.Choices
	for _, t := range recordTaps {
		ch.Taps = append(ch.Taps, choice{ID: t.id, Key: t.key, Label: s.i18n.Text(lang, "record.tap."+t.id, nil), Checked: vm.Form.Tap == t.id})
	}
	named := drawing.NewPlaces(s.i18n.In(lang), &vm.board)
	for _, h := range referee.LandHexes() {
		ch.Hexes = append(ch.Hexes, choice{ID: h.String(), Label: named.Hex(h), Checked: vm.Form.Hex == h.String()})
	}
	for _, r := range resourceNames {
		ch.Resources = append(ch.Resources, choice{ID: r, Label: s.i18n.Text(lang, "resource."+r, nil)})
	}
	rows := func(prefix string, typed map[string]string) []cardField {
		var out []cardField
		for _, r := range resourceNames {
			out = append(out, cardField{Name: prefix + r, Label: s.i18n.Text(lang, "resource."+r, nil), Value: typed[r], Error: vm.Errors[prefix+r]})
		}
		return out
	}
	vm.CardRows.Discard, vm.CardRows.Give, vm.CardRows.Get = rows("discard_", vm.Form.Discard), rows("give_", vm.Form.Give), rows("get_", vm.Form.Get)
	for c := game.Soldier; c <= game.Point; c++ {
		ch.Cards = append(ch.Cards, choice{ID: c.String(), Label: s.i18n.Text(lang, "card."+c.String(), nil), Checked: vm.Form.Card == c.String()})
	}
	ch.Dice = []int{1, 2, 3, 4, 5, 6}
}

// fillRecordResult lays out the result the finished record gives, with
// the placings the service gives it as saving would.
func (s *Pages) fillRecordResult(c *gin.Context, ts tableState, g tournament.Game, vm *recordPage) {
	r := vm.Result
	if r == nil {
		r = &recordResult{}
		vm.Result = r
	}
	if res := ts.tv.Result; res != nil {
		r.Version, r.HasResult = res.Version, true
	}
	sheet, err := g.Sheet()
	if err != nil {
		return
	}
	r.Ended = s.i18n.Text(vm.Lang, "score.ended_time", nil)
	if sheet.Declared != 0 {
		r.Declared = true
		r.Ended = s.i18n.Text(vm.Lang, "score.declared_by", map[string]any{"Name": ts.names()[sheet.Declared]})
	}
	sheet.Version, sheet.Reason, sheet.LateReason = r.Version, vm.Form.Reason, vm.Form.lateReason(s, vm.Lang)
	tr, err := s.svc.PreviewResult(c.Request.Context(), ts.t.ID, ts.n, ts.tv.Table.Number, sheet)
	if err != nil {
		_, r.Waiting, _ = problem.Describe(s.i18n.In(vm.Lang), err)
		return
	}
	r.Preview = s.placeLines(vm.Lang, ts.t.Ruleset, tr.Places, ts.names(), &tr.Result)
}

// placesNamed says the hexes, corners and sides a rule of play names as
// the board is read, rather than by their coordinates.
func (s *Pages) placesNamed(vm *recordPage, err error) error {
	if vm.board.Tiles[0].Terrain == "" {
		return err
	}
	return drawing.NewPlaces(s.i18n.In(vm.Lang), &vm.board).Error(err)
}
