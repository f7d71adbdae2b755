package game

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// randomRecord plays a random game of n players under the ruleset
// variant name on the board randomGame draws from seed, and returns the
// board, the players and the record as written.
func randomRecord(t *testing.T, name string, n int, seed uint64) (referee.Board, []string, []MoveSpec) {
	t.Helper()
	rs := rulesetVariants()[name]
	s := randomGame(t, rs, n, seed)
	r := NewRandom(rand.New(rand.NewPCG(seed, 21)))
	var moves []MoveSpec
	for s.phase != Over {
		m := r.Next(s)
		if s.turn > 300 {
			m = NewMove(TimeUp)
		}
		moves = append(moves, s.Spec(m))
		if err := s.Apply(m); err != nil {
			if code, _, void := codeOf(err); !void {
				t.Fatalf("seed %d: the random player's move is refused: %s", seed, code)
			}
		}
	}
	return randomBoard(t, rs, seed), s.names[:s.n], moves
}

// A record played by Play reaches the game the moves reached, and the
// position its moves built evaluates as the game stands: the same longest
// roads, holders of the 2-point cards and VP (§10, §11); each reason
// names a move of the record that built or played something.
func TestPlayAgreesWithTheGame(t *testing.T) {
	for _, name := range []string{"preset", "holder-keeps"} {
		rs := rulesetVariants()[name]
		for g := range trials(30, 6) {
			seed := uint64(2100 + g)
			board, players, moves := randomRecord(t, name, 3+g%2, seed)
			what := fmt.Sprintf("%s game %d", name, g)
			want, err := Check(rs, board, players, moves)
			if err != nil || want.Err != nil {
				t.Fatalf("%s: Check = %v, %v", what, want.Err, err)
			}
			played, err := Play(rs, board, players, moves)
			if err != nil || played.Err != nil || played.Applied != len(moves) {
				t.Fatalf("%s: Play applied %d of %d moves: %v, %v", what, played.Applied, len(moves), played.Err, err)
			}
			if *played.State != *want.State || len(played.Voided) != len(want.Voided) {
				t.Fatalf("%s: Play reached another game than Check", what)
			}
			if len(played.Movers) != len(moves) {
				t.Fatalf("%s: %d movers for %d moves", what, len(played.Movers), len(moves))
			}
			if len(played.Steps) != len(played.StepMove) || !slices.IsSorted(played.StepMove) {
				t.Fatalf("%s: %d steps with %d moves, out of order", what, len(played.Steps), len(played.StepMove))
			}
			ev, err := played.Evaluate(rs)
			if err != nil {
				t.Fatalf("%s: Evaluate: %v", what, err)
			}
			s := played.State
			for p := range s.Players() {
				if ev.Players[p].Road != s.RoadLength(p) || ev.Players[p].VP != s.VP(p) {
					t.Fatalf("%s: %s has road %d, VP %+v; the game says %d, %+v", what, s.Name(p), ev.Players[p].Road, ev.Players[p].VP, s.RoadLength(p), s.VP(p))
				}
			}
			if ev.LongestRoad.Holder != s.LongestRoad() || ev.LargestArmy.Holder != s.LargestArmy() {
				t.Fatalf("%s: holders %d, %d; the game says %d, %d", what, ev.LongestRoad.Holder, ev.LargestArmy.Holder, s.LongestRoad(), s.LargestArmy())
			}
			for _, why := range []*Error{ev.LongestRoad.Why, ev.LargestArmy.Why} {
				if why.Index >= 0 && !slices.Contains(played.StepMove, why.Index) {
					t.Errorf("%s: %s names move %d, which built nothing", what, why.Code, why.Index)
				}
			}
		}
	}
}

// A record stops at its first refused move: Play keeps the position of
// the moves before it and no more.
func TestPlayStopsAtARefusal(t *testing.T) {
	rs := preset()
	moves := append(slices.Clone(startPlacement), MoveSpec{Do: "build", Road: []string{"N(0,0)", "S(1,-1)"}},
		MoveSpec{Do: "roll", Dice: []int{3, 3}})
	g, err := Play(rs, testBoard(t, rs), []string{"R", "B", "Y", "G"}, moves)
	if err != nil {
		t.Fatal(err)
	}
	if g.Err == nil || g.Err.Code != "roll-first" || g.Err.Index != 8 || g.Applied != 8 {
		t.Fatalf("Play = %d applied, refused %v; want move 8 refused as roll-first", g.Applied, g.Err)
	}
	// §4: the snake order, each placement a settlement and its road.
	if want := []int{0, 1, 2, 3, 3, 2, 1, 0}; !slices.Equal(g.Movers, want) {
		t.Errorf("Movers = %v, want %v", g.Movers, want)
	}
	if len(g.Steps) != 16 || g.StepMove[15] != 7 {
		t.Errorf("Play kept %d steps, the last of move %d; want 16 of the 8 placements", len(g.Steps), g.StepMove[len(g.StepMove)-1])
	}
}

// What the room sees of a game: the one-point cards only once shown with a
// declaration (§9 オ, §11), never the card drawn or the card taken (§8 エ,
// §6 イ).
func TestPublic(t *testing.T) {
	rs := preset()
	s := started(t, rs)
	give(t, s, red, Cards{Ore: 3, Grain: 3, Wool: 3})
	play(t, s, MoveSpec{Do: "roll", Dice: []int{1, 1}}, MoveSpec{Do: "buy", Card: "point"}, MoveSpec{Do: "buy", Card: "point"})
	if got, all := s.PublicVP(red), s.VP(red); got.PointCards != 0 || all.PointCards != 2 || got.Total() != all.Total()-2 {
		t.Errorf("before the end PublicVP(R) = %+v of VP %+v; want the 2 one-point cards hidden", got, all)
	}
	s.phase, s.endedBy = Over, ByTime
	if got := s.PublicVP(red); got.PointCards != 0 {
		t.Errorf("after time up PublicVP(R) = %+v; want the one-point cards still hidden", got)
	}
	s.endedBy, s.winner = ByDeclaration, red
	if got := s.PublicVP(red); got != s.VP(red) {
		t.Errorf("after R declared PublicVP(R) = %+v, want every VP %+v", got, s.VP(red))
	}
	if got := s.PublicVP(blue); got != s.VP(blue) {
		t.Errorf("after R declared PublicVP(B) = %+v, want %+v (B holds no one-point card)", got, s.VP(blue))
	}
	buy := MoveSpec{Do: "buy", Card: "soldier"}.Public()
	rob := MoveSpec{Do: "robber", Rob: "B", Took: "ore"}.Public()
	if buy.Card != "" || rob.Took != "" || rob.Rob != "B" {
		t.Errorf("Public() = %+v and %+v; want the card drawn and the card taken hidden, the player robbed shown", buy, rob)
	}
}
