package tournament_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// Undoing round 2 of a 7-player event takes its tables, results and the
// penalty given in it away, with the standings, and keeps the penalty
// given outside a round; restoring it brings back the very same
// standings (testdata/undo-round2.golden).
func TestUndoRoundAndRestore(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	c := newConsole(t)
	tour, _ := c.enter(rs, 7, 3)
	c.playBySize(tour, 1, []int{10, 7, 7, 4}, []int{8, 6, 5})
	r2 := c.playBySize(tour, 2, []int{10, 9, 6, 3}, []int{7, 7, 9})
	offender := r2.Tables[0].Players[1]
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: offender, Round: 2, Offence: "note-taking", Level: referee.VPDeduction})).OK(t)
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: offender, Offence: "note-taking", Level: referee.Caution})).OK(t)
	before := c.standingsText(tour)

	for _, tc := range []struct {
		n      int
		reason string
		code   string
	}{
		{1, "間違い", "undo-not-latest"},
		{2, "", "undo-reason-missing"}, // results are recorded
	} {
		if _, err := c.Svc.UndoRound(c.Ctx, "judge-a", tournament.RoleHead, tour.ID, tc.n, tc.reason); !errors.Is(err, tournament.ErrInvalid) || code(err) != tc.code {
			t.Errorf("UndoRound(%d, %q) error = %v, want %s", tc.n, tc.reason, err, tc.code)
		}
	}
	undone := must(c.Svc.UndoRound(c.Ctx, "judge-b", tournament.RoleHead, tour.ID, 2, "第1回戦の結果を直す前に組んでしまった")).OK(t)
	if undone.Round != 2 || undone.Tables != 2 || undone.Results != 2 || undone.Penalties != 1 {
		t.Errorf("undone = %+v, want round 2's 2 tables, 2 results and 1 penalty", undone)
	}
	if rounds := must(c.Svc.Rounds(c.Ctx, tour.ID)).OK(t); len(rounds) != 1 {
		t.Fatalf("after the undo %d rounds, want 1", len(rounds))
	}
	pens := must(c.Svc.Penalties(c.Ctx, tour.ID)).OK(t)
	if len(pens) != 1 || pens[0].Round != 0 {
		t.Errorf("penalties after the undo = %+v, want the one outside a round alone", pens)
	}
	after := c.standingsText(tour)
	tournamenttest.Golden(t, filepath.Join("testdata", "undo-round2.golden"), "before the undo\n"+before+"\nafter the undo\n"+after, *update)

	if _, err := c.Svc.RestoreRound(c.Ctx, "judge-a", tour.ID, 3); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("RestoreRound(3) error = %v, want a conflict", err)
	}
	restored := must(c.Svc.RestoreRound(c.Ctx, "judge-a", tour.ID, 2)).OK(t)
	if restored.Tables != 2 || restored.Results != 2 || restored.Penalties != 1 {
		t.Errorf("restored = %+v, want what was undone", restored)
	}
	if got := c.standingsText(tour); got != before {
		t.Errorf("standings after restoring:\n%s\nwant those before the undo:\n%s", got, before)
	}
	if pens := must(c.Svc.Penalties(c.Ctx, tour.ID)).OK(t); len(pens) != 2 {
		t.Errorf("penalties after restoring = %d, want 2", len(pens))
	}
	// The audit keeps the undo with its reason, and the restore.
	var undo, restore bool
	for _, e := range must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t) {
		undo = undo || e.Action == tournament.ActionUndoRound && e.Judge == "judge-b" && len(e.Before) > 100
		restore = restore || e.Action == "round.restore"
	}
	if !undo || !restore {
		t.Errorf("audit has the undo with its snapshot %v, the restore %v; want both", undo, restore)
	}
	// A round just paired, with nothing recorded, is undone without a reason.
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if u := must(c.Svc.UndoRound(c.Ctx, "judge-a", tournament.RoleHead, tour.ID, 3, "")).OK(t); u.Results != 0 {
		t.Errorf("undoing a fresh round 3 = %+v", u)
	}
}
