package tournament_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
)

// cutRoad is a position of the API's documentation, for player ids a and
// b: a's five roads take the longest road (§10 ア) and b's settlement cuts
// them to 4, so the card returns to the bank.
func cutRoad(a, b string) []game.Step {
	return []game.Step{
		{Do: "settlement", Player: a, At: "N(0,0)"},
		{Do: "road", Player: a, Edge: []string{"N(0,0)", "S(1,-1)"}}, {Do: "road", Player: a, Edge: []string{"S(1,-1)", "N(1,0)"}},
		{Do: "road", Player: a, Edge: []string{"N(1,0)", "S(2,-1)"}}, {Do: "road", Player: a, Edge: []string{"S(2,-1)", "N(2,0)"}},
		{Do: "road", Player: a, Edge: []string{"N(2,0)", "S(3,-1)"}},
		{Do: "settlement", Player: b, At: "S(1,-1)"},
	}
}

// A ruling records the position, the engine's answer and the judge's note
// in the audit log; it changes no result.
func TestSaveRuling(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players
	a, b := strconv.FormatInt(p[0], 10), strconv.FormatInt(p[1], 10)

	// Five roads: the longest road, with its trail.
	ruling, ev := func() (tournament.Ruling, *game.Evaluation) {
		r, ev, err := c.Svc.SaveRuling(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.RulingInput{Steps: cutRoad(a, b)[:6], Note: "ロードの長さ"})
		if err != nil {
			t.Fatal(err)
		}
		return r, ev
	}()
	if ruling.ID == 0 || ruling.Answer.LongestRoad.Holder != p[0] || ruling.Answer.LongestRoad.Why.Code != "longest-road-took" ||
		ruling.Answer.Players[0].Road != 5 || len(ruling.Answer.Players[0].Trail) != 6 || ev.LongestRoad.Holder != 0 {
		t.Errorf("ruling = %+v, want the longest road to %s with a trail of 6 corners", ruling, a)
	}
	// The cut: the card returns to the bank, and the settlement next to
	// the other is noted (the distance rule, §8).
	cut, _, err := c.Svc.SaveRuling(c.Ctx, "judge-b", tour.ID, 1, 1, tournament.RulingInput{Steps: cutRoad(a, b), Note: "道が切られた"})
	if err != nil {
		t.Fatal(err)
	}
	if cut.Answer.LongestRoad.Holder != 0 || cut.Answer.LongestRoad.Why.Code != "longest-road-cut-short" || cut.Answer.LongestRoad.Why.Step != 6 ||
		len(cut.Answer.Notes) == 0 {
		t.Errorf("cut ruling answer = %+v, want longest-road-cut-short at step 6 with a note", cut.Answer)
	}
	v := cut.Answer.LongestRoad.Why.Violation(map[int64]string{p[0]: players[0].Name})
	if v.Code != "longest-road-cut-short" {
		t.Errorf("Violation() = %+v", v)
	}

	got := must(c.Svc.Rulings(c.Ctx, tour.ID, 1, 1)).OK(t)
	if len(got) != 2 || got[0].Note != "ロードの長さ" || got[1].Judge != "judge-b" || len(got[1].Steps) != 7 || got[1].Round != 1 || got[1].Table != 1 ||
		got[1].Answer.LongestRoad.Why.Code != "longest-road-cut-short" || got[0].Answer.Players[0].Breakdown.LongestRoad != true {
		t.Errorf("Rulings() = %+v, want both as saved", got)
	}
	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	n := 0
	for _, e := range log {
		if e.Action == "table.ruling" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("audit log has %d rulings, want 2", n)
	}

	// A step not on the board is refused, naming the step; nothing is stored.
	_, _, err = c.Svc.SaveRuling(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.RulingInput{Steps: []game.Step{{Do: "settlement", Player: a, At: "N(9,9)"}}})
	var ge *game.Error
	if !errors.As(err, &ge) || ge.Index != 0 || !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("SaveRuling(off the board) error = %v, want a *game.Error at step 0", err)
	}
	if _, _, err := c.Svc.SaveRuling(c.Ctx, "", tour.ID, 1, 1, tournament.RulingInput{}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SaveRuling(no judge) error = %v, want ErrInvalid", err)
	}
	if _, _, err := c.Svc.SaveRuling(c.Ctx, "judge-a", tour.ID, 1, 9, tournament.RulingInput{}); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("SaveRuling(table 9) error = %v, want ErrNotFound", err)
	}
	if got := must(c.Svc.Rulings(c.Ctx, tour.ID, 1, 1)).OK(t); len(got) != 2 {
		t.Errorf("refused rulings were stored: %d", len(got))
	}
	// A ruling never changes a result.
	if rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); rv.Tables[0].Result != nil {
		t.Errorf("a ruling saved a result")
	}
}
