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

// robbable returns the players other than p with a building on a corner
// of hex h and at least one resource card, as bits.
func (s *State) robbable(p, h int) uint8 {
	var can uint8
	corners := topo.hexVertexSet[h] & s.built
	for corners != 0 {
		v := bits.TrailingZeros64(corners)
		corners &= corners - 1
		if o := int(s.owner[v]); o != p && s.players[o].hand.Total() > 0 {
			can |= 1 << o
		}
	}
	return can
}

// checkRobber checks the robber's move and the robbery of m by player p,
// after a 7 (§6 イ) or a soldier (§9 ア).
func (s *State) checkRobber(p int, m Move, section string) error {
	h := int(m.Hex)
	switch {
	case h < 0 || h >= numHexes:
		return broken("move-field-missing", section, "the robber's move needs the hex it goes to", map[string]any{"Do": "robber", "Field": "hex"})
	case h == int(s.robber):
		// §6 イ: to a land hex other than the one it is on.
		return broken("robber-same-hex", section, fmt.Sprintf("the robber is already on %v", topo.hexes[h]), map[string]any{"Hex": topo.hexes[h].String()})
	case h == int(s.board.desert) && !s.desert:
		// §6 イ: the desert is allowed only where the ruleset puts the robber on it (robber_on_desert).
		return broken("robber-desert", section, "this ruleset keeps the robber off the desert", map[string]any{"Hex": topo.hexes[h].String()})
	}
	can := s.robbable(p, h)
	v := int(m.Other)
	if v < 0 {
		// §6 イ: nobody is robbed only when no other player with a card has a building there.
		if can != 0 {
			var names []string
			for q := range int(s.n) {
				if can&(1<<q) != 0 {
					names = append(names, s.names[q])
				}
			}
			return broken("rob-required", section, fmt.Sprintf("one of %v must be robbed", names),
				map[string]any{"Hex": topo.hexes[h].String(), "Players": names})
		}
		return nil
	}
	if v >= int(s.n) || can&(1<<v) == 0 {
		name := fmt.Sprint(v)
		if v < int(s.n) {
			name = s.names[v]
		}
		return broken("rob-not-eligible", section, fmt.Sprintf("%s has no building on %v or no card", name, topo.hexes[h]),
			map[string]any{"Player": name, "Hex": topo.hexes[h].String()})
	}
	if r := m.Resource; r < 0 || r >= numResources || s.players[v].hand[r] == 0 {
		return broken("took-not-held", section, fmt.Sprintf("%s holds no %s to be taken", s.names[v], r),
			map[string]any{"Player": s.names[v], "Resource": r.String()})
	}
	return nil
}

// rob moves the robber and takes the card, once checkRobber allowed it.
func (s *State) rob(p int, m Move) {
	s.robber = m.Hex
	if v := m.Other; v >= 0 {
		s.players[v].hand[m.Resource]--
		s.players[p].hand[m.Resource]++
	}
}

func (s *State) trade(p, q int, give, get Cards) error {
	if q < 0 || q >= int(s.n) {
		return broken("move-field-missing", "§7 ア", "a trade names the player traded with", map[string]any{"Do": "trade", "Field": "with"})
	}
	if q == p {
		return broken("trade-self", "§7 ア", "a player cannot trade with themselves", map[string]any{"Player": s.names[p]})
	}
	if err := s.checkTrade(give, get, "§7 ア"); err != nil {
		return err
	}
	if err := s.holds(p, give, "§7 ア"); err != nil {
		return err
	}
	if err := s.holds(q, get, "§7 ア"); err != nil {
		return err
	}
	s.players[p].hand.take(give)
	s.players[q].hand.add(give)
	s.players[q].hand.take(get)
	s.players[p].hand.add(get)
	return nil
}

// checkTrade refuses giving for nothing and one resource on both sides (§7).
func (s *State) checkTrade(give, get Cards, section string) error {
	if err := s.checkCards(give, section); err != nil {
		return err
	}
	if err := s.checkCards(get, section); err != nil {
		return err
	}
	if give.Total() == 0 || get.Total() == 0 {
		// §7: giving cards away for nothing is not a trade.
		return broken("trade-one-sided", section, "a trade has cards on both sides", nil)
	}
	for r := range give {
		if give[r] > 0 && get[r] > 0 {
			// §7 ア: offering and asking for the same resource is forbidden.
			return broken("trade-same-resource", section, fmt.Sprintf("%s is both given and asked for", Resource(r)),
				map[string]any{"Resource": Resource(r).String()})
		}
	}
	return nil
}

// rate returns the best rate player p owns for resource r (§7 イ, ウ): what
// the player pays the bank for one card at best.
func (s *State) rate(p int, r Resource) int8 {
	switch rates := s.rates(p, r); {
	case rates&(1<<2) != 0:
		return 2
	case rates&(1<<3) != 0:
		return 3
	}
	return 4
}

// rates returns the rates player p may trade resource r at with the bank,
// bit k for k:1: 4:1 with anyone (§7 イ), 3:1 with a building at a 3:1
// harbour, 2:1 with one at the 2:1 harbour of r (§7 ウ).
func (s *State) rates(p int, r Resource) uint8 {
	ports := s.players[p].ports
	rates := uint8(1 << 4)
	if ports&1 != 0 {
		rates |= 1 << 3
	}
	if ports&(1<<(1+r)) != 0 {
		rates |= 1 << 2
	}
	return rates
}

// tradeUnits returns, bit u for u cards, what k identical cards buy from
// the bank as trades at the rates given (bit r for r:1), each trade one
// card; 0 when k cards are no whole number of trades.
func tradeUnits(k int8, rates uint8) uint64 {
	// buys[c] is what exactly c cards buy, as bits.
	var buys [bankStock + 1]uint64
	buys[0] = 1
	for c := 1; c <= int(k); c++ {
		for rate := 2; rate <= 4; rate++ {
			if rates&(1<<rate) != 0 && c >= rate {
				buys[c] |= buys[c-rate] << 1
			}
		}
	}
	return buys[k]
}

// tradeTable is tradeUnits for every count of one resource and every set
// of rates (indexed by rates>>2), so that playing a bank trade is a lookup.
var tradeTable = func() (t [8][bankStock + 1]uint64) {
	for i := range t {
		for k := range t[i] {
			t[i][k] = tradeUnits(int8(k), uint8(i<<2))
		}
	}
	return t
}()

func (s *State) bankTrade(p int, give, get Cards) error {
	if err := s.checkTrade(give, get, "§7 イ"); err != nil {
		return err
	}
	// §7 イ, ウ: each card got is one trade of identical cards, 4:1 or at a
	// harbour the player owns. Ruling: the best rate is the player's right,
	// not a duty; a 4:1 trade by a harbour's owner is legal, and a record
	// of it stands. Several trades may be one move.
	buys := uint64(1)
	for r, k := range give {
		if k == 0 {
			continue
		}
		units := tradeTable[s.rates(p, Resource(r))>>2][k]
		if units == 0 {
			rate := s.rate(p, Resource(r))
			return broken("bank-rate", "§7 ウ", fmt.Sprintf("%d %s is no whole number of trades at the rates %s owns (best %d:1)", k, Resource(r), s.names[p], rate),
				map[string]any{"Player": s.names[p], "Resource": Resource(r).String(), "Count": int(k), "Rate": int(rate)})
		}
		var sum uint64
		for ; units != 0; units &= units - 1 {
			sum |= buys << bits.TrailingZeros64(units)
		}
		buys = sum
	}
	if asked := get.Total(); asked >= 64 || buys&(1<<asked) == 0 {
		// What the cards buy is a run of numbers: name its end nearest
		// to what was asked.
		least, most := bits.TrailingZeros64(buys), 63-bits.LeadingZeros64(buys)
		units, msg := most, fmt.Sprintf("the cards given buy at most %d, but %d are asked for", most, asked)
		if asked < least {
			units, msg = least, fmt.Sprintf("the cards given buy at least %d, but %d are asked for", least, asked)
		}
		return broken("bank-rate-total", "§7 イ", msg, map[string]any{"Units": units, "Asked": asked})
	}
	if err := s.holds(p, give, "§7 イ"); err != nil {
		return err
	}
	if err := s.bankHolds(get, "§7 イ"); err != nil {
		return err
	}
	s.players[p].hand.take(give)
	s.bank.add(give)
	s.bank.take(get)
	s.players[p].hand.add(get)
	return nil
}

// bankHolds refuses cards the bank does not hold.
func (s *State) bankHolds(c Cards, section string) error {
	for r, k := range c {
		if k > s.bank[r] {
			return broken("bank-short", section, fmt.Sprintf("the bank holds %d %s, not %d", s.bank[r], Resource(r), k),
				map[string]any{"Resource": Resource(r).String(), "Held": int(s.bank[r]), "Count": int(k)})
		}
	}
	return nil
}

// pay takes cost from player p's hand to the bank (§8).
func (s *State) pay(p int, cost Cards, section string) error {
	if err := s.holds(p, cost, section); err != nil {
		return err
	}
	s.players[p].hand.take(cost)
	s.bank.add(cost)
	return nil
}

// canRoad checks a road of player p on edge e (§8 ア).
func (s *State) canRoad(p, e int, section string) error {
	if e < 0 || e >= numEdges {
		return broken("move-field-missing", section, "a road needs its edge", map[string]any{"Do": "build", "Field": "road"})
	}
	pl := &s.players[p]
	switch {
	case s.roads.has(e):
		return broken("edge-taken", section, fmt.Sprintf("%v already has a road", topo.edges[e]), map[string]any{"Edge": topo.edges[e].String()})
	case pl.reach&topo.edgeEndSet[e] == 0:
		// §8 ア: touching the player's own settlement, city or road, and not
		// through an opponent's settlement or city.
		return broken("road-unconnected", section, fmt.Sprintf("road %v touches none of %s's pieces (or only through an opponent's building)", topo.edges[e], s.names[p]),
			map[string]any{"Edge": topo.edges[e].String(), "Player": s.names[p]})
	case pl.roads.count() >= maxRoads:
		return broken("no-pieces", section, fmt.Sprintf("%s has no road left (15)", s.names[p]), map[string]any{"Player": s.names[p], "Piece": "road", "Max": maxRoads})
	}
	return nil
}

func (s *State) buildRoad(p, e int) error {
	if err := s.canRoad(p, e, "§8 ア"); err != nil {
		return err
	}
	if err := s.pay(p, roadCost, "§8 ア"); err != nil {
		return err
	}
	s.placeRoad(p, e)
	return nil
}

// canSettle checks a settlement of player p on corner v (§8 イ).
func (s *State) canSettle(p, v int) error {
	if v < 0 || v >= numVertices {
		return broken("move-field-missing", "§8 イ", "a settlement needs its corner", map[string]any{"Do": "build", "Field": "settlement"})
	}
	b := uint64(1) << v
	pl := &s.players[p]
	switch {
	case s.built&b != 0:
		return broken("corner-taken", "§8 イ", fmt.Sprintf("%v already has a building", topo.vertices[v]), map[string]any{"Vertex": topo.vertices[v].String()})
	case s.crowded&b != 0:
		// §8 イ: not next to any settlement or city.
		return broken("distance-rule", "§8 イ", fmt.Sprintf("%v is next to a building", topo.vertices[v]), map[string]any{"Vertex": topo.vertices[v].String()})
	case pl.roadEnds&b == 0:
		// §8 イ: on a corner the player's own road reaches.
		return broken("settlement-unconnected", "§8 イ", fmt.Sprintf("no road of %s reaches %v", s.names[p], topo.vertices[v]),
			map[string]any{"Vertex": topo.vertices[v].String(), "Player": s.names[p]})
	case bits.OnesCount64(pl.settlements) >= maxSettlements:
		return broken("no-pieces", "§8 イ", fmt.Sprintf("%s has no settlement left (5)", s.names[p]), map[string]any{"Player": s.names[p], "Piece": "settlement", "Max": maxSettlements})
	}
	return nil
}

func (s *State) buildSettlement(p, v int) error {
	if err := s.canSettle(p, v); err != nil {
		return err
	}
	if err := s.pay(p, settlementCost, "§8 イ"); err != nil {
		return err
	}
	s.placeSettlement(p, v)
	return nil
}

// canCity checks a city of player p on corner v (§8 ウ).
func (s *State) canCity(p, v int) error {
	if v < 0 || v >= numVertices {
		return broken("move-field-missing", "§8 ウ", "a city needs its corner", map[string]any{"Do": "build", "Field": "city"})
	}
	pl := &s.players[p]
	switch {
	case pl.settlements&(1<<v) == 0:
		// §8 ウ: a city replaces one of the player's settlements.
		return broken("city-not-on-settlement", "§8 ウ", fmt.Sprintf("%s has no settlement on %v", s.names[p], topo.vertices[v]),
			map[string]any{"Vertex": topo.vertices[v].String(), "Player": s.names[p]})
	case bits.OnesCount64(pl.cities) >= maxCities:
		return broken("no-pieces", "§8 ウ", fmt.Sprintf("%s has no city left (4)", s.names[p]), map[string]any{"Player": s.names[p], "Piece": "city", "Max": maxCities})
	}
	return nil
}

func (s *State) buildCity(p, v int) error {
	if err := s.canCity(p, v); err != nil {
		return err
	}
	if err := s.pay(p, cityCost, "§8 ウ"); err != nil {
		return err
	}
	// §8 ウ: the settlement goes back to the player's supply.
	s.players[p].settlements &^= 1 << v
	s.players[p].cities |= 1 << v
	return nil
}

func (s *State) buy(p int, c Card) error {
	switch {
	case s.deck.Total() == 0:
		return broken("deck-empty", "§8 エ", "no development card is left to buy", nil)
	case c < 0 || c >= numCards:
		return broken("move-field-missing", "§8 エ", "a purchase names the card drawn", map[string]any{"Do": "buy", "Field": "card"})
	case s.deck[c] == 0:
		// The deck is physical: the card drawn is an input, and must be one still in it.
		return broken("card-not-in-deck", "§8 エ", fmt.Sprintf("no %s card is left in the deck", c), map[string]any{"Card": c.String()})
	}
	if err := s.pay(p, cardCost, "§8 エ"); err != nil {
		return err
	}
	s.deck[c]--
	pl := &s.players[p]
	pl.cards[c]++
	// §9 オ: a one-point card counts from its purchase; the others wait a turn (§8 エ).
	pl.fresh[c]++
	return nil
}

// playCard is the card each play move plays.
var playCard = [numKinds]Card{PlaySoldier: Soldier, PlayRoadBuilding: RoadBuilding, PlayHarvest: Harvest, PlayMonopoly: Monopoly}

func (s *State) play(p int, m Move) error {
	c := playCard[m.Kind]
	pl := &s.players[p]
	sec := sections[m.Kind]
	if pl.cards[c] == 0 {
		return broken("no-such-card", sec, fmt.Sprintf("%s holds no unplayed %s card", s.names[p], c), map[string]any{"Player": s.names[p], "Card": c.String()})
	}
	if s.played {
		// §9: a second card in one turn has no effect and is turned face
		// down. Ruling: back among the unplayed cards, playable later.
		v := broken("second-card", "§9", fmt.Sprintf("%s already played a development card this turn", s.names[p]), map[string]any{"Player": s.names[p], "Card": c.String()})
		v.Void = true
		return v
	}
	if pl.cards[c] == pl.fresh[c] {
		// §8 エ: a card played in the turn it was bought has no effect and
		// is turned face down. Ruling: back among the unplayed cards,
		// playable later, not using up the turn's card; a soldier so
		// played does not count for largest army.
		v := broken("card-on-purchase-turn", "§8 エ", fmt.Sprintf("%s bought this %s card this turn", s.names[p], c), map[string]any{"Player": s.names[p], "Card": c.String()})
		v.Void = true
		return v
	}
	switch m.Kind {
	case PlaySoldier:
		// §9 ア: the robber moves and robs as on a 7, but nobody discards.
		if err := s.checkRobber(p, m, sec); err != nil {
			return err
		}
		s.rob(p, m)
	case PlayRoadBuilding:
		if err := s.roadBuilding(p, m.Edges); err != nil {
			return err
		}
	case PlayHarvest:
		// §9 ウ: any two resources from the bank (all it has, when fewer).
		if err := s.checkCards(m.Get, sec); err != nil {
			return err
		}
		if want := min(2, s.bank.Total()); m.Get.Total() != want {
			return broken("harvest-count", sec, fmt.Sprintf("harvest takes %d cards, not %d", want, m.Get.Total()),
				map[string]any{"Got": m.Get.Total(), "Want": want})
		}
		if err := s.bankHolds(m.Get, sec); err != nil {
			return err
		}
		s.bank.take(m.Get)
		pl.hand.add(m.Get)
	case PlayMonopoly:
		r := m.Resource
		if r < 0 || r >= numResources {
			return broken("move-field-missing", sec, "monopoly names a resource", map[string]any{"Do": "play", "Field": "resource"})
		}
		// §9 エ: every player hands over all of the resource named.
		for q := range int(s.n) {
			if q != p {
				pl.hand[r] += s.players[q].hand[r]
				s.players[q].hand[r] = 0
			}
		}
	}
	pl.cards[c]--
	pl.played[c]++
	s.played = true
	if c == Soldier {
		s.army = armyHolder(s.army, s.soldiers(), p)
	}
	return nil
}

// roadBuilding places the roads of a road building card (§9 イ): up to two,
// within the roads the player has left; all or none of them.
func (s *State) roadBuilding(p int, edges [2]int8) error {
	n := 0
	for _, e := range edges {
		if e >= 0 {
			n++
		}
	}
	if left := maxRoads - s.players[p].roads.count(); n > left {
		return broken("road-building-count", "§9 イ", fmt.Sprintf("%s has %d roads left, not %d", s.names[p], left, n),
			map[string]any{"Player": s.names[p], "Left": left, "Count": n})
	}
	before := *s
	for _, e := range edges {
		if e < 0 {
			continue
		}
		if err := s.canRoad(p, int(e), "§9 イ"); err != nil {
			*s = before
			return err
		}
		s.placeRoad(p, int(e))
	}
	return nil
}

// soldiers returns each colour's soldiers played with effect.
func (s *State) soldiers() []int8 {
	var k [4]int8
	for q := range int(s.n) {
		k[q] = s.players[q].played[Soldier]
	}
	return k[:s.n]
}

// placeRoad puts player p's road on edge e, already checked.
func (s *State) placeRoad(p, e int) {
	pl := &s.players[p]
	pl.roads.add(e)
	s.roads.add(e)
	s.roadOf[e] = int8(p)
	for _, v := range topo.edgeEnds[e] {
		b := uint64(1) << v
		pl.roadEnds |= b
		if o := s.owner[v]; o < 0 || int(o) == p {
			pl.reach |= b
		}
	}
	pl.road = int8(longestTrail(pl.roads, s.built&^(pl.settlements|pl.cities)))
	s.longest = longestHolder(s.longest, s.lengths(), false, s.keeps)
}

// placeSettlement puts player p's settlement on corner v, already checked,
// and cuts the opponents' roads through it (§10 ア).
func (s *State) placeSettlement(p, v int) {
	b := uint64(1) << v
	pl := &s.players[p]
	pl.settlements |= b
	pl.reach |= b
	s.built |= b
	s.crowded |= b | topo.vertexNear[v]
	s.owner[v] = int8(p)
	if k := s.board.harbor[v]; k >= 0 {
		pl.ports |= 1 << k
	}
	changed, cut := false, false
	for q := range int(s.n) {
		o := &s.players[q]
		if q == p || o.roadEnds&b == 0 {
			continue
		}
		// §8 ア: no road continues through an opponent's building.
		o.reach &^= b
		through := 0
		for _, e := range topo.vertexEdges[v] {
			if e >= 0 && int(s.roadOf[e]) == q {
				through++
			}
		}
		if through >= 2 {
			// §10 ア: built in the middle of q's road, which it cuts there.
			o.road = int8(longestTrail(o.roads, s.built&^(o.settlements|o.cities)))
			changed = true
			cut = cut || int(s.longest) == q
		}
	}
	if changed {
		s.longest = longestHolder(s.longest, s.lengths(), cut, s.keeps)
	}
}

// lengths returns each colour's longest road.
func (s *State) lengths() []int8 {
	var l [4]int8
	for q := range int(s.n) {
		l[q] = s.players[q].road
	}
	return l[:s.n]
}
