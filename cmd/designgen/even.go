package main

import "github.com/catanjudge/catanjudge/referee/pairing/design"

// The even shape, for v ≡ 8 (mod 12): g = (v−2)/3 rounds (g ≡ 2 mod 4),
// points Z_g × {0, 1, 2} and two fixed points ∞_0, ∞_1, one base round
// developed over Z_g. Each fixed point sits with one point of each class,
// so that over the g rounds it meets every finite point once. A pure
// difference ±d of a class (1 ≤ d < g/2) and a mixed one (c1 < c2, d)
// develop into g pairs each; the half difference g/2 only into g/2 pairs,
// each twice, so no table holds it: the pairs (x, c)–(x+g/2, c) and
// {∞_0, ∞_1} are what nobody meets, a perfect matching (a 4-RGDD of type
// 2^(v/2), a resolvable maximum packing). The counts agree: the base
// round's 2·3 + (3g−6)/4·6 pairs are the 3(g/2−1) + 3g differences.
type even struct{ g int }

// difference numbers the difference of (x1, c1) and (x2, c2): pure
// (class, ±d) as c·(g/2−1) + d − 1, then mixed (c1 < c2, d); −1 for the
// half difference.
func (s even) difference(x1, c1, x2, c2 int) int {
	g := s.g
	if c1 > c2 {
		x1, x2, c1, c2 = x2, x1, c2, c1
	}
	d := ((x2-x1)%g + g) % g
	if c1 == c2 {
		if 2*d == g {
			return -1
		}
		return c1*(g/2-1) + min(d, g-d) - 1
	}
	pair := c1 + c2 - 1 // (0,1) → 0, (0,2) → 1, (1,2) → 2
	return 3*(g/2-1) + pair*g + d
}

func (s even) search(seed uint64, restarts, limit int) (design.Cyclic, bool) {
	if s.g%4 != 2 || s.g < 6 {
		return design.Cyclic{}, false
	}
	all := []int{0, 1, 2}
	return frame{g: s.g, classes: 3, fixed: [][][]int{{all, all}},
		kinds: 3*(s.g/2-1) + 3*s.g, kind: s.difference}.anneal(seed, restarts, limit)
}
