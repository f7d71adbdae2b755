package main

import "math/rand/v2"

// spreadNodes bounds the search for a partial spread.
const spreadNodes = 200_000

// spread searches GF(2)^k for 2-dimensional subspaces meeting only in 0 (a
// partial spread), each as its three non-zero vectors: depth first over
// the subspaces in a seeded order, within spreadNodes nodes, keeping the
// most it found ((2^k − 1)/3 for k even; for k odd the most there are is
// (2^k − 8)/3 + 1, Beutelspacher 1975).
func spread(k int, seed uint64) [][3]int {
	n := 1 << k
	var lines [][3]int
	for a := 1; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if c := a ^ b; c > b {
				lines = append(lines, [3]int{a, b, c})
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5bead))
	rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	want := (n - 1) / 3
	used := make([]bool, n)
	var cur, best [][3]int
	nodes := 0
	var dfs func(from int) bool
	dfs = func(from int) bool {
		if len(cur) > len(best) {
			best = append(best[:0], cur...)
		}
		if len(cur) == want {
			return true
		}
		for i := from; i < len(lines) && nodes < spreadNodes; i++ {
			l := lines[i]
			if used[l[0]] || used[l[1]] || used[l[2]] {
				continue
			}
			nodes++
			used[l[0]], used[l[1]], used[l[2]] = true, true, true
			cur = append(cur, l)
			if dfs(i + 1) {
				return true
			}
			cur = cur[:len(cur)-1]
			used[l[0]], used[l[1]], used[l[2]] = false, false, false
		}
		return false
	}
	dfs(0)
	return best
}
