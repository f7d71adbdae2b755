package tournament_test

import (
	"errors"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// A deal the dango rule rejects (§3 ウ) is refused with the clumps the
// referee found, so that the console draws them without judging the deal
// itself.
func TestSetDealRefusalCarriesTheClumps(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(4, 1)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	tb := must(c.Svc.SetBoard(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 2, Blue: 5}})).OK(t)
	board, err := referee.NewBoard(tour.Ruleset, tb.Board.Roll, tb.Board.Seed)
	if err != nil {
		t.Fatal(err)
	}
	deal := dangoDeal(t, board)
	check, err := referee.CheckDeal(tour.Ruleset, tb.Board.Roll.White, deal)
	if err != nil || !check.Redeal {
		t.Fatalf("CheckDeal(dango deal) = %+v, %v; want a redeal", check, err)
	}
	_, err = c.Svc.SetDeal(c.Ctx, "judge-a", tour.ID, 1, 1, tournament.DealInput{Chips: deal})
	var de *tournament.DealError
	var v *referee.Violation
	if !errors.As(err, &de) || !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != "red-clump" {
		t.Fatalf("SetDeal(red clump) error = %v, want a *DealError wrapping the violation red-clump", err)
	}
	if len(de.Clumps) != len(check.Clumps) || len(de.Clumps[0]) != len(check.Clumps[0]) {
		t.Errorf("DealError clumps %v, want the referee's %v", de.Clumps, check.Clumps)
	}
}
