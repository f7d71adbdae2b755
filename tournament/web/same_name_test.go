package web

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// TestSameNamePlayersShowTheirReading: two players called 田中 are told
// apart by their reading in the swap and move lists, the keep-apart
// choices and the penalty form and list.
func TestSameNamePlayersShowTheirReading(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(6)
	var tanaka []tournament.Player
	for _, kana := range []string{"たなか いちろう", "たなか じろう"} {
		p, err := env.svc.AddPlayer(env.ctx, "setup", tr.ID, tournament.PlayerInput{Name: "田中", Kana: kana, CheckedIn: true})
		if err != nil {
			t.Fatal(err)
		}
		tanaka = append(tanaka, p)
	}
	if _, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.svc.RecordPenalty(env.ctx, "setup", tr.ID, tournament.PenaltyInput{PlayerID: tanaka[1].ID, Round: 1, Offence: "note-taking"}); err != nil {
		t.Fatal(err)
	}
	b := env.browser()
	b.login("山田")
	base := fmt.Sprintf("/judge/t/%d", tr.ID)
	for _, pg := range []struct{ what, path string }{
		{"round page", base + "/rounds/1"},
		{"penalties page", base + "/penalties"},
		{"player page", fmt.Sprintf("%s/players/%d", base, tanaka[0].ID)},
	} {
		res := b.get(pg.path)
		for _, p := range tanaka {
			if pg.what == "player page" && p.ID == tanaka[0].ID {
				continue
			}
			mustSee(t, pg.what, res, http.StatusOK, fmt.Sprintf("田中（%s）", p.Kana))
		}
	}
	mustSee(t, "penalties list", b.get(base+"/penalties"), http.StatusOK, `<td>田中<br><span class="kana">たなか じろう</span></td>`)
	mustSee(t, "round page in English", b.get(base+"/rounds/1", "Accept-Language", "en"), http.StatusOK, "田中 (たなか じろう)")
}
