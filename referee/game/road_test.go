package game

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// Corners used below. mid runs west to east between rows -1 and 0, low
// between rows 0 and 1; N(-1,1) joins S(0,-1) on mid to low.
var (
	mid = []string{"N(-2,0)", "S(-1,-1)", "N(-1,0)", "S(0,-1)", "N(0,0)", "S(1,-1)", "N(1,0)", "S(2,-1)", "N(2,0)", "S(3,-1)"}
	low = []string{"N(-3,1)", "S(-2,0)", "N(-2,1)", "S(-1,0)", "N(-1,1)", "S(0,0)", "N(0,1)", "S(1,0)", "N(1,1)", "S(2,0)", "N(2,1)"}
)

// roads are the road steps of colour p along the corners, one after another.
func roads(p string, corners ...string) []Step {
	var steps []Step
	for i := 1; i < len(corners); i++ {
		steps = append(steps, Step{Do: "road", Player: p, Edge: []string{corners[i-1], corners[i]}})
	}
	return steps
}

func settle(p, at string) []Step { return []Step{{Do: "settlement", Player: p, At: at}} }

func steps(parts ...[]Step) []Step {
	var all []Step
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

// roadCase is a sequence of placements and what §10 ア says after it.
type roadCase struct {
	name    string
	keeps   bool // the ruleset's holder-keeps tie policy
	steps   []Step
	lengths map[string]int // each colour's longest road
	holder  string         // "" for the bank
	why     string         // the code of Evaluate's reason for the holder
}

var roadCases = []roadCase{
	{name: "§10 ア: 5 roads take the card", steps: roads("R", mid[:6]...), lengths: map[string]int{"R": 5}, holder: "R", why: "longest-road-took"},
	{name: "§10 ア: 4 roads do not", steps: roads("R", mid[:5]...), lengths: map[string]int{"R": 4}, why: "longest-road-none"},
	{name: "§10 ア: a fork counts its longer branch", steps: steps(roads("R", mid[:5]...), roads("R", "S(0,-1)", "N(-1,1)")),
		lengths: map[string]int{"R": 4}, why: "longest-road-none"},
	{name: "§10 ア: a trail may pass a corner twice, as in a loop",
		steps:   steps(roads("R", "S(2,-1)", "N(1,0)", "S(1,-1)", "N(0,0)", "S(0,-1)", "N(-1,1)", "S(0,0)", "N(0,1)", "S(1,-1)")),
		lengths: map[string]int{"R": 8}, holder: "R", why: "longest-road-took"},
	{name: "§10 ア: an equal length does not take it",
		steps: steps(roads("R", mid[:6]...), roads("B", low[:6]...)), lengths: map[string]int{"R": 5, "B": 5}, holder: "R", why: "longest-road-equal-kept"},
	{name: "§10 ア: a strictly longer road takes it",
		steps: steps(roads("R", mid[:6]...), roads("B", low[:7]...)), lengths: map[string]int{"R": 5, "B": 6}, holder: "B", why: "longest-road-took-over"},
	{name: "§10 ア: the player's own buildings never cut", steps: steps(roads("R", mid[:6]...), settle("R", mid[3])),
		lengths: map[string]int{"R": 5}, holder: "R", why: "longest-road-took"},
	{name: "§10 ア ruling: a trail may end at an opponent's building, and the road into it counts",
		steps: steps(settle("B", mid[5]), roads("R", mid[:6]...)), lengths: map[string]int{"R": 5}, holder: "R", why: "longest-road-took"},
	{name: "§10 ア ruling: but not go on through it",
		steps: steps(roads("R", mid[:7]...), settle("B", mid[3])), lengths: map[string]int{"R": 3}, why: "longest-road-cut-short"},
	// The base game's example (figure H): Emily's 7 roads took the card from
	// Coleman; Coleman's settlement cuts them, and the card goes back to him.
	{name: "§10 ア: the base game's example: a cut returns the card to the longest road",
		steps:   steps(roads("B", low[:7]...), roads("R", mid[:8]...), roads("B", "N(-1,1)", "S(0,-1)"), settle("B", "S(0,-1)")),
		lengths: map[string]int{"R": 4, "B": 6}, holder: "B", why: "longest-road-cut-to"},
	{name: "§10 ア: a cut that leaves the holder the single longest",
		steps:   steps(roads("B", low[:6]...), roads("R", mid[:8]...), roads("Y", "S(1,0)", "N(1,1)", "S(2,-1)"), settle("Y", "S(2,-1)")),
		lengths: map[string]int{"R": 7, "B": 5, "Y": 2}, holder: "R", why: "longest-road-took-over"},
	{name: "§10 ア: after a cut, a tie returns the card to the bank, even with the holder tied",
		steps:   steps(roads("B", low[:6]...), roads("R", mid[:8]...), roads("Y", "N(0,1)", "S(1,-1)"), settle("Y", "S(1,-1)")),
		lengths: map[string]int{"R": 5, "B": 5, "Y": 1}, why: "longest-road-cut-tie"},
	{name: "§10 ア, holder-keeps: after a cut the tied holder keeps it", keeps: true,
		steps:   steps(roads("B", low[:6]...), roads("R", mid[:8]...), roads("Y", "N(0,1)", "S(1,-1)"), settle("Y", "S(1,-1)")),
		lengths: map[string]int{"R": 5, "B": 5, "Y": 1}, holder: "R", why: "longest-road-cut-tie-kept"},
	{name: "§10 ア: from the bank, the next single longest road takes it",
		steps: steps(roads("B", low[:6]...), roads("R", mid[:8]...), roads("Y", "N(0,1)", "S(1,-1)"), settle("Y", "S(1,-1)"),
			roads("B", low[5:7]...)),
		lengths: map[string]int{"R": 5, "B": 6, "Y": 1}, holder: "B", why: "longest-road-took"},
	{name: "§10 ア, holder-keeps: a tie without the holder returns it to the bank", keeps: true,
		steps: steps(roads("B", low[:6]...), roads("G", "S(0,-2)", "N(0,-1)", "S(1,-2)", "N(1,-1)", "S(2,-2)", "N(2,-1)"),
			roads("R", mid[:9]...), roads("Y", "S(1,-2)", "N(0,0)"), settle("Y", "N(0,0)")),
		lengths: map[string]int{"R": 4, "B": 5, "G": 5, "Y": 1}, why: "longest-road-cut-tie"},
	{name: "§10 ア: a cut below 5 returns it to the bank",
		steps:   steps(roads("R", mid[:6]...), roads("Y", "N(-1,1)", "S(0,-1)"), settle("Y", "S(0,-1)")),
		lengths: map[string]int{"R": 3, "Y": 1}, why: "longest-road-cut-short"},
	// §10 ア's text: a building in the middle of the holder's road decides
	// again at once, even where the holder's longest road keeps its length.
	{name: "§10 ア: a building in the middle of the holder's road decides again",
		steps: steps(roads("R", mid[:8]...), roads("R", "S(0,-1)", "N(-1,1)", "S(-1,0)"), roads("B", low[4:11]...),
			roads("B", "N(2,1)", "S(3,-1)"), settle("B", "N(-1,1)")),
		lengths: map[string]int{"R": 7, "B": 7}, why: "longest-road-cut-tie"},
	{name: "§10 ア: and the single longest keeps it", keeps: false,
		steps:   steps(roads("R", mid[:8]...), roads("R", "S(0,-1)", "N(-1,1)", "S(-1,0)"), roads("B", low[5:10]...), roads("B", "S(0,0)", "N(-1,1)"), settle("B", "N(-1,1)")),
		lengths: map[string]int{"R": 7, "B": 5}, holder: "R", why: "longest-road-cut-kept"},
}

// Each case holds through the game engine (the pieces placed as built) and
// through a position rebuilt step by step.
func TestLongestRoad(t *testing.T) {
	players := []string{"R", "B", "Y", "G"}
	for _, tc := range roadCases {
		rs := preset()
		if tc.keeps {
			rs.LongestRoadTie = referee.LongestRoadHolderKeeps
		}
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(rs, testBoard(t, rs), players)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range tc.steps {
				p, _ := s.PlayerIndex(st.Player)
				switch st.Do {
				case "road":
					s.placeRoad(p, eid(t, st.Edge[0], st.Edge[1]))
				case "settlement":
					s.placeSettlement(p, vid(t, st.At))
				}
			}
			after, notes, err := Rebuild(rs, players, tc.steps)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range notes {
				if n.Code != "road-unconnected" && n.Code != "settlement-unconnected" {
					t.Errorf("step %d: note %s: the case breaks a rule it does not test", n.Index, n.Code)
				}
			}
			last := after[len(after)-1]
			for p, name := range players {
				want := tc.lengths[name]
				if got := s.RoadLength(p); got != want {
					t.Errorf("game: %s's longest road = %d, want %d", name, got, want)
				}
				if got := last.Roads[p]; got != want {
					t.Errorf("position: %s's longest road = %d, want %d", name, got, want)
				}
			}
			holder := func(i int) string {
				if i < 0 {
					return ""
				}
				return players[i]
			}
			if got := holder(s.LongestRoad()); got != tc.holder {
				t.Errorf("game: longest road held by %q, want %q", got, tc.holder)
			}
			if got := holder(last.LongestRoad); got != tc.holder {
				t.Errorf("position: longest road held by %q, want %q", got, tc.holder)
			}
			ev, err := Evaluate(rs, players, tc.steps)
			if err != nil {
				t.Fatal(err)
			}
			if got := holder(ev.LongestRoad.Holder); got != tc.holder || ev.LongestRoad.Why.Code != tc.why || ev.LongestRoad.Why.Section != "§10 ア" {
				t.Errorf("Evaluate: longest road held by %q because %s (%s), want %q because %s (§10 ア)",
					got, ev.LongestRoad.Why.Code, ev.LongestRoad.Why.Section, tc.holder, tc.why)
			}
		})
	}
}

// bruteLongest finds the longest road of a colour another way: the largest
// set of its roads that one trail can cover, by Euler's theorem, over every
// subset. A set is one trail when it is connected and has 0 or 2 corners
// of odd degree; a corner in cut (an opponent's building) ends the trail,
// so in an open trail it has degree 1 (an end), and in a closed one it may
// be the single corner where the trail starts and ends, with degree 2.
func bruteLongest(roads []int, cut uint64) int {
	best := 0
	for set := uint32(1); set < 1<<len(roads); set++ {
		size := bits.OnesCount32(set)
		if size <= best {
			continue
		}
		var deg [numVertices]int
		var parent [numVertices]int
		for v := range parent {
			parent[v] = v
		}
		find := func(v int) int {
			for parent[v] != v {
				v = parent[v]
			}
			return v
		}
		var touched uint64
		for i, e := range roads {
			if set&(1<<i) == 0 {
				continue
			}
			a, b := int(topo.edgeEnds[e][0]), int(topo.edgeEnds[e][1])
			deg[a]++
			deg[b]++
			parent[find(a)] = find(b)
			touched |= 1<<a | 1<<b
		}
		roots, odd, cutDeg2, ok := map[int]bool{}, 0, 0, true
		for v := range numVertices {
			if touched&(1<<v) == 0 {
				continue
			}
			roots[find(v)] = true
			if deg[v]%2 == 1 {
				odd++
			}
			if cut&(1<<v) != 0 {
				switch deg[v] {
				case 1:
				case 2:
					cutDeg2++
				default:
					ok = false
				}
			}
		}
		switch {
		case !ok || len(roots) != 1:
		case odd == 2 && cutDeg2 == 0, odd == 0 && cutDeg2 <= 1 && !cutEnds(deg, cut, touched):
			best = size
		}
	}
	return best
}

// cutEnds reports a cut corner of degree 1, which a closed trail cannot have.
func cutEnds(deg [numVertices]int, cut, touched uint64) bool {
	for v := range numVertices {
		if touched&cut&(1<<v) != 0 && deg[v] == 1 {
			return true
		}
	}
	return false
}

// randomNetwork grows a colour's roads from a random edge, each new road
// touching the ones before, and drops opponents' buildings on random corners.
func randomNetwork(rng *rand.Rand, size int) (edgeSet, []int, uint64) {
	var set edgeSet
	var list []int
	e := rng.IntN(numEdges)
	for len(list) < size {
		if !set.has(e) {
			set.add(e)
			list = append(list, e)
		}
		// the next road touches a random road's end
		from := list[rng.IntN(len(list))]
		v := int(topo.edgeEnds[from][rng.IntN(2)])
		e = int(topo.vertexEdges[v][rng.IntN(3)])
		if e < 0 {
			e = int(topo.vertexEdges[v][0])
		}
	}
	var cut uint64
	for range rng.IntN(5) {
		cut |= 1 << rng.IntN(numVertices)
	}
	return set, list, cut
}

// The longest road agrees with the brute force on random networks of up to
// 15 roads with opponents' buildings scattered on them, and the trail
// longestTrailPath finds is a valid trail of that length: each road once,
// never through an opponent's building (§10 ア).
func TestLongestTrailAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for i := range trials(400, 50) {
		set, list, cut := randomNetwork(rng, 1+rng.IntN(maxRoads))
		got, want := longestTrail(set, cut), bruteLongest(list, cut)
		if edges, corners := longestTrailPath(set, cut); validTrail(edges, corners, set, cut, want) != nil {
			t.Fatalf("position %d: longestTrailPath: %v (brute force %d)", i, validTrail(edges, corners, set, cut, want), want)
		}
		if got != want {
			var names, cuts []string
			for _, e := range list {
				names = append(names, topo.edges[e].String())
			}
			for v := range numVertices {
				if cut&(1<<v) != 0 {
					cuts = append(cuts, topo.vertices[v].String())
				}
			}
			t.Fatalf("position %d: longestTrail = %d, brute force %d\nroads %s\ncut at %s", i, got, want, strings.Join(names, " "), strings.Join(cuts, " "))
		}
	}
}

// The search stays fast on the worst a position may hold: 24 roads of one
// colour in the densest part of the board.
func TestLongestTrailBound(t *testing.T) {
	var set edgeSet
	n := 0
	for e := range numEdges {
		// the edges of the 7 inner hexes: the densest web of corners
		a, b := topo.vertices[topo.edgeEnds[e][0]], topo.vertices[topo.edgeEnds[e][1]]
		if n < maxTrailRoads && inner(a) && inner(b) {
			set.add(e)
			n++
		}
	}
	if got := longestTrail(set, 0); got < 18 || got > maxTrailRoads {
		t.Errorf("longest trail of %d inner roads = %d", n, got)
	}
}

func inner(v referee.Vertex) bool {
	for _, h := range v.Hexes() {
		if max(-h.Q, h.Q, -h.R, h.R, -h.Q-h.R, h.Q+h.R) <= 1 {
			return true
		}
	}
	return false
}
