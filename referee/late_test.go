package referee_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

func TestSeatLate(t *testing.T) {
	const none = referee.LateNone
	for _, tc := range []struct {
		name    string
		sizes   []int
		late    int
		join    referee.LateJoin
		started bool
		want    []int
	}{
		{"fill: a table of 3 becomes 4", []int{4, 3, 3}, 1, referee.LateFill, false, []int{1}},
		{"fill: two tables of 3, two late", []int{4, 3, 3}, 2, referee.LateFill, false, []int{1, 2}},
		{"fill: no table of 3, one late waits", []int{4, 4}, 1, referee.LateFill, false, []int{none}},
		{"fill: the tables of 3 first, then a new table", []int{4, 3}, 4, referee.LateFill, false, []int{1, 2, 2, 2}},
		{"fill: two left over wait", []int{4, 3}, 3, referee.LateFill, false, []int{1, none, none}},
		{"new table of 3", []int{4, 3, 3}, 3, referee.LateNewTable, false, []int{3, 3, 3}},
		{"new table of 4", []int{4, 3}, 4, referee.LateNewTable, false, []int{2, 2, 2, 2}},
		{"new table: five are a table of 4 and one fills", []int{4, 3}, 5, referee.LateNewTable, false, []int{2, 2, 2, 2, 1}},
		{"new table: one late fills a table of 3", []int{4, 3}, 1, referee.LateNewTable, false, []int{1}},
		{"new tables of 4 and 3", []int{4}, 7, referee.LateNewTable, false, []int{1, 1, 1, 1, 2, 2, 2}},
		{"next round", []int{3}, 1, referee.LateNextRound, false, []int{none}},
		{"a started round seats nobody", []int{3, 3}, 2, referee.LateFill, true, []int{none, none}},
	} {
		if got := referee.SeatLate(tc.sizes, tc.late, tc.join, tc.started); !slices.Equal(got, tc.want) {
			t.Errorf("%s: SeatLate(%v, %d, %s, %v) = %v, want %v", tc.name, tc.sizes, tc.late, tc.join, tc.started, got, tc.want)
		}
	}
}

// A missed round counted as a last place, a substitute's game counted for
// nobody or at a fixed value: the standings of one table of 4.
func TestMissedAndSubstituteStandings(t *testing.T) {
	rs := rulesPreset()
	rs.PlacementPoints = []int{4, 3, 2, 1}
	table := referee.Game{Placings: []referee.Placing{
		{Player: "sub", VP: 10, Place: 1}, {Player: "a", VP: 8, Place: 2}, {Player: "b", VP: 6, Place: 3}, {Player: "c", VP: 4, Place: 4}}}
	missed, ok := referee.MissedGame("late", referee.MissedLastPlace)
	if !ok {
		t.Fatal("MissedGame(last-place) = false")
	}
	if _, ok := referee.MissedGame("late", referee.MissedNotPlayed); ok {
		t.Error("MissedGame(not-played) = true, want no game")
	}
	players := []string{"a", "b", "c", "late", "sub"}

	g, fixed := referee.SubstituteGame(table, map[string]bool{"sub": true}, referee.Substitutes{Count: referee.SubstituteNobody, Place: 4})
	if len(fixed) != 0 {
		t.Errorf("nobody: extra games %v, want none", fixed)
	}
	st, err := referee.Standings(rs, append([]referee.Game{g, missed}, fixed...), nil, players)
	if err != nil {
		t.Fatal(err)
	}
	line := map[string]referee.Standing{}
	for _, s := range st {
		line[s.Player] = s
	}
	if s := line["sub"]; s.Played != 0 || s.VP != 0 {
		t.Errorf("nobody: the substitute's line = %+v, want no game", s)
	}
	if s := line["a"]; s.Played != 1 || s.Points != 3 || s.Firsts != 0 {
		t.Errorf("nobody: a = %+v, want 2nd as played", s)
	}
	if s := line["late"]; s.Played != 1 || s.Points != 1 || s.VP != 0 || s.Share != 0 {
		t.Errorf("missed round as last place = %+v, want a game played, 1 point, 0 VP, no share", s)
	}

	g, fixed = referee.SubstituteGame(table, map[string]bool{"sub": true}, referee.Substitutes{Count: referee.SubstituteFixed, Place: 4, VP: 2})
	st, err = referee.Standings(rs, append([]referee.Game{g}, fixed...), nil, players)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		line[s.Player] = s
	}
	if s := line["sub"]; s.Played != 1 || s.VP != 2 || s.Points != 1 || s.Firsts != 0 {
		t.Errorf("fixed: the substitute's line = %+v, want one game at 4th with 2 VP", s)
	}
	if s := line["a"]; s.Points != 3 {
		t.Errorf("fixed: a = %+v, want 2nd as played", s)
	}

	bad := referee.Game{Placings: []referee.Placing{{Player: "x", Place: 5}}, Credited: true}
	var v *referee.Violation
	if _, err := referee.Standings(rs, []referee.Game{bad}, nil, []string{"x"}); !errors.As(err, &v) || v.Code != "place-out-of-range" {
		t.Errorf("a credited 5th = %v, want place-out-of-range", err)
	}
}

func TestLateRulesetSettings(t *testing.T) {
	rs := rulesPreset()
	d := rs.WithDefaults()
	if d.LateEntry.Join != referee.LateFill || d.LateEntry.Missed != referee.MissedNotPlayed || d.Substitutes.Count != referee.SubstituteNobody ||
		d.Substitutes.Place != 4 || d.NoShow != referee.MissedNotPlayed {
		t.Errorf("defaults = %+v %+v %q", d.LateEntry, d.Substitutes, d.NoShow)
	}
	for field, set := range map[string]func(*referee.Ruleset){
		"late_entry.join":   func(r *referee.Ruleset) { r.LateEntry.Join = "wait" },
		"late_entry.missed": func(r *referee.Ruleset) { r.LateEntry.Missed = "loss" },
		"substitutes.count": func(r *referee.Ruleset) { r.Substitutes.Count = "half" },
		"substitutes.place": func(r *referee.Ruleset) { r.Substitutes.Place = 5 },
		"substitutes.vp":    func(r *referee.Ruleset) { r.Substitutes.VP = 11 },
		"no_show":           func(r *referee.Ruleset) { r.NoShow = "void" },
	} {
		r := rs
		set(&r)
		var fe *referee.FieldError
		if err := r.Validate(); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("Validate with a bad %s = %v", field, err)
		}
	}
}
