package game

import (
	"fmt"
	"math/bits"
	"strings"
)

// Apply plays move m. It returns nil when m was played. It returns an
// *Error with Void set when m is a development card the rules let stand
// with no effect (§8 エ, §9): the card goes back face down, the state is
// unchanged and the move counts as made. Any other *Error refuses m, says
// which rule it breaks, and changes nothing.
func (s *State) Apply(m Move) error {
	if s.phase == Over {
		sec := "§11"
		if s.endedBy == ByTime {
			sec = "§12"
		}
		return broken("game-over", sec, "the game has ended; no move counts after it", nil)
	}
	if m.Kind == TimeUp {
		// §12: at the judge's time signal the game ends at once, even in
		// the middle of a turn.
		s.phase, s.endedBy = Over, ByTime
		return nil
	}
	if m.Kind < 0 || m.Kind >= numKinds {
		return broken("unknown-action", "§5", fmt.Sprintf("unknown move %d", m.Kind), map[string]any{"Do": fmt.Sprint(m.Kind)})
	}
	p := int(m.Player)
	if p < 0 {
		p = int(s.current)
	}
	if p >= int(s.n) {
		return broken("unknown-player", "§5", fmt.Sprintf("player %d is not at the table", p), map[string]any{"Player": fmt.Sprint(p)})
	}
	if m.Kind == Discard {
		// §6 イ: every player with 8 or more cards discards, not only the roller.
		return s.discard(p, m.Give)
	}
	if p != int(s.current) {
		return broken("not-your-turn", sections[m.Kind], fmt.Sprintf("it is %s's turn, not %s's", s.names[s.current], s.names[p]),
			map[string]any{"Player": s.names[p], "Current": s.names[s.current]})
	}
	if err := s.phaseAllows(m.Kind); err != nil {
		return err
	}
	switch m.Kind {
	case Place:
		return s.place(p, int(m.Vertex), int(m.Edges[0]))
	case Roll:
		return s.roll(m.Dice)
	case MoveRobber:
		if err := s.checkRobber(p, m, "§6 イ"); err != nil {
			return err
		}
		s.rob(p, m)
		s.phase = Main
		return nil
	case Trade:
		return s.trade(p, int(m.Other), m.Give, m.Get)
	case BankTrade:
		return s.bankTrade(p, m.Give, m.Get)
	case BuildRoad:
		return s.buildRoad(p, int(m.Edges[0]))
	case BuildSettlement:
		return s.buildSettlement(p, int(m.Vertex))
	case BuildCity:
		return s.buildCity(p, int(m.Vertex))
	case Buy:
		return s.buy(p, m.Card)
	case PlaySoldier, PlayRoadBuilding, PlayHarvest, PlayMonopoly:
		return s.play(p, m)
	case Declare:
		// §11: on one's own turn, with 10 or more VP (the ruleset's win_vp),
		// every one-point card shown.
		if vp := s.vp(p); vp < int(s.winVP) {
			return broken("winner-under-win-vp", "§11", fmt.Sprintf("%s has %d VP, fewer than the %d needed to declare", s.names[p], vp, s.winVP),
				map[string]any{"Player": s.names[p], "VP": vp, "Need": int(s.winVP)})
		}
		s.phase, s.endedBy, s.winner = Over, ByDeclaration, int8(p)
		return nil
	case EndTurn:
		// §5: the turn passes to the next player in play order.
		pl := &s.players[p]
		pl.fresh = Deck{}
		s.played = false
		s.current = (s.current + 1) % s.n
		s.turn++
		s.phase = BeforeRoll
		return nil
	}
	return nil
}

// sections are the rulebook sections of each kind of move.
var sections = [numKinds]string{
	Place: "§4", Roll: "§6 ア", Discard: "§6 イ", MoveRobber: "§6 イ", Trade: "§7 ア", BankTrade: "§7 イ",
	BuildRoad: "§8 ア", BuildSettlement: "§8 イ", BuildCity: "§8 ウ", Buy: "§8 エ",
	PlaySoldier: "§9 ア", PlayRoadBuilding: "§9 イ", PlayHarvest: "§9 ウ", PlayMonopoly: "§9 エ",
	Declare: "§11", EndTurn: "§5", TimeUp: "§12",
}

// phaseAllows refuses a move its player may not make at this point of the turn.
func (s *State) phaseAllows(k Kind) error {
	switch s.phase {
	case Setup:
		if k != Place {
			return broken("placement-first", "§4", "the initial placement comes first: a settlement and a road each, in snake order", nil)
		}
		return nil
	case Discarding:
		if k != Declare {
			return broken("discard-first", "§6 イ", "after a 7, the players with 8 or more cards discard first", map[string]any{"Players": s.owing()})
		}
	case MovingRobber:
		if k != MoveRobber && k != Declare {
			return broken("robber-first", "§6 イ", "after a 7 the robber moves first", nil)
		}
	}
	switch k {
	case Place:
		return broken("placement-over", "§4", "the initial placement is over", nil)
	case MoveRobber:
		if s.phase != MovingRobber {
			return broken("no-robber-move", "§6 イ", "the robber moves after a 7 or with a soldier", nil)
		}
	case Roll:
		if s.phase != BeforeRoll {
			return broken("already-rolled", "§6 ア", "the dice were already rolled this turn", nil)
		}
	case Trade, BankTrade, BuildRoad, BuildSettlement, BuildCity, Buy, EndTurn:
		// §5: production first, then trade and build, then pass.
		if s.phase == BeforeRoll {
			return broken("roll-first", "§5", "roll the dice first: production comes before trading and building", nil)
		}
	}
	return nil
}

// owing names the players who still owe a discard.
func (s *State) owing() []string {
	var names []string
	for p := range int(s.n) {
		if s.owed[p] > 0 {
			names = append(names, s.names[p])
		}
	}
	return names
}

func (s *State) place(p, v, e int) error {
	if v < 0 || v >= numVertices || e < 0 || e >= numEdges {
		return broken("move-field-missing", "§4", "a placement needs a settlement and a road", map[string]any{"Do": "place", "Field": "settlement, road"})
	}
	b := uint64(1) << v
	switch {
	case s.built&b != 0:
		return broken("corner-taken", "§4 ア", fmt.Sprintf("%v already has a building", topo.vertices[v]), map[string]any{"Vertex": topo.vertices[v].String()})
	case s.crowded&b != 0:
		// §4 ア: no settlement next to any settlement or city.
		return broken("distance-rule", "§4 ア", fmt.Sprintf("%v is next to a building", topo.vertices[v]), map[string]any{"Vertex": topo.vertices[v].String()})
	case s.roads.has(e):
		return broken("edge-taken", "§4 ア", fmt.Sprintf("%v already has a road", topo.edges[e]), map[string]any{"Edge": topo.edges[e].String()})
	case topo.edgeEndSet[e]&b == 0:
		// §4 ア, イ: the road goes out from the settlement just placed.
		return broken("road-not-at-settlement", "§4 ア", fmt.Sprintf("road %v does not touch the settlement on %v", topo.edges[e], topo.vertices[v]),
			map[string]any{"Edge": topo.edges[e].String(), "Vertex": topo.vertices[v].String()})
	}
	s.placeSettlement(p, v)
	s.placeRoad(p, e)
	if s.placed >= s.n {
		// §4 ウ: one resource from each land hex next to the second settlement;
		// the desert gives nothing.
		for _, h := range topo.vertexHexes[v] {
			if h < 0 {
				break
			}
			if r := s.board.resource[h]; r != NoResource && s.bank[r] > 0 {
				s.players[p].hand[r]++
				s.bank[r]--
			}
		}
	}
	s.placed++
	switch {
	case s.placed < s.n:
		// §4 ア: the first round in play order,
		s.current = s.placed
	case s.placed < 2*s.n:
		// §4 イ: the second in reverse order.
		s.current = 2*s.n - 1 - s.placed
	default:
		s.phase, s.current, s.turn = BeforeRoll, 0, 1
	}
	return nil
}

func (s *State) roll(dice [2]int8) error {
	for i, d := range dice {
		if d < 1 || d > 6 {
			return broken("die-out-of-range", "§6 ア", fmt.Sprintf("die %d is not between 1 and 6", d),
				map[string]any{"Die": [2]string{"white", "blue"}[i], "Value": int(d)})
		}
	}
	sum := int(dice[0] + dice[1])
	if sum != 7 {
		s.produce(sum)
		s.phase = Main
		return nil
	}
	// §6 イ: on a 7 nobody produces; each player with 8 or more cards
	// returns half, rounded down, then the roller moves the robber.
	s.phase = MovingRobber
	for q := range int(s.n) {
		if t := s.players[q].hand.Total(); t >= 8 {
			s.owed[q] = int8(t / 2)
			s.phase = Discarding
		}
	}
	return nil
}

// produce pays the roll's production (§6 ア).
func (s *State) produce(sum int) {
	var due [4]Cards
	var need Cards
	var takers [numResources]uint8
	for _, h := range s.board.byNumber[sum] {
		if h < 0 {
			break
		}
		if h == s.robber {
			// §6 ア: nothing from the hex under the robber.
			continue
		}
		r := s.board.resource[h]
		corners := topo.hexVertexSet[h] & s.built
		for corners != 0 {
			v := bits.TrailingZeros64(corners)
			corners &= corners - 1
			o := s.owner[v]
			// §6 ア: a settlement gets 1 card, a city 2.
			k := int8(1)
			if s.players[o].cities&(1<<v) != 0 {
				k = 2
			}
			due[o][r] += k
			need[r] += k
			takers[r] |= 1 << o
		}
	}
	for r := range need {
		switch {
		case need[r] == 0:
		case need[r] <= s.bank[r]:
			for q := range int(s.n) {
				s.players[q].hand[r] += due[q][r]
			}
			s.bank[r] -= need[r]
		case s.rests && bits.OnesCount8(takers[r]) == 1:
			// §6 ア, ruleset single-takes-rest: one recipient takes what is left.
			q := bits.TrailingZeros8(takers[r])
			s.players[q].hand[r] += s.bank[r]
			s.bank[r] = 0
		default:
			// §6 ア ruling: when the bank holds fewer cards of a resource
			// than the roll demands, nobody gets that resource; the
			// others are paid normally.
		}
	}
}

func (s *State) discard(p int, cards Cards) error {
	if s.phase != Discarding || s.owed[p] == 0 {
		return broken("no-discard-due", "§6 イ", fmt.Sprintf("%s owes no discard", s.names[p]), map[string]any{"Player": s.names[p]})
	}
	if err := s.checkCards(cards, "§6 イ"); err != nil {
		return err
	}
	// §6 イ: half the hand, rounded down, cards of the player's choice.
	if cards.Total() != int(s.owed[p]) {
		return broken("discard-count", "§6 イ", fmt.Sprintf("%s discards %d cards, want %d (half of the hand, rounded down)", s.names[p], cards.Total(), s.owed[p]),
			map[string]any{"Player": s.names[p], "Got": cards.Total(), "Want": int(s.owed[p])})
	}
	if err := s.holds(p, cards, "§6 イ"); err != nil {
		return err
	}
	s.players[p].hand.take(cards)
	s.bank.add(cards)
	s.owed[p] = 0
	if s.owed == [4]int8{} {
		s.phase = MovingRobber
	}
	return nil
}

// checkCards refuses a negative count or more cards than the game has.
func (s *State) checkCards(c Cards, section string) error {
	for r, k := range c {
		if k < 0 || k > bankStock {
			return broken("card-count", section, fmt.Sprintf("%d %s: a count is 0 to 19", k, Resource(r)),
				map[string]any{"Resource": Resource(r).String(), "Count": int(k)})
		}
	}
	return nil
}

// holds refuses unless player p holds the cards c.
func (s *State) holds(p int, c Cards, section string) error {
	if s.players[p].hand.covers(c) {
		return nil
	}
	var short []string
	for r, k := range c {
		if k > s.players[p].hand[r] {
			short = append(short, Resource(r).String())
		}
	}
	return broken("short-of-cards", section, fmt.Sprintf("%s does not hold enough %s", s.names[p], strings.Join(short, ", ")),
		map[string]any{"Player": s.names[p], "Resources": short})
}
