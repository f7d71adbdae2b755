package game

import (
	"fmt"
	"math/bits"
)

// The robber (§6 イ, §9 ア): where it may go and whom it may rob.

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
