package game

import (
	"fmt"

	"github.com/catanjudge/catanjudge/referee"
)

// MaxSteps bounds the steps of one position, so that a request's work is
// bounded: every piece and card of a 4-player table is about 120 steps.
const MaxSteps = 500

// Step is one thing a judge puts on the table, or takes off, while
// rebuilding a position, in the order it happened.
type Step struct {
	Do     string   // settlement, city, road, soldier, point_card, remove
	Player string   // whose piece or card; not for remove
	At     string   // the corner of a settlement, a city, or what is removed
	Edge   []string // the road, or the road removed, as its two corners
}

// Standing is what a position says after a step: each colour's longest road
// and soldiers played, who holds the 2-point cards, and the VP (§10, §11).
// Slices are in the players' order.
type Standing struct {
	Roads       []int // each colour's longest road (§10 ア)
	Soldiers    []int // soldiers played (§10 イ)
	LongestRoad int   // the holder, -1 in the bank
	LargestArmy int   // the holder, -1 in the bank
	VP          []int
}

// position is a table rebuilt piece by piece. Unlike State it takes what a
// judge finds on the table: a placement the rules forbid in play is made
// and noted, not refused.
type position struct {
	names       []string
	keeps       bool
	owner       [numVertices]int8
	city        uint64
	roadOf      [numEdges]int8
	roads       []edgeSet
	length      []int8
	soldiers    []int
	points      []int
	longest     int8
	army        int8
	settlements []int
	cities      []int

	at int // the step being made
	// roadWhy and armyWhy are the last changes of §10 that moved a card
	// or decided on it after a cut, with their step.
	roadWhy, armyWhy *Error
}

// rebuild builds a position from the steps, the 2-point cards following
// §10 through them in their order, and returns it after the last step,
// what it says after each step and the notes on steps the rules would
// forbid in play (the distance rule, an unconnected piece, more pieces or
// cards than the game has). A step that cannot be on a table (a corner or
// edge off the land or already taken, an unknown player or step, removing
// what is not there) is an *Error naming the step; so are more than
// MaxSteps steps.
func rebuild(rs referee.Ruleset, players []string, steps []Step) (*position, []Standing, []*Error, error) {
	if len(steps) > MaxSteps {
		return nil, nil, nil, broken("too-many-steps", "§10", fmt.Sprintf("a position has at most %d steps, not %d", MaxSteps, len(steps)),
			map[string]any{"Max": MaxSteps, "Count": len(steps)})
	}
	if err := checkPlayers(players); err != nil {
		return nil, nil, nil, err
	}
	n := len(players)
	pos := &position{
		names: players, keeps: rs.LongestRoadTie == referee.LongestRoadHolderKeeps,
		roads: make([]edgeSet, n), length: make([]int8, n), soldiers: make([]int, n), points: make([]int, n),
		settlements: make([]int, n), cities: make([]int, n), longest: -1, army: -1,
	}
	for v := range pos.owner {
		pos.owner[v] = -1
	}
	for e := range pos.roadOf {
		pos.roadOf[e] = -1
	}
	out := make([]Standing, 0, len(steps))
	var notes []*Error
	for i, st := range steps {
		pos.at = i
		noted, err := pos.step(st)
		if err != nil {
			return nil, nil, nil, at(err, i)
		}
		for _, e := range noted {
			e.Index = i
			notes = append(notes, e)
		}
		out = append(out, pos.standing())
	}
	return pos, out, notes, nil
}

func (pos *position) step(st Step) ([]*Error, error) {
	p := -1
	if st.Do != "remove" {
		for i, name := range pos.names {
			if name == st.Player {
				p = i
			}
		}
		if p < 0 {
			return nil, broken("unknown-player", "§10", fmt.Sprintf("%q is not at the table", st.Player), map[string]any{"Player": st.Player})
		}
	}
	wantAt, wantEdge := false, false
	switch st.Do {
	case "settlement", "city":
		wantAt = true
	case "road":
		wantEdge = true
	case "soldier", "point_card":
	case "remove":
		if (st.At == "") == (st.Edge == nil) {
			return nil, broken("remove-one", "§10", "a removal names a corner (at) or an edge", nil)
		}
		wantAt, wantEdge = st.At != "", st.Edge != nil
	default:
		return nil, broken("unknown-step", "§10", fmt.Sprintf("unknown step %q", st.Do), map[string]any{"Do": st.Do})
	}
	if (st.At != "") != wantAt || (st.Edge != nil) != wantEdge {
		return nil, broken("step-fields", "§10", fmt.Sprintf("step %q takes %s", st.Do, map[bool]string{true: "a corner (at)", false: "an edge"}[wantAt]),
			map[string]any{"Do": st.Do})
	}
	v, e := -1, -1
	if wantAt {
		i, err := vertexNamed(st.At, "§3 ア")
		if err != nil {
			return nil, err
		}
		v = int(i)
	}
	if wantEdge {
		i, err := edgeNamed(st.Edge, "§3 ア")
		if err != nil {
			return nil, err
		}
		e = int(i)
	}
	switch st.Do {
	case "settlement":
		return pos.settle(p, v)
	case "city":
		return pos.upgrade(p, v)
	case "road":
		return pos.road(p, e)
	case "soldier":
		pos.soldiers[p]++
		if was := pos.army; armyHolder(was, pos.soldiers, p) != was {
			pos.army = int8(p)
			pos.armyWhy = pos.armyEvent(was)
		}
		return pos.overCards(p, "soldier", Soldier), nil
	case "point_card":
		pos.points[p]++
		return pos.overCards(p, "point", Point), nil
	}
	if v >= 0 {
		return nil, pos.removeBuilding(v)
	}
	return nil, pos.removeRoad(e)
}

// note returns a rule recorded rather than refused: one a step breaks, or
// the rule behind an answer of a judge's evaluation.
func note(code, section, msg string, args map[string]any) *Error {
	return broken(code, section, msg, args)
}

func (pos *position) overCards(p int, name string, c Card) []*Error {
	total := 0
	for q := range pos.names {
		if c == Soldier {
			total += pos.soldiers[q]
		} else {
			total += pos.points[q]
		}
	}
	if total > int(FullDeck[c]) {
		// §1: the game has 14 soldiers and 5 one-point cards.
		return []*Error{note("cards-over", "§1", fmt.Sprintf("%d %s cards at the table; the game has %d", total, name, FullDeck[c]),
			map[string]any{"Player": pos.names[p], "Card": name, "Count": total, "Max": int(FullDeck[c])})}
	}
	return nil
}

func (pos *position) taken(v int) error {
	if pos.owner[v] >= 0 {
		return broken("corner-taken", "§8 イ", fmt.Sprintf("%v already has a building", topo.vertices[v]), map[string]any{"Vertex": topo.vertices[v].String()})
	}
	return nil
}

func (pos *position) settle(p, v int) ([]*Error, error) {
	if err := pos.taken(v); err != nil {
		return nil, err
	}
	var notes []*Error
	if pos.near(v) {
		notes = append(notes, note("distance-rule", "§8 イ", fmt.Sprintf("%v is next to a building", topo.vertices[v]),
			map[string]any{"Vertex": topo.vertices[v].String()}))
	}
	// §4: the first two settlements stand alone; from the third on a
	// settlement needs the colour's road (§8 イ).
	if pos.settlements[p]+pos.cities[p] >= 2 && !pos.roadAt(p, v) {
		notes = append(notes, note("settlement-unconnected", "§8 イ", fmt.Sprintf("no road of %s reaches %v", pos.names[p], topo.vertices[v]),
			map[string]any{"Vertex": topo.vertices[v].String(), "Player": pos.names[p]}))
	}
	pos.settlements[p]++
	if pos.settlements[p] > maxSettlements {
		notes = append(notes, pos.overPieces(p, "settlement", maxSettlements))
	}
	pos.build(p, v)
	return notes, nil
}

func (pos *position) upgrade(p, v int) ([]*Error, error) {
	var notes []*Error
	switch o := pos.owner[v]; {
	case o >= 0 && (int(o) != p || pos.city&(1<<v) != 0):
		return nil, pos.taken(v)
	case o >= 0:
		pos.settlements[p]--
	default:
		// §8 ウ: a city replaces a settlement.
		notes = append(notes, note("city-not-on-settlement", "§8 ウ", fmt.Sprintf("%s has no settlement on %v", pos.names[p], topo.vertices[v]),
			map[string]any{"Vertex": topo.vertices[v].String(), "Player": pos.names[p]}))
	}
	pos.cities[p]++
	if pos.cities[p] > maxCities {
		notes = append(notes, pos.overPieces(p, "city", maxCities))
	}
	pos.city |= 1 << v
	if pos.owner[v] < 0 {
		pos.build(p, v)
	}
	return notes, nil
}

func (pos *position) overPieces(p int, piece string, most int) *Error {
	// §8: 15 roads, 5 settlements and 4 cities of each colour.
	return note("over-pieces", "§8", fmt.Sprintf("%s has more than %d %s pieces", pos.names[p], most, piece),
		map[string]any{"Player": pos.names[p], "Piece": piece, "Max": most})
}

// near reports a building next to corner v (§4 ア, §8 イ distance rule).
func (pos *position) near(v int) bool {
	for w := range numVertices {
		if topo.vertexNear[v]&(1<<w) != 0 && pos.owner[w] >= 0 {
			return true
		}
	}
	return false
}

// roadAt reports a road of colour p ending at corner v.
func (pos *position) roadAt(p, v int) bool {
	for _, e := range topo.vertexEdges[v] {
		if e >= 0 && int(pos.roadOf[e]) == p {
			return true
		}
	}
	return false
}

// build puts colour p's building on the empty corner v; the opponents'
// roads are cut there (§10 ア).
func (pos *position) build(p, v int) {
	pos.owner[v] = int8(p)
	cut := false
	if h := pos.longest; h >= 0 && int(h) != p {
		through := 0
		for _, e := range topo.vertexEdges[v] {
			if e >= 0 && pos.roadOf[e] == h {
				through++
			}
		}
		cut = through >= 2
	}
	pos.award(pos.roadsAt(v), cut)
}

// roadsAt returns, as bits, the colours with a road ending at corner v.
func (pos *position) roadsAt(v int) uint8 {
	var colours uint8
	for _, e := range topo.vertexEdges[v] {
		if e >= 0 && pos.roadOf[e] >= 0 {
			colours |= 1 << pos.roadOf[e]
		}
	}
	return colours
}

func (pos *position) road(p, e int) ([]*Error, error) {
	if pos.roadOf[e] >= 0 {
		return nil, broken("edge-taken", "§8 ア", fmt.Sprintf("%v already has a road", topo.edges[e]), map[string]any{"Edge": topo.edges[e].String()})
	}
	if pos.roads[p].count() >= maxTrailRoads {
		return nil, broken("too-many-roads", "§8", fmt.Sprintf("%s has %d roads; a position takes at most %d of one colour", pos.names[p], maxTrailRoads, maxTrailRoads),
			map[string]any{"Player": pos.names[p], "Max": maxTrailRoads})
	}
	var notes []*Error
	connected := false
	for _, v := range topo.edgeEnds[e] {
		o := int(pos.owner[v])
		// §8 ア: a road touches the colour's own building, or its own road
		// at a corner without an opponent's building.
		if o == p || (o < 0 && pos.roadAt(p, int(v))) {
			connected = true
		}
	}
	if !connected {
		notes = append(notes, note("road-unconnected", "§8 ア", fmt.Sprintf("road %v touches none of %s's pieces (or only through an opponent's building)", topo.edges[e], pos.names[p]),
			map[string]any{"Edge": topo.edges[e].String(), "Player": pos.names[p]}))
	}
	pos.roadOf[e] = int8(p)
	pos.roads[p].add(e)
	if pos.roads[p].count() > maxRoads {
		notes = append(notes, pos.overPieces(p, "road", maxRoads))
	}
	pos.award(1<<p, false)
	return notes, nil
}

func (pos *position) removeBuilding(v int) error {
	o := pos.owner[v]
	if o < 0 {
		return broken("nothing-to-remove", "§10", fmt.Sprintf("nothing stands on %v", topo.vertices[v]), map[string]any{"Place": topo.vertices[v].String()})
	}
	if pos.city&(1<<v) != 0 {
		pos.cities[o]--
		pos.city &^= 1 << v
	} else {
		pos.settlements[o]--
	}
	pos.owner[v] = -1
	pos.award(pos.roadsAt(v), false)
	return nil
}

func (pos *position) removeRoad(e int) error {
	o := pos.roadOf[e]
	if o < 0 {
		return broken("nothing-to-remove", "§10", fmt.Sprintf("no road on %v", topo.edges[e]), map[string]any{"Place": topo.edges[e].String()})
	}
	pos.roadOf[e] = -1
	pos.roads[o].remove(e)
	pos.award(1<<o, false)
	return nil
}

// award recounts the longest road of the colours in recount, as bits,
// and the card's holder after a change (§10 ア, ウ); cut says a building
// went up in the middle of the holder's road. A holder whose road got
// shorter lost part of it: that, too, is a cut.
func (pos *position) award(recount uint8, cut bool) {
	var built uint64
	for v, o := range pos.owner {
		if o >= 0 {
			built |= 1 << v
		}
	}
	for q := range pos.names {
		if recount&(1<<q) == 0 {
			continue
		}
		before := pos.length[q]
		var own uint64
		for v, o := range pos.owner {
			if int(o) == q {
				own |= 1 << v
			}
		}
		pos.length[q] = int8(longestTrail(pos.roads[q], built&^own))
		if int(pos.longest) == q && pos.length[q] < before {
			cut = true
		}
	}
	was := pos.longest
	var d roadDecision
	pos.longest, d = longestDecision(was, pos.length, cut, pos.keeps)
	if d != roadStays {
		pos.roadWhy = pos.roadEvent(d, was)
	}
}

func (pos *position) standing() Standing {
	n := len(pos.names)
	st := Standing{Roads: make([]int, n), Soldiers: make([]int, n), VP: make([]int, n), LongestRoad: int(pos.longest), LargestArmy: int(pos.army)}
	for q := range n {
		st.Roads[q] = int(pos.length[q])
		st.Soldiers[q] = pos.soldiers[q]
		// §11: settlement 1, city 2, each 2-point card 2, each one-point card 1.
		st.VP[q] = pos.settlements[q] + 2*pos.cities[q] + pos.points[q]
	}
	if pos.longest >= 0 {
		st.VP[pos.longest] += 2
	}
	if pos.army >= 0 {
		st.VP[pos.army] += 2
	}
	return st
}
