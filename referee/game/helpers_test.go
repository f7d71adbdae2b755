package game

import (
	"math/rand/v2"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// preset returns the rulebook's settings (the built-in proshop-2003 ruleset).
func preset() referee.Ruleset {
	return referee.Ruleset{
		Name:           "proshop-2003",
		Version:        "2003.2",
		GameMinutes:    7,
		VPCap:          10,
		WinVP:          10,
		Dango:          referee.DangoConnected,
		LongestRoadTie: referee.LongestRoadVacate,
		BankShortage:   referee.BankShortageAllOrNothing,
		RobberOnDesert: true,
		Colors:         []referee.Color{referee.Red, referee.Blue, referee.Yellow, referee.Green},
		Layout: referee.Layout{
			Terrain: [19]referee.Terrain{
				"mountains", "pasture", "forest",
				"fields", "hills", "pasture", "hills",
				"fields", "forest", "desert", "forest", "mountains",
				"forest", "mountains", "fields", "pasture",
				"hills", "fields", "pasture",
			},
			Harbors: [9]referee.HarborKind{"generic", "wool", "generic", "generic", "brick", "lumber", "generic", "grain", "ore"},
		},
	}
}

// newBoardOf sets up a board by §3 from the preset, a capsule roll and a seed.
func newBoardOf(t testing.TB, rs referee.Ruleset, white, blue int, seed uint64) referee.Board {
	t.Helper()
	b, err := referee.NewBoard(rs, referee.CapsuleRoll{White: white, Blue: blue}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomGame starts a game of n players on a board drawn from seed.
func randomGame(t testing.TB, rs referee.Ruleset, n int, seed uint64) *State {
	t.Helper()
	s, err := New(rs, randomBoard(t, rs, seed), []string{"R", "B", "Y", "G"}[:n])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// randomBoard is the board randomGame starts on: one set up by §3 from a
// capsule roll and the chips drawn from seed.
func randomBoard(t testing.TB, rs referee.Ruleset, seed uint64) referee.Board {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	return newBoardOf(t, rs, 1+rng.IntN(6), 1+rng.IntN(6), seed)
}
