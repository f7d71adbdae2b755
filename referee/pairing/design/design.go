// Package design builds schedules of tables of 4 in which nobody meets
// anyone twice: resolvable designs and packings from finite fields and
// from the method of differences, and the tables the project ships as data.
// It is pure: everything is built from its inputs, and every schedule it
// returns has been checked by Verify.
package design

import "fmt"

// Round is one round's tables of 4, by player number.
type Round [][4]int

// Verify checks that every round seats each of the players 0..v-1 exactly
// once at tables of 4 and that no two players meet twice.
func Verify(rounds []Round, v int) error {
	if v%4 != 0 {
		return fmt.Errorf("%d players cannot sit at tables of 4", v)
	}
	met := make([]uint64, (v*v+63)/64) // a bit per ordered pair
	for r, round := range rounds {
		if len(round) != v/4 {
			return fmt.Errorf("round %d has %d tables, want %d", r+1, len(round), v/4)
		}
		seen := make([]bool, v)
		for t, table := range round {
			for i, p := range table {
				if p < 0 || p >= v {
					return fmt.Errorf("round %d table %d seats player %d of %d", r+1, t+1, p, v)
				}
				if seen[p] {
					return fmt.Errorf("round %d seats player %d twice", r+1, p)
				}
				seen[p] = true
				for _, q := range table[i+1:] {
					if q < 0 || q >= v {
						continue // reported as q's seat is read
					}
					i, j := p*v+q, q*v+p
					if met[i/64]&(1<<(i%64)) != 0 {
						return fmt.Errorf("round %d table %d: players %d and %d meet again", r+1, t+1, p, q)
					}
					met[i/64] |= 1 << (i % 64)
					met[j/64] |= 1 << (j % 64)
				}
			}
		}
	}
	return nil
}
