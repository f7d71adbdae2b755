package referee_test

import (
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

func BenchmarkNewBoard(b *testing.B) {
	for _, p := range []referee.DangoPolicy{referee.DangoConnected, referee.DangoNoAdjacentReds} {
		b.Run(string(p), func(b *testing.B) {
			rs := boardRuleset(p, false)
			roll := referee.CapsuleRoll{White: 3, Blue: 4}
			var seed uint64
			for b.Loop() {
				if _, err := referee.NewBoard(rs, roll, seed); err != nil {
					b.Fatalf("NewBoard(%v, %d) = %v", roll, seed, err)
				}
				seed++
			}
			b.ReportMetric(float64(seed)/b.Elapsed().Seconds(), "boards/s")
		})
	}
}

func BenchmarkNewSpiralBoard(b *testing.B) {
	rs := spiralRuleset()
	var seed uint64
	for b.Loop() {
		if _, err := referee.NewSpiralBoard(rs, 1+int(seed%6), seed); err != nil {
			b.Fatalf("NewSpiralBoard(%d) = %v", seed, err)
		}
		seed++
	}
	b.ReportMetric(float64(seed)/b.Elapsed().Seconds(), "boards/s")
}

func BenchmarkCheckDeal(b *testing.B) {
	rs := boardRuleset(referee.DangoConnected, false)
	// A clump of four reds, the most work a deal asks of the check.
	chips := boardDeal(referee.Hex{Q: 0, R: -2}, referee.Hex{Q: 1, R: -2}, referee.Hex{Q: 0, R: -1}, referee.Hex{Q: 1, R: -1})
	for b.Loop() {
		if _, err := referee.CheckDeal(rs, 0, chips); err != nil {
			b.Fatalf("CheckDeal = %v", err)
		}
	}
}
