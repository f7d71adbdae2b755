package main

import (
	"testing"

	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// The annealing finds a frame that exists: the 1-rotational resolvable
// 2-(28,4,1) design over Z_9 × {0, 1, 2} and ∞ (∞ with (0,c)'s translate),
// and what it returns is a schedule in which nobody meets twice.
func TestAnnealFindsAFrame(t *testing.T) {
	g := 9
	kind := func(x1, c1, x2, c2 int) int {
		if c1 > c2 {
			x1, x2, c1, c2 = x2, x1, c2, c1
		}
		d := ((x2-x1)%g + g) % g
		if c1 == c2 {
			return c1*((g-1)/2) + min(d, g-d) - 1
		}
		return 3*((g-1)/2) + (c1+c2-1)*g + d
	}
	f := frame{g: g, classes: 3, fixed: [][][]int{{{0, 1, 2}}}, kinds: 3*((g-1)/2) + 3*g, kind: kind}
	d, ok := f.anneal(1, 20, 2_000_000)
	if !ok {
		t.Fatal("no 2-(28,4,1) design over Z_9 within 20 restarts of 2,000,000 swaps")
	}
	if err := design.Verify(d.Rounds(), 28); err != nil || len(d.Rounds()) != 9 {
		t.Fatalf("%d rounds: %v", len(d.Rounds()), err)
	}
}

// The even and split shapes' differences are what they say: over every
// pair of finite points, each kind is held by exactly g pairs (the
// translates of one), the pairs of no kind form a perfect matching of the
// finite points, and a base round's pairs are as many as the kinds.
func TestShapesCountTheirDifferences(t *testing.T) {
	type shape struct {
		name              string
		g, classes, kinds int
		rounds            int // base rounds
		kind              func(x1, c1, x2, c2 int) int
	}
	var shapes []shape
	for _, g := range []int{22, 26, 30, 34} {
		shapes = append(shapes, shape{"even", g, 3, 3*(g/2-1) + 3*g, 1, even{g}.difference})
	}
	for _, g := range []int{11, 13, 15, 17} {
		shapes = append(shapes, shape{"split", g, 6, 6*(g-1)/2 + 15*g - 3, 2, split{g}.difference})
	}
	for _, s := range shapes {
		n := s.g * s.classes
		held := make([]int, s.kinds)
		unmet := make([]int, n)
		for p := range n {
			for q := p + 1; q < n; q++ {
				e := s.kind(p%s.g, p/s.g, q%s.g, q/s.g)
				if e < 0 {
					unmet[p]++
					unmet[q]++
					continue
				}
				if e >= s.kinds {
					t.Fatalf("%s %d: kind %d of %d", s.name, s.g, e, s.kinds)
				}
				held[e]++
			}
		}
		for e, c := range held {
			if c != s.g {
				t.Errorf("%s %d: kind %d held by %d pairs, want %d", s.name, s.g, e, c, s.g)
			}
		}
		for p, c := range unmet {
			if c != 1 {
				t.Errorf("%s %d: point %d misses %d others, want 1", s.name, s.g, p, c)
			}
		}
		// Each base round: two tables of ∞ and three points, the rest of 4.
		if pairs := s.rounds * (2*3 + (n-6)/4*6); (n-6)%4 != 0 || pairs != s.kinds {
			t.Errorf("%s %d: %d base rounds hold %d pairs, want %d", s.name, s.g, s.rounds, pairs, s.kinds)
		}
	}
}
