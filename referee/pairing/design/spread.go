package design

// Spread is a partial spread of GF(2)^K: 2-dimensional subspaces, each as
// its three non-zero vectors, meeting only in 0.
type Spread struct {
	K     int
	Lines [][3]int
}

// Rounds returns the spread's rounds of 2^K players: a table is a coset of
// one of its subspaces, a round the cosets of one, and since the subspaces
// meet only in 0 no pair meets twice.
func (s Spread) Rounds() []Round {
	n := 1 << s.K
	var rounds []Round
	for _, l := range s.Lines {
		seen := make([]bool, n)
		var r Round
		for x := range n {
			if !seen[x] {
				t := [4]int{x, x ^ l[0], x ^ l[1], x ^ l[2]}
				for _, p := range t {
					seen[p] = true
				}
				r = append(r, t)
			}
		}
		rounds = append(rounds, r)
	}
	return rounds
}
