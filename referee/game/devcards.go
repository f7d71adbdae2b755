package game

import "fmt"

// Development cards played (§9).

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
