package tournament_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/tournament"
)

// A seating form is read as posted, without the table (the console saves
// before it builds a page), so its rolls come in any order: the service
// keeps them, and names a tie's players, in the table's order.
func TestSeatingRollsKeepTheTablesOrder(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	p := r.Tables[0].Players

	first := []tournament.Roll{roll(p[3], 1, 1), roll(p[2], 5, 2), roll(p[1], 3, 4), roll(p[0], 6, 6)}
	_, err := c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Rolls: [][]tournament.Roll{first}})
	var tt *tournament.TieError
	if !errors.As(err, &tt) || !cmp.Equal(tt.Groups, [][]int64{{p[1], p[2]}}) {
		t.Fatalf("SetSeating(tied rolls, posted backwards) error = %v, want the tie of %d and %d in the table's order", err, p[1], p[2])
	}
	again := []tournament.Roll{roll(p[2], 6, 5), roll(p[1], 2, 2)}
	tb := must(c.Svc.SetSeating(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.SeatingInput{Rolls: [][]tournament.Roll{first, again}})).OK(t)
	for k, want := range [][]int64{{p[0], p[1], p[2], p[3]}, {p[1], p[2]}} {
		var got []int64
		for _, r := range tb.Seating.Rolls[k] {
			got = append(got, r.PlayerID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("round %d of the rolls kept as %v, want the table's order %v", k+1, got, want)
		}
	}
}
