package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// Undoing the latest round is any judge's while nothing is recorded at its
// tables, the head's alone after that (403 role-forbidden naming head for
// a judge, whatever the reason), and never a scorekeeper's.
func TestUndoRoundRoles(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.DQSeed() // round 1 has a result
	_, judgePassword := webtest.NewAccount(t, env, "佐藤", tournament.RoleJudge)
	_, keeperPassword := webtest.NewAccount(t, env, "スコア係", tournament.RoleScorekeeper)
	judge := webtest.Bearer(webtest.Session(t, env, "佐藤", judgePassword, tournament.RoleJudge))
	keeper := webtest.Bearer(webtest.Session(t, env, "スコア係", keeperPassword, tournament.RoleScorekeeper))
	round := func(n int) string { return fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d", tr.ID, n) }

	webtest.MustForbid(t, "a scorekeeper's undo", webtest.Do(env.Handler, "DELETE", round(1), `{"reason":"組み間違い"}`, keeper...), tournament.RoleJudge)
	webtest.MustForbid(t, "a judge's undo of a round with a result", webtest.Do(env.Handler, "DELETE", round(1), `{"reason":"組み間違い"}`, judge...), tournament.RoleHead)
	webtest.MustForbid(t, "a judge's undo without a reason", webtest.Do(env.Handler, "DELETE", round(1), "", judge...), tournament.RoleHead)
	if _, err := env.Service.RoundView(env.Ctx, tr.ID, 1); err != nil {
		t.Fatalf("round 1 after the refusals: %v, want it kept", err)
	}
	// The head undoes it with a reason; a judge restores it.
	webtest.MustJSON(t, "the head's undo", webtest.Do(env.Handler, "DELETE", round(1), `{"reason":"組み間違い"}`, webtest.APIToken...), http.StatusOK, nil)
	webtest.MustForbid(t, "a scorekeeper's restore", webtest.Do(env.Handler, "POST", round(1)+"/restore", "", keeper...), tournament.RoleJudge)
	webtest.MustJSON(t, "a judge's restore", webtest.Do(env.Handler, "POST", round(1)+"/restore", "", judge...), http.StatusOK, nil)

	// A round just paired, nothing recorded: any judge undoes it, no reason asked.
	webtest.MustJSON(t, "a judge pairs round 2", webtest.Do(env.Handler, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), "", judge...), http.StatusCreated, nil)
	webtest.MustForbid(t, "a scorekeeper's undo of a fresh round", webtest.Do(env.Handler, "DELETE", round(2), "", keeper...), tournament.RoleJudge)
	webtest.MustJSON(t, "a judge's undo of a fresh round", webtest.Do(env.Handler, "DELETE", round(2), "", judge...), http.StatusOK, nil)

	// The console's form says the same: the judge sees the 403 page.
	b := env.Browser()
	b.LoginAs("田中", tournament.RoleJudge)
	res := b.Post(fmt.Sprintf("/judge/t/%d/rounds/1/undo", tr.ID), url.Values{"reason": {"組み間違い"}})
	webtest.MustSee(t, "a judge's undo form on a round with a result", res, http.StatusForbidden, "第1回戦の卓にはすでに記録があります。取り消せるのはヘッドジャッジだけです。")
}
