package game

import (
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

var tablePlayers = []string{"R", "B", "Y", "G"}

func times(n int, s []Step) []Step {
	var out []Step
	for range n {
		out = append(out, s...)
	}
	return out
}

func TestRebuildNotes(t *testing.T) {
	soldier := func(p string) []Step { return []Step{{Do: "soldier", Player: p}} }
	point := func(p string) []Step { return []Step{{Do: "point_card", Player: p}} }
	city := func(p, at string) []Step { return []Step{{Do: "city", Player: p, At: at}} }
	tests := []struct {
		name  string
		steps []Step
		notes []string // "code@step"
	}{
		{"§4: two settlements stand alone", steps(settle("R", "N(0,0)"), settle("R", "N(2,0)")), nil},
		{"§8 イ: the third needs a road", steps(settle("R", "N(0,0)"), settle("R", "N(2,0)"), settle("R", "S(-2,0)")),
			[]string{"settlement-unconnected@2"}},
		{"§8 イ: the third on the colour's road", steps(settle("R", "N(0,0)"), settle("R", "N(2,0)"), roads("R", "N(2,0)", "S(2,-1)", "N(1,1)"), settle("R", "N(1,1)")), nil},
		{"§4 ア, §8 イ: the distance rule", steps(settle("R", "N(0,0)"), settle("B", "S(1,-1)")), []string{"distance-rule@1"}},
		{"§8 ア: a road touches the colour's pieces", steps(settle("R", "N(0,0)"), roads("R", "N(2,0)", "S(2,-1)")), []string{"road-unconnected@1"}},
		{"§8 ア: not through an opponent's building",
			steps(settle("R", "N(0,0)"), roads("R", "N(0,0)", "S(1,-1)"), settle("B", "S(1,-1)"), roads("R", "S(1,-1)", "N(1,0)")),
			[]string{"distance-rule@2", "road-unconnected@3"}},
		{"§8 ウ: a city on the colour's settlement", steps(settle("R", "N(0,0)"), city("R", "N(0,0)")), nil},
		{"§8 ウ: a city replaces a settlement", steps(city("R", "N(0,0)")), []string{"city-not-on-settlement@0"}},
		{"§8: 15 roads", steps(roads("R", mid...), roads("R", low[:8]...)), []string{"road-unconnected@0", "road-unconnected@9", "over-pieces@15"}},
		{"§8: 5 settlements", steps(settle("R", "N(-2,0)"), settle("R", "N(-1,0)"), settle("R", "N(0,0)"), settle("R", "N(1,0)"),
			settle("R", "N(2,0)"), settle("R", "S(-1,1)")), []string{"settlement-unconnected@2", "settlement-unconnected@3",
			"settlement-unconnected@4", "settlement-unconnected@5", "over-pieces@5"}},
		{"§8: 4 cities", steps(city("R", "N(-2,0)"), city("R", "N(-1,0)"), city("R", "N(0,0)"), city("R", "N(1,0)"), city("R", "N(2,0)")),
			[]string{"city-not-on-settlement@0", "city-not-on-settlement@1", "city-not-on-settlement@2", "city-not-on-settlement@3",
				"city-not-on-settlement@4", "over-pieces@4"}},
		{"§1: 14 soldiers", steps(times(8, soldier("R")), times(7, soldier("B"))), []string{"cards-over@14"}},
		{"§1: 5 one-point cards", steps(times(3, point("R")), times(3, point("B"))), []string{"cards-over@5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			after, notes, err := Rebuild(preset(), tablePlayers, tc.steps)
			if err != nil {
				t.Fatal(err)
			}
			if len(after) != len(tc.steps) {
				t.Fatalf("%d standings for %d steps", len(after), len(tc.steps))
			}
			var got []string
			for _, n := range notes {
				got = append(got, n.Code+"@"+itoa(n.Index))
			}
			if !slices.Equal(got, tc.notes) {
				t.Errorf("notes = %v, want %v", got, tc.notes)
			}
		})
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// A position takes what the judge enters, however far past the game's
// cards: the counts stay true and keep their note (§1, §10 イ).
func TestRebuildCountsPastTheGame(t *testing.T) {
	after, notes, err := Rebuild(preset(), tablePlayers, times(130, []Step{{Do: "soldier", Player: "R"}}))
	if err != nil {
		t.Fatal(err)
	}
	last := after[len(after)-1]
	if last.Soldiers[0] != 130 || last.LargestArmy != 0 || len(notes) == 0 || notes[len(notes)-1].Index != 129 {
		t.Errorf("after 130 soldiers: %d soldiers, army held by %d, last note %v; want 130, R, a cards-over note at step 129",
			last.Soldiers[0], last.LargestArmy, notes[len(notes)-1])
	}
}

func TestRebuildRefuses(t *testing.T) {
	tests := []struct {
		name, code string
		step       int
		steps      []Step
	}{
		{"a corner off the land", "vertex-off-board", 0, settle("R", "N(9,9)")},
		{"a corner's name", "vertex-off-board", 0, settle("R", "north")},
		{"an edge's ends", "edge-not-adjacent", 0, []Step{{Do: "road", Player: "R", Edge: []string{"N(0,0)", "N(1,0)"}}}},
		{"an edge of two corners", "edge-ends", 0, []Step{{Do: "road", Player: "R", Edge: []string{"N(0,0)"}}}},
		{"a corner already taken", "corner-taken", 1, steps(settle("R", "N(0,0)"), settle("B", "N(0,0)"))},
		{"a city on an opponent's building", "corner-taken", 1, steps(settle("R", "N(0,0)"), []Step{{Do: "city", Player: "B", At: "N(0,0)"}})},
		{"a city on a city", "corner-taken", 1, []Step{{Do: "city", Player: "R", At: "N(0,0)"}, {Do: "city", Player: "R", At: "N(0,0)"}}},
		{"an edge already taken", "edge-taken", 1, steps(roads("R", "N(0,0)", "S(1,-1)"), roads("B", "S(1,-1)", "N(0,0)"))},
		{"a player not at the table", "unknown-player", 0, settle("Z", "N(0,0)")},
		{"an unknown step", "unknown-step", 0, []Step{{Do: "knight", Player: "R"}}},
		{"removing what is not there", "nothing-to-remove", 0, []Step{{Do: "remove", At: "N(0,0)"}}},
		{"removing a road that is not there", "nothing-to-remove", 0, []Step{{Do: "remove", Edge: []string{"N(0,0)", "S(1,-1)"}}}},
		{"removing a corner or an edge", "remove-one", 0, []Step{{Do: "remove", At: "N(0,0)", Edge: []string{"N(0,0)", "S(1,-1)"}}}},
		{"a settlement on an edge", "step-fields", 0, []Step{{Do: "settlement", Player: "R", Edge: []string{"N(0,0)", "S(1,-1)"}}}},
		{"the roads a position takes", "too-many-roads", 24, steps(roads("R", mid...), roads("R", low...), roads("R", "N(-3,1)", "S(-2,-1)", "N(-2,0)"),
			roads("R", "S(3,-1)", "N(2,1)"), roads("R", "S(0,-1)", "N(-1,1)"), roads("R", "S(1,-1)", "N(0,1)"), roads("R", "S(2,-1)", "N(1,1)"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Rebuild(preset(), tablePlayers, tc.steps)
			code, _, _ := codeOf(err)
			e, _ := err.(*Error)
			if code != tc.code || e == nil || e.Index != tc.step {
				t.Errorf("Rebuild = %v, want %s at step %d", err, tc.code, tc.step)
			}
		})
	}
	t.Run("too many steps", func(t *testing.T) {
		if _, _, err := Rebuild(preset(), tablePlayers, times(MaxSteps+1, []Step{{Do: "soldier", Player: "R"}})); err == nil {
			t.Error("Rebuild took more than MaxSteps steps")
		}
	})
	t.Run("§3 カ: 3 or 4 players", func(t *testing.T) {
		if code, _, _ := codeOf(func() error { _, _, err := Rebuild(preset(), []string{"R", "B"}, nil); return err }()); code != "table-size" {
			t.Errorf("two players = %q, want table-size", code)
		}
	})
}

func TestRebuildAwards(t *testing.T) {
	soldiers := func(p string, n int) []Step { return times(n, []Step{{Do: "soldier", Player: p}}) }
	tests := []struct {
		name          string
		keeps         bool
		steps         []Step
		longest, army string
		vp            []int
	}{
		{"§10 イ: 3 soldiers take the largest army", false, soldiers("R", 3), "", "R", []int{2, 0, 0, 0}},
		{"§10 イ: an equal army does not take it", false, steps(soldiers("R", 3), soldiers("B", 3)), "", "R", []int{2, 0, 0, 0}},
		{"§10 イ: a larger army takes it", false, steps(soldiers("R", 3), soldiers("B", 4)), "", "B", []int{0, 2, 0, 0}},
		{"§10 ア ウ: removing the holder's road returns the card to the single longest", false,
			steps(roads("B", low[:6]...), roads("R", mid[:7]...), []Step{{Do: "remove", Edge: []string{mid[0], mid[1]}}, {Do: "remove", Edge: []string{mid[5], mid[6]}}}),
			"B", "", []int{0, 2, 0, 0}},
		{"§10 ア: removing the holder's road to a tie returns it to the bank", false,
			steps(roads("B", low[:6]...), roads("R", mid[:7]...), []Step{{Do: "remove", Edge: []string{mid[0], mid[1]}}}),
			"", "", []int{0, 0, 0, 0}},
		{"§10 ア: removing a building joins a road again", false,
			steps(roads("B", low[:6]...), roads("R", mid[:7]...), settle("Y", mid[3]), []Step{{Do: "remove", At: mid[3]}}),
			"R", "", []int{2, 0, 0, 0}},
		{"§11: VP of settlements, cities, 2-point cards and one-point cards", false,
			steps(settle("R", mid[0]), roads("R", mid[:6]...), settle("R", mid[5]), []Step{{Do: "city", Player: "R", At: mid[5]}},
				soldiers("B", 3), []Step{{Do: "point_card", Player: "Y"}}),
			"R", "B", []int{5, 2, 1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs := preset()
			if tc.keeps {
				rs.LongestRoadTie = referee.LongestRoadHolderKeeps
			}
			after, _, err := Rebuild(rs, tablePlayers, tc.steps)
			if err != nil {
				t.Fatal(err)
			}
			last := after[len(after)-1]
			name := func(i int) string {
				if i < 0 {
					return ""
				}
				return tablePlayers[i]
			}
			if name(last.LongestRoad) != tc.longest || name(last.LargestArmy) != tc.army || !slices.Equal(last.VP, tc.vp) {
				t.Errorf("after the steps: longest road %q, largest army %q, VP %v; want %q, %q, %v",
					name(last.LongestRoad), name(last.LargestArmy), last.VP, tc.longest, tc.army, tc.vp)
			}
		})
	}
}
