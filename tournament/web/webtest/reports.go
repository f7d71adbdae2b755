package webtest

import (
	"fmt"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// ReportsEnv is a site with round 1 of 8 players paired under self_report
// approve, table 1's players and their codes.
func ReportsEnv(t testing.TB) (*Env, tournament.Tournament, []int64, map[int64]string) {
	t.Helper()
	env := New(t)
	tr, r := ReportsRound(t, env)
	players := r.Tables[0].Players
	codes := map[int64]string{}
	for _, p := range players {
		np, err := env.Service.IssueCode(env.Ctx, "setup", tr.ID, p)
		if err != nil {
			t.Fatal(err)
		}
		codes[p] = np.Code
	}
	return env, tr, players, codes
}

// ReportsRound makes a tournament of 8 players under self_report approve
// on env and pairs its round 1.
func ReportsRound(t testing.TB, env *Env) (tournament.Tournament, tournament.Round) {
	t.Helper()
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "報告大会", Rounds: 3, SelfReport: tournament.SelfReportApprove})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%d", i+1), CheckedIn: true}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tr, r
}
