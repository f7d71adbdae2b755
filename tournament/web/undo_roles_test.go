package web

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// Undoing the latest round is any judge's while nothing is recorded at its
// tables, the head's alone after that (403 role-forbidden naming head for
// a judge, whatever the reason), and never a scorekeeper's.
func TestUndoRoundRoles(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.dqSeed() // round 1 has a result
	_, judgePassword := newAccount(t, env, "佐藤", tournament.RoleJudge)
	_, keeperPassword := newAccount(t, env, "スコア係", tournament.RoleScorekeeper)
	judge := bearer(session(t, env, "佐藤", judgePassword, tournament.RoleJudge))
	keeper := bearer(session(t, env, "スコア係", keeperPassword, tournament.RoleScorekeeper))
	round := func(n int) string { return fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d", tr.ID, n) }

	mustForbid(t, "a scorekeeper's undo", do(env.h, "DELETE", round(1), `{"reason":"組み間違い"}`, keeper...), tournament.RoleJudge)
	mustForbid(t, "a judge's undo of a round with a result", do(env.h, "DELETE", round(1), `{"reason":"組み間違い"}`, judge...), tournament.RoleHead)
	mustForbid(t, "a judge's undo without a reason", do(env.h, "DELETE", round(1), "", judge...), tournament.RoleHead)
	if _, err := env.svc.RoundView(env.ctx, tr.ID, 1); err != nil {
		t.Fatalf("round 1 after the refusals: %v, want it kept", err)
	}
	// The head undoes it with a reason; a judge restores it.
	mustJSON(t, "the head's undo", do(env.h, "DELETE", round(1), `{"reason":"組み間違い"}`, apiToken...), http.StatusOK, nil)
	mustForbid(t, "a scorekeeper's restore", do(env.h, "POST", round(1)+"/restore", "", keeper...), tournament.RoleJudge)
	mustJSON(t, "a judge's restore", do(env.h, "POST", round(1)+"/restore", "", judge...), http.StatusOK, nil)

	// A round just paired, nothing recorded: any judge undoes it, no reason asked.
	mustJSON(t, "a judge pairs round 2", do(env.h, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), "", judge...), http.StatusCreated, nil)
	mustForbid(t, "a scorekeeper's undo of a fresh round", do(env.h, "DELETE", round(2), "", keeper...), tournament.RoleJudge)
	mustJSON(t, "a judge's undo of a fresh round", do(env.h, "DELETE", round(2), "", judge...), http.StatusOK, nil)

	// The console's form says the same: the judge sees the 403 page.
	b := env.browser()
	b.loginAs("田中", tournament.RoleJudge)
	res := b.post(fmt.Sprintf("/judge/t/%d/rounds/1/undo", tr.ID), url.Values{"reason": {"組み間違い"}})
	mustSee(t, "a judge's undo form on a round with a result", res, http.StatusForbidden, "第1回戦の卓にはすでに記録があります。取り消せるのはヘッドジャッジだけです。")
}
