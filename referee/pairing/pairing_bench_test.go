package pairing_test

import (
	"testing"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

// BenchmarkSwiss1000 pairs round 4 of a 1,000-player event.
func BenchmarkSwiss1000(b *testing.B) {
	e := newEvent(1000, 1)
	for r := range 3 {
		pair := pairing.Swiss
		if r == 0 {
			pair = pairing.Random
		}
		round, err := pair(e.request(uint64(r)))
		if err != nil {
			b.Fatal(err)
		}
		e.play(round)
	}
	req := e.request(4)
	for b.Loop() {
		if _, err := pairing.Swiss(req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSchedule16x5(b *testing.B) { benchmarkSchedule(b, 16, 5) }

func BenchmarkSchedule32x8(b *testing.B) { benchmarkSchedule(b, 32, 8) }

// BenchmarkSchedule20x5 has no finite-geometry start: local search alone.
func BenchmarkSchedule20x5(b *testing.B) { benchmarkSchedule(b, 20, 5) }

func benchmarkSchedule(b *testing.B, n, rounds int) {
	req := pairing.Request{Players: players(n), Seed: 1}
	for b.Loop() {
		s, err := pairing.DrawSchedule(req, rounds)
		if err != nil {
			b.Fatal(err)
		}
		if s.Repeats != 0 {
			b.Fatalf("DrawSchedule(%d players, %d rounds): %d repeats, want 0", n, rounds, s.Repeats)
		}
	}
}
