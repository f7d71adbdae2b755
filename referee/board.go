package referee

import (
	"fmt"
	"math/bits"
	"slices"
)

// Tile is a land hex of a set-up board.
type Tile struct {
	Hex     Hex
	Terrain Terrain
	Number  int // the number chip on the hex; 0 on the desert
}

// Harbor is a harbour of the sea frame on the coastal edge it faces.
type Harbor struct {
	Kind HarborKind
	Edge Edge
}

// Chip is a number chip lying on a land hex (§3 ウ).
type Chip struct {
	Hex    Hex
	Number int
}

// Board is a board set up by §3 (NewBoard: the layout turned by the capsule
// roll, the number chips dealt) or by the national rules' spiral
// (NewSpiralBoard: the terrain shuffled, the chips laid from a corner), with
// the robber placed. It records the ruleset's name and version, the dice
// and the seed, so that it can be made again.
type Board struct {
	RulesetName    string
	RulesetVersion string
	Method         BoardMethod // how it was set up: CapsuleBoard or SpiralBoard
	Roll           CapsuleRoll // CapsuleBoard, §3 イ: white turns the inner piece, blue the sea frame
	// Corner is the die that chose the spiral's first corner (SpiralBoard),
	// 1..6; Start is that corner.
	Corner int
	Start  Corner
	// Seed is the seed of the chip shuffle (CapsuleBoard, §3 ウ) or of the
	// terrain shuffle (SpiralBoard).
	Seed    uint64
	Redeals int // deals collected again under the dango rule before this one

	Tiles   [19]Tile  // in LandHexes order
	Harbors [9]Harbor // Layout.Harbors in order, each on its site turned with the frame
	Robber  Hex       // §3 エ: the desert, when HasRobber
	// HasRobber is false when the ruleset leaves the robber off the board.
	HasRobber bool
}

// TileAt returns the tile on land hex h.
func (b Board) TileAt(h Hex) (Tile, bool) {
	i, ok := geo.hexIndex[h]
	if !ok {
		return Tile{}, false
	}
	return b.Tiles[i], true
}

// Chips returns the 18 number chips of the board in LandHexes order, in the
// form CheckDeal takes.
func (b Board) Chips() []Chip {
	chips := make([]Chip, 0, len(numberChips))
	for _, t := range b.Tiles {
		if t.Number != 0 {
			chips = append(chips, Chip{Hex: t.Hex, Number: t.Number})
		}
	}
	return chips
}

// DealCheck is the dango rule's verdict on a deal of the number chips (§3 ウ).
type DealCheck struct {
	// Redeal says the chips must be collected and dealt again.
	Redeal bool
	// Clumps are the groups of red-chip hexes the dango policy rejects, each
	// in Hex.Compare order, the groups ordered by their hexes; nil when none.
	Clumps [][]Hex
}

// numberChips are the 18 number chips of §1 with the base game's numbers;
// 6 and 8 are the red ones (§3 ウ).
var numberChips = [18]int{2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12}

// RedNumber reports whether the number chip n is red: §3 ウ: the 6s and the
// 8s, which the dango rule keeps apart.
func RedNumber(n int) bool { return n == 6 || n == 8 }

// Pips is the number of dots under the number chip n: the ways two dice
// roll it, of 36 (5 for a 6 or an 8, 1 for a 2 or a 12); 0 for no chip.
func Pips(n int) int {
	if n < 2 || n > 12 {
		return 0
	}
	return 6 - max(7-n, n-7)
}

// NewBoard sets up a board by §3 from the ruleset's layout, the capsule roll
// and the seed of the chip shuffle. It returns an error wrapping ErrInvalid
// for a die outside 1..6 or a ruleset whose layout or dango policy is invalid.
// A ruleset that sets its board up by the spiral is refused (NewSpiralBoard).
func NewBoard(rs Ruleset, roll CapsuleRoll, seed uint64) (Board, error) {
	if err := checkMethod(rs, CapsuleBoard); err != nil {
		return Board{}, err
	}
	if err := roll.Validate(); err != nil {
		return Board{}, err
	}
	if err := checkBoardRuleset(rs); err != nil {
		return Board{}, err
	}
	b := Board{
		RulesetName:    rs.Name,
		RulesetVersion: rs.Version,
		Method:         CapsuleBoard,
		Roll:           roll,
		Seed:           seed,
	}
	// §3 イ: the white die turns the inner piece; the centre and the outer
	// ring stay where the layout puts them.
	turn := geo.turned[sixths(roll.White)]
	for i, h := range geo.hexes {
		b.Tiles[turn[i]].Terrain = rs.Layout.Terrain[i]
		b.Tiles[i].Hex = h
	}
	// §3 イ: the blue die turns the sea frame, each harbour with it.
	for i, site := range geo.sites {
		b.Harbors[i] = Harbor{Kind: rs.Layout.Harbors[i], Edge: site.Rotate(roll.Blue)}
	}

	// §3 ウ: the chips go face down on the 18 hexes other than the desert.
	var slots [18]int
	n := 0
	for i, t := range b.Tiles {
		if t.Terrain == Desert {
			// §3 エ: the robber starts on the desert.
			if rs.RobberOnDesert {
				b.Robber, b.HasRobber = t.Hex, true
			}
			continue
		}
		slots[n] = i
		n++
	}

	// §3 ウ: a deal with a red clump is collected, shuffled and dealt again.
	// Every policy accepts some deal, so the loop ends with probability 1.
	chips := numberChips
	r := NewRand(seed)
	var buf [8]uint32
	for {
		r.Shuffle(len(chips), func(i, j int) { chips[i], chips[j] = chips[j], chips[i] })
		var red uint32
		for k, i := range slots {
			if RedNumber(chips[k]) {
				red |= 1 << i
			}
		}
		if len(dangoClumps(rs.Dango, red, buf[:0])) == 0 {
			break
		}
		b.Redeals++
	}
	for k, i := range slots {
		b.Tiles[i].Number = chips[k]
	}
	return b, nil
}

// CheckDeal checks a deal of the number chips that a judge entered from a
// physical board (§3 ウ) against the dango policy rs.Dango. white is the
// white die of the capsule roll (§3 イ), which says where the desert lies
// when the layout puts it on the inner piece, or 0 when it is not known: the
// desert may then lie on any hex the white die could turn it to.
//
// The deal must be the 18 number chips, one on each land hex but the desert;
// anything else is an error wrapping ErrInvalid that names the hex at fault.
func CheckDeal(rs Ruleset, white int, chips []Chip) (DealCheck, error) {
	if err := checkMethod(rs, CapsuleBoard); err != nil {
		return DealCheck{}, err
	}
	if white < 0 || white > 6 {
		return DealCheck{}, violation("deal-die-out-of-range",
			fmt.Sprintf("white die %d is not between 1 and 6 (or 0 when not known)", white),
			map[string]any{"Value": white})
	}
	if err := checkBoardRuleset(rs); err != nil {
		return DealCheck{}, err
	}
	var numbers [19]int // by land hex; 0 is no chip
	for _, c := range chips {
		i, ok := geo.hexIndex[c.Hex]
		switch {
		case !ok:
			return DealCheck{}, violation("chip-off-land", fmt.Sprintf("chip %d on %v is off the land", c.Number, c.Hex),
				map[string]any{"Number": c.Number, "Hex": c.Hex.String()})
		case !slices.Contains(numberChips[:], c.Number):
			return DealCheck{}, violation("chip-not-number",
				fmt.Sprintf("chip %d on %v is not a number chip (2 to 12 but 7)", c.Number, c.Hex),
				map[string]any{"Number": c.Number, "Hex": c.Hex.String()})
		case numbers[i] != 0:
			return DealCheck{}, violation("chips-on-one-hex", fmt.Sprintf("two chips on %v (%d and %d)", c.Hex, numbers[i], c.Number),
				map[string]any{"Hex": c.Hex.String(), "First": numbers[i], "Second": c.Number})
		}
		numbers[i] = c.Number
	}

	// §3 ウ: every land hex but the desert holds a chip.
	spots := desertSpots(rs.Layout, white)
	var bare, bareSpots []Hex
	for i, h := range geo.hexes {
		if numbers[i] == 0 {
			bare = append(bare, h)
			if slices.Contains(spots, h) {
				bareSpots = append(bareSpots, h)
			}
		}
	}
	switch {
	case len(bareSpots) == 0 && len(spots) == 1:
		d := spots[0]
		return DealCheck{}, violation("chip-on-desert", fmt.Sprintf("chip %d on %v, the desert", numbers[geo.hexIndex[d]], d),
			map[string]any{"Number": numbers[geo.hexIndex[d]], "Hex": d.String()})
	case len(bareSpots) == 0:
		return DealCheck{}, violation("desert-covered", fmt.Sprintf("the desert lies on one of %v, but each has a chip", spots),
			map[string]any{"Hexes": hexStrings(spots)})
	case len(bareSpots) > 1:
		return DealCheck{}, violation("desert-unclear",
			fmt.Sprintf("no chip on %v, want one of them to be the desert and the others to hold chips", bareSpots),
			map[string]any{"Hexes": hexStrings(bareSpots)})
	}
	for _, h := range bare {
		if h != bareSpots[0] {
			return DealCheck{}, violation("hex-without-chip", fmt.Sprintf("no chip on %v", h), map[string]any{"Hex": h.String()})
		}
	}
	var got, want [13]int
	for _, n := range numbers {
		got[n]++
	}
	for _, n := range numberChips {
		want[n]++
	}
	for n := 2; n <= 12; n++ {
		if got[n] != want[n] {
			return DealCheck{}, violation("chip-count", fmt.Sprintf("%d chips numbered %d, want %d", got[n], n, want[n]),
				map[string]any{"Got": got[n], "Number": n, "Want": want[n]})
		}
	}

	var red uint32
	for i, n := range numbers {
		if RedNumber(n) {
			red |= 1 << i
		}
	}
	var dc DealCheck
	for _, m := range dangoClumps(rs.Dango, red, nil) {
		dc.Clumps = append(dc.Clumps, geo.hexesOf(m))
	}
	slices.SortFunc(dc.Clumps, func(a, b []Hex) int { return slices.CompareFunc(a, b, Hex.Compare) })
	dc.Redeal = len(dc.Clumps) > 0
	return dc, nil
}

// checkMethod refuses to set up a board of rs by another method than its own.
// BoardDice are the dice that set up a board, as its ruleset's method
// takes them: the capsule roll that turns the board (§3 イ), or the die
// that chooses the spiral's starting corner (national rules).
type BoardDice struct {
	Roll   CapsuleRoll // CapsuleBoard
	Corner int         // SpiralBoard
}

// CheckDice refuses dice of the other method than the ruleset's: a capsule
// roll for a board laid by the spiral, or a corner for one turned by the
// capsule roll (§3 イ). Dice of the right method are checked when the
// board is set up.
func CheckDice(rs Ruleset, d BoardDice) error {
	args := map[string]any{"Ruleset": rs.Name}
	if rs.WithDefaults().Board.Method == SpiralBoard {
		if d.Roll != (CapsuleRoll{}) {
			return violation("board-roll-not-corner", fmt.Sprintf("ruleset %s sets up its boards by the spiral: give the corner die, not a capsule roll", rs.Name), args)
		}
		return nil
	}
	if d.Corner != 0 {
		return violation("board-corner-not-roll", fmt.Sprintf("ruleset %s turns its boards by the capsule roll (§3 イ): give the white and blue dice, not a corner", rs.Name), args)
	}
	return nil
}

// SetUpBoard sets up the board of the ruleset from its dice and seed:
// NewSpiralBoard from the corner under the national rules, else NewBoard
// from the capsule roll (§3). Dice of the other method are refused
// (CheckDice).
func SetUpBoard(rs Ruleset, d BoardDice, seed uint64) (Board, error) {
	if err := CheckDice(rs, d); err != nil {
		return Board{}, err
	}
	if rs.WithDefaults().Board.Method == SpiralBoard {
		return NewSpiralBoard(rs, d.Corner, seed)
	}
	return NewBoard(rs, d.Roll, seed)
}

func checkMethod(rs Ruleset, m BoardMethod) error {
	have := rs.WithDefaults().Board.Method
	if have == m {
		return nil
	}
	return violation("board-method", fmt.Sprintf("ruleset %s sets up its boards by the %s method, not the %s one", rs.Name, have, m),
		map[string]any{"Ruleset": rs.Name, "Method": string(have), "Want": string(m)})
}

// checkBoardRuleset checks the settings a board is made from.
func checkBoardRuleset(rs Ruleset) error {
	if err := rs.Layout.validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if !slices.Contains(DangoPolicies, rs.Dango) {
		policies := make([]string, len(DangoPolicies))
		for i, p := range DangoPolicies {
			policies[i] = string(p)
		}
		return violation("unknown-dango-policy", fmt.Sprintf("unknown dango policy %q (want one of %v)", rs.Dango, DangoPolicies),
			map[string]any{"Policy": string(rs.Dango), "Policies": policies})
	}
	return nil
}

// hexStrings names hexes for a message's values.
func hexStrings(hs []Hex) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}

// desertSpots returns the hexes where the layout's desert may lie after the
// white die turned the inner piece (§3 イ): one hex when white is known (1..6)
// or the desert is the centre or on the outer ring, else the six inner hexes.
func desertSpots(l Layout, white int) []Hex {
	d := slices.Index(l.Terrain[:], Desert)
	if white != 0 {
		return []Hex{geo.hexes[geo.turned[sixths(white)][d]]}
	}
	var spots []Hex
	for k := range geo.turned {
		spots = append(spots, geo.hexes[geo.turned[k][d]])
	}
	slices.SortFunc(spots, Hex.Compare)
	return slices.Compact(spots)
}

// dangoClumps appends to dst the red clumps the policy rejects (§3 ウ), each
// as a bit mask of land hexes, given the red-chip hexes as a bit mask.
func dangoClumps(p DangoPolicy, red uint32, dst []uint32) []uint32 {
	switch p {
	case DangoConnected:
		// §3 ウ ruling: three or more red hexes connected through shared
		// edges (a line, a bent line or a triangle); two adjacent reds are legal.
		left := red
		for left != 0 {
			comp := left & -left
			for {
				grown := comp
				for i := range geo.neighborMask {
					if comp&(1<<i) != 0 {
						grown |= geo.neighborMask[i] & red
					}
				}
				if grown == comp {
					break
				}
				comp = grown
			}
			left &^= comp
			if bits.OnesCount32(comp) >= 3 {
				dst = append(dst, comp)
			}
		}
	case DangoTriangle:
		// §3 ウ, policy triangle: three reds meeting at one corner.
		for _, t := range geo.triangles {
			if red&t == t {
				dst = append(dst, t)
			}
		}
	case DangoNoAdjacentReds:
		// §3 ウ, the base game's almanac: no two reds share an edge.
		for i := range geo.neighborMask {
			if red&(1<<i) == 0 {
				continue
			}
			for j := i + 1; j < len(geo.neighborMask); j++ {
				if red&(1<<j) != 0 && geo.neighborMask[i]&(1<<j) != 0 {
					dst = append(dst, 1<<i|1<<j)
				}
			}
		}
	}
	return dst
}
