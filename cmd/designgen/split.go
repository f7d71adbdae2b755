package main

import "github.com/catanjudge/catanjudge/referee/pairing/design"

// The split shape, for v ≡ 8 (mod 12) with g = (v−2)/6 odd: points
// Z_g × {0..5} and ∞_0, ∞_1, two base rounds developed over Z_g
// (2g = (v−2)/3 rounds): the turned shape without its multiplier, for the
// g no element of order 3 turns (11, 15 and 17). ∞_j sits with one point of
// each of classes 0, 1, 2 in base round j and of 3, 4, 5 in the other, so
// that it meets every finite point once. Every difference is met once but
// the mixed (c, c+3, 0) for c < 3: the pairs (x, c)–(x, c+3) and
// {∞_0, ∞_1} are what nobody meets, a perfect matching. The counts agree:
// the base rounds' 2·(2·3 + (6g−6)/4·6) pairs are the 6(g−1)/2 pure and
// 15g − 3 mixed differences.
type split struct{ g int }

// difference numbers the difference of (x1, c1) and (x2, c2) as the
// turned shape does (pure by class, then mixed by class pair), the
// left-out ones not numbered: −1 for them.
func (s split) difference(x1, c1, x2, c2 int) int {
	if c1 > c2 {
		x1, x2, c1, c2 = x2, x1, c2, c1
	}
	if c2 == c1+3 && (x2-x1)%s.g == 0 {
		return -1
	}
	// The left-out (c', c'+3, 0) numbered before this one.
	before := 0
	if c1 != c2 {
		before = min(c1, 3) + b2i(c1 < 3 && c2 >= c1+3)
	}
	return turned{g: s.g}.difference(x1, c1, x2, c2) - before
}

func (s split) search(seed uint64, restarts, limit int) (design.Cyclic, bool) {
	if s.g%2 != 1 || s.g < 3 {
		return design.Cyclic{}, false
	}
	low, high := []int{0, 1, 2}, []int{3, 4, 5}
	return frame{g: s.g, classes: 6, fixed: [][][]int{{low, high}, {high, low}},
		kinds: 6*(s.g-1)/2 + 15*s.g - 3, kind: s.difference}.anneal(seed, restarts, limit)
}
