package referee_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// spiralRuleset is a ruleset setting its boards up by the national rules'
// spiral, with the documented corners and chips.
func spiralRuleset() referee.Ruleset {
	rs := boardRuleset(referee.DangoOff, false)
	rs.Name = "spiral-test"
	rs.Board = referee.BoardSetup{Method: referee.SpiralBoard}
	return rs
}

// letters are the national rules' chips A..R, typed out from docs/rules.md (national rules).
var letters = []int{5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11}

// spiralOrder is the order of the land hexes the national rules lay chips
// in from corner, worked out from the drawing rather than the code: the
// outer ring, then the inner ring, then the centre, each ring
// counter-clockwise as seen on the board drawn north-up, starting at the
// angle of the corner (the inner ring from the hex inside it).
func spiralOrder(corner referee.Hex) []referee.Hex {
	angle := func(h referee.Hex) float64 {
		x, y := h.Center()
		// y grows southward: -y makes a larger angle counter-clockwise.
		return math.Atan2(-y, x)
	}
	ring := func(h referee.Hex) int { return max(-h.Q, h.Q, -h.R, h.R, -h.Q-h.R, h.Q+h.R) }
	from := angle(corner)
	turn := func(h referee.Hex) float64 {
		if h == (referee.Hex{}) {
			return 0
		}
		d := math.Mod(angle(h)-from+4*math.Pi, 2*math.Pi)
		if d > 2*math.Pi-1e-9 {
			d = 0
		}
		return d
	}
	hexes := referee.LandHexes()
	slices.SortFunc(hexes, func(a, b referee.Hex) int {
		if ring(a) != ring(b) {
			return ring(b) - ring(a)
		}
		return int(math.Copysign(1, turn(a)-turn(b)))
	})
	return hexes
}

// seedsByDesert finds, for each land hex, a seed whose spiral board puts
// the desert there, so that every desert position is checked.
func seedsByDesert(t *testing.T, rs referee.Ruleset) map[referee.Hex]uint64 {
	t.Helper()
	seeds := map[referee.Hex]uint64{}
	for seed := uint64(0); len(seeds) < 19; seed++ {
		if seed > 10000 {
			t.Fatalf("no seed puts the desert on %d of the 19 hexes", 19-len(seeds))
		}
		b, err := referee.NewSpiralBoard(rs, 1, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !b.HasRobber {
			t.Fatalf("NewSpiralBoard(seed %d) has no robber, want it on the desert", seed)
		}
		if _, ok := seeds[b.Robber]; !ok {
			seeds[b.Robber] = seed
		}
	}
	return seeds
}

// For every corner (6) and desert position (19): the chips follow A..R
// counter-clockwise from the corner, skipping the desert, and no two red
// chips (6, 8) touch (docs/rules.md (national rules), Board set-up).
func TestSpiralChips(t *testing.T) {
	rs := spiralRuleset()
	seeds := seedsByDesert(t, rs)
	cases := 0
	for corner := 1; corner <= 6; corner++ {
		for _, desert := range referee.LandHexes() {
			seed := seeds[desert]
			b, err := referee.NewSpiralBoard(rs, corner, seed)
			if err != nil {
				t.Fatalf("NewSpiralBoard(corner %d, seed %d) = %v", corner, seed, err)
			}
			cases++
			start, _ := referee.Corners[corner-1].Hex()
			if b.Start != referee.Corners[corner-1] || b.Corner != corner || b.Seed != seed || b.Method != referee.SpiralBoard {
				t.Errorf("NewSpiralBoard(corner %d, seed %d) records %v, corner %d, seed %d, method %q", corner, seed, b.Start, b.Corner, b.Seed, b.Method)
			}
			var want []int
			next := 0
			for _, h := range spiralOrder(start) {
				tile, _ := b.TileAt(h)
				if tile.Terrain == referee.Desert {
					if tile.Number != 0 || h != desert {
						t.Errorf("corner %d, desert %v: desert on %v with chip %d", corner, desert, h, tile.Number)
					}
					want = append(want, 0)
					continue
				}
				want = append(want, letters[next])
				next++
			}
			var got []int
			for _, h := range spiralOrder(start) {
				tile, _ := b.TileAt(h)
				got = append(got, tile.Number)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("corner %d, desert %v: chips along the spiral (-want +got):\n%s", corner, desert, diff)
			}
			for _, tile := range b.Tiles {
				if tile.Number != 6 && tile.Number != 8 {
					continue
				}
				for _, n := range tile.Hex.Neighbors() {
					if o, _ := b.TileAt(n); o.Number == 6 || o.Number == 8 {
						t.Errorf("corner %d, desert %v: red chips touch on %v (%d) and %v (%d)", corner, desert, tile.Hex, tile.Number, n, o.Number)
					}
				}
			}
		}
	}
	if cases != 6*19 {
		t.Errorf("checked %d cases, want 114", cases)
	}
}

// The terrain is a shuffle of the ruleset's 19 tiles; the harbours are the
// frame's, unturned; the same corner and seed give the same board.
func TestSpiralTerrain(t *testing.T) {
	rs := spiralRuleset()
	want := slices.Clone(rs.Layout.Terrain[:])
	slices.Sort(want)
	sites := referee.HarborSites()
	moved := false
	for seed := range uint64(200) {
		b, err := referee.NewSpiralBoard(rs, 1+int(seed%6), seed)
		if err != nil {
			t.Fatal(err)
		}
		var got []referee.Terrain
		for i, tile := range b.Tiles {
			got = append(got, tile.Terrain)
			if tile.Hex != referee.LandHexes()[i] {
				t.Fatalf("seed %d: Tiles[%d].Hex = %v, want %v", seed, i, tile.Hex, referee.LandHexes()[i])
			}
			if tile.Terrain != rs.Layout.Terrain[i] {
				moved = true
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: terrain %v, want a permutation of %v", seed, got, want)
		}
		for i, h := range b.Harbors {
			if h.Edge != sites[i] || h.Kind != rs.Layout.Harbors[i] {
				t.Errorf("seed %d: harbour %d is %s on %v, want %s on %v", seed, i, h.Kind, h.Edge, rs.Layout.Harbors[i], sites[i])
			}
		}
		again, _ := referee.NewSpiralBoard(rs, 1+int(seed%6), seed)
		if diff := cmp.Diff(b, again); diff != "" {
			t.Fatalf("seed %d does not replay (-first +second):\n%s", seed, diff)
		}
	}
	if !moved {
		t.Error("200 seeds left every tile where the layout lists it: the terrain is not shuffled")
	}
}

// The frame's numbering is a setting: a die names the corner the ruleset
// lists for it.
func TestSpiralCornersSetting(t *testing.T) {
	rs := spiralRuleset()
	rs.Board.Corners = [6]referee.Corner{referee.West, referee.NorthWest, referee.NorthEast, referee.East, referee.SouthEast, referee.SouthWest}
	def := spiralRuleset()
	for die := 1; die <= 6; die++ {
		b, err := referee.NewSpiralBoard(rs, die, 3)
		if err != nil {
			t.Fatal(err)
		}
		// The default numbers clockwise from the north-west, so die d here
		// names the default's die d-1 (die 1 the default's 6).
		same, _ := referee.NewSpiralBoard(def, (die+4)%6+1, 3)
		if b.Start != rs.Board.Corners[die-1] || b.Tiles != same.Tiles {
			t.Errorf("die %d starts at %v, want %v with the same tiles as the default's die %d", die, b.Start, rs.Board.Corners[die-1], (die+4)%6+1)
		}
	}
}

func TestSpiralRefusals(t *testing.T) {
	tests := []struct {
		name   string
		rs     referee.Ruleset
		corner int
		code   string
	}{
		{"die 0", spiralRuleset(), 0, "corner-die-out-of-range"},
		{"die 7", spiralRuleset(), 7, "corner-die-out-of-range"},
		{"capsule ruleset", boardRuleset(referee.DangoConnected, false), 1, "board-method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := referee.NewSpiralBoard(tt.rs, tt.corner, 1)
			var v *referee.Violation
			if !errors.As(err, &v) || v.Code != tt.code || !errors.Is(err, referee.ErrInvalid) {
				t.Errorf("NewSpiralBoard(%s) = %v, want violation %s", tt.name, err, tt.code)
			}
		})
	}
	// A spiral ruleset has no capsule roll and no dealt chips to check.
	if _, err := referee.NewBoard(spiralRuleset(), referee.CapsuleRoll{White: 1, Blue: 1}, 1); !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("NewBoard(spiral ruleset) = %v, want ErrInvalid", err)
	}
	if _, err := referee.CheckDeal(spiralRuleset(), 0, nil); !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("CheckDeal(spiral ruleset) = %v, want ErrInvalid", err)
	}
}
