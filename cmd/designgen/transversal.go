package main

import (
	"math/rand/v2"
	"slices"

	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// The transversal shape, for v = m·g players with g odd and m ≡ 0 (mod 4):
// points Z_g × {0..m-1}, no fixed point; b base rounds developed over Z_g,
// and k rounds that Z_g fixes, each the translates of m/4 tables with one
// point of each of four classes ("transversals"), so b·g + k = ⌊(v−1)/3⌋
// rounds. Nobody meets twice when the differences of the base rounds and
// of the fixed rounds' tables are all distinct; for v ≡ 8 (mod 12) the
// differences no round covers make a perfect matching, here one mixed
// difference between classes 2j and 2j+1 for each j.
type transversal struct{ m, g, b, k, f int }

// difference numbers the difference of (x1, c1) and (x2, c2): pure ones
// (class, ±d) first, then mixed (c1 < c2, d).
func (t transversal) difference(x1, c1, x2, c2 int) int {
	g := t.g
	if c1 > c2 {
		x1, x2, c1, c2 = x2, x1, c2, c1
	}
	d := ((x2-x1)%g + g) % g
	half := (g - 1) / 2
	if c1 == c2 {
		if 2*d == g {
			return -1 // g even: the halves never meet (a round would seat them twice)
		}
		return c1*half + min(d, g-d) - 1
	}
	pair := c1*t.m - c1*(c1+1)/2 + (c2 - c1 - 1)
	return t.m*half + pair*g + d
}

func (t transversal) search(seed uint64, restarts, limit int) (design.Cyclic, bool) {
	m, g, b, k := t.m, t.g, t.b, t.k
	n := m * g
	f := t.f
	v := n + f
	half := (g - 1) / 2
	nd := m*half + m*(m-1)/2*g
	leave := (v - 1) - 3*(b*g+k) // differences left uncovered per point
	// Columns: base round β's points (1 + β·n + p), fixed round i's
	// classes (1 + b·n + i·m + c), the differences, and one column per
	// matched pair of classes when something is left.
	pointCol := func(beta, p int) int { return 1 + beta*n + p }
	classCol := func(i, c int) int { return 1 + b*n + i*m + c }
	itemCol := func(d int) int { return 1 + b*n + k*m + d }
	leaveCol := func(j int) int { return 1 + b*n + k*m + nd + j }
	fixedCol := func(beta, j int) int { return 1 + b*n + k*m + nd + m/2 + beta*f + j }
	primary := b*n + k*m + nd + m/2 + b*f
	x := newDLX(primary, 0)
	type rowKind struct {
		beta, fixed int // base round, or fixed round (-1 when not)
		table       [4]int
	}
	var rows []rowKind
	add := func(cols []int, r rowKind) {
		x.addRow(len(rows), cols)
		rows = append(rows, r)
	}
	diffs := func(tb [4]int) ([]int, bool) {
		var ds []int
		for i, p := range tb {
			for _, q := range tb[i+1:] {
				e := t.difference(p%g, p/g, q%g, q/g)
				if e < 0 || slices.Contains(ds, itemCol(e)) {
					return nil, false
				}
				ds = append(ds, itemCol(e))
			}
		}
		return ds, true
	}
	diffs3 := func(tb [4]int) ([]int, bool) {
		var ds []int
		for i, p := range tb[:3] {
			for _, q := range tb[i+1 : 3] {
				d := itemCol(t.difference(p%g, p/g, q%g, q/g))
				if slices.Contains(ds, d) {
					return nil, false
				}
				ds = append(ds, d)
			}
		}
		return ds, true
	}
	for j := range m / 2 {
		if leave != 1 || g%2 == 0 {
			add([]int{leaveCol(j)}, rowKind{beta: -1, fixed: -1})
			continue
		}
		for d := range g {
			add([]int{leaveCol(j), itemCol(t.difference(0, 2*j, d, 2*j+1))}, rowKind{beta: -1, fixed: -1})
		}
	}
	for i := range k {
		for c0 := 0; c0 < m; c0++ {
			for c1 := c0 + 1; c1 < m; c1++ {
				for c2 := c1 + 1; c2 < m; c2++ {
					for c3 := c2 + 1; c3 < m; c3++ {
						// A fixed round's table is one of its g translates:
						// the one with (0, c0).
						for a := range g * g * g {
							tb := [4]int{g * c0, a%g + g*c1, a/g%g + g*c2, a/g/g + g*c3}
							if ds, ok := diffs(tb); ok {
								add(append(ds, classCol(i, c0), classCol(i, c1), classCol(i, c2), classCol(i, c3)), rowKind{beta: -1, fixed: i, table: tb})
							}
						}
					}
				}
			}
		}
	}
	// Fixed point j sits with classes 3j.. 3j+2 in base round 0 and the
	// other three in base round 1 (f = 2, m = 6, b = 2).
	for beta := range b {
		for j := range f {
			cls := 3 * ((j + beta) % 2)
			if m == 3 {
				cls = 0
			}
			for a := range g * g * g {
				if beta == 0 && j == 0 && a%g != 0 {
					continue // a translate of the base round
				}
				tb := [4]int{a%g + g*cls, a/g%g + g*(cls+1), a/g/g + g*(cls+2), n + j}
				if ds, ok := diffs3(tb); ok {
					add(append(ds, fixedCol(beta, j), pointCol(beta, tb[0]), pointCol(beta, tb[1]), pointCol(beta, tb[2])), rowKind{beta: beta, fixed: -1, table: tb})
				}
			}
		}
		for p0 := range n {
			for p1 := p0 + 1; p1 < n; p1++ {
				for p2 := p1 + 1; p2 < n; p2++ {
					for p3 := p2 + 1; p3 < n; p3++ {
						tb := [4]int{p0, p1, p2, p3}
						if ds, ok := diffs(tb); ok {
							add(append(ds, pointCol(beta, p0), pointCol(beta, p1), pointCol(beta, p2), pointCol(beta, p3)), rowKind{beta: beta, fixed: -1, table: tb})
						}
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x7a25))
	if !x.solve(rng, restarts, limit) {
		return design.Cyclic{}, false
	}
	d := design.Cyclic{G: g, C: m, F: f, Base: make([][][4]int, b), Invariant: make([][][4]int, k)}
	for _, r := range x.solution {
		switch row := rows[r]; {
		case row.beta >= 0:
			d.Base[row.beta] = append(d.Base[row.beta], row.table)
		case row.fixed >= 0:
			d.Invariant[row.fixed] = append(d.Invariant[row.fixed], row.table)
		}
	}
	return d, true
}
