package tournamenttest

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
)

// PlayedGame returns the record of a whole game on board b between
// players (in play order) under rs, played by the rules engine's random
// player (game.Random) from seed until a player declares victory (§11):
// a finished game to enter move by move. It fails the test when the game
// runs past maxTurns turns without a declaration.
func PlayedGame(t testing.TB, rs referee.Ruleset, b referee.Board, players []string, seed uint64, maxTurns int) []game.MoveSpec {
	t.Helper()
	s, err := game.New(rs, b, players)
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRandom(rand.New(rand.NewPCG(seed, 7)))
	var moves []game.MoveSpec
	for s.Phase() != game.Over {
		if s.Turn() > maxTurns {
			t.Fatalf("seed %d: no declaration in %d turns", seed, maxTurns)
		}
		m := r.Next(s)
		moves = append(moves, s.Spec(m))
		// A card played with no effect (§8 エ, §9) stands: it is a move.
		var ge *game.Error
		if err := s.Apply(m); err != nil && !(errors.As(err, &ge) && ge.Void) {
			t.Fatalf("seed %d: move %d refused: %v", seed, len(moves), err)
		}
	}
	return moves
}
