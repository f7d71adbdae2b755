// Command anneal looks for schedules of tables of 4 with fewer repeats
// than the pairing's draw, by simulated annealing over whole schedules:
// a move swaps two players of one round between tables, a worse schedule
// is taken with probability e^(−Δ/T), T falling linearly to 0 over each
// restart. Repeats are counted as the pairing counts them: Σ over pairs
// of (meetings − 1). It is an offline tool, for the sizes the best-known
// table (docs/schedules.md) leaves above their lower bound; the same
// flags print the same lines.
//
// Usage:
//
//	go run ./cmd/anneal -players 20 -rounds 6 [-restarts 50] [-moves 20000000] [-t0 0.5] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"time"
)

func main() {
	players := flag.Int("players", 20, "the players, a multiple of 4")
	rounds := flag.Int("rounds", 6, "the rounds")
	restarts := flag.Int("restarts", 50, "the restarts, each from a random schedule")
	moves := flag.Int("moves", 20_000_000, "the moves tried in each restart")
	t0 := flag.Float64("t0", 0.5, "the starting temperature")
	seed := flag.Uint64("seed", 1, "the seed of the first restart")
	method := flag.String("method", "tabu", "tabu (-moves steps) or anneal (-moves tries)")
	stall := flag.Int("stall", 2000, "tabu: the steps without a new best before a few random swaps")
	flag.Parse()
	if *players < 8 || *players%4 != 0 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "anneal: -players must be a multiple of 4 from 8, -rounds at least 1")
		os.Exit(2)
	}
	start := time.Now()
	best := -1
	counts := map[int]int{}
	for r := range *restarts {
		s := newSchedule(*players, *rounds, rand.New(rand.NewPCG(*seed+uint64(r), 0xa11e)))
		var got int
		if *method == "anneal" {
			got = s.anneal(*moves, *t0)
		} else {
			got = s.tabu(*moves, *stall)
		}
		if c := count(s.best, *players); c != got {
			fmt.Fprintf(os.Stderr, "anneal: restart %d kept %d repeats, counted %d again\n", r, got, c)
			os.Exit(1)
		}
		counts[got]++
		if best < 0 || got < best {
			best = got
			fmt.Printf("restart %d (seed %d): %d repeats\n%v\n", r, *seed+uint64(r), got, s.best)
		}
	}
	fmt.Printf("%d×%d: best %d repeats over %d restarts of %d moves (restarts by their best: %v), %v\n",
		*players, *rounds, best, *restarts, *moves, counts, time.Since(start).Round(time.Second))
}

// schedule is rounds of players at tables of 4: seat[r][4t+k] is the
// player at seat k of table t in round r; met counts the meetings of
// each pair.
type schedule struct {
	n, rounds int
	seat      [][]int
	met       []int
	rng       *rand.Rand
	repeats   int
	best      [][]int // the seats of the fewest repeats seen
}

func newSchedule(n, rounds int, rng *rand.Rand) *schedule {
	s := &schedule{n: n, rounds: rounds, met: make([]int, n*n), rng: rng}
	for range rounds {
		round := rng.Perm(n)
		s.seat = append(s.seat, round)
		for t := 0; t < n; t += 4 {
			for i := t; i < t+4; i++ {
				for j := i + 1; j < t+4; j++ {
					s.meet(round[i], round[j], 1)
				}
			}
		}
	}
	s.keep()
	return s
}

// meet adds d to the meetings of a and b, keeping the repeats.
func (s *schedule) meet(a, b, d int) {
	m := s.met[a*s.n+b]
	if d > 0 && m >= 1 {
		s.repeats++
	}
	if d < 0 && m >= 2 {
		s.repeats--
	}
	s.met[a*s.n+b], s.met[b*s.n+a] = m+d, m+d
}

func (s *schedule) keep() {
	s.best = nil
	for _, r := range s.seat {
		s.best = append(s.best, append([]int(nil), r...))
	}
}

// change is how many repeats swapping the players of seats i and j of
// round r (at different tables) adds.
func (s *schedule) change(r, i, j int) int {
	seat := s.seat[r]
	a, b := seat[i], seat[j]
	d := 0
	for k := range 4 {
		if x := seat[i/4*4+k]; x != a {
			d += step(s.met[b*s.n+x], 1) + step(s.met[a*s.n+x], -1)
		}
		if y := seat[j/4*4+k]; y != b {
			d += step(s.met[a*s.n+y], 1) + step(s.met[b*s.n+y], -1)
		}
	}
	return d
}

// step is the change in a pair's repeats when its m meetings change by d.
func step(m, d int) int {
	switch {
	case d > 0 && m >= 1:
		return 1
	case d < 0 && m >= 2:
		return -1
	}
	return 0
}

func (s *schedule) swap(r, i, j int) {
	seat := s.seat[r]
	a, b := seat[i], seat[j]
	for k := range 4 {
		if x := seat[i/4*4+k]; x != a {
			s.meet(a, x, -1)
			s.meet(b, x, 1)
		}
		if y := seat[j/4*4+k]; y != b {
			s.meet(b, y, -1)
			s.meet(a, y, 1)
		}
	}
	seat[i], seat[j] = b, a
}

// anneal runs one restart and returns the fewest repeats it saw.
func (s *schedule) anneal(moves int, t0 float64) int {
	least := s.repeats
	for m := range moves {
		if least == 0 {
			break
		}
		temp := t0 * (1 - float64(m)/float64(moves))
		r, i, j := s.rng.IntN(s.rounds), s.rng.IntN(s.n), s.rng.IntN(s.n)
		if i/4 == j/4 {
			continue
		}
		d := s.change(r, i, j)
		if d > 0 && (temp <= 0 || s.rng.Float64() >= math.Exp(-float64(d)/temp)) {
			continue
		}
		s.swap(r, i, j)
		if s.repeats < least {
			least = s.repeats
			s.keep()
		}
	}
	return least
}

// count counts the repeats of rounds afresh, each a partition of the n
// players into tables of 4, as a check on the running count.
func count(rounds [][]int, n int) int {
	met := make([]int, n*n)
	repeats := 0
	for _, r := range rounds {
		seen := make([]bool, n)
		for i, a := range r {
			if seen[a] {
				return -1
			}
			seen[a] = true
			for _, b := range r[i+1 : i/4*4+4] {
				if met[a*n+b]++; met[a*n+b] > 1 {
					repeats++
				}
				met[b*n+a] = met[a*n+b]
			}
		}
	}
	return repeats
}

// tabu runs one restart of tabu search (after Dotú and Van Hentenryck's
// for the social golfer problem): each step takes the best swap of a
// player who meets someone again at their table with a player of another
// table of the same round, unless the swap was made within the last few
// steps (a random tenure) and would not beat the best; after stall steps
// without a new best it swaps a few pairs at random. It returns the
// fewest repeats it saw.
func (s *schedule) tabu(steps, stall int) int {
	least, since := s.repeats, 0
	until := make([]int, s.rounds*s.n*s.n) // the step a swap is tabu until
	for step := 0; step < steps && least > 0; step++ {
		bestD, moves := math.MaxInt, [][3]int(nil)
		for r, seat := range s.seat {
			for i, a := range seat {
				if !s.clashes(seat, i) {
					continue
				}
				for j, b := range seat {
					if i/4 == j/4 || (s.clashes(seat, j) && j < i) {
						continue
					}
					d := s.change(r, i, j)
					if until[(r*s.n+a)*s.n+b] > step && s.repeats+d >= least {
						continue
					}
					if d < bestD {
						bestD, moves = d, moves[:0]
					}
					if d == bestD {
						moves = append(moves, [3]int{r, i, j})
					}
				}
			}
		}
		if len(moves) == 0 || since > stall {
			for range 3 {
				r, i, j := s.rng.IntN(s.rounds), s.rng.IntN(s.n), s.rng.IntN(s.n)
				if i/4 != j/4 {
					s.swap(r, i, j)
				}
			}
			since = 0
			continue
		}
		m := moves[s.rng.IntN(len(moves))]
		a, b := s.seat[m[0]][m[1]], s.seat[m[0]][m[2]]
		s.swap(m[0], m[1], m[2])
		tenure := step + 4 + s.rng.IntN(50)
		until[(m[0]*s.n+a)*s.n+b], until[(m[0]*s.n+b)*s.n+a] = tenure, tenure
		if since++; s.repeats < least {
			least, since = s.repeats, 0
			s.keep()
		}
	}
	return least
}

// clashes reports whether the player at seat i meets someone at their
// table more than once in the schedule.
func (s *schedule) clashes(seat []int, i int) bool {
	a := seat[i]
	for _, x := range seat[i/4*4 : i/4*4+4] {
		if x != a && s.met[a*s.n+x] > 1 {
			return true
		}
	}
	return false
}
