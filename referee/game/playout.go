package game

import (
	"math/bits"
	"math/rand/v2"
)

// Random is the random player of the playouts the tests and benchmarks run.
// Its policy, at each decision:
//
//   - §4 placement: a corner uniformly among those the distance rule
//     allows, then one of its free edges uniformly.
//   - Before the roll: uniformly, roll the dice or play one of the
//     development cards it may play.
//   - After a 7: each player who owes a discard returns cards drawn at
//     random from the hand; the robber goes to a hex uniformly among the
//     legal ones, robbing a player uniformly among those it may rob.
//   - The rest of the turn: declare as soon as it may (§11); else one
//     choice uniformly among every road, settlement and city it can afford
//     and place, buying a card, each 1-for-1 bank trade at its best rate
//     (a resource it can pay for one the bank holds), each card it may
//     play, and ending the turn. It never trades with players.
//   - A card's choices are drawn when it is played: the soldier's hex and
//     victim as after a 7, road building's roads one by one uniformly among
//     those then legal, harvest's cards one by one from the bank, a
//     monopoly's resource uniformly.
//
// Everything random at a real table is drawn from the source: the dice,
// the development card bought (uniformly from the deck), the card stolen
// (uniformly from the victim's hand). The zero Random is not usable: use
// NewRandom.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a random player drawing from rng.
func NewRandom(rng *rand.Rand) *Random { return &Random{rng: rng} }

// allVertices has a bit for every land corner.
const allVertices = 1<<numVertices - 1

// Next returns a legal move for s, which must not be over.
func (r *Random) Next(s *State) Move {
	p := int(s.current)
	switch s.phase {
	case Setup:
		return r.placement(s)
	case Discarding:
		return r.discard(s)
	case MovingRobber:
		m := NewMove(MoveRobber)
		r.robber(s, p, &m)
		return m
	case BeforeRoll:
		plays := r.playable(s, p)
		if k := r.rng.IntN(1 + bits.OnesCount8(plays)); k > 0 {
			return r.play(s, p, Card(nthBit(uint64(plays), k-1)))
		}
		m := NewMove(Roll)
		m.Dice = [2]int8{int8(1 + r.rng.IntN(6)), int8(1 + r.rng.IntN(6))}
		return m
	}
	if s.vp(p) >= int(s.winVP) {
		return NewMove(Declare)
	}
	return r.main(s, p)
}

func (r *Random) placement(s *State) Move {
	free := uint64(allVertices) &^ s.crowded
	for {
		v := nthBit(free, r.rng.IntN(bits.OnesCount64(free)))
		edges := topo.vertexEdgeSet[v].andNot(s.roads)
		if n := edges.count(); n > 0 {
			m := NewMove(Place)
			m.Vertex = int8(v)
			m.Edges[0] = int8(edges.nth(r.rng.IntN(n)))
			return m
		}
		free &^= 1 << v
	}
}

func (r *Random) discard(s *State) Move {
	m := NewMove(Discard)
	for q := range int(s.n) {
		if s.owed[q] == 0 {
			continue
		}
		m.Player = int8(q)
		hand := s.players[q].hand
		for range s.owed[q] {
			c := r.card(hand)
			hand[c]--
			m.Give[c]++
		}
		break
	}
	return m
}

// card returns a resource drawn uniformly from the cards of c, which must hold one.
func (r *Random) card(c Cards) Resource { return Resource(draw(r.rng, c)) }

// drawn returns a development card drawn uniformly from the deck, which must hold one.
func (r *Random) drawn(d Deck) Card { return Card(draw(r.rng, d)) }

// draw returns the kind of a card drawn uniformly from counts by kind.
func draw[C Cards | Deck](rng *rand.Rand, c C) int {
	total := 0
	for _, n := range c {
		total += int(n)
	}
	k := int8(rng.IntN(total))
	for i, n := range c {
		if k < n {
			return i
		}
		k -= n
	}
	return -1
}

// robber fills in m's robber move and robbery for player p.
func (r *Random) robber(s *State, p int, m *Move) {
	for {
		h := r.rng.IntN(numHexes)
		if h == int(s.robber) || (h == int(s.board.desert) && !s.desert) {
			continue
		}
		m.Hex = int8(h)
		if can := s.robbable(p, h); can != 0 {
			v := nthBit(uint64(can), r.rng.IntN(bits.OnesCount8(can)))
			m.Other = int8(v)
			m.Resource = r.card(s.players[v].hand)
		}
		return
	}
}

// playable returns, as bits by Card, the development cards p may play now
// to effect (§8 エ, §9).
func (r *Random) playable(s *State, p int) uint8 {
	if s.played {
		return 0
	}
	pl := &s.players[p]
	var plays uint8
	for c := Soldier; c <= Monopoly; c++ {
		if pl.cards[c] > pl.fresh[c] {
			plays |= 1 << c
		}
	}
	return plays
}

// play returns a play of card c by p with its choices drawn.
func (r *Random) play(s *State, p int, c Card) Move {
	switch c {
	case Soldier:
		m := NewMove(PlaySoldier)
		r.robber(s, p, &m)
		return m
	case RoadBuilding:
		m := NewMove(PlayRoadBuilding)
		pl := &s.players[p]
		reach, roads := pl.reach, s.roads
		for i := range min(2, maxRoads-pl.roads.count()) {
			spots := roadSpots(reach, roads)
			n := spots.count()
			if n == 0 {
				break
			}
			e := spots.nth(r.rng.IntN(n))
			m.Edges[i] = int8(e)
			roads.add(e)
			for _, v := range topo.edgeEnds[e] {
				if o := s.owner[v]; o < 0 || int(o) == p {
					reach |= 1 << v
				}
			}
		}
		return m
	case Harvest:
		m := NewMove(PlayHarvest)
		bank := s.bank
		for range min(2, bank.Total()) {
			c := r.card(bank)
			bank[c]--
			m.Get[c]++
		}
		return m
	}
	m := NewMove(PlayMonopoly)
	m.Resource = Resource(r.rng.IntN(numResources))
	return m
}

// roadSpots returns the free edges next to the corners in reach (§8 ア).
func roadSpots(reach uint64, roads edgeSet) edgeSet {
	var spots edgeSet
	for reach != 0 {
		v := bits.TrailingZeros64(reach)
		reach &= reach - 1
		spots = spots.or(topo.vertexEdgeSet[v])
	}
	return spots.andNot(roads)
}

// main picks the rest of the turn's move for p uniformly among its choices.
func (r *Random) main(s *State, p int) Move {
	pl := &s.players[p]
	var roads edgeSet
	var settle, city uint64
	if pl.hand.covers(roadCost) && pl.roads.count() < maxRoads {
		roads = roadSpots(pl.reach, s.roads)
	}
	if pl.hand.covers(settlementCost) && bits.OnesCount64(pl.settlements) < maxSettlements {
		settle = pl.roadEnds &^ s.crowded
	}
	if pl.hand.covers(cityCost) && bits.OnesCount64(pl.cities) < maxCities {
		city = pl.settlements
	}
	buy := 0
	if pl.hand.covers(cardCost) && s.deck.Total() > 0 {
		buy = 1
	}
	var rates Cards
	trades := 0
	banked := 0
	for c := range s.bank {
		if s.bank[c] > 0 {
			banked++
		}
	}
	for c := range rates {
		rates[c] = s.rate(p, Resource(c))
		if pl.hand[c] >= rates[c] {
			trades += banked
			if s.bank[c] > 0 {
				trades--
			}
		}
	}
	plays := r.playable(s, p)
	nRoads, nSettle, nCity := roads.count(), bits.OnesCount64(settle), bits.OnesCount64(city)
	nPlays := bits.OnesCount8(plays)
	k := r.rng.IntN(nRoads + nSettle + nCity + buy + trades + nPlays + 1)
	switch {
	case k < nRoads:
		m := NewMove(BuildRoad)
		m.Edges[0] = int8(roads.nth(k))
		return m
	case k < nRoads+nSettle:
		m := NewMove(BuildSettlement)
		m.Vertex = int8(nthBit(settle, k-nRoads))
		return m
	case k < nRoads+nSettle+nCity:
		m := NewMove(BuildCity)
		m.Vertex = int8(nthBit(city, k-nRoads-nSettle))
		return m
	case k < nRoads+nSettle+nCity+buy:
		m := NewMove(Buy)
		m.Card = r.drawn(s.deck)
		return m
	}
	k -= nRoads + nSettle + nCity + buy
	if k < trades {
		for give := range rates {
			if pl.hand[give] < rates[give] {
				continue
			}
			for get := range s.bank {
				if get == give || s.bank[get] == 0 {
					continue
				}
				if k == 0 {
					m := NewMove(BankTrade)
					m.Give[give] = rates[give]
					m.Get[get] = 1
					return m
				}
				k--
			}
		}
	}
	k -= trades
	if k < nPlays {
		return r.play(s, p, Card(nthBit(uint64(plays), k)))
	}
	return NewMove(EndTurn)
}

// Playout plays s to its end with the random player: until a declaration,
// or the time signal (§12) once maxTurns turns have begun. It returns the
// moves played, the time signal included. A move the player chose that the
// rules refuse is returned as an error: the player and the rules disagree.
func Playout(s *State, r *Random, maxTurns int) (int, error) {
	moves := 0
	for s.phase != Over {
		m := r.Next(s)
		if int(s.turn) > maxTurns {
			m = NewMove(TimeUp)
		}
		if err := s.Apply(m); err != nil {
			return moves, err
		}
		moves++
	}
	return moves, nil
}
