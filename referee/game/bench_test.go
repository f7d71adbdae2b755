package game

import (
	"math/rand/v2"
	"testing"
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
