package referee

import "slices"

// CoastalEdges returns the 30 edges between land and sea, clockwise around
// the island from N(0,-2)-S(0,-3), the upper-left side of hex (0,-2): the
// frame the harbour sites are laid on, which only the tests read whole.
func CoastalEdges() []Edge { return slices.Clone(geo.coast) }
