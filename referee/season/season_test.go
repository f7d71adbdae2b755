package season_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/season"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

func TestPlacementPointsSplitTheRanksTheySpan(t *testing.T) {
	f := season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5, 3}}
	got := f.Score(season.Event{Ranks: []season.Ranked{{1, 1}, {2, 2}, {3, 2}, {4, 5}, {5, 6}, {6, 6}, {7, 2}}})
	want := map[int64]string{1: "10", 2: "5", 3: "5", 7: "5", 4: "0", 5: "0", 6: "0"}
	// Three share 2nd: (7+5+3)/3 = 5; the 5th and the two sharing 6th are
	// past the table.
	for p, w := range want {
		if got[p].Cmp(rat(w)) != 0 {
			t.Errorf("player %d: %s points, want %s", p, got[p].RatString(), w)
		}
	}
	two := f.Score(season.Event{Ranks: []season.Ranked{{1, 1}, {2, 2}, {3, 2}}})
	if two[2].Cmp(rat("6")) != 0 {
		t.Errorf("two sharing 2nd of {10,7,5,3}: %s, want (7+5)/2 = 6", two[2].RatString())
	}
}

func TestZeroSumTablesAddUpToZero(t *testing.T) {
	f := season.Formula{Kind: season.KindZeroSum, Uma4: []int{30, 10, -10, -30}, Uma3: []int{20, 0, -20}, VP: 1}
	games := [][]season.Seat{
		{{1, 1, 10}, {2, 2, 7}, {3, 2, 7}, {4, 4, 3}},
		{{5, 1, 10}, {6, 2, 8}, {7, 3, 4}},
		{{8, 1, 9}, {9, 1, 9}, {10, 3, 5}},
	}
	got := f.Score(season.Event{Games: games})
	for _, g := range games {
		total := new(big.Rat)
		for _, s := range g {
			total.Add(total, got[s.Player])
		}
		if total.Sign() != 0 {
			t.Errorf("table %v adds up to %s, want 0", g, total.RatString())
		}
	}
	// 1st of 4 with 10 of 27 VP: 30 + (40-27)/4.
	if got[1].Cmp(rat("133/4")) != 0 {
		t.Errorf("winner of 4: %s, want 133/4", got[1].RatString())
	}
	// Sharing 2nd of 4 splits 10 and -10: 0, plus (28-27)/4.
	if got[2].Cmp(rat("1/4")) != 0 || got[3].Cmp(got[2]) != 0 {
		t.Errorf("sharing 2nd: %s and %s, want 1/4 each", got[2].RatString(), got[3].RatString())
	}
	// Sharing 1st of 3 splits 20 and 0; VP equal above average (23/3).
	if got[8].Cmp(rat("34/3")) != 0 {
		t.Errorf("sharing 1st of 3: %s, want 10 + (27-23)/3 = 34/3", got[8].RatString())
	}
}

func TestStandingsCountTheBestEvents(t *testing.T) {
	f := season.Formula{Kind: season.KindPlacement, Points: []int{10, 6, 3}, Best: 2}
	events := []season.Event{
		{ID: "c", Date: "2025-12-01", Ranks: []season.Ranked{{1, 3}, {2, 1}}},
		{ID: "a", Date: "2025-10-01", Ranks: []season.Ranked{{1, 1}, {2, 2}}},
		{ID: "b", Date: "2025-11-01", Ranks: []season.Ranked{{1, 2}, {2, 3}, {3, 1}}},
	}
	lines := season.Standings(f, events)
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3", len(lines))
	}
	// Player 1: 3, 10, 6 → best two 16; player 2: 10, 6, 3 → 16; player 3: 10.
	if lines[0].Player != 1 || lines[1].Player != 2 || lines[0].Rank != 1 || lines[1].Rank != 1 || lines[2].Rank != 3 {
		t.Fatalf("lines = %+v, want players 1 and 2 sharing 1st, 3 third", lines)
	}
	if lines[0].Points.Cmp(rat("16")) != 0 || lines[0].Events != 3 {
		t.Errorf("player 1: %s points over %d events, want 16 over 3", lines[0].Points.RatString(), lines[0].Events)
	}
	r := lines[0].Results
	if r[0].Event != "a" || !r[0].Counted || r[1].Event != "b" || !r[1].Counted || r[2].Event != "c" || r[2].Counted {
		t.Errorf("player 1's results = %+v, want a and b counted, c not", r)
	}
}

func TestFormulaCheck(t *testing.T) {
	for _, c := range []struct {
		f    season.Formula
		code string
	}{
		{season.Formula{Kind: season.KindPlacement, Points: []int{10, 7}}, ""},
		{season.Formula{Kind: season.KindZeroSum, Uma4: []int{30, 10, -10, -30}, Uma3: []int{20, 0, -20}}, ""},
		{season.Formula{Kind: "elo"}, "season-formula-unknown"},
		{season.Formula{Kind: season.KindPlacement}, "season-points-missing"},
		{season.Formula{Kind: season.KindZeroSum, Uma4: []int{30, 10, -10, -20}, Uma3: []int{20, 0, -20}}, "season-uma-not-zero"},
		{season.Formula{Kind: season.KindZeroSum, Uma4: []int{30, -30}, Uma3: []int{20, 0, -20}}, "season-uma-size"},
		{season.Formula{Kind: season.KindPlacement, Points: []int{1}, Best: -1}, "season-best-out-of-range"},
		{season.Formula{Kind: season.KindPlacement, Points: []int{1}, VP: 2}, "season-formula-mixed"},
	} {
		err := c.f.Check()
		var v *referee.Violation
		switch {
		case c.code == "" && err != nil:
			t.Errorf("Check(%+v) = %v, want nil", c.f, err)
		case c.code != "" && (!errors.As(err, &v) || v.Code != c.code):
			t.Errorf("Check(%+v) = %v, want %s", c.f, err, c.code)
		}
	}
}

func TestLedgerCountsAttemptsInDateOrder(t *testing.T) {
	q := season.Qualification{Attempts: 3, Rank: 1}
	events := []season.Event{
		{ID: "d", Date: "2026-01-10", Ranks: []season.Ranked{{1, 1}}},
		{ID: "a", Date: "2025-10-01", Ranks: []season.Ranked{{1, 2}, {2, 1}}},
		{ID: "b", Date: "2025-11-01", Ranks: []season.Ranked{{1, 3}}},
		{ID: "c", Date: "2025-12-01", Ranks: []season.Ranked{{1, 2}}},
	}
	entrants := map[string][]int64{"a": {1, 2}, "b": {1}, "c": {1}, "d": {1}}
	ledger := q.Ledger(events, entrants)
	if len(ledger) != 2 {
		t.Fatalf("ledger = %+v, want 2 people", ledger)
	}
	one := ledger[0]
	if one.Used != 3 || one.Left != 0 || len(one.Attempts) != 4 || !one.Attempts[3].Over || one.Qualified != nil {
		t.Errorf("person 1 = %+v, want 3 used, the 4th over, and the win there not qualifying", one)
	}
	two := ledger[1]
	if two.Qualified == nil || two.Qualified.Event != "a" || two.Left != 2 {
		t.Errorf("person 2 = %+v, want qualified at a with 2 attempts left", two)
	}
	if n, err := q.NextAttempt(2); n != 3 || err != nil {
		t.Errorf("NextAttempt(2) = %d, %v; want 3", n, err)
	}
	var v *referee.Violation
	if _, err := q.NextAttempt(3); !errors.As(err, &v) || v.Code != "attempts-used" {
		t.Errorf("NextAttempt(3) = %v, want attempts-used", err)
	}
	only := season.Qualification{Attempts: 3, Rank: 1, Events: []string{"b", "c"}}
	if l := only.Ledger(events, entrants); len(l) != 1 || l[0].Used != 2 {
		t.Errorf("counting b and c only: %+v, want person 1 with 2 attempts", l)
	}
}
