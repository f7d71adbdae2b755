package game

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// checkInvariants fails unless s keeps every count the game's components
// allow and every fact derived from the pieces agrees with them.
func checkInvariants(s *State) error {
	n := int(s.n)
	// §1, §6: every resource's bank plus hands is 19.
	for r := range numResources {
		total := int(s.bank[r])
		if s.bank[r] < 0 {
			return fmt.Errorf("bank holds %d %s", s.bank[r], Resource(r))
		}
		for p := range n {
			if s.players[p].hand[r] < 0 {
				return fmt.Errorf("%s holds %d %s", s.names[p], s.players[p].hand[r], Resource(r))
			}
			total += int(s.players[p].hand[r])
		}
		if total != bankStock {
			return fmt.Errorf("%s: bank + hands = %d, want 19", Resource(r), total)
		}
	}
	// §1: the deck plus cards held and played is 25, 14/2/2/2/5.
	for c := range numCards {
		total := int(s.deck[c])
		for p := range n {
			pl := &s.players[p]
			if pl.cards[c] < 0 || pl.fresh[c] < 0 || pl.fresh[c] > pl.cards[c] || pl.played[c] < 0 {
				return fmt.Errorf("%s: %s held %d, fresh %d, played %d", s.names[p], Card(c), pl.cards[c], pl.fresh[c], pl.played[c])
			}
			total += int(pl.cards[c] + pl.played[c])
		}
		if total != int(FullDeck[c]) {
			return fmt.Errorf("%s: deck + held + played = %d, want %d", Card(c), total, FullDeck[c])
		}
	}
	if s.players[0].played[Point] != 0 {
		return errors.New("a one-point card was played")
	}
	// §8: pieces within 15 roads, 5 settlements, 4 cities; the board's
	// tables agree with each colour's sets.
	var built uint64
	var roads edgeSet
	for p := range n {
		pl := &s.players[p]
		if pl.roads.count() > maxRoads || bits.OnesCount64(pl.settlements) > maxSettlements || bits.OnesCount64(pl.cities) > maxCities {
			return fmt.Errorf("%s has %d roads, %d settlements, %d cities", s.names[p], pl.roads.count(), bits.OnesCount64(pl.settlements), bits.OnesCount64(pl.cities))
		}
		if pl.settlements&pl.cities != 0 || built&(pl.settlements|pl.cities) != 0 {
			return fmt.Errorf("%s: two buildings on one corner", s.names[p])
		}
		built |= pl.settlements | pl.cities
		if !roads.andNot(roads.andNot(pl.roads)).empty() {
			return fmt.Errorf("%s: two roads on one edge", s.names[p])
		}
		roads = roads.or(pl.roads)
	}
	if built != s.built || roads != s.roads {
		return errors.New("the board's corners or edges disagree with the colours' pieces")
	}
	for v := range numVertices {
		o := int(s.owner[v])
		if (o >= 0) != (built&(1<<v) != 0) || (o >= 0 && (s.players[o].settlements|s.players[o].cities)&(1<<v) == 0) {
			return fmt.Errorf("corner %v: owner %d disagrees", topo.vertices[v], o)
		}
		if o >= 0 {
			// §4 ア, §8 イ: the distance rule holds everywhere.
			if topo.vertexNear[v]&built != 0 {
				return fmt.Errorf("buildings next to each other at %v", topo.vertices[v])
			}
			// §4, §8 イ: every building has a road of its colour.
			if s.players[o].roadEnds&(1<<v) == 0 {
				return fmt.Errorf("the building on %v has no road of its colour", topo.vertices[v])
			}
		}
	}
	for e := range numEdges {
		o := int(s.roadOf[e])
		if (o >= 0) != s.roads.has(e) || (o >= 0 && !s.players[o].roads.has(e)) {
			return fmt.Errorf("edge %v: owner %d disagrees", topo.edges[e], o)
		}
	}
	// §10 ア: each colour's longest road is its longest trail now, and the
	// holder has the single or a shared longest of 5 or more; the bank
	// keeps it only while nobody has the single longest of 5 or more.
	best, count := int8(0), 0
	for p := range n {
		pl := &s.players[p]
		if got := int8(longestTrail(pl.roads, s.built&^(pl.settlements|pl.cities))); got != pl.road {
			return fmt.Errorf("%s: longest road %d, recounted %d", s.names[p], pl.road, got)
		}
		switch {
		case pl.road > best:
			best, count = pl.road, 1
		case pl.road == best:
			count++
		}
	}
	if h := s.longest; h >= 0 && (s.players[h].road < 5 || s.players[h].road < best) {
		return fmt.Errorf("%s holds the longest road with %d, the longest is %d", s.names[h], s.players[h].road, best)
	}
	if s.longest < 0 && best >= 5 && count == 1 {
		return fmt.Errorf("the longest road (%d) is in the bank with a single longest road", best)
	}
	// §10 イ: the army's holder has 3 soldiers or more and the most.
	most := int8(0)
	for p := range n {
		most = max(most, s.players[p].played[Soldier])
	}
	if h := s.army; (h < 0 && most >= 3) || (h >= 0 && (s.players[h].played[Soldier] < 3 || s.players[h].played[Soldier] < most)) {
		return fmt.Errorf("largest army held by %d with the most soldiers %d", h, most)
	}
	// §11: VP recounted from the corners and cards equals the breakdown.
	for p := range n {
		vp := int(s.players[p].cards[Point])
		for v := range numVertices {
			if int(s.owner[v]) == p {
				vp++
				if s.players[p].cities&(1<<v) != 0 {
					vp++
				}
			}
		}
		if int(s.longest) == p {
			vp += 2
		}
		if int(s.army) == p {
			vp += 2
		}
		if b := s.VP(p); b.Total() != vp || s.vp(p) != vp {
			return fmt.Errorf("%s: VP %d (%+v), recounted %d", s.names[p], s.vp(p), b, vp)
		}
	}
	// §6 イ: discards are owed only while the phase waits for them.
	owing := s.owed != [4]int8{}
	if owing != (s.phase == Discarding) && s.phase != Over {
		return fmt.Errorf("discards owed %v in phase %v", s.owed, s.phase)
	}
	if s.robber >= numHexes || (s.robber < 0 && s.board.robber >= 0) {
		return fmt.Errorf("robber on %d", s.robber)
	}
	return nil
}

// rulesetVariants are the preset and each other policy a ruleset may choose.
func rulesetVariants() map[string]referee.Ruleset {
	keeps, rests, noDesert := preset(), preset(), preset()
	keeps.LongestRoadTie = referee.LongestRoadHolderKeeps
	rests.BankShortage = referee.BankShortageSingleTakesRest
	noDesert.RobberOnDesert = false
	return map[string]referee.Ruleset{"preset": preset(), "holder-keeps": keeps, "single-takes-rest": rests, "robber-off-desert": noDesert}
}

// Over many seeded random games of 3 and 4 players under every policy, the
// invariants hold after every move, and the record replays to the same
// game, move by move and through its written form.
func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	for _, name := range []string{"preset", "holder-keeps", "single-takes-rest", "robber-off-desert"} {
		rs := rulesetVariants()[name]
		t.Run(name, func(t *testing.T) {
			declared := 0
			for g := range games {
				seed := uint64(1000*len(name) + g)
				start := randomGame(t, rs, 3+g%2, seed)
				s := *start
				r := NewRandom(rand.New(rand.NewPCG(seed, 99)))
				var record []Move
				for s.phase != Over {
					m := r.Next(&s)
					if s.turn > 400 {
						m = NewMove(TimeUp)
					}
					if err := s.Apply(m); err != nil {
						t.Fatalf("game %d move %d: the random player's %+v refused: %v", g, len(record), m, err)
					}
					record = append(record, m)
					if err := checkInvariants(&s); err != nil {
						t.Fatalf("game %d after move %d (%+v): %v", g, len(record)-1, m, err)
					}
				}
				if s.endedBy == ByDeclaration {
					declared++
				}
				// §10 ア: the longest roads of the end agree with the brute force.
				for p := range int(s.n) {
					pl := &s.players[p]
					var list []int
					for e := range numEdges {
						if pl.roads.has(e) {
							list = append(list, e)
						}
					}
					if want := bruteLongest(list, s.built&^(pl.settlements|pl.cities)); int(pl.road) != want {
						t.Fatalf("game %d: %s's longest road %d, brute force %d", g, s.names[p], pl.road, want)
					}
				}

				replay, written := *start, *start
				for i, m := range record {
					if err := replay.Apply(m); err != nil {
						t.Fatalf("game %d replay move %d: %v", g, i, err)
					}
					spec := written.Spec(m)
					back, err := written.Decode(spec)
					if err != nil || back != m {
						t.Fatalf("game %d move %d: Decode(Spec(%+v)) = %+v, %v", g, i, m, back, err)
					}
					if err := written.Apply(back); err != nil {
						t.Fatalf("game %d written move %d: %v", g, i, err)
					}
				}
				if replay != s || written != s {
					t.Fatalf("game %d: the replays end in other states", g)
				}
			}
			if declared < games/2 {
				t.Errorf("%d of %d random games ended by a declaration, want most", declared, games)
			}
		})
	}
}
