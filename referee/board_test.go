package referee_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// boardLayout is the base game's beginner layout of docs/rules.md §3, the
// built-in preset's.
var boardLayout = referee.Layout{
	Terrain: [19]referee.Terrain{
		referee.Mountains, referee.Pasture, referee.Forest,
		referee.Fields, referee.Hills, referee.Pasture, referee.Hills,
		referee.Fields, referee.Forest, referee.Desert, referee.Forest, referee.Mountains,
		referee.Forest, referee.Mountains, referee.Fields, referee.Pasture,
		referee.Hills, referee.Fields, referee.Pasture,
	},
	Harbors: [9]referee.HarborKind{
		referee.GenericHarbor, referee.WoolHarbor, referee.GenericHarbor,
		referee.GenericHarbor, referee.BrickHarbor, referee.LumberHarbor,
		referee.GenericHarbor, referee.GrainHarbor, referee.OreHarbor,
	},
}

// boardInnerRing is the inner piece around the centre, clockwise from the
// north-east hex, typed out to check the turns against.
var boardInnerRing = []referee.Hex{{Q: 1, R: -1}, {Q: 1, R: 0}, {Q: 0, R: 1}, {Q: -1, R: 1}, {Q: -1, R: 0}, {Q: 0, R: -1}}

// boardRuleset returns the settings a board is made from, with the beginner
// layout or, when innerDesert, the same layout with the desert swapped onto
// the inner piece at (1,-1) so that turning moves it.
func boardRuleset(p referee.DangoPolicy, innerDesert bool) referee.Ruleset {
	rs := referee.Ruleset{Name: "board-test", Version: "1", Dango: p, RobberOnDesert: true, Layout: boardLayout}
	if innerDesert {
		rs.Name = "board-test-inner-desert"
		rs.Layout.Terrain[5], rs.Layout.Terrain[9] = rs.Layout.Terrain[9], rs.Layout.Terrain[5]
	}
	return rs
}

func boardRolls() []referee.CapsuleRoll {
	var rolls []referee.CapsuleRoll
	for w := 1; w <= 6; w++ {
		for b := 1; b <= 6; b++ {
			rolls = append(rolls, referee.CapsuleRoll{White: w, Blue: b})
		}
	}
	return rolls
}

func TestNewBoardRotations(t *testing.T) {
	hexes := referee.LandHexes()
	sites := referee.HarborSites()
	for _, innerDesert := range []bool{false, true} {
		rs := boardRuleset(referee.DangoConnected, innerDesert)
		for _, roll := range boardRolls() {
			t.Run(rs.Name+"/"+boardRollName(roll), func(t *testing.T) {
				b, err := referee.NewBoard(rs, roll, 7)
				if err != nil {
					t.Fatalf("NewBoard(%v) = %v", roll, err)
				}
				// §3 イ: the centre and the outer ring never move.
				for i, h := range hexes {
					if b.Tiles[i].Hex != h {
						t.Errorf("NewBoard(%v).Tiles[%d].Hex = %v, want %v", roll, i, b.Tiles[i].Hex, h)
					}
					if !slices.Contains(boardInnerRing, h) && b.Tiles[i].Terrain != rs.Layout.Terrain[i] {
						t.Errorf("NewBoard(%v): %v is %s, want %s (it never moves)", roll, h, b.Tiles[i].Terrain, rs.Layout.Terrain[i])
					}
				}
				// §3 イ: the white die turns the inner piece clockwise by its pips.
				for j, from := range boardInnerRing {
					to := boardInnerRing[(j+roll.White)%6]
					got, _ := b.TileAt(to)
					want := rs.Layout.Terrain[slices.Index(hexes, from)]
					if got.Terrain != want {
						t.Errorf("NewBoard(%v): %v is %s, want %s from %v", roll, to, got.Terrain, want, from)
					}
				}
				// §3 イ: the blue die turns the sea frame; each harbour goes with it.
				seen := map[referee.Edge]bool{}
				for i, h := range b.Harbors {
					if h.Kind != rs.Layout.Harbors[i] {
						t.Errorf("NewBoard(%v).Harbors[%d].Kind = %s, want %s", roll, i, h.Kind, rs.Layout.Harbors[i])
					}
					if !boardTurnedEdge(sites[i], h.Edge, roll.Blue) {
						t.Errorf("NewBoard(%v).Harbors[%d].Edge = %v, want %v turned %d sixths clockwise", roll, i, h.Edge, sites[i], roll.Blue)
					}
					if len(h.Edge.Hexes()) != 1 || seen[h.Edge] {
						t.Errorf("NewBoard(%v).Harbors[%d].Edge = %v, want a coastal edge of no other harbour", roll, i, h.Edge)
					}
					seen[h.Edge] = true
				}
				// §3 エ: the robber starts on the desert.
				if got, _ := b.TileAt(b.Robber); !b.HasRobber || got.Terrain != referee.Desert {
					t.Errorf("NewBoard(%v): robber on %v (%s, placed %t), want on the desert", roll, b.Robber, got.Terrain, b.HasRobber)
				}
			})
		}
	}
}

func boardRollName(r referee.CapsuleRoll) string {
	return "white" + string(rune('0'+r.White)) + "-blue" + string(rune('0'+r.Blue))
}

// boardTurnedEdge reports whether edge to lies where edge from does after
// k sixths of a clockwise turn of the drawn board.
func boardTurnedEdge(from, to referee.Edge, k int) bool {
	fx1, fy1 := from.A.Point()
	fx2, fy2 := from.B.Point()
	tx1, ty1 := to.A.Point()
	tx2, ty2 := to.B.Point()
	ax, ay := geoTurn(fx1, fy1, k)
	bx, by := geoTurn(fx2, fy2, k)
	return geoNear(ax, ay, tx1, ty1) && geoNear(bx, by, tx2, ty2) ||
		geoNear(ax, ay, tx2, ty2) && geoNear(bx, by, tx1, ty1)
}

func TestNewBoardTurnDirection(t *testing.T) {
	// §3 イ: one clockwise sixth carries the north-east hex of the inner
	// piece to the east, and the north-west harbour site to the north-east.
	rs := boardRuleset(referee.DangoConnected, false)
	roll := referee.CapsuleRoll{White: 1, Blue: 1}
	b, err := referee.NewBoard(rs, roll, 1)
	if err != nil {
		t.Fatalf("NewBoard(%v) = %v", roll, err)
	}
	if got, _ := b.TileAt(referee.Hex{Q: 1, R: 0}); got.Terrain != referee.Pasture {
		t.Errorf("NewBoard(%v): (1,0) is %s, want pasture from (1,-1)", roll, got.Terrain)
	}
	if got, want := b.Harbors[0].Edge, geoEdge(t, geoN(2, -2), geoS(3, -3)); got != want {
		t.Errorf("NewBoard(%v).Harbors[0].Edge = %v, want %v, the upper-right side of (2,-2)", roll, got, want)
	}
}

func TestNewBoardDeal(t *testing.T) {
	const seeds = 2000
	want := []int{2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12}
	for _, p := range referee.DangoPolicies {
		for _, innerDesert := range []bool{false, true} {
			rs := boardRuleset(p, innerDesert)
			t.Run(string(p)+"/"+rs.Name, func(t *testing.T) {
				twos := map[referee.Hex]int{}
				for seed := range uint64(seeds) {
					roll := referee.CapsuleRoll{White: 1 + int(seed%6), Blue: 1 + int(seed/6%6)}
					b, err := referee.NewBoard(rs, roll, seed)
					if err != nil {
						t.Fatalf("NewBoard(%v, %d) = %v", roll, seed, err)
					}
					var got []int
					var reds []referee.Hex
					for _, tile := range b.Tiles {
						switch {
						case tile.Terrain == referee.Desert && tile.Number != 0:
							t.Errorf("NewBoard(%v, %d): chip %d on the desert %v", roll, seed, tile.Number, tile.Hex)
						case tile.Terrain != referee.Desert:
							got = append(got, tile.Number)
						}
						if tile.Number == 6 || tile.Number == 8 {
							reds = append(reds, tile.Hex)
						}
						if tile.Number == 2 {
							twos[tile.Hex]++
						}
					}
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("NewBoard(%v, %d) chips = %v, want a permutation of %v", roll, seed, got, want)
					}
					if boardOracleRejects(p, reds) {
						t.Fatalf("NewBoard(%v, %d) reds on %v, a clump policy %q rejects", roll, seed, reds, p)
					}
					if p == referee.DangoOff && b.Redeals != 0 {
						t.Fatalf("NewBoard(%v, %d).Redeals = %d, want 0 with the dango rule off", roll, seed, b.Redeals)
					}
					dc, err := referee.CheckDeal(rs, roll.White, b.Chips())
					if err != nil || dc.Redeal {
						t.Fatalf("CheckDeal(NewBoard(%v, %d).Chips()) = %+v, %v, want no re-deal", roll, seed, dc, err)
					}
				}
				// A fair shuffle puts the 2 on every hex but the desert now and
				// then; a desert on the inner piece moves with the rolls.
				want := 18
				if innerDesert {
					want = 19
				}
				if len(twos) != want {
					t.Errorf("over %d seeds the 2 lay on %d hexes, want %d", seeds, len(twos), want)
				}
			})
		}
	}
}

// boardOracleRejects is the dango rule of §3 ウ worked out from the red
// hexes alone, to check the package's tables against.
func boardOracleRejects(p referee.DangoPolicy, reds []referee.Hex) bool {
	adjacent := func(a, b referee.Hex) bool {
		dq, dr := a.Q-b.Q, a.R-b.R
		return max(geoAbs(dq), geoAbs(dr), geoAbs(dq+dr)) == 1
	}
	switch p {
	case referee.DangoConnected:
		for _, start := range reds {
			comp := []referee.Hex{start}
			for i := 0; i < len(comp); i++ {
				for _, r := range reds {
					if adjacent(comp[i], r) && !slices.Contains(comp, r) {
						comp = append(comp, r)
					}
				}
			}
			if len(comp) >= 3 {
				return true
			}
		}
	case referee.DangoTriangle:
		for i, a := range reds {
			for j, b := range reds[i+1:] {
				for _, c := range reds[i+j+2:] {
					if adjacent(a, b) && adjacent(b, c) && adjacent(a, c) {
						return true
					}
				}
			}
		}
	case referee.DangoNoAdjacentReds:
		for i, a := range reds {
			for _, b := range reds[i+1:] {
				if adjacent(a, b) {
					return true
				}
			}
		}
	}
	return false
}

func TestNewBoardRedealRate(t *testing.T) {
	// docs/rules.md §3: with uniform shuffling about one deal in three is
	// redealt under the default rule.
	const seeds = 5000
	rates := map[referee.DangoPolicy]float64{}
	for _, p := range referee.DangoPolicies {
		rs := boardRuleset(p, false)
		rejected := 0
		for seed := range uint64(seeds) {
			b, err := referee.NewBoard(rs, referee.CapsuleRoll{White: 6, Blue: 6}, seed)
			if err != nil {
				t.Fatalf("NewBoard(%d) = %v", seed, err)
			}
			if b.Redeals > 0 {
				rejected++
			}
		}
		rates[p] = float64(rejected) / seeds
		t.Logf("dango %q: %d of %d first deals re-dealt (%.4f)", p, rejected, seeds, rates[p])
	}
	if r := rates[referee.DangoConnected]; r < 0.15 || r > 0.55 {
		t.Errorf("dango %q re-deals %.4f of first deals, want about one in three (0.15 to 0.55)", referee.DangoConnected, r)
	}
	if !(rates[referee.DangoOff] == 0 && rates[referee.DangoTriangle] < rates[referee.DangoConnected] && rates[referee.DangoConnected] < rates[referee.DangoNoAdjacentReds]) {
		t.Errorf("re-deal rates %v, want off < triangle < connected < no-adjacent-reds", rates)
	}
}

func TestNewBoardDeterminism(t *testing.T) {
	rs := boardRuleset(referee.DangoConnected, true)
	roll := referee.CapsuleRoll{White: 3, Blue: 5}
	first, err := referee.NewBoard(rs, roll, 42)
	if err != nil {
		t.Fatalf("NewBoard(%v, 42) = %v", roll, err)
	}
	again, err := referee.NewBoard(rs, roll, 42)
	if err != nil {
		t.Fatalf("NewBoard(%v, 42) = %v", roll, err)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("NewBoard(%v, 42) twice differs (-first +again):\n%s", roll, diff)
	}
	want := referee.Board{RulesetName: rs.Name, RulesetVersion: rs.Version, Roll: roll, Seed: 42, Redeals: first.Redeals}
	got := referee.Board{RulesetName: first.RulesetName, RulesetVersion: first.RulesetVersion, Roll: first.Roll, Seed: first.Seed, Redeals: first.Redeals}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewBoard(%v, 42) records (-want +got):\n%s", roll, diff)
	}

	distinct := map[referee.Board]bool{}
	for seed := range uint64(100) {
		b, err := referee.NewBoard(rs, roll, seed)
		if err != nil {
			t.Fatalf("NewBoard(%v, %d) = %v", roll, seed, err)
		}
		b.Seed, b.Redeals = 0, 0
		distinct[b] = true
	}
	if len(distinct) < 99 {
		t.Errorf("NewBoard(%v) over 100 seeds made %d distinct deals, want nearly 100", roll, len(distinct))
	}
}

func TestNewBoardRobberOff(t *testing.T) {
	rs := boardRuleset(referee.DangoConnected, false)
	rs.RobberOnDesert = false
	roll := referee.CapsuleRoll{White: 2, Blue: 2}
	b, err := referee.NewBoard(rs, roll, 3)
	if err != nil {
		t.Fatalf("NewBoard(%v) = %v", roll, err)
	}
	if b.HasRobber || b.Robber != (referee.Hex{}) {
		t.Errorf("NewBoard(%v) robber = %v (placed %t), want none", roll, b.Robber, b.HasRobber)
	}
}

func TestNewBoardErrors(t *testing.T) {
	twoDeserts := boardRuleset(referee.DangoConnected, false)
	twoDeserts.Layout.Terrain[0] = referee.Desert
	badHarbor := boardRuleset(referee.DangoConnected, false)
	badHarbor.Layout.Harbors[4] = "gold"
	tests := []struct {
		name string
		rs   referee.Ruleset
		roll referee.CapsuleRoll
		want string
	}{
		{"white 0", boardRuleset(referee.DangoConnected, false), referee.CapsuleRoll{White: 0, Blue: 1}, "white die 0"},
		{"white 7", boardRuleset(referee.DangoConnected, false), referee.CapsuleRoll{White: 7, Blue: 1}, "white die 7"},
		{"blue 0", boardRuleset(referee.DangoConnected, false), referee.CapsuleRoll{White: 1, Blue: 0}, "blue die 0"},
		{"two deserts", twoDeserts, referee.CapsuleRoll{White: 1, Blue: 1}, "layout.terrain"},
		{"bad harbour", badHarbor, referee.CapsuleRoll{White: 1, Blue: 1}, "layout.harbors[4]"},
		{"unknown dango", boardRuleset("loose", false), referee.CapsuleRoll{White: 1, Blue: 1}, `dango policy "loose"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := referee.NewBoard(tt.rs, tt.roll, 1)
			if !errors.Is(err, referee.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewBoard(%v) = %v, %v, want an error wrapping ErrInvalid naming %q", tt.roll, b.Roll, err, tt.want)
			}
		})
	}
}

// boardDeal deals the red chips onto reds and the other 14 chips onto the
// remaining hexes but the desert at (0,0), in LandHexes order.
func boardDeal(reds ...referee.Hex) []referee.Chip {
	others := []int{2, 3, 3, 4, 4, 5, 5, 9, 9, 10, 10, 11, 11, 12}
	var chips []referee.Chip
	for _, h := range referee.LandHexes() {
		switch i := slices.Index(reds, h); {
		case h == referee.Hex{}:
		case i >= 0:
			chips = append(chips, referee.Chip{Hex: h, Number: []int{6, 6, 8, 8}[i]})
		default:
			chips = append(chips, referee.Chip{Hex: h, Number: others[0]})
			others = others[1:]
		}
	}
	return chips
}

func TestCheckDeal(t *testing.T) {
	type hexes = []referee.Hex
	var (
		line     = hexes{{Q: 0, R: -2}, {Q: 1, R: -2}, {Q: 2, R: -2}, {Q: 0, R: 2}}
		bent     = hexes{{Q: 0, R: -2}, {Q: 1, R: -2}, {Q: 1, R: -1}, {Q: 0, R: 2}}
		triangle = hexes{{Q: 0, R: -2}, {Q: 1, R: -2}, {Q: 0, R: -1}, {Q: 0, R: 2}}
		rhombus  = hexes{{Q: 0, R: -2}, {Q: 1, R: -2}, {Q: 0, R: -1}, {Q: 1, R: -1}}
		pair     = hexes{{Q: 0, R: -2}, {Q: 1, R: -2}, {Q: -2, R: 2}, {Q: 0, R: 2}}
		twoPairs = hexes{{Q: 0, R: -2}, {Q: 1, R: -2}, {Q: -2, R: 2}, {Q: -1, R: 2}}
		apart    = hexes{{Q: 0, R: -2}, {Q: 2, R: -2}, {Q: -2, R: 2}, {Q: 0, R: 2}}
		// Around the desert: a bent line of reds still touching by edges.
		desertArc = hexes{{Q: 0, R: -1}, {Q: 1, R: -1}, {Q: 1, R: 0}, {Q: 0, R: 2}}
	)
	tests := []struct {
		name   string
		policy referee.DangoPolicy
		reds   []referee.Hex
		want   referee.DealCheck
	}{
		{"connected line", referee.DangoConnected, line, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{line[:3]}}},
		{"connected bent line", referee.DangoConnected, bent, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{bent[:3]}}},
		{"connected triangle", referee.DangoConnected, triangle, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{triangle[:3]}}},
		{"connected four", referee.DangoConnected, rhombus, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{rhombus}}},
		{"connected pair", referee.DangoConnected, pair, referee.DealCheck{}},
		{"connected two pairs", referee.DangoConnected, twoPairs, referee.DealCheck{}},
		{"connected apart", referee.DangoConnected, apart, referee.DealCheck{}},
		{"connected around the desert", referee.DangoConnected, desertArc, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{desertArc[:3]}}},
		{"triangle line", referee.DangoTriangle, line, referee.DealCheck{}},
		{"triangle bent line", referee.DangoTriangle, bent, referee.DealCheck{}},
		{"triangle triangle", referee.DangoTriangle, triangle, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{triangle[:3]}}},
		{"triangle four", referee.DangoTriangle, rhombus, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{rhombus[:3], rhombus[1:]}}},
		{"triangle pair", referee.DangoTriangle, pair, referee.DealCheck{}},
		{"no-adjacent line", referee.DangoNoAdjacentReds, line, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{line[0:2], line[1:3]}}},
		{"no-adjacent triangle", referee.DangoNoAdjacentReds, triangle, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{
			{triangle[0], triangle[1]}, {triangle[0], triangle[2]}, {triangle[1], triangle[2]},
		}}},
		{"no-adjacent pair", referee.DangoNoAdjacentReds, pair, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{pair[:2]}}},
		{"no-adjacent two pairs", referee.DangoNoAdjacentReds, twoPairs, referee.DealCheck{Redeal: true, Clumps: [][]referee.Hex{twoPairs[:2], twoPairs[2:]}}},
		{"no-adjacent apart", referee.DangoNoAdjacentReds, apart, referee.DealCheck{}},
		{"off triangle", referee.DangoOff, triangle, referee.DealCheck{}},
		{"off four", referee.DangoOff, rhombus, referee.DealCheck{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := boardRuleset(tt.policy, false)
			chips := boardDeal(tt.reds...)
			for _, white := range []int{0, 4} {
				got, err := referee.CheckDeal(rs, white, chips)
				if err != nil {
					t.Fatalf("CheckDeal(%v, %d, reds on %v) = %v", tt.policy, white, tt.reds, err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("CheckDeal(%v, %d, reds on %v) (-want +got):\n%s", tt.policy, white, tt.reds, diff)
				}
				if got.Redeal != boardOracleRejects(tt.policy, tt.reds) {
					t.Errorf("CheckDeal(%v, %d, reds on %v).Redeal = %t, want %t", tt.policy, white, tt.reds, got.Redeal, !got.Redeal)
				}
			}
		})
	}
}

func TestCheckDealDesert(t *testing.T) {
	// With the desert on the inner piece, the white die says where it lies;
	// an unknown roll (0) accepts it on any hex the die could turn it to.
	rs := boardRuleset(referee.DangoConnected, true)
	for white := 1; white <= 6; white++ {
		b, err := referee.NewBoard(rs, referee.CapsuleRoll{White: white, Blue: 1}, uint64(white))
		if err != nil {
			t.Fatalf("NewBoard(white %d) = %v", white, err)
		}
		chips := b.Chips()
		for _, w := range []int{0, white} {
			if got, err := referee.CheckDeal(rs, w, chips); err != nil || got.Redeal {
				t.Errorf("CheckDeal(%d, board of white %d) = %+v, %v, want a legal deal", w, white, got, err)
			}
		}
		wrong := white%6 + 1
		if _, err := referee.CheckDeal(rs, wrong, chips); !errors.Is(err, referee.ErrInvalid) || !strings.Contains(err.Error(), "the desert") {
			t.Errorf("CheckDeal(%d, board of white %d) = %v, want an error naming the desert", wrong, white, err)
		}
	}
}

func TestCheckDealErrors(t *testing.T) {
	rs := boardRuleset(referee.DangoConnected, false)
	base := boardDeal(referee.Hex{Q: 0, R: -2}, referee.Hex{Q: 2, R: -2}, referee.Hex{Q: -2, R: 2}, referee.Hex{Q: 0, R: 2})
	change := func(f func([]referee.Chip) []referee.Chip) []referee.Chip { return f(slices.Clone(base)) }
	tests := []struct {
		name  string
		white int
		chips []referee.Chip
		want  string
	}{
		{"missing hex", 0, base[1:], "no chip on (0,-2)"},
		{"duplicate hex", 0, change(func(c []referee.Chip) []referee.Chip { c[1].Hex = c[0].Hex; return c }), "two chips on (0,-2)"},
		{"off the land", 0, change(func(c []referee.Chip) []referee.Chip { c[3].Hex = referee.Hex{Q: 3, R: 0}; return c }), "on (3,0) is off the land"},
		{"on the desert", 0, change(func(c []referee.Chip) []referee.Chip { c[17].Hex = referee.Hex{}; return c }), "on (0,0), the desert"},
		{"on the desert, roll known", 2, change(func(c []referee.Chip) []referee.Chip { c[0].Hex = referee.Hex{}; return c }), "on (0,0), the desert"},
		{"every hex covered", 0, append(slices.Clone(base), referee.Chip{Hex: referee.Hex{}, Number: 5}), "on (0,0), the desert"},
		{"not a chip", 0, change(func(c []referee.Chip) []referee.Chip { c[5].Number = 7; return c }), "chip 7 on"},
		{"zero", 0, change(func(c []referee.Chip) []referee.Chip { c[5].Number = 0; return c }), "chip 0 on"},
		{"wrong multiset", 0, change(func(c []referee.Chip) []referee.Chip {
			for i := range c {
				if c[i].Number == 2 {
					c[i].Number = 12
				}
			}
			return c
		}), "0 chips numbered 2, want 1"},
		{"no chips", 0, nil, "no chip on (0,-2)"},
		{"white 7", 7, base, "white die 7"},
		{"white -1", -1, base, "white die -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.CheckDeal(rs, tt.white, tt.chips)
			if !errors.Is(err, referee.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckDeal(%d, %v) = %+v, %v, want an error wrapping ErrInvalid with %q", tt.white, tt.chips, got, err, tt.want)
			}
		})
	}
	if _, err := referee.CheckDeal(boardRuleset("loose", false), 0, base); !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("CheckDeal(dango %q) = %v, want an error wrapping ErrInvalid", "loose", err)
	}

	// The inner-desert layout with the roll unknown: the bare hex must be
	// one the desert can be turned to.
	inner := boardRuleset(referee.DangoConnected, true)
	b, err := referee.NewBoard(inner, referee.CapsuleRoll{White: 6, Blue: 6}, 1)
	if err != nil {
		t.Fatalf("NewBoard = %v", err)
	}
	chips := b.Chips()
	for i, c := range chips {
		if c.Hex == (referee.Hex{Q: 0, R: -2}) {
			chips[i].Hex = referee.Hex{Q: 1, R: -1} // the desert's hex; (0,-2) left bare
		}
	}
	if _, err := referee.CheckDeal(inner, 0, chips); !errors.Is(err, referee.ErrInvalid) || !strings.Contains(err.Error(), "each has a chip") {
		t.Errorf("CheckDeal(0, desert covered) = %v, want an error that every desert hex has a chip", err)
	}
}

// boardEncode writes chips as the fuzz input: a byte each for q and r, one for the number.
func boardEncode(chips []referee.Chip) []byte {
	var data []byte
	for _, c := range chips {
		data = append(data, byte(int8(c.Hex.Q)), byte(int8(c.Hex.R)), byte(c.Number))
	}
	return data
}

func FuzzCheckDeal(f *testing.F) {
	for seed := range uint64(8) {
		b, err := referee.NewBoard(boardRuleset(referee.DangoOff, seed%2 == 1), referee.CapsuleRoll{White: 1 + int(seed%6), Blue: 1}, seed)
		if err != nil {
			f.Fatalf("NewBoard(%d) = %v", seed, err)
		}
		f.Add(uint8(b.Roll.White), uint8(seed), seed%2 == 1, boardEncode(b.Chips()))
	}
	f.Add(uint8(0), uint8(0), false, boardEncode(boardDeal(referee.Hex{Q: 0, R: -2}, referee.Hex{Q: 1, R: -2}, referee.Hex{Q: 0, R: -1}, referee.Hex{Q: 1, R: -1})))
	f.Add(uint8(7), uint8(1), false, []byte{0, 0, 6})
	f.Add(uint8(0), uint8(2), true, []byte{})
	f.Fuzz(func(t *testing.T, white, policy uint8, innerDesert bool, data []byte) {
		p := referee.DangoPolicies[int(policy)%len(referee.DangoPolicies)]
		rs := boardRuleset(p, innerDesert)
		var chips []referee.Chip
		for i := 0; i+2 < len(data); i += 3 {
			chips = append(chips, referee.Chip{Hex: referee.Hex{Q: int(int8(data[i])), R: int(int8(data[i+1]))}, Number: int(data[i+2])})
		}
		got, err := referee.CheckDeal(rs, int(white), chips)
		if err != nil {
			if !errors.Is(err, referee.ErrInvalid) {
				t.Fatalf("CheckDeal(%d, %v) = %v, want an error wrapping ErrInvalid", white, chips, err)
			}
			return
		}
		// Accepted: the 18 chips on 18 distinct land hexes, one left for the desert.
		var numbers []int
		var reds []referee.Hex
		seen := map[referee.Hex]bool{}
		for _, c := range chips {
			if !c.Hex.Land() || seen[c.Hex] {
				t.Fatalf("CheckDeal(%d, %v) accepted a chip on %v, off the land or repeated", white, chips, c.Hex)
			}
			seen[c.Hex] = true
			numbers = append(numbers, c.Number)
			if c.Number == 6 || c.Number == 8 {
				reds = append(reds, c.Hex)
			}
		}
		slices.Sort(numbers)
		if want := []int{2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12}; !slices.Equal(numbers, want) {
			t.Fatalf("CheckDeal(%d, %v) accepted chips %v, want %v", white, chips, numbers, want)
		}
		slices.SortFunc(reds, referee.Hex.Compare)
		if got.Redeal != (len(got.Clumps) > 0) || got.Redeal != boardOracleRejects(p, reds) {
			t.Fatalf("CheckDeal(%v, %d, %v) = %+v, want Redeal %t", p, white, chips, got, boardOracleRejects(p, reds))
		}
		size := map[referee.DangoPolicy]int{referee.DangoTriangle: 3, referee.DangoNoAdjacentReds: 2}[p]
		for _, c := range got.Clumps {
			if !slices.IsSortedFunc(c, referee.Hex.Compare) || len(c) < 2 || size != 0 && len(c) != size || p == referee.DangoConnected && len(c) < 3 {
				t.Fatalf("CheckDeal(%v, %d, %v) clump %v, want %d or more sorted hexes", p, white, chips, c, max(size, 3))
			}
			for _, h := range c {
				if !slices.Contains(reds, h) {
					t.Fatalf("CheckDeal(%v, %d, %v) clump %v holds %v, not red", p, white, chips, c, h)
				}
			}
		}
		if !slices.IsSortedFunc(got.Clumps, func(a, b []referee.Hex) int { return slices.CompareFunc(a, b, referee.Hex.Compare) }) {
			t.Fatalf("CheckDeal(%v, %d, %v) clumps %v, want them sorted", p, white, chips, got.Clumps)
		}
	})
}

// A board is set up by its ruleset's method: dice of the other one are
// refused, by code, and the ruleset's own dice set it up as NewBoard or
// NewSpiralBoard would.
func TestSetUpBoardByTheRulesetsDice(t *testing.T) {
	capsule, spiral := rulesPreset(), spiralRuleset()
	tests := []struct {
		name string
		rs   referee.Ruleset
		dice referee.BoardDice
		code string // "" for a board
	}{
		{"capsule roll", capsule, referee.BoardDice{Roll: referee.CapsuleRoll{White: 3, Blue: 5}}, ""},
		{"corner for the capsule roll", capsule, referee.BoardDice{Roll: referee.CapsuleRoll{White: 3, Blue: 5}, Corner: 2}, "board-corner-not-roll"},
		{"corner", spiral, referee.BoardDice{Corner: 3}, ""},
		{"capsule roll for the spiral", spiral, referee.BoardDice{Roll: referee.CapsuleRoll{White: 1}, Corner: 3}, "board-roll-not-corner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.SetUpBoard(tt.rs, tt.dice, 42)
			if tt.code != "" {
				var v *referee.Violation
				if !errors.As(err, &v) || v.Code != tt.code || referee.CheckDice(tt.rs, tt.dice) == nil {
					t.Errorf("SetUpBoard(%+v) error = %v, want the violation %s", tt.dice, err, tt.code)
				}
				return
			}
			want, werr := referee.NewBoard(tt.rs, tt.dice.Roll, 42)
			if tt.dice.Corner != 0 {
				want, werr = referee.NewSpiralBoard(tt.rs, tt.dice.Corner, 42)
			}
			if err != nil || werr != nil {
				t.Fatalf("SetUpBoard(%+v) error = %v (%v)", tt.dice, err, werr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("SetUpBoard(%+v) (-want +got):\n%s", tt.dice, diff)
			}
		})
	}
}

// The red chips are the 6s and the 8s (§3 ウ); the dots under a chip count
// the ways two dice roll its number.
func TestNumberChips(t *testing.T) {
	for _, tt := range []struct {
		n    int
		red  bool
		pips int
	}{
		{0, false, 0}, {2, false, 1}, {3, false, 2}, {5, false, 4}, {6, true, 5},
		{7, false, 6}, {8, true, 5}, {9, false, 4}, {11, false, 2}, {12, false, 1}, {13, false, 0},
	} {
		if got := referee.RedNumber(tt.n); got != tt.red {
			t.Errorf("RedNumber(%d) = %v, want %v", tt.n, got, tt.red)
		}
		if got := referee.Pips(tt.n); got != tt.pips {
			t.Errorf("Pips(%d) = %d, want %d", tt.n, got, tt.pips)
		}
	}
}
