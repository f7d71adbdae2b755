package pairing

import (
	"fmt"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// testProblem builds a problem of n players with some History, standings,
// a fixed table and a keep-apart pair.
func testProblem(t *testing.T, n int, swiss bool) *problem {
	t.Helper()
	req := Request{Seed: 1}
	for i := range n {
		req.Players = append(req.Players, Player{ID: fmt.Sprintf("p%02d", i), Standing: 1 + i/2})
	}
	if n >= 8 {
		req.Players[1].FixedTable = 1
		req.KeepApart = [][2]string{{"p02", "p03"}}
	}
	rng := referee.NewRand(uint64(n))
	for range 3 {
		perm := rng.Perm(n)
		for len(perm) > 0 {
			k := min(len(perm), 3+rng.IntN(2))
			var table []string
			for _, i := range perm[:k] {
				table = append(table, req.Players[i].ID)
			}
			req.History = append(req.History, table)
			perm = perm[k:]
		}
	}
	p, err := newProblem(req, swiss)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Every swap's delta is exactly the change of the cost recomputed from
// scratch, for rounds and schedules, with holes, byes and fixed players.
func TestDeltaMatchesRecomputedCost(t *testing.T) {
	for _, n := range []int{5, 7, 9, 13, 22} {
		for _, rounds := range []int{1, 3} {
			t.Run(fmt.Sprintf("%d players %d rounds", n, rounds), func(t *testing.T) {
				p := testProblem(t, n, rounds == 1)
				s := newSearch(p, rounds, rounds > 1, referee.NewRand(3))
				s.gap = 2
				for r := range rounds {
					s.place(r, s.shuffled())
				}
				s.init()
				for range 300 {
					r := s.rng.IntN(rounds)
					s1, s2 := s.rng.IntN(p.slots), s.rng.IntN(p.slots)
					if !s.swappable(r*p.slots, s1, s2) {
						continue
					}
					d := s.delta(r, s1, s2)
					s.swap(r, s1, s2, d)
					fresh := *s
					fresh.init()
					if fresh.cost != s.cost {
						t.Fatalf("after a swap priced %v: cost %v, recomputed %v", d, s.cost, fresh.cost)
					}
					if !slices.Equal(fresh.met, s.met) || !slices.Equal(fresh.three, s.three) || !slices.Equal(fresh.bye, s.bye) {
						t.Fatal("after a swap the meetings or exposure counts drifted from a recount")
					}
				}
			})
		}
	}
}

// The engine finds the affine plane of order 4 by local search alone, without
// the finite-geometry start DrawSchedule gives it.
func TestLocalSearchFinds16x5(t *testing.T) {
	req := Request{}
	for i := range 16 {
		req.Players = append(req.Players, Player{ID: fmt.Sprintf("p%02d", i)})
	}
	p, err := newProblem(req, false)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		s := newSearch(p, 5, true, referee.NewRand(seed))
		for r := range 5 {
			s.place(r, s.shuffled())
		}
		s.init()
		s.optimise(scheduleBudget(p))
		if s.cost[meetings] != 0 {
			t.Errorf("seed %d: meetings cost %d, want 0", seed, s.cost[meetings])
		}
	}
}
