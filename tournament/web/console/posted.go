package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// The table's forms read as posted, without the table: a POST that reads
// well writes and redirects, and builds its page (the event's snapshot, a
// read of the store after any change) only to show a refusal. Each reader
// says false where the page must read the form itself: a field it cannot
// read, or a form that needs what is recorded to be understood. The
// readers with the table's page (refuseRolls, typedChips) follow.

// postedSeating reads a seating form: the console's roll, or each round of
// capsule rolls, by the players the form names (the service checks that
// they are the table's and keeps the rolls in the table's order); false
// when a die is not a face or no round is posted.
func (s *Pages) postedSeating(c *gin.Context) (tournament.SeatingInput, bool) {
	in := tournament.SeatingInput{Auto: c.PostForm("auto") == "1", Version: formVersion(c)}
	if in.Auto {
		return in, true
	}
	lang, errs := s.i18n.Lang(c), fieldErrors{}
	for k := 0; k < maxRollRounds; k++ {
		if _, ok := c.GetPostForm(fmt.Sprintf("round_%d", k)); !ok {
			break
		}
		var round []tournament.Roll
		for _, id := range rollersPosted(c, k) {
			wf, bf := rollField(k, id, "w"), rollField(k, id, "b")
			white, ok1 := s.formInt(lang, strings.TrimSpace(c.PostForm(wf)), 1, 6, true, errs, wf)
			blue, ok2 := s.formInt(lang, strings.TrimSpace(c.PostForm(bf)), 1, 6, true, errs, bf)
			if !ok1 || !ok2 {
				return in, false
			}
			round = append(round, tournament.Roll{PlayerID: id, CapsuleRoll: referee.CapsuleRoll{White: white, Blue: blue}})
		}
		in.Rolls = append(in.Rolls, round)
	}
	return in, len(in.Rolls) > 0
}

// rollersPosted are the players with a die posted in round k
// (rollField's r<k>_<player>_<w|b>), by ID.
func rollersPosted(c *gin.Context, k int) []int64 {
	prefix := fmt.Sprintf("r%d_", k)
	var ids []int64
	for name := range c.Request.PostForm {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		idText, die, ok := strings.Cut(rest, "_")
		id, err := strconv.ParseInt(idText, 10, 64)
		if ok && err == nil && (die == "w" || die == "b") && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// postedDeal reads a deal form's number chips; false when a chip is not a
// number of 2 to 12, or the form was taken back after a conflict (its
// chips are weighed against the deal recorded now: dealForm.overwrites)
// or confirms an overwrite.
func (s *Pages) postedDeal(c *gin.Context) (tournament.DealInput, bool) {
	in := tournament.DealInput{Version: formVersion(c)}
	if c.PostForm(takenBackField) != "" || c.PostForm("overwrite") != "" {
		return in, false
	}
	lang, errs := s.i18n.Lang(c), fieldErrors{}
	for _, h := range referee.LandHexes() {
		name := chipField(h)
		v := strings.TrimSpace(c.PostForm(name))
		if v == "" {
			continue
		}
		n, ok := s.formInt(lang, v, 2, 12, false, errs, name)
		if !ok {
			return in, false
		}
		in.Chips = append(in.Chips, referee.Chip{Hex: h, Number: n})
	}
	return in, true
}

// takenBackField marks a deal form that carries a judge's chips taken back
// after another judge's change (dealForm.takeBack), through every page
// that shows it again.
const takenBackField = "taken_back"

// postedSteps are the steps a ruling form carries (its "steps" field, as
// static/ruling.js keeps them); none when they do not read.
func postedSteps(c *gin.Context) []game.Step {
	var in []stepJSON
	if err := json.Unmarshal([]byte(c.PostForm("steps")), &in); err != nil {
		return nil
	}
	steps := make([]game.Step, len(in))
	for i, st := range in {
		steps[i] = game.Step{Do: st.Do, Player: st.Player, At: st.At, Edge: st.Edge}
	}
	return steps
}

// refuseRolls is the page of a seating form whose capsule rolls do not
// read: none posted, or the round being entered with a die that is not a
// face; false when the rolls go to the service (a locked table's always:
// the service's refusal is the answer).
func (s *Pages) refuseRolls(lang string, ts tableState, typed typedRolls, vm *tablePage) (render.Result, bool) {
	switch last := len(typed.rounds) - 1; {
	case ts.tv.Locked:
		// A result locks the table: the service's refusal is the
		// answer, whatever the form carries (the page shows no form).
	case last < 0:
		vm.Rolls = s.firstRolls(ts, typed.values)
		vm.Rolls.Error = s.i18n.Text(lang, "seating.no_rolls", nil)
		return render.ShowStatus(http.StatusUnprocessableEntity, "table", *vm), true
	case len(typed.errs) > 0:
		// The round being entered goes back with its messages; the
		// rounds before it were accepted and ride along.
		vm.Rolls = s.rollsAfter(lang, ts, typed.rounds[:last])
		vm.Rolls.Round = last
		vm.Rolls.Groups = rollersIn(ts, last, typed.values)
		vm.Rolls.fill(typed.values, typed.errs)
		if last > 0 {
			vm.Rolls.Tie = s.i18n.Text(lang, "seating.tie", map[string]any{"Players": groupNames(vm.Rolls.Groups)})
		}
		return render.ShowStatus(http.StatusUnprocessableEntity, "table", *vm), true
	}
	return render.Result{}, false
}

// typedChips are a deal form's chips as typed, by field, their messages,
// and the chips that read.
func (s *Pages) typedChips(c *gin.Context, lang string) (map[string]string, fieldErrors, []referee.Chip) {
	values, errs := map[string]string{}, fieldErrors{}
	var chips []referee.Chip
	for _, h := range referee.LandHexes() {
		name := chipField(h)
		v := strings.TrimSpace(c.PostForm(name))
		values[name] = v
		if v == "" {
			continue
		}
		if n, ok := s.formInt(lang, v, 2, 12, false, errs, name); ok {
			chips = append(chips, referee.Chip{Hex: h, Number: n})
		}
	}
	return values, errs, chips
}
