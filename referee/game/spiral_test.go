package game

import (
	"math/rand/v2"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// national returns the national rules' board settings (national-2025):
// the spiral with its documented corners and chips, no re-deal, the base
// game's longest-road and bank rules.
func national() referee.Ruleset {
	rs := preset()
	rs.Name, rs.Version = "national-2025", "2025.1"
	rs.Dango = referee.DangoOff
	rs.LongestRoadTie = referee.LongestRoadHolderKeeps
	rs.BankShortage = referee.BankShortageSingleTakesRest
	rs.Board = referee.BoardSetup{Method: referee.SpiralBoard}
	return rs
}

// A board set up by the national rules' spiral plays like any other: games
// on it start, keep the invariants and end, the robber starting on the
// desert wherever the shuffle put it.
func TestSpiralBoardPlays(t *testing.T) {
	rs := national()
	for g := range 24 {
		seed := uint64(500 + g)
		b, err := referee.NewSpiralBoard(rs, 1+g%6, seed)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(rs, b, []string{"R", "B", "Y", "G"}[:3+g%2])
		if err != nil {
			t.Fatalf("New(spiral board %d) = %v", g, err)
		}
		if want := int8(topo.hexID[b.Robber]); s.robber != want || s.board.desert != want {
			t.Errorf("game %d: robber on %d, desert %d, want both on %v (%d)", g, s.robber, s.board.desert, b.Robber, want)
		}
		r := NewRandom(rand.New(rand.NewPCG(seed, 7)))
		for s.phase != Over {
			m := r.Next(s)
			if s.turn > 400 {
				m = NewMove(TimeUp)
			}
			if err := s.Apply(m); err != nil {
				t.Fatalf("game %d: %+v refused: %v", g, m, err)
			}
			if err := checkInvariants(s); err != nil {
				t.Fatalf("game %d: %v", g, err)
			}
		}
	}
}

// A game record names a spiral board by its corner die and seed, as the
// board API writes it; capsule dice are refused for it.
func TestBoardSpecSpiral(t *testing.T) {
	rs := national()
	seed := uint64(42)
	got, err := BoardSpec{Corner: 5, Seed: &seed}.Board(rs)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := referee.NewSpiralBoard(rs, 5, seed)
	if got != want {
		t.Errorf("BoardSpec{Corner: 5}.Board() = %+v, want %+v", got, want)
	}
	for name, spec := range map[string]BoardSpec{
		"capsule roll": {White: 1, Blue: 2, Seed: &seed},
		"no corner":    {Seed: &seed},
	} {
		if _, err := spec.Board(rs); err == nil {
			t.Errorf("BoardSpec(%s).Board(national) = nil error, want a refusal", name)
		}
	}
	if _, err := (BoardSpec{Corner: 1, Seed: &seed}).Board(preset()); err == nil {
		t.Error("BoardSpec(corner).Board(preset) = nil error, want a refusal")
	}
}
