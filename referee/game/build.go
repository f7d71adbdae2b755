package game

import (
	"fmt"
	"math/bits"
)

// Building (§8): paying for roads, settlements, cities and development
// cards, where each may go, and the longest road a piece changes (§10).

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
