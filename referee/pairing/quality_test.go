package pairing_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

// The quality targets: Swiss rounds 1 to 3 meet nobody twice from
// 13 players up, rounds 4 to 6 from 32 up.
func TestSwissAvoidsRepeats(t *testing.T) {
	tests := []struct {
		n, rounds int
	}{
		{13, 3}, {16, 3}, {20, 3}, {33, 3}, {200, 3},
		{32, 6}, {64, 6},
	}
	for _, tt := range tests {
		for seed := uint64(1); seed <= 2; seed++ {
			t.Run(fmt.Sprintf("%d players seed %d", tt.n, seed), func(t *testing.T) {
				e := newEvent(tt.n, seed)
				for i, r := range e.runSwiss(t, tt.rounds, seed*100) {
					if r.Repeats != 0 {
						t.Errorf("round %d: %d repeats, want 0", i+1, r.Repeats)
					}
				}
			})
		}
	}
}

// Up to 12 players the pigeonhole forces repeats from round 2; with tables
// of one size (so 3-player tables are no concern) each round has the
// fewest a brute force finds.
func TestSwissFewestRepeatsWhenForced(t *testing.T) {
	for _, n := range []int{6, 8, 9, 12} {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			e := newEvent(n, uint64(n))
			for r := range 6 {
				req := e.request(uint64(r))
				pair := pairing.Swiss
				if r == 0 {
					pair = pairing.Random
				}
				round, err := pair(req)
				if err != nil {
					t.Fatal(err)
				}
				if want := fewestMeetings(req); round.Cost.Meetings != want {
					t.Errorf("round %d: meetings cost %d, want the fewest, %d", r+1, round.Cost.Meetings, want)
				}
				e.play(round)
			}
		})
	}
}

// fewestMeetings returns the least meetings cost (sum of squared earlier
// meetings of tablemates) over all splits of req's players into tables of
// one size.
func fewestMeetings(req pairing.Request) int64 {
	n := len(req.Players)
	size := 4
	if n%4 != 0 {
		size = 3
	}
	index := map[string]int{}
	for i, p := range req.Players {
		index[p.ID] = i
	}
	met := make([][]int64, n)
	for i := range met {
		met[i] = make([]int64, n)
	}
	for _, t := range req.History {
		for i, a := range t {
			for _, b := range t[i+1:] {
				met[index[a]][index[b]]++
				met[index[b]][index[a]]++
			}
		}
	}
	used := make([]bool, n)
	best := int64(math.MaxInt64)
	var split func(cost int64)
	var pick func(from int, table []int, cost int64)
	split = func(cost int64) {
		first := slices.Index(used, false)
		if first < 0 {
			best = min(best, cost)
			return
		}
		used[first] = true
		pick(first+1, []int{first}, cost)
		used[first] = false
	}
	pick = func(from int, table []int, cost int64) {
		if cost >= best {
			return
		}
		if len(table) == size {
			split(cost)
			return
		}
		for i := from; i < n; i++ {
			if used[i] {
				continue
			}
			add := int64(0)
			for _, z := range table {
				add += met[z][i] * met[z][i]
			}
			used[i] = true
			pick(i+1, append(table, i), cost+add)
			used[i] = false
		}
	}
	split(0)
	return best
}

// The schedule targets: 16 players over 5 rounds and 32 over 8
// meet nobody twice.
func TestScheduleAvoidsRepeats(t *testing.T) {
	for _, tt := range []struct{ n, rounds int }{{16, 5}, {32, 8}, {20, 5}} {
		for seed := uint64(1); seed <= 3; seed++ {
			s, err := pairing.DrawSchedule(pairing.Request{Players: players(tt.n), Seed: seed}, tt.rounds)
			if err != nil {
				t.Fatal(err)
			}
			var history [][]string
			for _, r := range s.Rounds {
				history = append(history, r.Tables...)
			}
			if s.Repeats != 0 {
				t.Errorf("DrawSchedule(%d players, %d rounds, seed %d): %d repeats, want 0", tt.n, tt.rounds, seed, s.Repeats)
			}
			if got := pairsMeetingTwice(history); got != 0 {
				t.Errorf("DrawSchedule(%d players, %d rounds, seed %d): %d pairs meet twice, want 0", tt.n, tt.rounds, seed, got)
			}
		}
	}
}

func pairsMeetingTwice(tables [][]string) int {
	met := map[[2]string]int{}
	k := 0
	for _, t := range tables {
		for i, a := range t {
			for _, b := range t[i+1:] {
				if met[[2]string{min(a, b), max(a, b)}]++; met[[2]string{min(a, b), max(a, b)}] == 2 {
					k++
				}
			}
		}
	}
	return k
}
