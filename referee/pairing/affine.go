package pairing

import "math/bits"

// spreadNodes bounds the search for a partial spread.
const spreadNodes = 200_000

// placeAffine seeds a schedule of 2^k players at 4-player tables from finite
// geometry: a table is a coset of a 2-dimensional subspace of GF(2)^k, a
// round the cosets of one subspace, and subspaces meeting only in 0 (a
// partial spread) give rounds in which no pair meets twice. This solves 16
// players over 5 rounds and 32 over 8 or 9 outright; local search then
// answers for History, keep-apart pairs and any rounds beyond the spread.
// It returns how many rounds it placed, from the first; a subspace that
// would seat players fixed to different tables together is skipped.
func (s *search) placeAffine() int {
	p := s.p
	if p.holes > 0 || p.byes > 0 || p.n < 16 || bits.OnesCount(uint(p.n)) != 1 {
		return 0
	}
	spread := s.spread()
	point := s.shuffled() // point v of GF(2)^k seats the player point[v]...
	var fixed []int32     // ...after the players fixed to a table
	for e := range p.n {
		if p.pin[e] >= 0 {
			fixed = append(fixed, int32(e))
		}
	}
	point = append(fixed, point...)
	placed := 0
	for _, v := range spread {
		if placed < s.nrounds && s.placeCosets(placed, v, point) {
			placed++
		}
	}
	return placed
}

// placeCosets seats round r at the cosets of the subspace {0, v[0], v[1], v[2]},
// numbering them so that fixed players sit at their tables; it reports false
// if two fixed players would share a coset.
func (s *search) placeCosets(r int, v [3]int, point []int32) bool {
	p := s.p
	seat := s.seat[r*p.slots : (r+1)*p.slots]
	label := make([]int, p.n) // coset leader -> table number + 1
	taken := make([]bool, p.tables)
	leader := func(x int) int { return min(x, x^v[0], x^v[1], x^v[2]) }
	for x := range p.n {
		if t := p.pin[point[x]]; t >= 0 {
			l := leader(x)
			switch {
			case label[l] == int(t)+1:
			case label[l] != 0 || taken[t]:
				return false
			default:
				label[l], taken[t] = int(t)+1, true
			}
		}
	}
	next := 0
	for x := range p.n {
		l := leader(x)
		if label[l] == 0 {
			for taken[next] {
				next++
			}
			label[l], taken[next] = next+1, true
		}
	}
	fill := make([]int, p.tables)
	for x := range p.n {
		t := label[leader(x)] - 1
		seat[4*t+fill[t]] = point[x]
		fill[t]++
	}
	return true
}

// spread returns subspaces of GF(2)^k of dimension 2, each as its three
// non-zero vectors, pairwise meeting only in 0: as many as the schedule has
// rounds if the bounded search finds them, otherwise the most it found.
func (s *search) spread() [][3]int {
	n := s.p.n
	var lines [][3]int
	for a := 1; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if c := a ^ b; c > b {
				lines = append(lines, [3]int{a, b, c})
			}
		}
	}
	s.rng.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	want := min(s.nrounds, (n-1)/3)
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
