package main

import "math/rand/v2"

// dlx is Knuth's Algorithm X with dancing links: choose rows so that every
// primary column is covered exactly once and every secondary column at
// most once, always branching on the primary column with the fewest rows
// left.
type dlx struct {
	l, r, u, d, col, row []int32
	size                 []int32
	primary              int
	solution             []int32
	nodes, limit         int
}

// newDLX makes columns 1..primary primary and the next secondary ones
// secondary (node 0 is the root).
func newDLX(primary, secondary int) *dlx {
	n := primary + secondary + 1
	x := &dlx{primary: primary}
	for i := range n {
		x.l = append(x.l, int32(i-1))
		x.r = append(x.r, int32(i+1))
		x.u = append(x.u, int32(i))
		x.d = append(x.d, int32(i))
		x.col = append(x.col, int32(i))
		x.row = append(x.row, -1)
	}
	x.size = make([]int32, n)
	// Only primary columns are in the header list.
	x.l[0] = int32(primary)
	x.r[primary] = 0
	for i := primary + 1; i < n; i++ {
		x.l[i], x.r[i] = int32(i), int32(i)
	}
	return x
}

// solve searches from restarts fresh starts, each of at most limit nodes,
// and reports whether one found a cover (then x.solution).
func (x *dlx) solve(rng *rand.Rand, restarts, limit int) bool {
	for range restarts {
		x.nodes, x.limit = 0, limit
		x.solution = x.solution[:0]
		if x.search(rng) {
			return true
		}
	}
	return false
}

// addRow adds a row covering the given columns (1-based).
func (x *dlx) addRow(id int, cols []int) {
	first := int32(-1)
	for _, c := range cols {
		n := int32(len(x.l))
		x.col = append(x.col, int32(c))
		x.row = append(x.row, int32(id))
		x.u = append(x.u, x.u[c])
		x.d = append(x.d, int32(c))
		x.d[x.u[c]] = n
		x.u[c] = n
		x.size[c]++
		if first < 0 {
			first = n
			x.l = append(x.l, n)
			x.r = append(x.r, n)
		} else {
			x.l = append(x.l, x.l[first])
			x.r = append(x.r, first)
			x.r[x.l[first]] = n
			x.l[first] = n
		}
	}
}

func (x *dlx) cover(c int32) {
	x.r[x.l[c]], x.l[x.r[c]] = x.r[c], x.l[c]
	for i := x.d[c]; i != c; i = x.d[i] {
		for j := x.r[i]; j != i; j = x.r[j] {
			x.d[x.u[j]], x.u[x.d[j]] = x.d[j], x.u[j]
			x.size[x.col[j]]--
		}
	}
}

func (x *dlx) uncover(c int32) {
	for i := x.u[c]; i != c; i = x.u[i] {
		for j := x.l[i]; j != i; j = x.l[j] {
			x.size[x.col[j]]++
			x.d[x.u[j]], x.u[x.d[j]] = j, j
		}
	}
	x.r[x.l[c]], x.l[x.r[c]] = c, c
}

// search reports whether it found a solution within the node limit; the
// rows of a column are tried from a random start, so that restarts with
// other generators explore elsewhere.
func (x *dlx) search(rng *rand.Rand) bool {
	if x.r[0] == 0 {
		return true
	}
	if x.nodes++; x.nodes > x.limit {
		return false
	}
	best, bestSize := int32(-1), int32(1<<30)
	for c := x.r[0]; c != 0; c = x.r[c] {
		if x.size[c] < bestSize {
			best, bestSize = c, x.size[c]
			if bestSize <= 1 {
				break
			}
		}
	}
	if bestSize == 0 {
		return false
	}
	x.cover(best)
	var rows []int32
	for i := x.d[best]; i != best; i = x.d[i] {
		rows = append(rows, i)
	}
	rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
	for _, i := range rows {
		x.solution = append(x.solution, x.row[i])
		for j := x.r[i]; j != i; j = x.r[j] {
			x.cover(x.col[j])
		}
		ok := x.search(rng)
		for j := x.l[i]; j != i; j = x.l[j] {
			x.uncover(x.col[j])
		}
		if ok {
			x.uncover(best)
			return true
		}
		x.solution = x.solution[:len(x.solution)-1]
		if x.nodes > x.limit {
			break
		}
	}
	x.uncover(best)
	return false
}
