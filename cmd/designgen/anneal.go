package main

import (
	"math"
	"math/rand/v2"

	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// A frame is a shape whose exact cover is too wide for dancing links (no
// symmetry but the translations, C(points, 4) rows): points Z_g × classes
// and the fixed points ∞_0, ∞_1, len(fixed) base rounds developed over
// Z_g, in base round b ∞_j sitting with one point of each class of
// fixed[b][j]. kind numbers the difference of two points, 0..kinds−1, or
// −1 for one no table may hold (what the schedule leaves unmet); the
// shape's counts must make the base rounds' pairs as many as the kinds, so
// that a base round holding each kind at most once holds each exactly
// once.
type frame struct {
	g, classes int
	fixed      [][][]int
	kinds      int
	kind       func(x1, c1, x2, c2 int) int
}

// annealTemperature is the annealing's fixed temperature: a swap that adds
// one clash more is taken with probability e^(−1/T). Of 0.25, 0.35, 0.5,
// 0.8 and 1.0, 0.25 went lowest on the shapes tried (a tabu search over
// all the swaps of a point in a clash went no lower, at a tenth of the
// swaps a second).
const annealTemperature = 0.25

// anneal searches the frame's base rounds by simulated annealing: from
// restarts random starts, each for at most limit swaps of two points of
// one base round's different tables, counting the clashes (a kind held
// more than once, or one no table may hold) until there is none. A swap is
// drawn at a point in a clash, with any other point its table may take.
func (f frame) anneal(seed uint64, restarts, limit int) (design.Cyclic, bool) {
	g := f.g
	n := g * f.classes
	rng := rand.New(rand.NewPCG(seed, 0xa11e))
	forbidden := f.kinds
	kind := func(p, q int) int {
		if e := f.kind(p%g, p/g, q%g, q/g); e >= 0 {
			return e
		}
		return forbidden
	}
	count := make([]int, f.kinds+1)
	// add counts one pair of kind e more (by = 1) or fewer (−1) and
	// returns the change in clashes.
	add := func(e, by int) int {
		before := count[e]
		count[e] += by
		if e == forbidden {
			return by
		}
		return max(count[e]-1, 0) - max(before-1, 0)
	}
	rounds := len(f.fixed)
	// at[b][t] are base round b's table t's finite points, the fixed
	// points' tables first (slot i of ∞_j's holds class fixed[b][j][i]).
	at := make([][][]int, rounds)
	where := make([][][2]int, rounds) // point → table, slot
	for b := range rounds {
		where[b] = make([][2]int, n)
	}
	// move takes p out of (by = −1) or into (+1) table t's pairs.
	move := func(b, p, t, slot, by int) int {
		delta := 0
		for i, q := range at[b][t] {
			if i != slot {
				delta += add(kind(p, q), by)
			}
		}
		return delta
	}
	clashing := func(b, p int) bool {
		t, slot := where[b][p][0], where[b][p][1]
		for i, q := range at[b][t] {
			if e := kind(p, q); i != slot && (e == forbidden || count[e] > 1) {
				return true
			}
		}
		return false
	}
	// swap exchanges p, at table tp slot sp, with q at tq, sq, and
	// returns the change in clashes; swap(b, q, p, …) undoes it.
	swap := func(b, p, q, tp, sp, tq, sq int) int {
		delta := move(b, p, tp, sp, -1) + move(b, q, tq, sq, -1)
		at[b][tp][sp], at[b][tq][sq] = q, p
		where[b][p], where[b][q] = [2]int{tq, sq}, [2]int{tp, sp}
		return delta + move(b, q, tp, sp, 1) + move(b, p, tq, sq, 1)
	}
	var accept [8]float64
	for i := range accept {
		accept[i] = math.Exp(-float64(i) / annealTemperature)
	}
	for range restarts {
		clear(count)
		clashes := 0
		for b, fixed := range f.fixed {
			at[b] = at[b][:0]
			taken := make([]bool, n)
			for _, cs := range fixed {
				var t []int
				for _, c := range cs {
					x := rng.IntN(g)
					for taken[x+g*c] {
						x = rng.IntN(g)
					}
					taken[x+g*c] = true
					t = append(t, x+g*c)
				}
				at[b] = append(at[b], t)
			}
			var rest []int
			for p := range n {
				if !taken[p] {
					rest = append(rest, p)
				}
			}
			rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
			for i := 0; i+4 <= len(rest); i += 4 {
				at[b] = append(at[b], rest[i:i+4])
			}
			for t, ps := range at[b] {
				for i, p := range ps {
					where[b][p] = [2]int{t, i}
					for _, q := range ps[i+1:] {
						clashes += add(kind(p, q), 1)
					}
				}
			}
		}
		for step := 0; step < limit && clashes > 0; step++ {
			b, p, q := rng.IntN(rounds), rng.IntN(n), rng.IntN(n)
			for range n {
				if clashing(b, p) {
					break
				}
				b, p = rng.IntN(rounds), rng.IntN(n)
			}
			tp, sp := where[b][p][0], where[b][p][1]
			tq, sq := where[b][q][0], where[b][q][1]
			fixedT := len(f.fixed[b])
			if tp == tq || (tp < fixedT || tq < fixedT) && p/g != q/g {
				continue
			}
			delta := swap(b, p, q, tp, sp, tq, sq)
			if delta <= 0 || delta < len(accept) && rng.Float64() < accept[delta] {
				clashes += delta
				continue
			}
			swap(b, q, p, tp, sp, tq, sq)
		}
		if clashes == 0 {
			d := design.Cyclic{G: g, C: f.classes, F: len(f.fixed[0])}
			for b := range rounds {
				var base [][4]int
				for t, ps := range at[b] {
					if t < len(f.fixed[b]) {
						base = append(base, [4]int{ps[0], ps[1], ps[2], n + t})
					} else {
						base = append(base, [4]int(ps))
					}
				}
				d.Base = append(d.Base, base)
			}
			return d, true
		}
	}
	return design.Cyclic{}, false
}
