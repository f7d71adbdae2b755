package game

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkPlayout plays random games to their end on one goroutine: the
// moves per second are the engine's speed with the Random policy choosing.
func BenchmarkPlayout(b *testing.B) {
	rs := preset()
	start := randomGame(b, rs, 4, 1)
	r := NewRandom(rand.New(rand.NewPCG(1, 2)))
	moves, games := 0, 0
	for b.Loop() {
		s := *start
		n, err := Playout(&s, r, 1000)
		if err != nil {
			b.Fatal(err)
		}
		moves += n
		games++
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(moves)/float64(games), "moves/game")
}

// positionsOfGames returns the steps of random 4-player games' placements,
// each a whole table as a judge would rebuild it at the game's end.
func positionsOfGames(t testing.TB, n int) [][]Step {
	var out [][]Step
	for g := range n {
		s := randomGame(t, preset(), 4, uint64(7000+g))
		r := NewRandom(rand.New(rand.NewPCG(uint64(g), 15)))
		var st []Step
		for s.phase != Over && s.turn <= 400 {
			m := r.Next(s)
			p := int(s.current)
			if m.Player >= 0 {
				p = int(m.Player)
			}
			if s.Apply(m) == nil {
				st = append(st, s.steps(p, m)...)
			}
		}
		out = append(out, st)
	}
	return out
}

// BenchmarkEvaluate evaluates the positions of finished random 4-player
// games, as a judge's tap asks for it: the steps of the whole table, the
// trails and the reasons. It reports the median evaluation beside the mean.
func BenchmarkEvaluate(b *testing.B) {
	rs := preset()
	tables := positionsOfGames(b, 50)
	steps := 0
	for _, st := range tables {
		steps += len(st)
	}
	var times []float64
	i := 0
	for b.Loop() {
		began := time.Now()
		if _, err := Evaluate(rs, tablePlayers, tables[i%len(tables)]); err != nil {
			b.Fatal(err)
		}
		times = append(times, float64(time.Since(began)))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(times[len(times)/2], "median-ns/op")
	b.ReportMetric(float64(steps)/float64(len(tables)), "steps/position")
}
