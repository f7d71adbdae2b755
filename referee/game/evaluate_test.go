package game

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// why is a reason as the tests expect it: code, section, step and values.
type why struct {
	Code, Section string
	Step          int
	Args          map[string]any
}

func whyOf(e *Error) why {
	if e == nil {
		return why{}
	}
	return why{e.Code, e.Section, e.Index, e.Args}
}

// The judge's ruling of issue 15, step by step: B's road takes the card,
// R's longer one takes it over, Y's settlement cuts R's road to a tie with
// B and the card returns to the bank (§10 ア); it stays there through a
// step that changes nothing, until B's road is the single longest again.
func TestEvaluateRuling(t *testing.T) {
	all := steps(roads("B", low[:6]...), roads("R", mid[:8]...), roads("Y", "N(0,1)", "S(1,-1)"), settle("Y", "S(1,-1)"),
		[]Step{{Do: "soldier", Player: "G"}}, roads("B", low[5:7]...))
	cutAt := 13 // the settlement on S(1,-1)
	tests := []struct {
		name   string
		upTo   int // the steps taken
		holder int
		why    why
		trails map[string][]string // the corners of each player's trail
	}{
		{"§10 ア: B's 5 roads take the card", 5, blue, why{"longest-road-took", "§10 ア", 4, map[string]any{"Player": "B", "Length": 5}},
			map[string][]string{"B": low[:6]}},
		{"§10 ア: R's 7 roads take it over", 12, red,
			why{"longest-road-took-over", "§10 ア", 10, map[string]any{"Player": "R", "Length": 6, "Group": []string{"B"}, "Was": 5}},
			map[string][]string{"B": low[:6], "R": mid[:8]}},
		{"§10 ア: Y's settlement cuts R's road to a tie: the card returns to the bank", cutAt + 1, -1,
			why{"longest-road-cut-tie", "§10 ア", cutAt, map[string]any{"Player": "R", "Group": []string{"R", "B"}, "Length": 5}},
			// R's trail runs up to Y's settlement and stops there.
			map[string][]string{"B": low[:6], "R": mid[:6], "Y": {"N(0,1)", "S(1,-1)"}}},
		{"§10 ア: a step that moves nothing leaves the reason", cutAt + 2, -1,
			why{"longest-road-cut-tie", "§10 ア", cutAt, map[string]any{"Player": "R", "Group": []string{"R", "B"}, "Length": 5}}, nil},
		{"§10 ア: from the bank, the single longest road takes it", len(all), blue,
			why{"longest-road-took", "§10 ア", len(all) - 1, map[string]any{"Player": "B", "Length": 6}},
			map[string][]string{"B": low[:7], "R": mid[:6]}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := Evaluate(preset(), tablePlayers, all[:tc.upTo])
			if err != nil {
				t.Fatal(err)
			}
			if ev.LongestRoad.Holder != tc.holder {
				t.Errorf("longest road held by %d, want %d", ev.LongestRoad.Holder, tc.holder)
			}
			if diff := cmp.Diff(tc.why, whyOf(ev.LongestRoad.Why)); diff != "" {
				t.Errorf("why (-want +got):\n%s", diff)
			}
			for name, corners := range tc.trails {
				p := slices.Index(tablePlayers, name)
				if got := trailCorners(ev.Players[p].Trail); !sameWay(got, corners) {
					t.Errorf("%s's trail passes %v, want %v (either way)", name, got, corners)
				}
				if ev.Players[p].Road != len(corners)-1 {
					t.Errorf("%s's longest road = %d, want %d", name, ev.Players[p].Road, len(corners)-1)
				}
			}
		})
	}
}

func trailCorners(tr Trail) []string {
	var out []string
	for _, v := range tr.Corners {
		out = append(out, v.String())
	}
	return out
}

// sameWay reports whether a and b are the same trail, read either way.
func sameWay(a, b []string) bool {
	back := slices.Clone(b)
	slices.Reverse(back)
	return slices.Equal(a, b) || slices.Equal(a, back)
}

// The reasons the position as it stands gives, and the values of each.
func TestEvaluateReasons(t *testing.T) {
	soldiers := func(p string, n int) []Step { return times(n, []Step{{Do: "soldier", Player: p}}) }
	cutTie := steps(roads("B", low[:6]...), roads("R", mid[:8]...), roads("Y", "N(0,1)", "S(1,-1)"), settle("Y", "S(1,-1)"))
	tests := []struct {
		name          string
		keeps         bool
		steps         []Step
		longest, army why
	}{
		{"§10 ア イ: an empty table", false, nil,
			why{"longest-road-none", "§10 ア", -1, map[string]any{"Need": 5, "Length": 0}},
			why{"largest-army-none", "§10 イ", -1, map[string]any{"Need": 3, "Soldiers": 0}}},
		{"§10 ア: an equal length does not take the card", false, steps(roads("R", mid[:6]...), roads("B", low[:6]...), roads("Y", "S(0,-2)", "N(0,-1)", "S(1,-2)", "N(1,-1)", "S(2,-2)", "N(2,-1)")),
			why{"longest-road-equal-kept", "§10 ア", -1, map[string]any{"Player": "R", "Group": []string{"B", "Y"}, "Length": 5}},
			why{"largest-army-none", "§10 イ", -1, map[string]any{"Need": 3, "Soldiers": 0}}},
		{"§10 ア: a third road joining the tie in the bank", false, steps(cutTie, roads("G", "S(0,-2)", "N(0,-1)", "S(1,-2)", "N(1,-1)", "S(2,-2)", "N(2,-1)")),
			why{"longest-road-bank-tie", "§10 ア", -1, map[string]any{"Group": []string{"R", "B", "G"}, "Length": 5}},
			why{"largest-army-none", "§10 イ", -1, map[string]any{"Need": 3, "Soldiers": 0}}},
		{"§10 ア, holder-keeps: the tied holder keeps it", true, cutTie,
			why{"longest-road-cut-tie-kept", "§10 ア", 13, map[string]any{"Player": "R", "Group": []string{"B"}, "Length": 5}},
			why{"largest-army-none", "§10 イ", -1, map[string]any{"Need": 3, "Soldiers": 0}}},
		{"§10 ア, holder-keeps: a third road joining the tie", true, steps(cutTie, roads("G", "S(0,-2)", "N(0,-1)", "S(1,-2)", "N(1,-1)", "S(2,-2)", "N(2,-1)")),
			why{"longest-road-equal-kept", "§10 ア", -1, map[string]any{"Player": "R", "Group": []string{"B", "G"}, "Length": 5}},
			why{"largest-army-none", "§10 イ", -1, map[string]any{"Need": 3, "Soldiers": 0}}},
		{"§10 ア: a cut below 5, and a road added since", false, steps(roads("R", mid[:6]...), roads("Y", "N(-1,1)", "S(0,-1)"), settle("Y", "S(0,-1)"), roads("B", low[:4]...), soldiers("G", 2)),
			why{"longest-road-cut-short", "§10 ア", 6, map[string]any{"Player": "R", "Need": 5, "Length": 3}},
			why{"largest-army-none", "§10 イ", -1, map[string]any{"Need": 3, "Soldiers": 2}}},
		{"§10 イ: 3 soldiers take the largest army", false, steps(soldiers("B", 2), soldiers("R", 3)),
			why{"longest-road-none", "§10 ア", -1, map[string]any{"Need": 5, "Length": 0}},
			why{"largest-army-took", "§10 イ", 4, map[string]any{"Player": "R", "Soldiers": 3}}},
		{"§10 イ: an equal army does not take it", false, steps(soldiers("R", 3), soldiers("B", 3)),
			why{"longest-road-none", "§10 ア", -1, map[string]any{"Need": 5, "Length": 0}},
			why{"largest-army-equal-kept", "§10 イ", -1, map[string]any{"Player": "R", "Group": []string{"B"}, "Soldiers": 3}}},
		{"§10 イ: a strictly larger army takes it", false, steps(soldiers("R", 3), soldiers("B", 4), soldiers("G", 1)),
			why{"longest-road-none", "§10 ア", -1, map[string]any{"Need": 5, "Length": 0}},
			why{"largest-army-took-over", "§10 イ", 6, map[string]any{"Player": "B", "Soldiers": 4, "Group": []string{"R"}, "Was": 3}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs := preset()
			if tc.keeps {
				rs.LongestRoadTie = referee.LongestRoadHolderKeeps
			}
			ev, err := Evaluate(rs, tablePlayers, tc.steps)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.longest, whyOf(ev.LongestRoad.Why)); diff != "" {
				t.Errorf("longest road's why (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.army, whyOf(ev.LargestArmy.Why)); diff != "" {
				t.Errorf("largest army's why (-want +got):\n%s", diff)
			}
		})
	}
}

// longestDecision names the rule of each branch of §10 ア, ウ, the one no
// rebuilt position reaches included: a holder overtaken by two roads at once.
func TestLongestDecision(t *testing.T) {
	tests := []struct {
		name      string
		holder    int8
		lengths   []int8
		cut, keep bool
		want      int8
		rule      roadDecision
	}{
		{"§10 ア: below 5 nothing moves", -1, []int8{4, 3, 0}, false, false, -1, roadStays},
		{"§10 ア: the first 5 takes it", -1, []int8{5, 3, 0}, false, false, 0, roadTook},
		{"§10 ア: from the bank a tie takes nothing", -1, []int8{5, 5, 0}, false, false, -1, roadStays},
		{"§10 ア: equal does not take it", 0, []int8{5, 5, 0}, false, false, 0, roadStays},
		{"§10 ア: strictly longer takes it", 0, []int8{5, 6, 0}, false, false, 1, roadTookOver},
		{"§10 ウ: overtaken by a tie, back to the bank", 0, []int8{5, 7, 7}, false, false, -1, roadLost},
		{"§10 ア: cut to the single longest", 0, []int8{4, 6, 0}, true, false, 1, roadCutTo},
		{"§10 ア: cut, still the single longest", 0, []int8{7, 6, 0}, true, false, 0, roadCutKept},
		{"§10 ア: cut to a tie", 0, []int8{6, 6, 0}, true, false, -1, roadCutTie},
		{"§10 ア, holder-keeps: cut to a tie", 0, []int8{6, 6, 0}, true, true, 0, roadCutTieKept},
		{"§10 ア, holder-keeps: cut to a tie without the holder", 0, []int8{5, 6, 6}, true, true, -1, roadCutTie},
		{"§10 ア: cut below 5", 0, []int8{4, 4, 0}, true, false, -1, roadCutShort},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, rule := longestDecision(tc.holder, tc.lengths, tc.cut, tc.keep)
			if got != tc.want || rule != tc.rule {
				t.Errorf("longestDecision(%d, %v, cut %v, keeps %v) = %d, %d; want %d, %d", tc.holder, tc.lengths, tc.cut, tc.keep, got, rule, tc.want, tc.rule)
			}
			if longestHolder(tc.holder, tc.lengths, tc.cut, tc.keep) != got {
				t.Errorf("longestHolder disagrees with longestDecision")
			}
		})
	}
	// §10 ウ's reason, which no rebuilt position reaches, says what it should.
	pos := &position{names: []string{"R", "B", "Y"}, length: []int8{5, 7, 7}, longest: -1, at: 3}
	if got := whyOf(pos.roadEvent(roadLost, 0)); !cmp.Equal(got, why{"longest-road-lost", "§10 ウ", 3, map[string]any{"Player": "R", "Group": []string{"B", "Y"}, "Length": 7}}) {
		t.Errorf("roadEvent(roadLost) = %+v", got)
	}
}

// Each player's pieces, cards and VP by where they come from (§11), and the
// notes of Rebuild, come with the evaluation.
func TestEvaluatePlayers(t *testing.T) {
	st := steps(settle("R", mid[0]), roads("R", mid[:6]...), settle("R", mid[5]), []Step{{Do: "city", Player: "R", At: mid[5]}},
		times(3, []Step{{Do: "soldier", Player: "B"}}), []Step{{Do: "point_card", Player: "Y"}}, settle("Y", mid[6]))
	ev, err := Evaluate(preset(), tablePlayers, st)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]PlayerEvaluation, len(ev.Players))
	for i, p := range ev.Players {
		p.Trail = Trail{}
		got[i] = p
	}
	want := []PlayerEvaluation{
		{Player: "R", Roads: 5, Settlements: 1, Cities: 1, Road: 5, VP: VP{Settlements: 1, Cities: 2, LongestRoad: 2}},
		{Player: "B", Soldiers: 3, VP: VP{LargestArmy: 2}},
		{Player: "Y", Settlements: 1, PointCards: 1, VP: VP{Settlements: 1, PointCards: 1}},
		{Player: "G"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("players (-want +got):\n%s", diff)
	}
	// Y's settlement next to R's city, past the end of R's road: noted
	// (§8 イ), and it cuts nothing.
	var notes []string
	for _, n := range ev.Notes {
		notes = append(notes, fmt.Sprintf("%s@%d", n.Code, n.Index))
	}
	if want := []string{"distance-rule@12"}; !slices.Equal(notes, want) {
		t.Errorf("notes = %v, want %v", notes, want)
	}
	if len(ev.After) != len(st) || !slices.Equal(ev.After[len(st)-1].VP, []int{5, 2, 2, 0}) {
		t.Errorf("After = %+v, want one standing per step ending with VP [5 2 2 0]", ev.After)
	}
}

// validTrail fails unless edges and corners are a trail of the colour's
// roads of length want: each road once, road i joining corners i and i+1,
// never through a corner in cut (an opponent's building) (§10 ア).
func validTrail(edges, corners []int, roads edgeSet, cut uint64, want int) error {
	if len(edges) != want || (want > 0 && len(corners) != want+1) || (want == 0 && len(corners) != 0) {
		return fmt.Errorf("%d edges and %d corners for a road of %d", len(edges), len(corners), want)
	}
	var seen edgeSet
	for i, e := range edges {
		switch {
		case !roads.has(e):
			return fmt.Errorf("edge %v is not the colour's road", topo.edges[e])
		case seen.has(e):
			return fmt.Errorf("edge %v comes twice", topo.edges[e])
		case topo.edgeEndSet[e] != 1<<corners[i]|1<<corners[i+1]:
			return fmt.Errorf("edge %v does not join %v and %v", topo.edges[e], topo.vertices[corners[i]], topo.vertices[corners[i+1]])
		case i > 0 && cut&(1<<corners[i]) != 0:
			return fmt.Errorf("the trail goes on through %v, an opponent's building", topo.vertices[corners[i]])
		}
		seen.add(e)
	}
	return nil
}

// A colour without roads has no trail.
func TestLongestTrailPathEmpty(t *testing.T) {
	if edges, corners := longestTrailPath(edgeSet{}, 0); edges != nil || corners != nil {
		t.Errorf("longestTrailPath(no roads) = %v, %v, want nothing", edges, corners)
	}
}

// trials returns n, or short under -short.
func trials(n, short int) int {
	if testing.Short() {
		return short
	}
	return n
}

// randomSteps rebuilds a random table: each colour's roads grown as a
// network (skipping edges another colour took), then buildings on random
// free corners, some made cities, and soldiers and one-point cards.
func randomSteps(rng *rand.Rand, players []string) []Step {
	// Units keep a city after its settlement when shuffled.
	var units [][]Step
	var taken edgeSet
	for _, p := range players {
		_, list, _ := randomNetwork(rng, 1+rng.IntN(12))
		for _, e := range list {
			if !taken.has(e) {
				taken.add(e)
				a, b := topo.edgeEnds[e][0], topo.edgeEnds[e][1]
				units = append(units, []Step{{Do: "road", Player: p, Edge: []string{topo.vertices[a].String(), topo.vertices[b].String()}}})
			}
		}
	}
	var built uint64
	for range rng.IntN(16) {
		v := rng.IntN(numVertices)
		if built&(1<<v) != 0 {
			continue
		}
		built |= 1 << v
		p := players[rng.IntN(len(players))]
		unit := []Step{{Do: "settlement", Player: p, At: topo.vertices[v].String()}}
		if rng.IntN(3) == 0 {
			unit = append(unit, Step{Do: "city", Player: p, At: topo.vertices[v].String()})
		}
		units = append(units, unit)
	}
	for range rng.IntN(10) {
		do := "soldier"
		if rng.IntN(3) == 0 {
			do = "point_card"
		}
		units = append(units, []Step{{Do: do, Player: players[rng.IntN(len(players))]}})
	}
	rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	var out []Step
	for _, u := range units {
		out = append(out, u...)
	}
	return out
}

// On random tables, every player's trail is a valid trail of their
// longest road, which the brute force confirms, and the VP and awards
// agree with the standings Rebuild gives after the last step.
func TestEvaluateRandomPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	for i := range trials(300, 40) {
		players := tablePlayers[:3+rng.IntN(2)]
		st := randomSteps(rng, players)
		ev, err := Evaluate(preset(), players, st)
		if err != nil {
			t.Fatalf("position %d: %v", i, err)
		}
		checkEvaluation(t, ev, fmt.Sprint("position ", i), true)
	}
}

// checkEvaluation fails unless every trail of ev is valid and as long as
// the player's longest road (by the brute force too, when brute), and the
// VP and awards agree with the last standing.
func checkEvaluation(t testing.TB, ev *Evaluation, what string, brute bool) {
	t.Helper()
	pos := ev.pos
	var built uint64
	for v, o := range pos.owner {
		if o >= 0 {
			built |= 1 << v
		}
	}
	for q, pe := range ev.Players {
		var own uint64
		for v, o := range pos.owner {
			if int(o) == q {
				own |= 1 << v
			}
		}
		cut := built &^ own
		var edges, corners []int
		for _, e := range pe.Trail.Edges {
			i, _ := EdgeID(e)
			edges = append(edges, i)
		}
		for _, v := range pe.Trail.Corners {
			i, _ := VertexID(v)
			corners = append(corners, i)
		}
		if err := validTrail(edges, corners, pos.roads[q], cut, pe.Road); err != nil {
			t.Fatalf("%s: %s's trail: %v", what, pe.Player, err)
		}
		if brute {
			var list []int
			for e := range numEdges {
				if pos.roads[q].has(e) {
					list = append(list, e)
				}
			}
			if want := bruteLongest(list, cut); pe.Road != want {
				t.Fatalf("%s: %s's longest road %d, brute force %d", what, pe.Player, pe.Road, want)
			}
		}
	}
	if len(ev.After) == 0 {
		return
	}
	last := ev.After[len(ev.After)-1]
	for q, pe := range ev.Players {
		if pe.VP.Total() != last.VP[q] || pe.Road != last.Roads[q] {
			t.Fatalf("%s: %s has VP %d and road %d; the standing says %d and %d", what, pe.Player, pe.VP.Total(), pe.Road, last.VP[q], last.Roads[q])
		}
	}
	if ev.LongestRoad.Holder != last.LongestRoad || ev.LargestArmy.Holder != last.LargestArmy {
		t.Fatalf("%s: holders %d, %d; the standing says %d, %d", what, ev.LongestRoad.Holder, ev.LargestArmy.Holder, last.LongestRoad, last.LargestArmy)
	}
	for _, a := range []Award{ev.LongestRoad, ev.LargestArmy} {
		if a.Why == nil || a.Why.Section == "" || (a.Why.Index >= len(ev.After)) {
			t.Fatalf("%s: award %+v without a reason", what, a)
		}
		if a.Holder >= 0 && a.Why.Args["Player"] != ev.Players[a.Holder].Player {
			t.Fatalf("%s: %s holds a card, but the reason %s names %v", what, ev.Players[a.Holder].Player, a.Why.Code, a.Why.Args["Player"])
		}
	}
}

// A position rebuilt from a random game's placements, in the order they
// were made, says what the game engine says: the same longest roads, the
// same holders of the 2-point cards, the same VP (§10, §11).
func TestEvaluateAgreesWithGames(t *testing.T) {
	for _, name := range []string{"preset", "holder-keeps"} {
		rs := rulesetVariants()[name]
		for g := range trials(40, 8) {
			seed := uint64(1500 + g)
			s := randomGame(t, rs, 3+g%2, seed)
			r := NewRandom(rand.New(rand.NewPCG(seed, 15)))
			var st []Step
			for s.phase != Over {
				m := r.Next(s)
				if s.turn > 400 {
					m = NewMove(TimeUp)
				}
				p := int(s.current)
				if m.Player >= 0 {
					p = int(m.Player)
				}
				if err := s.Apply(m); err != nil {
					continue // a card voided (§8 エ, §9): no step
				}
				st = append(st, s.steps(p, m)...)
			}
			ev, err := Evaluate(rs, s.names[:s.n], st)
			if err != nil {
				t.Fatalf("%s game %d: %v", name, g, err)
			}
			what := fmt.Sprintf("%s game %d", name, g)
			checkEvaluation(t, ev, what, false)
			for p := range int(s.n) {
				if ev.Players[p].Road != s.RoadLength(p) || ev.Players[p].VP != s.VP(p) {
					t.Fatalf("%s: %s has road %d, VP %+v; the game says %d, %+v", what, s.names[p], ev.Players[p].Road, ev.Players[p].VP, s.RoadLength(p), s.VP(p))
				}
			}
			if ev.LongestRoad.Holder != s.LongestRoad() || ev.LargestArmy.Holder != s.LargestArmy() {
				t.Fatalf("%s: holders %d, %d; the game says %d, %d", what, ev.LongestRoad.Holder, ev.LargestArmy.Holder, s.LongestRoad(), s.LargestArmy())
			}
			if len(ev.Notes) != 0 {
				t.Fatalf("%s: a game played by the rules gives notes %v", what, ev.Notes[0])
			}
		}
	}
}

// Pieces lists what is on the board after the last step, for a page to draw.
func TestEvaluationPieces(t *testing.T) {
	ev, err := Evaluate(preset(), []string{"R", "B", "Y"}, []Step{
		{Do: "settlement", Player: "R", At: "N(0,0)"},
		{Do: "road", Player: "R", Edge: []string{"N(0,0)", "S(1,-1)"}},
		{Do: "settlement", Player: "B", At: "S(1,-1)"},
		{Do: "city", Player: "B", At: "S(1,-1)"},
		{Do: "settlement", Player: "Y", At: "S(0,-1)"},
		{Do: "remove", At: "S(0,-1)"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ev.Pieces() {
		switch {
		case p.Road:
			got = append(got, fmt.Sprintf("%d road %v", p.Player, p.Edge))
		case p.City:
			got = append(got, fmt.Sprintf("%d city %v", p.Player, p.Vertex))
		default:
			got = append(got, fmt.Sprintf("%d settlement %v", p.Player, p.Vertex))
		}
	}
	slices.Sort(got)
	want := []string{"0 road N(0,0)-S(1,-1)", "0 settlement N(0,0)", "1 city S(1,-1)"}
	if !slices.Equal(got, want) {
		t.Errorf("Pieces() = %q, want %q", got, want)
	}
}
