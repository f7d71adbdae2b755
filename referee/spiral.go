package referee

import (
	"fmt"
	"slices"
)

// NewSpiralBoard sets up a board by the national rules (docs/rules.md (national rules),
// Board set-up): the 19 terrain tiles of rs.Layout shuffled over the land
// hexes by a source seeded with seed, the desert anywhere; the harbour frame
// laid as in the base game (rs.Layout.Harbors on their sites, unturned); and
// the lettered chips rs.Board.Chips laid in letter order counter-clockwise in
// a spiral towards the centre, from the corner numbered corner on the frame
// (rs.Board.Corners), skipping the desert. There is no re-deal.
//
// It returns an error wrapping ErrInvalid for a die outside 1..6 or a
// ruleset that does not set up its boards by the spiral.
func NewSpiralBoard(rs Ruleset, corner int, seed uint64) (Board, error) {
	if err := checkMethod(rs, SpiralBoard); err != nil {
		return Board{}, err
	}
	if corner < 1 || corner > 6 {
		return Board{}, violation("corner-die-out-of-range", fmt.Sprintf("corner die %d is not between 1 and 6", corner),
			map[string]any{"Value": corner})
	}
	rs = rs.WithDefaults()
	if err := rs.validateBoard(); err != nil {
		return Board{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := checkBoardRuleset(rs); err != nil {
		return Board{}, err
	}
	start := rs.Board.Corners[corner-1]
	b := Board{
		RulesetName:    rs.Name,
		RulesetVersion: rs.Version,
		Method:         SpiralBoard,
		Corner:         corner,
		Start:          start,
		Seed:           seed,
	}
	// National rules: the terrain tiles are laid at random, the desert
	// need not be in the centre.
	terrain := rs.Layout.Terrain
	r := NewRand(seed)
	r.Shuffle(len(terrain), func(i, j int) { terrain[i], terrain[j] = terrain[j], terrain[i] })
	for i, h := range geo.hexes {
		b.Tiles[i] = Tile{Hex: h, Terrain: terrain[i]}
		// §3 エ: the robber starts on the desert.
		if terrain[i] == Desert && rs.RobberOnDesert {
			b.Robber, b.HasRobber = h, true
		}
	}
	// National rules: the harbour frame is laid as in the base game.
	for i, site := range geo.sites {
		b.Harbors[i] = Harbor{Kind: rs.Layout.Harbors[i], Edge: site}
	}
	// National rules: the chips start at the chosen corner and go A, B,
	// C, ... counter-clockwise in a spiral towards the centre, skipping
	// the desert.
	k := 0
	for _, h := range spiralPath(start) {
		i := geo.hexIndex[h]
		if b.Tiles[i].Terrain == Desert {
			continue
		}
		b.Tiles[i].Number = rs.Board.Chips[k]
		k++
	}
	return b, nil
}

// spiralPath returns the 19 land hexes in the order the national rules lay
// the lettered chips from corner c: counter-clockwise around the outer
// ring from c, then around the inner ring from the hex inside c, then the
// centre. It returns nil for an unknown corner.
func spiralPath(c Corner) []Hex {
	turn := slices.Index(Corners, c)
	if turn < 0 {
		return nil
	}
	path := make([]Hex, len(geo.spiral))
	for i, h := range geo.spiral {
		// Corners are listed clockwise from the north-west one, so the
		// path from the i-th is the north-west one's turned i sixths.
		path[i] = h.Rotate(turn)
	}
	return path
}
