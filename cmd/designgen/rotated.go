package main

import (
	"math/rand/v2"
	"slices"

	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// The rotated shape, for v ≢ 8 (mod 12): g = ⌊(v−1)/3⌋ (odd) rounds, points
// Z_g × {0, 1, 2} and f = v − 3g fixed points, one base round that is also
// invariant under rotating the classes, (x, c) → (x, c+1), with the fixed
// point fixed (f = 1) or the three rotated (f = 3). Its tables come in
// threes, and a difference means the same in the three classes (pure) or
// the three pairs of classes (mixed: (0,1), (1,2) and (2,0) are one kind).
// With f = 1 every difference is met once (a resolvable 2-(v,4,1)
// design); with f = 3 one kind is left out, so that each point misses two
// others, and the fixed points one another.
type rotated struct{ g, f int }

// difference numbers the kind of difference of (x1, c1) and (x2, c2): pure
// ±d as d-1 for 1 ≤ d ≤ (g−1)/2, then mixed d as (g−1)/2 + d.
func (s rotated) difference(x1, c1, x2, c2 int) int {
	g := s.g
	d := ((x2-x1)%g + g) % g
	if c1 == c2 {
		return min(d, g-d) - 1
	}
	if (c1+1)%3 != c2 {
		d = (g - d) % g
	}
	return (g-1)/2 + d
}

// point numbers (x, c mod 3) as design.Cyclic does.
func (s rotated) point(x, c int) int { return x + s.g*(c%3) }

func (s rotated) search(seed uint64, restarts, limit int) (design.Cyclic, bool) {
	g := s.g
	// Columns: the x's 1..g (each x's three points go together), the
	// fixed points g+1, the kinds of difference, and with f = 3 one column
	// for the kind left out, which a row of its own covers.
	nd := (g-1)/2 + g
	item := func(a, b [2]int) int { return g + 2 + s.difference(a[0], a[1], b[0], b[1]) }
	primary := g + 1 + nd + b2i(s.f == 3)
	x := newDLX(primary, 0)
	var tables [][][4]int // by row: the tables it seats
	row := func(cols []int, t [][4]int) {
		x.addRow(len(tables), cols)
		tables = append(tables, t)
	}
	distinct := func(t [][2]int) ([]int, bool) {
		var ds []int
		for i, a := range t {
			for _, b := range t[i+1:] {
				d := item(a, b)
				if slices.Contains(ds, d) {
					return nil, false
				}
				ds = append(ds, d)
			}
		}
		return ds, true
	}
	rotations := func(t [][2]int, fixed int) [][4]int {
		var out [][4]int
		for j := range 3 {
			var tb [4]int
			for k, p := range t {
				tb[k] = s.point(p[0], p[1]+j)
			}
			if fixed >= 0 {
				tb[3] = fixed + j*b2i(s.f == 3)
			}
			out = append(out, tb)
		}
		return out
	}
	if s.f == 1 {
		// {∞, (0,0), (0,1), (0,2)}: a translate puts it at x = 0.
		row([]int{1, g + 1, g + 2 + (g-1)/2}, [][4]int{{0, g, 2 * g, 3 * g}})
	} else {
		for b := 1; b < g; b++ {
			for c := 1; c < g; c++ {
				t := [][2]int{{0, 0}, {b, 1}, {c, 2}}
				if ds, ok := distinct(t); b != c && ok {
					row(append([]int{1, b + 1, c + 1, g + 1}, ds...), rotations(t, 3*g))
				}
			}
		}
		// A table never holds (x, c) and (x, c+1) (its rotations would
		// overlap it), so the kind left out is mixed 0, a triangle on
		// each x: with {∞_0, ∞_1, ∞_2} a 4-GDD of type 3^(v/3).
		row([]int{primary, g + 2 + (g-1)/2}, nil)
	}
	for a := range g {
		for b := a + 1; b < g; b++ {
			for c := b + 1; c < g; c++ {
				for e := c + 1; e < g; e++ {
					for pat := range 27 {
						t := [][2]int{{a, 0}, {b, pat % 3}, {c, pat / 3 % 3}, {e, pat / 9}}
						if ds, ok := distinct(t); ok {
							row(append([]int{a + 1, b + 1, c + 1, e + 1}, ds...), rotations(t, -1))
						}
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xd1c5))
	if !x.solve(rng, restarts, limit) {
		return design.Cyclic{}, false
	}
	var base [][4]int
	for _, r := range x.solution {
		base = append(base, tables[r]...)
	}
	return design.Cyclic{G: g, C: 3, F: s.f, Base: [][][4]int{base}}, true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
