package pairing

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// No request, however large, may make a pairing allocate without bound.
func TestPairingBounds(t *testing.T) {
	players := func(n int) []Player {
		out := make([]Player, n)
		for i := range out {
			out[i] = Player{ID: fmt.Sprintf("p%05d", i)}
		}
		return out
	}
	tests := []struct {
		name string
		run  func() error
		code string
	}{
		{"players", func() error { _, err := Swiss(Request{Players: players(MaxPlayers + 1)}); return err }, "too-many-players"},
		{"history", func() error {
			_, err := Random(Request{Players: players(4), History: make([][]string, maxHistory+1)})
			return err
		}, "history-too-long"},
		{"schedule", func() error { _, err := DrawSchedule(Request{Players: players(1000)}, 10); return err }, "schedule-too-large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v *referee.Violation
			if err := tt.run(); !errors.As(err, &v) || v.Code != tt.code || !errors.Is(err, referee.ErrInvalid) {
				t.Errorf("error = %v, want a %s violation", err, tt.code)
			}
		})
	}
}

// Request.MaxEvals bounds the search's work: a schedule whose repeats
// cannot all be avoided stops within the bound (give or take one pass of
// the final descent) instead of spending the package's budget, and the
// same request still gives the same schedule.
func TestMaxEvalsBoundsTheSearch(t *testing.T) {
	req := Request{Seed: 7}
	for i := range 25 {
		req.Players = append(req.Players, Player{ID: fmt.Sprintf("p%02d", i)})
	}
	const rounds, bound = 100, 200_000
	p, err := newProblem(req, false)
	if err != nil {
		t.Fatal(err)
	}
	s := newSearch(p, rounds, true, referee.NewRand(req.Seed))
	three, bye := slices.Clone(p.three), slices.Clone(p.bye)
	for r := s.placeDesign(three); r < rounds; r++ {
		s.placeFair(r, three, bye)
	}
	s.init()
	b := scheduleBudget(p).within(bound)
	s.optimise(b)
	if pass := rounds * p.slots * p.slots; s.evals > bound+pass {
		t.Errorf("a search bounded at %d evaluations made %d", bound, s.evals)
	}
	if b := scheduleBudget(p).within(0); b.evals != scheduleBudget(p).evals {
		t.Errorf("MaxEvals 0 changed the budget to %d", b.evals)
	}

	req.MaxEvals = bound
	first, err := DrawSchedule(req, rounds)
	if err != nil {
		t.Fatal(err)
	}
	again, err := DrawSchedule(req, rounds)
	if err != nil || !slices.EqualFunc(first.Rounds, again.Rounds, func(a, b Round) bool {
		return slices.EqualFunc(a.Tables, b.Tables, slices.Equal) && slices.Equal(a.Byes, b.Byes)
	}) {
		t.Errorf("the same bounded request gave another schedule (%v)", err)
	}
	swiss := Request{Players: req.Players, Seed: 3, MaxEvals: 1}
	if r, err := Swiss(swiss); err != nil || len(r.Tables) != 7 {
		t.Errorf("Swiss with MaxEvals 1 = %v, %v; want a whole round still", r.Tables, err)
	}
}
