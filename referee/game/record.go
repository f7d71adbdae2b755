package game

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// MaxMoves bounds the moves of one record, so that a check's work is
// bounded: a real game has a few hundred.
const MaxMoves = 10000

// MoveSpec is a move of a game record as written, with names for players,
// corners, edges, resources and cards. Empty fields are absent.
type MoveSpec struct {
	Do     string // place, roll, discard, robber, trade, bank, build, buy, play, declare, end_turn, time_up
	Player string // who acts; "" for the player whose turn it is

	Settlement string     // a corner, e.g. "N(0,0)" (place, build)
	City       string     // a corner (build)
	Road       []string   // an edge as its two corners (place, build)
	Roads      [][]string // the roads of a road building card (play)

	Dice []int // roll: the two dice

	Cards map[string]int // discard: the cards returned
	Give  map[string]int // trade, bank: the cards handed over
	Get   map[string]int // trade, bank: the cards received
	Take  map[string]int // play harvest: the cards taken

	Hex  *referee.Hex // robber, play soldier: where the robber goes
	Rob  string       // robber, play soldier: the player robbed, "" for nobody
	Took string       // robber, play soldier: the resource stolen

	With     string // trade: the other player
	Card     string // buy: the card drawn
	Dev      string // play: the card played
	Resource string // play monopoly: the resource named
}

// fields names the fields of m that are set, in the order of the record format.
func (m MoveSpec) fields() []string {
	var set []string
	add := func(name string, ok bool) {
		if ok {
			set = append(set, name)
		}
	}
	add("player", m.Player != "")
	add("settlement", m.Settlement != "")
	add("city", m.City != "")
	add("road", m.Road != nil)
	add("roads", m.Roads != nil)
	add("dice", m.Dice != nil)
	add("cards", m.Cards != nil)
	add("give", m.Give != nil)
	add("get", m.Get != nil)
	add("take", m.Take != nil)
	add("hex", m.Hex != nil)
	add("rob", m.Rob != "")
	add("took", m.Took != "")
	add("with", m.With != "")
	add("card", m.Card != "")
	add("dev", m.Dev != "")
	add("resource", m.Resource != "")
	return set
}

// moveForms are the fields each move takes, the required ones first.
var moveForms = map[string]struct {
	kind     Kind
	required []string
	optional []string
}{
	"place":    {Place, []string{"settlement", "road"}, []string{"player"}},
	"roll":     {Roll, []string{"dice"}, []string{"player"}},
	"discard":  {Discard, []string{"cards"}, []string{"player"}},
	"robber":   {MoveRobber, []string{"hex"}, []string{"player", "rob", "took"}},
	"trade":    {Trade, []string{"with", "give", "get"}, []string{"player"}},
	"bank":     {BankTrade, []string{"give", "get"}, []string{"player"}},
	"build":    {BuildRoad, nil, []string{"player", "road", "settlement", "city"}},
	"buy":      {Buy, []string{"card"}, []string{"player"}},
	"play":     {PlaySoldier, []string{"dev"}, []string{"player", "hex", "rob", "took", "roads", "take", "resource"}},
	"declare":  {Declare, nil, []string{"player"}},
	"end_turn": {EndTurn, nil, []string{"player"}},
	"time_up":  {TimeUp, nil, nil},
}

// playForms are the fields of each development card's play.
var playForms = map[string]struct {
	kind     Kind
	required []string
	optional []string
}{
	"soldier":       {PlaySoldier, []string{"hex"}, []string{"rob", "took"}},
	"road_building": {PlayRoadBuilding, []string{"roads"}, nil},
	"harvest":       {PlayHarvest, []string{"take"}, nil},
	"monopoly":      {PlayMonopoly, []string{"resource"}, nil},
}

// Decode reads a move of a record against the game s: the names of its
// players, corners, edges, resources and cards. A field the move does not
// take, one it lacks, or a name that is not on the board or at the table is
// an *Error citing the section of the move.
func (s *State) Decode(spec MoveSpec) (Move, error) {
	form, ok := moveForms[spec.Do]
	if !ok {
		return Move{}, broken("unknown-action", "§5", fmt.Sprintf("unknown move %q", spec.Do), map[string]any{"Do": spec.Do})
	}
	m := NewMove(form.kind)
	sec := sections[form.kind]
	required, optional := form.required, form.optional
	switch spec.Do {
	case "build":
		var what []string
		for _, f := range spec.fields() {
			if f == "road" || f == "settlement" || f == "city" {
				what = append(what, f)
			}
		}
		if len(what) != 1 {
			return m, broken("build-one", "§8", "a build move builds one road, settlement or city", map[string]any{"Fields": what})
		}
		m.Kind = map[string]Kind{"road": BuildRoad, "settlement": BuildSettlement, "city": BuildCity}[what[0]]
		sec = sections[m.Kind]
	case "play":
		if spec.Dev == "point" {
			// §9 オ: one-point cards are not played; they count while held
			// and are shown when declaring victory.
			return m, broken("point-card-not-played", "§9 オ", "a one-point card is not played; it counts while held", nil)
		}
		pf, ok := playForms[spec.Dev]
		if !ok && spec.Dev != "" {
			return m, broken("unknown-card", "§9", fmt.Sprintf("unknown development card %q", spec.Dev), map[string]any{"Card": spec.Dev})
		}
		if ok {
			m.Kind, sec = pf.kind, sections[pf.kind]
			required = append([]string{"dev"}, pf.required...)
			optional = append([]string{"player"}, pf.optional...)
		}
	}
	set := spec.fields()
	for _, f := range required {
		if !slices.Contains(set, f) {
			return m, broken("move-field-missing", sec, fmt.Sprintf("move %q needs %q", spec.Do, f), map[string]any{"Do": spec.Do, "Field": f})
		}
	}
	for _, f := range set {
		if !slices.Contains(required, f) && !slices.Contains(optional, f) {
			return m, broken("move-field-extra", sec, fmt.Sprintf("move %q does not take %q", spec.Do, f), map[string]any{"Do": spec.Do, "Field": f})
		}
	}

	var err error
	if spec.Player != "" {
		if m.Player, err = s.player(spec.Player, sec); err != nil {
			return m, err
		}
	}
	if spec.Settlement != "" {
		m.Vertex, err = vertexNamed(spec.Settlement, sec)
	}
	if spec.City != "" && err == nil {
		m.Vertex, err = vertexNamed(spec.City, sec)
	}
	if spec.Road != nil && err == nil {
		m.Edges[0], err = edgeNamed(spec.Road, sec)
	}
	if spec.Roads != nil && err == nil {
		if len(spec.Roads) > 2 {
			return m, broken("road-building-count", sec, fmt.Sprintf("road building places at most 2 roads, not %d", len(spec.Roads)),
				map[string]any{"Player": s.names[s.current], "Left": 2, "Count": len(spec.Roads)})
		}
		for i, r := range spec.Roads {
			if m.Edges[i], err = edgeNamed(r, sec); err != nil {
				break
			}
		}
	}
	if spec.Dice != nil && err == nil {
		if len(spec.Dice) != 2 {
			return m, broken("dice-count", sec, fmt.Sprintf("a roll is two dice, not %d", len(spec.Dice)), map[string]any{"Count": len(spec.Dice)})
		}
		for i, d := range spec.Dice {
			if d < 1 || d > 6 {
				return m, broken("die-out-of-range", sec, fmt.Sprintf("die %d is not between 1 and 6", d),
					map[string]any{"Die": [2]string{"white", "blue"}[i], "Value": d})
			}
			m.Dice[i] = int8(d)
		}
	}
	for _, c := range []struct {
		in  map[string]int
		out *Cards
	}{{spec.Cards, &m.Give}, {spec.Give, &m.Give}, {spec.Get, &m.Get}, {spec.Take, &m.Get}} {
		if c.in != nil && err == nil {
			*c.out, err = cardsNamed(c.in, sec)
		}
	}
	if spec.Hex != nil && err == nil {
		h, ok := topo.hexID[*spec.Hex]
		if !ok {
			return m, broken("hex-off-board", sec, fmt.Sprintf("%v is not a land hex", *spec.Hex), map[string]any{"Hex": spec.Hex.String()})
		}
		m.Hex = int8(h)
	}
	if spec.Rob != "" && err == nil {
		m.Other, err = s.player(spec.Rob, sec)
	}
	if spec.With != "" && err == nil {
		m.Other, err = s.player(spec.With, sec)
	}
	if spec.Took != "" && err == nil {
		m.Resource, err = resourceNamed(spec.Took, sec)
	}
	if spec.Resource != "" && err == nil {
		m.Resource, err = resourceNamed(spec.Resource, sec)
	}
	if spec.Card != "" && err == nil {
		c, ok := ParseCard(spec.Card)
		if !ok {
			return m, broken("unknown-card", sec, fmt.Sprintf("unknown development card %q", spec.Card), map[string]any{"Card": spec.Card})
		}
		m.Card = c
	}
	if err == nil && (m.Kind == MoveRobber || m.Kind == PlaySoldier) && (m.Other < 0) != (m.Resource == NoResource) {
		// The card stolen is an input: named with the player robbed, and only then.
		return m, broken("rob-took", sec, "a robbery names the player robbed and the card taken, or neither", nil)
	}
	return m, err
}

func (s *State) player(name, section string) (int8, error) {
	if p, ok := s.PlayerIndex(name); ok {
		return int8(p), nil
	}
	return -1, broken("unknown-player", section, fmt.Sprintf("%s is not at the table", name), map[string]any{"Player": name})
}

// ParseVertex reads a corner's name as the referee writes it: "N(q,r)",
// the top corner of hex (q,r), or "S(q,r)", its bottom corner.
func ParseVertex(name string) (referee.Vertex, bool) {
	if len(name) < 6 || (name[0] != 'N' && name[0] != 'S') || name[1] != '(' || name[len(name)-1] != ')' {
		return referee.Vertex{}, false
	}
	qs, rs, ok := strings.Cut(name[2:len(name)-1], ",")
	if !ok {
		return referee.Vertex{}, false
	}
	q, err1 := strconv.Atoi(strings.TrimSpace(qs))
	r, err2 := strconv.Atoi(strings.TrimSpace(rs))
	if err1 != nil || err2 != nil || q < -9 || q > 9 || r < -9 || r > 9 {
		return referee.Vertex{}, false
	}
	return referee.Vertex{Hex: referee.Hex{Q: q, R: r}, South: name[0] == 'S'}, true
}

// vertexNamed returns the id of the land corner named.
func vertexNamed(name, section string) (int8, error) {
	v, ok := ParseVertex(name)
	if ok {
		if i, ok := topo.vertexID[v]; ok {
			return int8(i), nil
		}
	}
	return -1, broken("vertex-off-board", section, fmt.Sprintf("%q is not a corner of the land", name), map[string]any{"Vertex": name})
}

// edgeNamed returns the id of the land edge between the two corners named.
func edgeNamed(ends []string, section string) (int8, error) {
	if len(ends) != 2 {
		return -1, broken("edge-ends", section, fmt.Sprintf("an edge is named by its 2 corners, not %d", len(ends)), map[string]any{"Count": len(ends)})
	}
	var vs [2]referee.Vertex
	for i, name := range ends {
		v, ok := ParseVertex(name)
		if !ok || !v.Land() {
			return -1, broken("vertex-off-board", section, fmt.Sprintf("%q is not a corner of the land", name), map[string]any{"Vertex": name})
		}
		vs[i] = v
	}
	e, err := referee.NewEdge(vs[0], vs[1])
	if err != nil {
		return -1, broken("edge-not-adjacent", section, err.Error(), map[string]any{"A": vs[0].String(), "B": vs[1].String()})
	}
	i, ok := topo.edgeID[e]
	if !ok {
		return -1, broken("edge-off-board", section, fmt.Sprintf("%v is not a side of a land hex", e), map[string]any{"Edge": e.String()})
	}
	return int8(i), nil
}

func resourceNamed(name, section string) (Resource, error) {
	if r, ok := ParseResource(name); ok {
		return r, nil
	}
	return NoResource, broken("unknown-resource", section, fmt.Sprintf("unknown resource %q (brick, lumber, ore, grain, wool)", name),
		map[string]any{"Resource": name})
}

// cardsNamed reads counts of resource cards by name, in a fixed order so
// that the first fault named does not depend on the map.
func cardsNamed(in map[string]int, section string) (Cards, error) {
	var c Cards
	names := make([]string, 0, len(in))
	for name := range in {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		r, err := resourceNamed(name, section)
		if err != nil {
			return c, err
		}
		if k := in[name]; k < 0 || k > bankStock {
			return c, broken("card-count", section, fmt.Sprintf("%d %s: a count is 0 to 19", k, name),
				map[string]any{"Resource": name, "Count": k})
		}
		c[r] = int8(in[name])
	}
	return c, nil
}

// Report is what checking a game record found.
type Report struct {
	// Applied counts the moves played before the first refused one, the
	// voided ones included: all of them when Err is nil.
	Applied int
	// Err is the first move the rules refuse, with its Index; nil when
	// every move was played.
	Err *Error
	// Voided are the development cards that stood with no effect (§8 エ, §9).
	Voided []*Error
	// State is the game after the moves played.
	State *State
}

// Check plays a game record move by move from the start of the game on
// board b: it stops at the first move the rules refuse. A record that
// cannot start (players, too many moves) is an error.
func Check(rs referee.Ruleset, b referee.Board, players []string, moves []MoveSpec) (Report, error) {
	return check(rs, b, players, moves, nil)
}

// check is Check, calling played (when not nil) after each move played,
// with the game after it, the move's place in the record, the player who
// made it, the move, and whether it stood with no effect (§8 エ, §9).
func check(rs referee.Ruleset, b referee.Board, players []string, moves []MoveSpec, played func(s *State, i, p int, m Move, void bool)) (Report, error) {
	if len(moves) > MaxMoves {
		return Report{}, broken("too-many-moves", "§12", fmt.Sprintf("a record holds at most %d moves, not %d", MaxMoves, len(moves)),
			map[string]any{"Max": MaxMoves, "Count": len(moves)})
	}
	s, err := New(rs, b, players)
	if err != nil {
		return Report{}, err
	}
	rep := Report{State: s}
	for i, spec := range moves {
		m, err := s.Decode(spec)
		p := int(s.current)
		if m.Player >= 0 {
			p = int(m.Player)
		}
		if err == nil {
			err = s.Apply(m)
		}
		if err != nil {
			var e *Error
			if !errors.As(at(err, i), &e) {
				return rep, err
			}
			if !e.Void {
				rep.Err = e
				return rep, nil
			}
			rep.Voided = append(rep.Voided, e)
		}
		if played != nil {
			played(s, i, p, m, err != nil)
		}
		rep.Applied++
	}
	return rep, nil
}

// Game is a game record played from the start of the game (Play): what
// Check reports, and the position its moves built as the steps of a
// rebuilt position, in the order the pieces and cards came to the table,
// so that a judge's page evaluates a recorded game as it evaluates the
// position of a ruling (Game.Evaluate).
type Game struct {
	Report
	// Steps are the settlements and roads placed (§4) and built (§8), the
	// cities, the soldiers played with effect (§9 ア) and the one-point
	// cards bought (§9 オ), move by move.
	Steps []Step
	// StepMove is the place in the record of each step's move.
	StepMove []int
	// Movers are the players who made the moves played, by their place
	// in play order: who rolled, built, passed.
	Movers []int
}

// Play plays a game record as Check does, and keeps the position its
// moves built.
func Play(rs referee.Ruleset, b referee.Board, players []string, moves []MoveSpec) (Game, error) {
	var g Game
	rep, err := check(rs, b, players, moves, func(s *State, i, p int, m Move, void bool) {
		g.Movers = append(g.Movers, p)
		if void {
			return
		}
		for _, st := range s.steps(p, m) {
			g.Steps = append(g.Steps, st)
			g.StepMove = append(g.StepMove, i)
		}
	})
	g.Report = rep
	return g, err
}

// Evaluate evaluates the position the game's moves built under rs (its
// longest-road tie policy, §10 ア), as Evaluate evaluates a rebuilt
// position: each player's longest road with one longest trail, and the
// holders of the 2-point cards with the rule that put each there, which
// agree with the game's (State.LongestRoad, State.LargestArmy). A reason's
// Index (Award.Why) is the place in the record of the move whose change it
// was; After has a standing for each step.
func (g Game) Evaluate(rs referee.Ruleset) (*Evaluation, error) {
	s := g.State
	ev, err := Evaluate(rs, s.names[:s.n], g.Steps)
	if err != nil {
		return nil, err
	}
	for _, why := range append([]*Error{ev.LongestRoad.Why, ev.LargestArmy.Why}, ev.Notes...) {
		if why != nil && why.Index >= 0 {
			why.Index = g.StepMove[why.Index]
		}
	}
	return ev, nil
}

// steps returns the steps of a rebuilt position that move m of player p,
// just played in s, puts on the table: the pieces it places or builds,
// the soldier it plays, the one-point card it buys.
func (s *State) steps(p int, m Move) []Step {
	name := s.names[p]
	road := func(e int8) Step {
		ed := topo.edges[e]
		return Step{Do: "road", Player: name, Edge: []string{ed.A.String(), ed.B.String()}}
	}
	switch m.Kind {
	case Place:
		return []Step{{Do: "settlement", Player: name, At: topo.vertices[m.Vertex].String()}, road(m.Edges[0])}
	case BuildRoad:
		return []Step{road(m.Edges[0])}
	case PlayRoadBuilding:
		var out []Step
		for _, e := range m.Edges {
			if e >= 0 {
				out = append(out, road(e))
			}
		}
		return out
	case BuildSettlement:
		return []Step{{Do: "settlement", Player: name, At: topo.vertices[m.Vertex].String()}}
	case BuildCity:
		return []Step{{Do: "city", Player: name, At: topo.vertices[m.Vertex].String()}}
	case PlaySoldier:
		return []Step{{Do: "soldier", Player: name}}
	case Buy:
		if m.Card == Point {
			return []Step{{Do: "point_card", Player: name}}
		}
	}
	return nil
}

// Spec writes move m of s as a record writes it: the inverse of Decode.
func (s *State) Spec(m Move) MoveSpec {
	var spec MoveSpec
	if m.Player >= 0 {
		spec.Player = s.names[m.Player]
	}
	edge := func(e int8) []string {
		ed := topo.edges[e]
		return []string{ed.A.String(), ed.B.String()}
	}
	cards := func(c Cards) map[string]int {
		out := map[string]int{}
		for r, k := range c {
			if k > 0 {
				out[resourceNames[r]] = int(k)
			}
		}
		return out
	}
	robbery := func() {
		h := topo.hexes[m.Hex]
		spec.Hex = &h
		if m.Other >= 0 {
			spec.Rob, spec.Took = s.names[m.Other], m.Resource.String()
		}
	}
	switch m.Kind {
	case Place:
		spec.Do, spec.Settlement, spec.Road = "place", topo.vertices[m.Vertex].String(), edge(m.Edges[0])
	case Roll:
		spec.Do, spec.Dice = "roll", []int{int(m.Dice[0]), int(m.Dice[1])}
	case Discard:
		spec.Do, spec.Cards = "discard", cards(m.Give)
	case MoveRobber:
		spec.Do = "robber"
		robbery()
	case Trade:
		spec.Do, spec.With, spec.Give, spec.Get = "trade", s.names[m.Other], cards(m.Give), cards(m.Get)
	case BankTrade:
		spec.Do, spec.Give, spec.Get = "bank", cards(m.Give), cards(m.Get)
	case BuildRoad:
		spec.Do, spec.Road = "build", edge(m.Edges[0])
	case BuildSettlement:
		spec.Do, spec.Settlement = "build", topo.vertices[m.Vertex].String()
	case BuildCity:
		spec.Do, spec.City = "build", topo.vertices[m.Vertex].String()
	case Buy:
		spec.Do, spec.Card = "buy", m.Card.String()
	case PlaySoldier:
		spec.Do, spec.Dev = "play", "soldier"
		robbery()
	case PlayRoadBuilding:
		spec.Do, spec.Dev, spec.Roads = "play", "road_building", [][]string{}
		for _, e := range m.Edges {
			if e >= 0 {
				spec.Roads = append(spec.Roads, edge(e))
			}
		}
	case PlayHarvest:
		spec.Do, spec.Dev, spec.Take = "play", "harvest", cards(m.Get)
	case PlayMonopoly:
		spec.Do, spec.Dev, spec.Resource = "play", "monopoly", m.Resource.String()
	case Declare:
		spec.Do = "declare"
	case EndTurn:
		spec.Do = "end_turn"
	case TimeUp:
		spec.Do = "time_up"
	}
	return spec
}
