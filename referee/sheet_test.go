package referee_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

func TestBreakdownVP(t *testing.T) {
	rs := rulesPreset()
	tests := []struct {
		name     string
		b        referee.Breakdown
		vp, kept int
	}{
		{"§11: settlement 1", referee.Breakdown{Settlements: 2}, 2, 2},
		{"§11: city 2", referee.Breakdown{Settlements: 1, Cities: 3}, 7, 7},
		{"§11: each 2-point card 2", referee.Breakdown{Settlements: 2, LongestRoad: true, LargestArmy: true}, 6, 6},
		{"§11: each one-point card 1", referee.Breakdown{Settlements: 2, PointCards: 3}, 5, 5},
		{"§11: recorded capped at 10", referee.Breakdown{Settlements: 3, Cities: 4, LongestRoad: true, PointCards: 1}, 14, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, kept := tc.b.VP(), tc.b.Recorded(rs); got != tc.vp || kept != tc.kept {
				t.Errorf("%+v: VP() = %d, Recorded() = %d; want %d, %d", tc.b, got, kept, tc.vp, tc.kept)
			}
		})
	}
}

// line is a sheet line with a breakdown, and the VP written when vp >= 0.
func line(player string, vp, settlements, cities int, lr, la bool, points int) referee.SheetLine {
	l := referee.SheetLine{Player: player, Breakdown: &referee.Breakdown{Settlements: settlements, Cities: cities, LongestRoad: lr, LargestArmy: la, PointCards: points}}
	if vp >= 0 {
		l.VP = &vp
	}
	return l
}

// bare is a sheet line with only the VP written.
func bare(player string, vp int) referee.SheetLine { return referee.SheetLine{Player: player, VP: &vp} }

// said renders a violation as code, whom and field: "code:a,b:field".
func said(v *referee.Violation) string {
	who, _ := v.Args["Player"].(string)
	if g, ok := v.Args["Group"].([]string); ok {
		who = strings.Join(g, ",")
	}
	return fmt.Sprintf("%s:%s:%s", v.Code, who, v.Args["Field"])
}

func TestCheckSheet(t *testing.T) {
	const no, yes = false, true
	ok := []referee.SheetLine{line("a", 10, 2, 2, yes, no, 2), line("b", 8, 2, 2, no, yes, 0), line("c", -1, 4, 0, no, no, 1), line("d", 3, 3, 0, no, no, 0)}
	tests := []struct {
		name     string
		lines    []referee.SheetLine
		declared string
		vp       []int
		want     []string
	}{
		{"§11: breakdowns that add up", ok, "a", []int{10, 8, 5, 3}, nil},
		{"§11: a VP written that disagrees with its breakdown", []referee.SheetLine{line("a", 9, 2, 2, no, no, 0), ok[1], ok[2], ok[3]}, "",
			[]int{6, 8, 5, 3}, []string{"sheet-vp-mismatch:a:vp"}},
		{"§11: the VP written may be the breakdown's before or after the cap", []referee.SheetLine{line("a", 10, 3, 3, yes, no, 2), line("b", 11, 3, 3, no, yes, 0), ok[2], ok[3]}, "a",
			[]int{13, 11, 5, 3}, nil},
		{"§11: but nothing in between", []referee.SheetLine{line("a", 11, 3, 3, yes, no, 2), ok[1], ok[2], ok[3]}, "",
			[]int{13, 8, 5, 3}, []string{"sheet-vp-mismatch:a:vp"}},
		{"§8: 5 settlements", []referee.SheetLine{line("a", -1, 6, 0, no, no, 0), ok[1], ok[2], ok[3]}, "",
			[]int{6, 8, 5, 3}, []string{"sheet-over-settlements:a:settlements"}},
		{"§8: 4 cities", []referee.SheetLine{line("a", -1, 0, 5, no, no, 0), ok[1], ok[2], ok[3]}, "",
			[]int{10, 8, 5, 3}, []string{"sheet-over-cities:a:cities"}},
		{"no negative counts", []referee.SheetLine{line("a", -1, -1, 2, no, no, -2), ok[1], ok[2], ok[3]}, "",
			[]int{1, 8, 5, 3}, []string{"sheet-count-negative:a:settlements", "sheet-count-negative:a:point_cards"}},
		{"§10 ア: one longest road", []referee.SheetLine{ok[0], line("b", -1, 2, 2, yes, yes, 0), ok[2], line("d", -1, 3, 0, yes, no, 0)}, "a",
			[]int{10, 10, 5, 5}, []string{"sheet-longest-road-twice:a,b,d:longest_road"}},
		{"§10 イ: one largest army", []referee.SheetLine{ok[0], ok[1], line("c", -1, 4, 0, no, yes, 1), ok[3]}, "a",
			[]int{10, 8, 7, 3}, []string{"sheet-largest-army-twice:b,c:largest_army"}},
		{"§9 オ: five one-point cards", []referee.SheetLine{ok[0], ok[1], line("c", -1, 4, 0, no, no, 3), line("d", -1, 3, 0, no, no, 1)}, "a",
			[]int{10, 8, 7, 4}, []string{"sheet-point-cards-over:a,c,d:point_cards"}},
		{"§11: a declared winner with 10 by the breakdown", ok, "b", []int{10, 8, 5, 3}, []string{"winner-under-win-vp:b:declared"}},
		{"§11: a line with neither VP nor breakdown", []referee.SheetLine{ok[0], ok[1], ok[2], {Player: "d"}}, "",
			[]int{10, 8, 5, 0}, []string{"sheet-line-empty:d:vp"}},
		{"everything at once, line by line, then the table", []referee.SheetLine{line("a", 9, 6, 0, yes, no, 3), line("b", -1, 2, 5, yes, no, 3), ok[2], ok[3]}, "b",
			[]int{11, 17, 5, 3}, []string{"sheet-over-settlements:a:settlements", "sheet-vp-mismatch:a:vp", "sheet-over-cities:b:cities",
				"sheet-longest-road-twice:a,b:longest_road", "sheet-point-cards-over:a,b,c:point_cards"}},
		// A mixed sheet: the lines with only a VP are bounded by the cards
		// the breakdowns leave (docs/rules.md §12).
		{"§12: a bare VP within the cards the breakdowns leave", []referee.SheetLine{ok[0], ok[1], bare("c", 15), bare("d", 13)}, "a",
			[]int{10, 8, 15, 13}, nil},
		{"§12: a bare VP beyond them", []referee.SheetLine{ok[0], ok[1], bare("c", 16), bare("d", 14)}, "a",
			[]int{10, 8, 16, 14}, []string{"sheet-table-vp-impossible:c,d:vp"}},
		{"§12: every card claimed, no bare VP above the buildings'", []referee.SheetLine{line("a", -1, 2, 2, yes, yes, 5), ok[3], bare("c", 14), bare("d", 13)}, "",
			[]int{15, 3, 14, 13}, []string{"sheet-table-vp-impossible:c:vp"}},
		{"§11: a bare VP's declaration is Place's to check", []referee.SheetLine{ok[0], ok[1], bare("c", 9), ok[3]}, "c",
			[]int{10, 8, 9, 3}, nil},
		{"a sheet without breakdowns is Place's to check", []referee.SheetLine{bare("a", 22), bare("b", 22), bare("c", 22)}, "",
			[]int{22, 22, 22}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			scores, bad := referee.CheckSheet(rulesPreset(), tc.lines, tc.declared)
			var vp []int
			for i, s := range scores {
				if s.Player != tc.lines[i].Player {
					t.Errorf("score %d is %q's, want %q's", i, s.Player, tc.lines[i].Player)
				}
				vp = append(vp, s.VP)
			}
			var got []string
			for _, v := range bad {
				got = append(got, said(v))
			}
			if !slices.Equal(vp, tc.vp) || !slices.Equal(got, tc.want) {
				t.Errorf("CheckSheet = %v, %v; want %v, %v", vp, got, tc.vp, tc.want)
			}
		})
	}
}

// The values each violation names, for its message.
func TestCheckSheetArgs(t *testing.T) {
	ok := func(p string) referee.SheetLine { return line(p, -1, 2, 0, false, false, 0) }
	tests := []struct {
		name  string
		lines []referee.SheetLine
		want  map[string]any
	}{
		{"sheet-vp-mismatch", []referee.SheetLine{line("a", 9, 2, 2, false, false, 0), ok("b"), ok("c")},
			map[string]any{"Player": "a", "VP": 9, "Counted": 6, "Field": "vp"}},
		{"sheet-over-settlements", []referee.SheetLine{line("a", -1, 6, 0, false, false, 0), ok("b"), ok("c")},
			map[string]any{"Player": "a", "Count": 6, "Max": 5, "Field": "settlements"}},
		{"sheet-point-cards-over", []referee.SheetLine{line("a", -1, 2, 0, false, false, 4), line("b", -1, 2, 0, false, false, 2), ok("c")},
			map[string]any{"Group": []string{"a", "b"}, "Count": 6, "Max": 5, "Field": "point_cards"}},
		{"sheet-table-vp-impossible", []referee.SheetLine{line("a", -1, 2, 0, true, false, 0), bare("b", 20), bare("c", 15)},
			map[string]any{"Group": []string{"b", "c"}, "Extra": 9, "Buildings": 13, "Max": 7, "Field": "vp"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, bad := referee.CheckSheet(rulesPreset(), tc.lines, "")
			if len(bad) != 1 || bad[0].Code != tc.name {
				t.Fatalf("CheckSheet = %v, want one %s", bad, tc.name)
			}
			if diff := cmp.Diff(tc.want, bad[0].Args); diff != "" {
				t.Errorf("%s names (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}

// randomSheet returns the lines of a table that could have happened: the
// pieces within 5 and 4, each 2-point card held at most once, at most 5
// one-point cards; some lines with the VP written, some capped.
func randomSheet(rng *rand.Rand, rs referee.Ruleset) []referee.SheetLine {
	n := 3 + rng.IntN(2)
	lines := make([]referee.SheetLine, n)
	points := rng.IntN(6)
	lr, la := rng.IntN(n+1)-1, rng.IntN(n+1)-1
	for i := range lines {
		b := &referee.Breakdown{Settlements: rng.IntN(6), Cities: rng.IntN(5), LongestRoad: i == lr, LargestArmy: i == la}
		if i == n-1 {
			b.PointCards = points
		} else {
			b.PointCards = rng.IntN(points + 1)
			points -= b.PointCards
		}
		lines[i] = referee.SheetLine{Player: fmt.Sprint("p", i), Breakdown: b}
		switch rng.IntN(3) {
		case 1:
			vp := b.VP()
			lines[i].VP = &vp
		case 2:
			vp := b.Recorded(rs)
			lines[i].VP = &vp
		}
	}
	return lines
}

// Sheets of tables that could have happened pass, with each player's VP
// the breakdown's, and Place accepts them; changing one thing the rules
// count breaks the rule that counts it (§8, §9 オ, §10, §11).
func TestCheckSheetRandomTables(t *testing.T) {
	rs := rulesPreset()
	rng := rand.New(rand.NewPCG(15, 3))
	for i := range 500 {
		lines := randomSheet(rng, rs)
		scores, bad := referee.CheckSheet(rs, lines, "")
		if len(bad) > 0 {
			t.Fatalf("table %d %+v: %v", i, lines, bad)
		}
		for j, s := range scores {
			if s.VP != lines[j].Breakdown.VP() {
				t.Fatalf("table %d: %s counts %d VP, the breakdown gives %d", i, s.Player, s.VP, lines[j].Breakdown.VP())
			}
		}
		if _, err := referee.Place(rs, scores, ""); err != nil {
			t.Fatalf("table %d: Place refuses what CheckSheet accepts: %v", i, err)
		}
		k := rng.IntN(len(lines))
		b := *lines[k].Breakdown
		broken := slices.Clone(lines)
		broken[k].Breakdown = &b
		var want string
		switch rng.IntN(5) {
		case 0:
			b.Settlements = 6
			want = "sheet-over-settlements"
		case 1:
			b.Cities = 5
			want = "sheet-over-cities"
		case 2:
			b.PointCards += 6
			want = "sheet-point-cards-over"
		case 3:
			holder := slices.IndexFunc(lines, func(l referee.SheetLine) bool { return l.Breakdown.LongestRoad })
			if holder < 0 || holder == k {
				continue
			}
			b.LongestRoad = true
			want = "sheet-longest-road-twice"
		case 4:
			vp := lines[k].Breakdown.VP() + 1
			broken[k].VP = &vp
			want = "sheet-vp-mismatch"
		}
		_, bad = referee.CheckSheet(rs, broken, "")
		if !slices.ContainsFunc(bad, func(v *referee.Violation) bool { return v.Code == want }) {
			t.Fatalf("table %d with %s's line changed to %+v: %v, want %s", i, broken[k].Player, b, bad, want)
		}
	}
}

// FuzzCheckSheet reads a sheet's lines from the fuzzer's numbers: whatever
// they are, CheckSheet does not panic; each violation names a field and
// players at the table; and a sheet it accepts keeps the table's limits.
func FuzzCheckSheet(f *testing.F) {
	f.Add(uint64(1), []byte{2, 2, 1, 0, 2, 10, 2, 2, 0, 1, 0, 8, 4, 0, 0, 0, 1, 255})
	f.Add(uint64(2), []byte{9, 9, 3, 3, 9, 9, 0, 0, 0, 0, 0, 0})
	rs := rulesPreset()
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		n := 3 + int(seed%2)
		lines := make([]referee.SheetLine, n)
		at := func(i int) int {
			if len(data) == 0 {
				return 0
			}
			return int(int8(data[i%len(data)]))
		}
		for i := range lines {
			o := 6 * i
			lines[i].Player = fmt.Sprint("p", i)
			if at(o)%3 != 0 {
				lines[i].Breakdown = &referee.Breakdown{Settlements: at(o + 1), Cities: at(o + 2), LongestRoad: at(o+3)&1 != 0, LargestArmy: at(o+3)&2 != 0, PointCards: at(o + 4)}
			}
			if at(o)%3 != 1 {
				vp := at(o + 5)
				lines[i].VP = &vp
			}
		}
		scores, bad := referee.CheckSheet(rs, lines, fmt.Sprint("p", seed%4))
		if len(scores) != n {
			t.Fatalf("%d scores for %d lines", len(scores), n)
		}
		for _, v := range bad {
			field, _ := v.Args["Field"].(string)
			who := []string{}
			if p, ok := v.Args["Player"].(string); ok {
				who = append(who, p)
			}
			if g, ok := v.Args["Group"].([]string); ok {
				who = append(who, g...)
			}
			if field == "" || len(who) == 0 {
				t.Fatalf("%s names field %q and players %v", v.Code, field, who)
			}
			for _, p := range who {
				if !slices.ContainsFunc(lines, func(l referee.SheetLine) bool { return l.Player == p }) {
					t.Fatalf("%s names %s, not at the table", v.Code, p)
				}
			}
		}
		if len(bad) > 0 {
			return
		}
		lr, la, points := 0, 0, 0
		for i, l := range lines {
			b := l.Breakdown
			if b == nil {
				continue
			}
			if b.Settlements < 0 || b.Settlements > 5 || b.Cities < 0 || b.Cities > 4 || b.PointCards < 0 || scores[i].VP != b.VP() {
				t.Fatalf("accepted %+v counted %d", *b, scores[i].VP)
			}
			if b.LongestRoad {
				lr++
			}
			if b.LargestArmy {
				la++
			}
			points += b.PointCards
		}
		if lr > 1 || la > 1 || points > 5 {
			t.Fatalf("accepted %d longest roads, %d largest armies, %d one-point cards", lr, la, points)
		}
		// docs/rules.md §12 is one rule: Place, which sees only the VP, never
		// finds a table impossible that CheckSheet, with breakdowns, let
		// pass (a sheet without any is Place's alone).
		var v *referee.Violation
		_, err := referee.Place(rs, scores, "")
		if slices.ContainsFunc(lines, func(l referee.SheetLine) bool { return l.Breakdown != nil }) &&
			errors.As(err, &v) && v.Code == "table-vp-impossible" {
			t.Fatalf("CheckSheet accepts %v, Place refuses it: %v", scores, err)
		}
	})
}

func TestCheckSheetRequiresBreakdown(t *testing.T) {
	rs := rulesPreset()
	rs.RequireBreakdown = true
	ok := func(p string) referee.SheetLine { return line(p, -1, 2, 0, false, false, 0) }
	tests := []struct {
		name  string
		lines []referee.SheetLine
		want  []string
	}{
		{"every line with a breakdown", []referee.SheetLine{ok("a"), ok("b"), ok("c")}, nil},
		{"a bare VP is refused", []referee.SheetLine{ok("a"), bare("b", 2), ok("c")}, []string{"sheet-breakdown-required:b:settlements"}},
		{"an empty line is said once", []referee.SheetLine{ok("a"), ok("b"), {Player: "c"}}, []string{"sheet-breakdown-required:c:settlements"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, bad := referee.CheckSheet(rs, tc.lines, "")
			var got []string
			for _, v := range bad {
				got = append(got, said(v))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
	// Without the setting a bare VP stands.
	if _, bad := referee.CheckSheet(rulesPreset(), []referee.SheetLine{ok("a"), bare("b", 2), ok("c")}, ""); len(bad) != 0 {
		t.Errorf("without require_breakdown: %v", bad)
	}
}
