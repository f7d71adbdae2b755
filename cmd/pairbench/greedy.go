package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

// greedySchedule draws a schedule the simple way, for comparison: round by
// round, each table is filled with the player who has met its players least
// (ties at random), then two players of different tables swap while that
// lowers the round's meetings with earlier rounds. Rounds are lists of
// tables of player numbers.
func greedySchedule(n, rounds int, rng *rand.Rand) ([][][]int, error) {
	sizes, byes, err := pairing.Sizes(n)
	if err != nil {
		return nil, err
	}
	if byes > 0 {
		return nil, fmt.Errorf("the greedy baseline seats everyone: %d players need a bye", n)
	}
	met := make([][]int, n)
	for i := range met {
		met[i] = make([]int, n)
	}
	meets := func(a int, table []int) int {
		k := 0
		for _, z := range table {
			if z != a {
				k += met[a][z]
			}
		}
		return k
	}
	var out [][][]int
	for range rounds {
		free := rng.Perm(n)
		var tables [][]int
		for _, size := range sizes {
			table := []int{free[0]}
			free = free[1:]
			for len(table) < size {
				best := 0
				for i, p := range free {
					if meets(p, table) < meets(free[best], table) {
						best = i
					}
				}
				table = append(table, free[best])
				free = append(free[:best], free[best+1:]...)
			}
			tables = append(tables, table)
		}
		for improved := true; improved; {
			improved = false
			for i := range tables {
				for j := i + 1; j < len(tables); j++ {
					for x, a := range tables[i] {
						for y, b := range tables[j] {
							before := meets(a, tables[i]) + meets(b, tables[j])
							tables[i][x], tables[j][y] = b, a
							if meets(b, tables[i])+meets(a, tables[j]) < before {
								improved = true
								a = b // the slot now holds b; keep scanning from it
								continue
							}
							tables[i][x], tables[j][y] = a, b
						}
					}
				}
			}
		}
		for _, t := range tables {
			for i, a := range t {
				for _, b := range t[i+1:] {
					met[a][b]++
					met[b][a]++
				}
			}
		}
		out = append(out, tables)
	}
	return out, nil
}

// meetingsBeyondFirst sums, over pairs, their meetings beyond the first.
func meetingsBeyondFirst(rounds [][][]int) int {
	met := map[[2]int]int{}
	k := 0
	for _, round := range rounds {
		for _, t := range round {
			for i, a := range t {
				for _, b := range t[i+1:] {
					key := [2]int{min(a, b), max(a, b)}
					if met[key]++; met[key] > 1 {
						k++
					}
				}
			}
		}
	}
	return k
}
