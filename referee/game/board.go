package game

import (
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// board is what play needs of a set-up board (§3), by hex and vertex id.
type board struct {
	resource [numHexes]Resource // NoResource on the desert
	number   [numHexes]int8     // 0 on the desert
	byNumber [13][2]int8        // the hexes with each number chip, -1 after the last
	// harbor is the harbour a building on the corner uses (§7 ウ: either
	// corner of the harbour's edge): -1 none, 0 the 3:1 harbour, 1+r the
	// 2:1 harbour of resource r.
	harbor [numVertices]int8
	desert int8 // the desert's hex, -1 when there is none
	robber int8 // where the robber starts; -1 off the board
}

func newBoard(b referee.Board) board {
	var bd board
	bd.desert, bd.robber = -1, -1
	for n := range bd.byNumber {
		bd.byNumber[n] = [2]int8{-1, -1}
	}
	for i := range bd.harbor {
		bd.harbor[i] = -1
	}
	for _, t := range b.Tiles {
		h := topo.hexID[t.Hex]
		bd.resource[h] = terrainResource(t.Terrain)
		bd.number[h] = int8(t.Number)
		if t.Terrain == referee.Desert {
			bd.desert = int8(h)
		}
		if t.Number >= 2 && t.Number <= 12 {
			slot := &bd.byNumber[t.Number]
			if slot[0] < 0 {
				slot[0] = int8(h)
			} else {
				slot[1] = int8(h)
			}
		}
	}
	for _, hb := range b.Harbors {
		kind := int8(0)
		if hb.Kind != referee.GenericHarbor {
			r, _ := ParseResource(string(hb.Kind))
			kind = 1 + int8(r)
		}
		e := topo.edgeID[hb.Edge]
		bd.harbor[topo.edgeEnds[e][0]] = kind
		bd.harbor[topo.edgeEnds[e][1]] = kind
	}
	if b.HasRobber {
		bd.robber = int8(topo.hexID[b.Robber])
	}
	return bd
}

// numberChips are the 18 number chips of §1.
var numberChips = []int{2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12}

// terrainCounts are the land hexes of the base game by terrain (§1, §3 ア).
var terrainCounts = map[referee.Terrain]int{
	referee.Hills: 3, referee.Forest: 4, referee.Mountains: 3, referee.Fields: 4, referee.Pasture: 4, referee.Desert: 1,
}

// BoardFrom returns the board of a table whose hexes and harbours are given
// rather than set up from the ruleset's layout (§3): the 19 land hexes each
// once, with the base game's terrains and the 18 number chips off the
// desert, and 9 harbours on distinct coastal edges. The robber starts on the
// desert when the ruleset puts it there (§3 エ). A board that breaks this is
// an *Error naming the hex or harbour at fault.
func BoardFrom(rs referee.Ruleset, tiles []referee.Tile, harbors []referee.Harbor) (referee.Board, error) {
	b := referee.Board{RulesetName: rs.Name, RulesetVersion: rs.Version}
	if len(tiles) != numHexes {
		return b, broken("board-hex-count", "§3 ア", fmt.Sprintf("the board has %d land hexes, want 19", len(tiles)),
			map[string]any{"Count": len(tiles)})
	}
	seen := map[referee.Hex]bool{}
	terrains := map[referee.Terrain]int{}
	var chips []int
	for _, t := range tiles {
		i, ok := topo.hexID[t.Hex]
		switch {
		case !ok:
			return b, broken("board-hex-off-land", "§3 ア", fmt.Sprintf("hex %v is not one of the 19 land hexes", t.Hex),
				map[string]any{"Hex": t.Hex.String()})
		case seen[t.Hex]:
			return b, broken("board-hex-twice", "§3 ア", fmt.Sprintf("hex %v is given twice", t.Hex),
				map[string]any{"Hex": t.Hex.String()})
		case terrainCounts[t.Terrain] == 0:
			return b, broken("board-terrain", "§3 ア", fmt.Sprintf("hex %v has unknown terrain %q", t.Hex, t.Terrain),
				map[string]any{"Hex": t.Hex.String(), "Terrain": string(t.Terrain)})
		case t.Terrain == referee.Desert && t.Number != 0:
			return b, broken("chip-on-desert", "§3 ウ", fmt.Sprintf("chip %d on %v, the desert", t.Number, t.Hex),
				map[string]any{"Number": t.Number, "Hex": t.Hex.String()})
		case t.Terrain != referee.Desert && !slices.Contains(numberChips, t.Number):
			return b, broken("board-number", "§3 ウ", fmt.Sprintf("hex %v has number %d, want a number chip (2 to 12 but 7)", t.Hex, t.Number),
				map[string]any{"Hex": t.Hex.String(), "Number": t.Number})
		}
		seen[t.Hex] = true
		terrains[t.Terrain]++
		if t.Number != 0 {
			chips = append(chips, t.Number)
		}
		b.Tiles[i] = t
	}
	for _, t := range referee.Terrains {
		if terrains[t] != terrainCounts[t] {
			return b, broken("board-terrain-count", "§3 ア", fmt.Sprintf("%d %s hexes, want %d", terrains[t], t, terrainCounts[t]),
				map[string]any{"Terrain": string(t), "Got": terrains[t], "Want": terrainCounts[t]})
		}
	}
	slices.Sort(chips)
	for n := 2; n <= 12; n++ {
		got, want := countOf(chips, n), countOf(numberChips, n)
		if got != want {
			return b, broken("chip-count", "§3 ウ", fmt.Sprintf("%d chips numbered %d, want %d", got, n, want),
				map[string]any{"Got": got, "Number": n, "Want": want})
		}
	}
	if len(harbors) != len(b.Harbors) {
		return b, broken("board-harbor-count", "§3 ア", fmt.Sprintf("the board has %d harbours, want 9", len(harbors)),
			map[string]any{"Count": len(harbors)})
	}
	used := map[referee.Edge]bool{}
	for i, hb := range harbors {
		switch {
		case !slices.Contains(referee.HarborKinds, hb.Kind):
			return b, broken("board-harbor-kind", "§7 ウ", fmt.Sprintf("harbour %d has unknown kind %q", i+1, hb.Kind),
				map[string]any{"Harbor": i + 1, "Kind": string(hb.Kind)})
		case !hb.Edge.Land() || len(hb.Edge.Hexes()) != 1:
			return b, broken("board-harbor-edge", "§3 ア", fmt.Sprintf("harbour %d on %v is not on a coastal edge", i+1, hb.Edge),
				map[string]any{"Harbor": i + 1, "Edge": hb.Edge.String()})
		case used[hb.Edge]:
			return b, broken("board-harbor-twice", "§3 ア", fmt.Sprintf("two harbours on %v", hb.Edge),
				map[string]any{"Edge": hb.Edge.String()})
		}
		used[hb.Edge] = true
		b.Harbors[i] = hb
	}
	for _, t := range b.Tiles {
		// §3 エ: the robber starts on the desert.
		if t.Terrain == referee.Desert && rs.RobberOnDesert {
			b.Robber, b.HasRobber = t.Hex, true
		}
	}
	return b, nil
}

func countOf(xs []int, x int) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// BoardSpec names the board a game record is played on: set up by the
// ruleset's method (as GET /api/v1/referee/board makes it) from the capsule
// roll and the seed of the chip shuffle (§3), or from the corner die and
// the seed of the terrain shuffle (the national rules' spiral); or given hex
// by hex with its harbours.
type BoardSpec struct {
	White, Blue int     // §3 イ: the capsule roll; 0 when not given
	Corner      int     // the national rules: the spiral's corner die; 0 when not given
	Seed        *uint64 // §3 ウ: the seed of the chip shuffle, or of a spiral board's terrain
	Tiles       []referee.Tile
	Harbors     []HarborSpec
	// Robbers are the given hexes marked with the robber, as the board API
	// marks them; §3 エ puts it on the desert, or off the board.
	Robbers []referee.Hex
}

// HarborSpec is a harbour as a record gives it: its edge by its two corners.
type HarborSpec struct {
	Vertices []string
	Kind     string
}

// Board returns the board spec names under ruleset rs. It is an error to
// give both forms, neither, or a form incomplete or off the rules.
func (spec BoardSpec) Board(rs referee.Ruleset) (referee.Board, error) {
	rolled := spec.White != 0 || spec.Blue != 0 || spec.Corner != 0 || spec.Seed != nil
	given := spec.Tiles != nil || spec.Harbors != nil
	switch {
	case rolled && given:
		return referee.Board{}, broken("board-both", "§3", "a board is set up from its dice and seed or given as hexes and harbours, not both", nil)
	case given:
		harbors := make([]referee.Harbor, len(spec.Harbors))
		for i, h := range spec.Harbors {
			e, err := edgeNamed(h.Vertices, "§3 ア")
			if err != nil {
				return referee.Board{}, err
			}
			harbors[i] = referee.Harbor{Kind: referee.HarborKind(h.Kind), Edge: topo.edges[e]}
		}
		b, err := BoardFrom(rs, spec.Tiles, harbors)
		if err == nil && len(spec.Robbers) > 0 && (len(spec.Robbers) > 1 || !b.HasRobber || spec.Robbers[0] != b.Robber) {
			// §3 エ: the robber starts on the desert (when the ruleset has it there).
			return b, broken("board-robber", "§3 エ", fmt.Sprintf("the robber marked on %v does not start there", spec.Robbers),
				map[string]any{"Hexes": hexNames(spec.Robbers)})
		}
		return b, err
	case spec.Seed == nil:
		return referee.Board{}, broken("board-missing", "§3", "a game record names its board: its dice and seed, or hexes and harbours", nil)
	}
	b, err := referee.SetUpBoard(rs, referee.BoardDice{Roll: referee.CapsuleRoll{White: spec.White, Blue: spec.Blue}, Corner: spec.Corner}, *spec.Seed)
	if v, ok := err.(*referee.Violation); ok {
		// §3 イ: the capsule roll turns the board (a die out of range, or
		// a corner given for it); the spiral is the national rules' (§3).
		section := "§3 イ"
		if rs.WithDefaults().Board.Method == referee.SpiralBoard {
			section = "§3"
		}
		return b, &Error{Section: section, Index: -1, Violation: v}
	}
	return b, err
}

func hexNames(hs []referee.Hex) []string {
	names := make([]string, len(hs))
	for i, h := range hs {
		names[i] = h.String()
	}
	return names
}
