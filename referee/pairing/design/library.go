package design

import (
	"fmt"
	"math/bits"
)

// Source names where a schedule comes from, for people.
type Source string

// Build returns the rounds of v players at tables of 4 in which nobody
// meets twice, as many as any construction here gives up to atMost (and
// ⌊(v−1)/3⌋, the most there can be), and where they come from; none when
// it knows no construction. Every schedule is checked (Verify) as it is
// built: one that failed would be a defect, and Build panics.
func Build(v, atMost int) ([]Round, Source) {
	if v%4 != 0 || v < 16 || atMost < 1 {
		return nil, ""
	}
	var best []Round
	var from Source
	try := func(rounds []Round, src Source) {
		rounds = rounds[:min(len(rounds), atMost)]
		if len(rounds) <= len(best) {
			return
		}
		if err := Verify(rounds, v); err != nil {
			panic(fmt.Sprintf("design: %s for %d players: %v", src, v, err))
		}
		best, from = rounds, src
	}
	for _, s := range published {
		if s.players == v {
			try(s.rounds, s.source)
		}
	}
	for _, d := range cyclicTable {
		if d.Players() == v {
			try(d.Rounds(), Source(fmt.Sprintf("differences over Z_%d", d.G)))
		}
	}
	if q := (v - 1) / 3; v%12 == 4 {
		if rounds, ok := fieldDesign(q, atMost); ok {
			try(rounds, Source(fmt.Sprintf("the finite field GF(%d)", q)))
		}
	}
	if n := bits.TrailingZeros(uint(v)); bits.OnesCount(uint(v)) == 1 && len(best) < (v-1)/3 {
		if n%2 == 0 {
			try(affineDesign(n/2, atMost), Source(fmt.Sprintf("the affine space AG(%d, 4)", n/2)))
		}
	}
	for _, s := range spreadTable {
		if 1<<s.K == v {
			try(s.Rounds(), Source(fmt.Sprintf("a partial spread of GF(2)^%d", s.K)))
		}
	}
	return best, from
}

// Limit is the most rounds v players at tables of 4 can play with nobody
// meeting twice: each meets 3 new players a round (⌊(v−1)/3⌋), and for 8,
// 12 and 20 players fewer, since no resolvable design reaches it (2 rounds
// of 8 and 6 rounds of 20 are impossible: Handbook of Combinatorial
// Designs, 2nd ed., IV.5.6 and the social golfer problem's 5-4-6; 12
// players sit at 3 tables, so a second round's table of 4 seats two from
// one table of the first).
func Limit(v int) int {
	switch v {
	case 4:
		return 1
	case 8:
		return 1
	case 12:
		return 1
	case 20:
		return 5
	}
	return (v - 1) / 3
}
