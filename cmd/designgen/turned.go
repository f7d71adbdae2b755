package main

import (
	"math/rand/v2"
	"slices"

	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// The turned shape, for v ≡ 8 (mod 12) with g = (v−2)/6 odd and m of order
// 3 mod g: points Z_g × {0..5} and ∞_0, ∞_1, two base rounds developed
// over Z_g (2g = (v−2)/3 rounds), each also invariant under
// σ: (x, c) → (m·x, c+1) with classes 0, 1, 2 and 3, 4, 5 turning as two
// triples, the fixed points fixed. ∞_j sits with triple j in base round 0
// and the other in base round 1, at a point orbit {(a, c), (ma, c+1),
// (m²a, c+2)}. Every table comes with its two turns, and a difference with
// its two images, so the search is a third of the plain one. The
// differences no round covers are (x, c)–(x+δ, c+3) and their images: a
// perfect matching, with {∞_0, ∞_1}.
type turned struct{ g, m int }

func (s turned) turn(x, c int) (int, int) {
	return x * s.m % s.g, c/3*3 + (c+1)%3
}

// difference numbers the difference of (x1, c1) and (x2, c2), turned to a
// representative: pure (class, ±d) as class·half + d − 1, then mixed
// (c1 < c2, d) by class pair.
func (s turned) difference(x1, c1, x2, c2 int) int {
	g := s.g
	half := (g - 1) / 2
	if c1 > c2 {
		x1, x2, c1, c2 = x2, x1, c2, c1
	}
	d := ((x2-x1)%g + g) % g
	if c1 == c2 {
		return c1*half + min(d, g-d) - 1
	}
	pair := c1*6 - c1*(c1+1)/2 + (c2 - c1 - 1)
	return 6*half + pair*g + d
}

// orbit returns the difference's index of the three images, least first,
// so that a difference and its turns are one column.
func (s turned) orbit(x1, c1, x2, c2 int) int {
	best := s.difference(x1, c1, x2, c2)
	for range 2 {
		x1, c1 = s.turn(x1, c1)
		x2, c2 = s.turn(x2, c2)
		best = min(best, s.difference(x1, c1, x2, c2))
	}
	return best
}

func (s turned) search(seed uint64, restarts, limit int) (design.Cyclic, bool) {
	g := s.g
	n := 6 * g
	half := (g - 1) / 2
	nd := 6*half + 15*g
	// Point orbits: the point (x, c) with c ∈ {0, 3} stands for its turns.
	orbitOf := make([]int, n) // point → orbit number
	var reps [][2]int
	seen := make([]bool, n)
	for c := range 6 {
		for x := range g {
			if seen[x+g*c] {
				continue
			}
			o := len(reps)
			reps = append(reps, [2]int{x, c})
			xx, cc := x, c
			for range 3 {
				seen[xx+g*cc] = true
				orbitOf[xx+g*cc] = o
				xx, cc = s.turn(xx, cc)
			}
		}
	}
	orbits := len(reps)
	// Columns: base round β's point orbits, its fixed points, the
	// differences (one per orbit, by its least index), the leave.
	pointCol := func(beta, o int) int { return 1 + beta*orbits + o }
	fixedCol := func(beta, j int) int { return 1 + 2*orbits + 2*beta + j }
	itemCol := func(d int) int { return 1 + 2*orbits + 4 + d }
	leaveCol := 1 + 2*orbits + 4 + nd
	// Only the least index of each orbit is a column that rows use; the
	// others are left without rows and so must not be primary: map them.
	used := map[int]bool{}
	for c1 := range 6 {
		for c2 := c1; c2 < 6; c2++ {
			for d := range g {
				if c1 == c2 && d == 0 {
					continue
				}
				used[s.orbit(0, c1, d, c2)] = true
			}
		}
	}
	var items []int
	for d := range nd {
		if used[d] {
			items = append(items, d)
		}
	}
	x := newDLX(leaveCol, 0)
	type rowKind struct {
		beta   int
		fixed  int // -1 for a table of finite points
		table  [4]int
		active bool
	}
	var rows []rowKind
	add := func(cols []int, r rowKind) {
		x.addRow(len(rows), cols)
		rows = append(rows, r)
	}
	// Differences that are not the least of their orbit get a free row,
	// so that the columns without uses are covered and do not block.
	for d := range nd {
		if !used[d] {
			add([]int{itemCol(d)}, rowKind{fixed: -2})
		}
	}
	_ = items
	// The leave: (x, c)–(x+δ, c+3) and its turns.
	for d := range g {
		add([]int{leaveCol, itemCol(s.orbit(0, 0, d, 3))}, rowKind{fixed: -2})
	}
	// The fixed points' tables: a point orbit of triple j^β.
	for beta := range 2 {
		for j := range 2 {
			triple := 3 * ((j + beta) % 2)
			for a := range g {
				x1, c1 := a, triple
				x2, c2 := s.turn(x1, c1)
				x3, c3 := s.turn(x2, c2)
				d := itemCol(s.orbit(x1, c1, x2, c2))
				tb := [4]int{x1 + g*c1, x2 + g*c2, x3 + g*c3, n + j}
				add([]int{fixedCol(beta, j), pointCol(beta, orbitOf[tb[0]]), d}, rowKind{beta: beta, fixed: j, table: tb, active: true})
			}
		}
	}
	// Tables of finite points: four point orbits, a point of each, the
	// first the orbit's representative.
	for beta := range 2 {
		for o0 := 0; o0 < orbits; o0++ {
			for o1 := o0 + 1; o1 < orbits; o1++ {
				for o2 := o1 + 1; o2 < orbits; o2++ {
					for o3 := o2 + 1; o3 < orbits; o3++ {
						for pat := range 27 {
							pts := [4][2]int{reps[o0]}
							for k, o := range []int{o1, o2, o3} {
								p := reps[o]
								for range pat / []int{1, 3, 9}[k] % 3 {
									p[0], p[1] = s.turn(p[0], p[1])
								}
								pts[k+1] = p
							}
							var ds []int
							ok := true
							for i := range 4 {
								for k := i + 1; k < 4 && ok; k++ {
									d := itemCol(s.orbit(pts[i][0], pts[i][1], pts[k][0], pts[k][1]))
									if slices.Contains(ds, d) {
										ok = false
									}
									ds = append(ds, d)
								}
							}
							if !ok {
								continue
							}
							var tb [4]int
							for i, p := range pts {
								tb[i] = p[0] + g*p[1]
							}
							add(append(ds, pointCol(beta, o0), pointCol(beta, o1), pointCol(beta, o2), pointCol(beta, o3)),
								rowKind{beta: beta, fixed: -1, table: tb, active: true})
						}
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x7e2d))
	if !x.solve(rng, restarts, limit) {
		return design.Cyclic{}, false
	}
	d := design.Cyclic{G: g, C: 6, F: 2, Base: make([][][4]int, 2)}
	for _, r := range x.solution {
		row := rows[r]
		if !row.active {
			continue
		}
		tb := row.table
		for range 3 {
			d.Base[row.beta] = append(d.Base[row.beta], tb)
			if row.fixed >= 0 {
				break // the fixed point's table is its own turn
			}
			for i, p := range tb {
				xx, cc := s.turn(p%g, p/g)
				tb[i] = xx + g*cc
			}
		}
	}
	return d, true
}
