package pairing_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// TestScoreCountsWhatTheDrawCounted plays events of several sizes round by
// round (a random round 1, then Swiss, then a schedule drawn at once) and
// scores every round from its tables alone: Score gives the repeats and
// cost the draw recorded.
func TestScoreCountsWhatTheDrawCounted(t *testing.T) {
	for _, n := range []int{5, 9, 13, 17, 24} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var players []pairing.Player
			for i := range n {
				players = append(players, pairing.Player{ID: fmt.Sprintf("p%02d", i)})
			}
			var history [][]string
			play := func(r pairing.Round, swiss bool) {
				t.Helper()
				req := pairing.Request{Players: players, History: history}
				if swiss {
					req.Players = ranked(players, history)
				}
				got, err := pairing.Score(req, r.Tables, r.Byes)
				if err != nil {
					t.Fatalf("Score(%v) = %v", r.Tables, err)
				}
				want := r.Cost
				want.Unfair = 0
				if got.Repeats != r.Repeats || got.Cost != want {
					t.Errorf("Score(round %d) = repeats %d cost %+v, the draw counted %d %+v", len(history), got.Repeats, got.Cost, r.Repeats, want)
				}
				history = append(history, r.Tables...)
				for _, b := range r.Byes {
					history = append(history, []string{b})
				}
			}
			for k := range 4 {
				req := pairing.Request{Players: players, History: history, Seed: uint64(k + 1)}
				draw, swiss := pairing.Random, false
				if k > 0 {
					req.Players, draw, swiss = ranked(players, history), pairing.Swiss, true
				}
				r, err := draw(req)
				if err != nil {
					t.Fatal(err)
				}
				play(r, swiss)
			}
			sched, err := pairing.DrawSchedule(pairing.Request{Players: players, History: history, Seed: 9}, 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range sched.Rounds {
				play(r, false)
			}
		})
	}
}

// ranked gives the players made-up standings that move with each round,
// for Swiss to pair by (and Score to count the standings gaps by).
func ranked(players []pairing.Player, history [][]string) []pairing.Player {
	out := slices.Clone(players)
	for i := range out {
		out[i].Standing = 1 + (i+len(history))%len(out)
	}
	return out
}

// TestScoreRefusesAMisseatedRound checks that a round seating a player
// twice, leaving one out or at a table of 5 is refused.
func TestScoreRefusesAMisseatedRound(t *testing.T) {
	req := pairing.Request{}
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		req.Players = append(req.Players, pairing.Player{ID: id})
	}
	for _, tables := range [][][]string{
		{{"a", "b", "c", "d"}, {"e", "f", "a"}},
		{{"a", "b", "c", "d"}, {"e", "f"}},
		{{"a", "b", "c", "d", "e"}, {"f", "g"}},
		{{"a", "b", "c", "x"}, {"e", "f", "g"}},
	} {
		if _, err := pairing.Score(req, tables, nil); !errors.Is(err, referee.ErrInvalid) {
			t.Errorf("Score(%v) = %v, want a refusal", tables, err)
		}
	}
	if r, err := pairing.Score(req, [][]string{{"a", "b", "c", "d"}, {"e", "f", "g"}}, nil); err != nil || r.Repeats != 0 {
		t.Errorf("Score(a fine round) = %+v, %v", r, err)
	}
}
