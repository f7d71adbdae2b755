package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
	"github.com/google/go-cmp/cmp"
)

// TestScenario13OverHTTP runs the 13-player, 3-round event of the service's
// scenario test through the JSON API alone, and must arrive at the very
// same rounds, penalties and standings: tournament/testdata/scenario13.golden.
func TestScenario13OverHTTP(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}

	var tour api.TournamentJSON
	cl.Call("POST", "/api/v1/tournaments", `{"name":"11月定例会","date":"2025-11-22","venue":"カードショップ","rounds":3}`, 201, &tour)
	if tour.GameMinutes != 7 || tour.Ruleset != "proshop-2003" {
		t.Errorf("tournament = %+v, want the default ruleset's 7 minutes", tour)
	}
	players := map[int64]string{}
	var tanaka int64
	for _, nm := range []struct{ name, kana string }{
		{"青木", "あおき"}, {"井上", "いのうえ"}, {"上田", "うえだ"}, {"遠藤", "えんどう"}, {"岡田", "おかだ"},
		{"加藤", "かとう"}, {"木村", "きむら"}, {"工藤", "くどう"}, {"小林", "こばやし"}, {"佐藤", "さとう"},
		{"清水", "しみず"}, {"鈴木", "すずき"}, {"田中", "たなか"},
	} {
		var p api.PlayerJSON
		cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]string{"name": nm.name, "kana": nm.kana}, 201, &p)
		if !p.CheckedIn {
			t.Errorf("player %s registered through the API is not checked in", nm.name)
		}
		players[p.ID] = p.Name
		tanaka = p.ID
	}
	base := fmt.Sprintf("/api/v1/tournaments/%d", tour.ID)

	var r1 api.RoundJSON
	cl.Call("POST", base+"/rounds", nil, 201, &r1)
	if len(r1.Tables) != 4 || len(r1.Tables[0].Players)+len(r1.Tables[1].Players)+len(r1.Tables[2].Players)+len(r1.Tables[3].Players) != 13 {
		t.Fatalf("round 1 = %+v, want 13 players at 4 tables", r1)
	}
	cl.Call("POST", base+"/rounds", nil, http.StatusConflict, nil) // round 1 unfinished
	cl.Save(tour.ID, 1, 1, 0, []int{10, 7, 7, 4}, 0, "")
	cl.TimeUp(tour.ID, 1)
	cl.Save(tour.ID, 1, 2, 0, []int{8, 8, 6}, -1, "")
	cl.Save(tour.ID, 1, 3, 0, []int{9, 6, 5}, -1, "")
	cl.Save(tour.ID, 1, 4, 0, []int{6, 5, 11}, -1, "")
	if got := cl.Save(tour.ID, 1, 3, 1, []int{9, 7, 5}, -1, "数え直し"); got.Version != 2 {
		t.Errorf("correction saved as version %d, want 2", got.Version)
	}
	// A stale save is refused with 409 and says what changed.
	rec := webtest.Do(env.Handler, "PUT", base+"/rounds/1/tables/3/result",
		fmt.Sprintf(`{"version":1,"reason":"typo","scores":[{"player":%d,"vp":9},{"player":%d,"vp":6},{"player":%d,"vp":4}],"declared":null}`,
			r1.Tables[2].Players[0].ID, r1.Tables[2].Players[1].ID, r1.Tables[2].Players[2].ID),
		"Authorization", "Bearer test-token", "Accept-Language", "en")
	if want := r1.Tables[2].Players[1].Name + " 6 → 7 VP"; rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), want) {
		t.Errorf("stale save = %d %s, want 409 saying %q", rec.Code, rec.Body, want)
	}

	var r2 api.RoundJSON
	cl.Call("POST", base+"/rounds", nil, 201, &r2)
	offender := r2.Tables[2].Players[0].ID
	var first, second api.PenaltyJSON
	cl.Call("POST", base+"/penalties", map[string]any{"player": offender, "round": 2, "offence": "note-taking", "note": "メモ"}, 201, &first)
	cl.Call("POST", base+"/penalties", map[string]any{"player": offender, "round": 2, "offence": "note-taking", "note": "再度"}, 201, &second)
	if first.Level != "warning" || second.Level != "vp_deduction" || second.Table != 3 {
		t.Errorf("note-taking twice: %s, %s at table %d; want warning, vp_deduction at table 3", first.Level, second.Level, second.Table)
	}
	cl.Call("POST", base+"/penalties", map[string]any{"player": r2.Tables[1].Players[0].ID, "round": 2, "offence": "ignored-judge", "level": "game_loss"}, 201, nil)
	cl.Save(tour.ID, 2, 1, 0, []int{9, 10, 5, 3}, 1, "")
	cl.TimeUp(tour.ID, 2)
	cl.Save(tour.ID, 2, 2, 0, []int{9, 6, 6}, -1, "")
	cl.Save(tour.ID, 2, 3, 0, []int{8, 7, 2}, -1, "")
	cl.Save(tour.ID, 2, 4, 0, []int{4, 4, 4}, -1, "")

	var dropped api.PlayerJSON
	cl.Call("POST", fmt.Sprintf("%s/players/%d/drop", base, tanaka), nil, 200, &dropped)
	if dropped.DroppedRound != 3 {
		t.Errorf("drop after round 2: dropped_round = %d, want 3", dropped.DroppedRound)
	}
	var r3 api.RoundJSON
	cl.Call("POST", base+"/rounds", nil, 201, &r3)
	var wrong api.PenaltyJSON
	cl.Call("POST", base+"/penalties", map[string]any{"player": r3.Tables[0].Players[0].ID, "round": 3, "offence": "ignored-judge"}, 201, &wrong)
	cl.Call("POST", fmt.Sprintf("%s/penalties/%d/revoke", base, wrong.ID), map[string]string{"reason": "別の卓の選手と取り違えた"}, 200, nil)
	cl.Save(tour.ID, 3, 2, 0, []int{3, 10, 9, 9}, 1, "")
	cl.TimeUp(tour.ID, 3)
	cl.Save(tour.ID, 3, 1, 0, []int{8, 7, 6, 5}, -1, "")
	cl.Save(tour.ID, 3, 3, 0, []int{9, 9, 4, 4}, -1, "")
	cl.Call("POST", base+"/rounds", nil, http.StatusUnprocessableEntity, nil) // after the last round

	// Write what the API shows in the service scenario's golden format.
	var b strings.Builder
	for n := 1; n <= 3; n++ {
		var v api.RoundJSON
		cl.Call("GET", fmt.Sprintf("%s/rounds/%d", base, n), nil, 200, &v)
		fmt.Fprintf(&b, "round %d (%s, seed %d, repeats %d)\n", n, v.Mode, v.Seed, v.Repeats)
		for _, tb := range v.Tables {
			fmt.Fprintf(&b, "  table %d v%d %s:", tb.Number, tb.Result.Version, tb.Result.EndedBy)
			for _, pl := range tb.Result.Scores {
				fmt.Fprintf(&b, " %d.%s(%d)", pl.Place, players[pl.Player], pl.VP)
			}
			b.WriteString("\n")
		}
	}
	var pens struct{ Penalties []api.PenaltyJSON }
	cl.Call("GET", base+"/penalties", nil, 200, &pens)
	for _, p := range pens.Penalties {
		revoked := ""
		if p.Revoked != nil {
			revoked = " revoked: " + p.Revoked.Reason
		}
		fmt.Fprintf(&b, "penalty round %d table %d %s %s %s%s\n", p.Round, p.Table, players[p.Player], p.Offence, p.Level, revoked)
	}
	// The standings are public: read them without the token, as the kiosk does.
	rec = webtest.Do(env.Handler, "GET", base+"/standings", "")
	var st struct{ Standings []api.TournamentStandingJSON }
	if err := json.Unmarshal(rec.Body.Bytes(), &st); rec.Code != 200 || err != nil {
		t.Fatalf("GET standings anonymously = %d %s", rec.Code, rec.Body)
	}
	b.WriteString("rank  player      firsts  vp   share  played  dropped\n")
	for _, s := range st.Standings {
		fmt.Fprintf(&b, "%4d  %-8s %6d  %3d  %6.4f  %6d  %7d\n", s.Rank, s.Name, s.Firsts, s.VP, s.Share, s.Played, s.DroppedRound)
	}
	want, err := os.ReadFile("../testdata/scenario13.golden")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("the API's scenario differs from the service's golden file (-want +got):\n%s", diff)
	}
	checkScenarioRecord(t, cl, base)
}

// The public round shows results but not who saved them or the reasons
// judges gave; the judge's own view keeps them.
func TestPublicRoundHidesJudgeNotes(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	var tour api.TournamentJSON
	cl.Call("POST", "/api/v1/tournaments", `{"name":"非公開メモ","rounds":1}`, 201, &tour)
	for _, n := range []string{"青木", "井上", "上田"} {
		cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]string{"name": n}, 201, nil)
	}
	cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), nil, 201, nil)
	cl.TimeUp(tour.ID, 1)
	cl.Save(tour.ID, 1, 1, 0, []int{5, 4, 3}, -1, "")
	cl.Save(tour.ID, 1, 1, 1, []int{5, 4, 2}, -1, "数え直し:秘密のメモ")
	rec := webtest.Do(env.Handler, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tour.ID), "")
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "秘密のメモ") || strings.Contains(rec.Body.String(), `"judge"`) {
		t.Errorf("public round = %d %s, want results without the judge's name or reasons", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "GET", fmt.Sprintf("/api/v1/tournaments/%d/live", tour.ID), "")
	if rec.Code != 200 || strings.Contains(rec.Body.String(), "秘密のメモ") {
		t.Errorf("live = %d %s, want no judge's reasons", rec.Code, rec.Body)
	}
	var revs struct {
		Revisions []struct{ Reason string } `json:"revisions"`
	}
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/revisions", tour.ID), nil, 200, &revs)
	if len(revs.Revisions) != 2 || revs.Revisions[1].Reason != "数え直し:秘密のメモ" {
		t.Errorf("judge's revisions = %+v, want the reason kept", revs.Revisions)
	}
}
