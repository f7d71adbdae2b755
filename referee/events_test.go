package referee_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

func TestDisqualified(t *testing.T) {
	four := referee.Game{Placings: []referee.Placing{{Player: "a", Place: 1, VP: 10}, {Player: "b", Place: 2, VP: 7}, {Player: "c", Place: 2, VP: 7}, {Player: "d", Place: 4, VP: 4}}}
	for _, tc := range []struct {
		name string
		dq   map[string]referee.DQEffect
		want referee.Game
		ok   bool
	}{
		{"nobody", nil, four, true},
		{"kept", map[string]referee.DQEffect{"a": referee.DQKeep}, four, true},
		{"another table's", map[string]referee.DQEffect{"x": referee.DQVoid}, four, true},
		{"the 1st removed: the shared 2nd share the 1st", map[string]referee.DQEffect{"a": referee.DQRemove},
			referee.Game{Placings: []referee.Placing{{Player: "b", Place: 1, VP: 7}, {Player: "c", Place: 1, VP: 7}, {Player: "d", Place: 3, VP: 4}}, Removed: 1}, true},
		{"a shared 2nd removed: the other keeps it", map[string]referee.DQEffect{"b": referee.DQRemove},
			referee.Game{Placings: []referee.Placing{{Player: "a", Place: 1, VP: 10}, {Player: "c", Place: 2, VP: 7}, {Player: "d", Place: 3, VP: 4}}, Removed: 1}, true},
		{"two removed", map[string]referee.DQEffect{"a": referee.DQRemove, "d": referee.DQRemove},
			referee.Game{Placings: []referee.Placing{{Player: "b", Place: 1, VP: 7}, {Player: "c", Place: 1, VP: 7}}, Removed: 2}, true},
		{"void", map[string]referee.DQEffect{"d": referee.DQVoid}, referee.Game{}, false},
		{"a void beside a removal", map[string]referee.DQEffect{"a": referee.DQRemove, "d": referee.DQVoid}, referee.Game{}, false},
	} {
		got, ok := referee.Disqualified(four, tc.dq)
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("%s: referee.Disqualified = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// A game a removal left with fewer than 3 players still counts, as a
// table of those left; the share is VP*n / (4*total) over them.
func TestStandingsCountAGameWithARemovedPlace(t *testing.T) {
	rs := rulesPreset()
	g, _ := referee.Disqualified(referee.Game{Placings: []referee.Placing{{Player: "a", Place: 1, VP: 9}, {Player: "b", Place: 2, VP: 6}, {Player: "c", Place: 3, VP: 3}}},
		map[string]referee.DQEffect{"a": referee.DQRemove})
	st, err := referee.Standings(rs, []referee.Game{g}, nil, []string{"b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Player != "b" || st[0].Firsts != 1 || st[0].Played != 1 || st[0].Share != 6.0*2/(4*9) {
		t.Errorf("standings = %+v, want b 1st with a share of 6*2/(4*9)", st)
	}
	if _, err := referee.Standings(rs, []referee.Game{{Placings: g.Placings}}, nil, []string{"b", "c"}); err == nil {
		t.Error("a game of 2 players without removed places was accepted")
	}
}

func TestCheckDQEffect(t *testing.T) {
	for _, e := range referee.DQEffects {
		if err := referee.CheckDQEffect(e); err != nil {
			t.Errorf("CheckDQEffect(%q) = %v", e, err)
		}
	}
	if err := referee.CheckDQEffect("erase"); err == nil {
		t.Error("CheckDQEffect(erase) = nil")
	}
}

func TestCheckUndoRound(t *testing.T) {
	for _, tc := range []struct {
		n, latest      int
		recorded, head bool
		reason         string
		code           string
	}{
		{2, 2, false, false, "", ""},
		{2, 2, false, true, "", ""},
		{2, 2, true, true, "組み合わせの誤り", ""},
		{2, 2, true, true, "", "undo-reason-missing"},
		{2, 2, true, false, "組み合わせの誤り", "undo-needs-head-judge"},
		{2, 2, true, false, "", "undo-needs-head-judge"},
		{1, 2, false, true, "x", "undo-not-latest"},
		{1, 0, false, false, "x", "undo-not-latest"},
	} {
		err := referee.CheckUndoRound(tc.n, tc.latest, tc.recorded, tc.head, tc.reason)
		var v *referee.Violation
		got := ""
		if errors.As(err, &v) {
			got = v.Code
		}
		if got != tc.code {
			t.Errorf("CheckUndoRound(%d, %d, %v, %v, %q) = %v, want %q", tc.n, tc.latest, tc.recorded, tc.head, tc.reason, err, tc.code)
		}
	}
}
