package referee

import "slices"

// CoastalEdges returns the 30 edges between land and sea, clockwise around
// the island from N(0,-2)-S(0,-3), the upper-left side of hex (0,-2): the
// frame the harbour sites are laid on, which only the tests read whole.
func CoastalEdges() []Edge { return slices.Clone(geo.coast) }

// SuggestLevel returns the level the judge console proposes for a new
// penalty for the offence with the given code, from the levels of the
// player's earlier penalties for the same offence in this tournament
// (not revoked, oldest first). It is Suggest's level.
func SuggestLevel(rs Ruleset, offence string, earlier []Level) (Level, error) {
	sg, err := Suggest(rs, offence, earlier)
	return sg.Level, err
}

// Escalate is escalate's level, from any start: the offence's default
// level (as Suggest starts) or another.
func Escalate(rs Ruleset, o Offence, start Level, earlier []Level) (Level, error) {
	sg, err := escalate(rs, o, start, earlier)
	return sg.Level, err
}

// Neighbors returns the land hexes sharing an edge with h, in Compare order.
func (h Hex) Neighbors() []Hex {
	i, ok := geo.hexIndex[h]
	if !ok {
		return nil
	}
	return slices.Clone(geo.hexNeighbors[i])
}
