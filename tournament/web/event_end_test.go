package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The JSON contract of the event's end: GET .../{id} has "state" (setup,
// running, finished); POST .../close answers the tournament finished,
// POST .../reopen {"reason"} running again; while finished every change is
// refused with 409 tournament-finished.
func TestCloseAndReopenAPI(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(4)
	base := fmt.Sprintf("/api/v1/tournaments/%d", tr.ID)
	var got api.TournamentJSON
	cl.Call("GET", base, nil, 200, &got)
	if got.State != "setup" {
		t.Errorf("state before pairing = %q, want setup", got.State)
	}
	var round api.RoundJSON
	cl.Call("POST", base+"/rounds", nil, 201, &round)
	cl.Call("GET", base, nil, 200, &got)
	if got.State != "running" {
		t.Errorf("state after pairing = %q, want running", got.State)
	}
	rec := webtest.Do(env.Handler, "POST", base+"/close", "", "Authorization", "Bearer test-token", "Accept-Language", "en")
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"close-results-missing"`) {
		t.Errorf("close with a table unrecorded = %d %s, want 409 close-results-missing", rec.Code, rec.Body)
	}
	players := round.Tables[0].Players
	sheet := fmt.Sprintf(`{"scores":[{"player":%d,"vp":10},{"player":%d,"vp":8},{"player":%d,"vp":6},{"player":%d,"vp":4}],"declared":%d,"version":0}`,
		players[0].ID, players[1].ID, players[2].ID, players[3].ID, players[0].ID)
	cl.Call("PUT", base+"/rounds/1/tables/1/result", sheet, 200, nil)
	cl.Call("POST", base+"/close", nil, 200, &got)
	if got.State != "finished" || got.ClosedAt == nil {
		t.Errorf("POST close = %+v, want state finished with closed_at", got)
	}
	rec = webtest.Do(env.Handler, "GET", base, "")
	if !strings.Contains(rec.Body.String(), `"state":"finished"`) {
		t.Errorf("GET tournament anonymously after the close = %s, want \"state\":\"finished\"", rec.Body)
	}
	for _, tt := range []struct{ method, path, body string }{
		{"PUT", base + "/rounds/1/tables/1/result", strings.Replace(sheet, `"version":0`, `"version":1,"reason":"typo"`, 1)},
		{"POST", base + "/players", `{"name":"遅刻"}`},
		{"POST", base + "/rounds", ""},
		{"POST", base + "/penalties", fmt.Sprintf(`{"player":%d,"round":1,"offence":"note-taking","note":""}`, players[1].ID)},
		{"POST", base + "/rounds/1/clock", `{"action":"start"}`},
		{"POST", base + "/close", ""},
	} {
		rec := webtest.Do(env.Handler, tt.method, tt.path, tt.body, "Authorization", "Bearer test-token")
		if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"tournament-finished"`) {
			t.Errorf("%s %s after the close = %d %s, want 409 tournament-finished", tt.method, tt.path, rec.Code, rec.Body)
		}
	}
	var live api.LiveJSON
	cl.Call("GET", base+"/live", nil, 200, &live)
	if live.Tournament.State != "finished" || len(live.Winners) != 1 || live.Winners[0].Player != players[0].ID || live.Round.Clock.State != "stopped" {
		t.Errorf("live after the close: state %q, winners %+v, clock %q; want finished, %s, stopped",
			live.Tournament.State, live.Winners, live.Round.Clock.State, players[0].Name)
	}
	rec = webtest.Do(env.Handler, "POST", base+"/reopen", `{"reason":""}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code":"reopen-reason-missing"`) {
		t.Errorf("reopen without a reason = %d %s, want 422", rec.Code, rec.Body)
	}
	var reopened api.TournamentJSON
	cl.Call("POST", base+"/reopen", `{"reason":"成績の訂正"}`, 200, &reopened)
	if reopened.State != "running" || reopened.ClosedAt != nil {
		t.Errorf("POST reopen = %+v, want state running", reopened)
	}
	cl.Call("PUT", base+"/rounds/1/tables/1/result", strings.Replace(sheet, `"version":0`, `"version":1,"reason":"typo"`, 1), 200, nil)
}

// The console closes the tournament from its overview; every page then says
// it is finished, the overview and the standings show the final standings
// and the winner, and the kiosk and projector show them instead of the
// seating, with the clock stopped. Reopening needs a reason.
func TestCloseFromTheConsoleAndKiosk(t *testing.T) {
	p := webtest.NewPaired(t)
	overview := fmt.Sprintf("/judge/t/%d", p.Tournament.ID)
	webtest.MustSee(t, "overview", p.B.Get(overview), http.StatusOK, `action="`+overview+`/close"`, "大会を終了")
	webtest.MustSee(t, "close with results missing", p.B.Post(overview+"/close", nil), http.StatusConflict, "全卓の結果が入ってから大会を終了してください")
	if _, err := p.Service.ClockAction(p.Ctx, "setup", p.Tournament.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	p.SaveAll(1)
	if res := p.B.Post(overview+"/close", nil); res.Status != http.StatusSeeOther {
		t.Fatalf("close = %d, want 303\n%s", res.Status, res.Body)
	}
	ws, err := p.Service.Winners(p.Ctx, p.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	var winners []string
	for _, w := range ws {
		winners = append(winners, w.Name)
	}
	winner := "優勝: " + strings.Join(winners, "、")
	res := p.B.Get(overview)
	webtest.MustSee(t, "overview after the close", res, http.StatusOK, "大会を終了しました。", "最終結果", winner, `id="reopen"`, `id="finished"`,
		`id="edit-closed"`, "終了した大会は編集できません")
	if strings.Contains(res.Body, `<input id="name" name="name"`) {
		t.Error("the overview of a finished tournament offers the edit form")
	}
	webtest.MustSee(t, "standings after the close", p.B.Get(overview+"/standings"), http.StatusOK, "最終順位", winner)
	webtest.MustSee(t, "round page after the close", p.B.Get(p.URL), http.StatusOK, "この大会は終了しました", "大会は終了しました")
	for _, view := range []string{"", "?view=projector"} {
		res := p.B.Get(fmt.Sprintf("/kiosk/%d%s", p.Tournament.ID, view))
		webtest.MustSee(t, "kiosk"+view+" after the close", res, http.StatusOK, "最終順位", winner, `id="clock-time" class="k-clock-time" role="timer">大会終了`,
			`<section id="find" class="k-find" aria-labelledby="find-h" hidden>`)
		// Phones follow the link to the results; the room's screen has no use for it.
		if link := strings.Contains(res.Body, `id="results-link"`); link != (view == "") {
			t.Errorf("kiosk%s after the close: results link shown = %v", view, link)
		}
	}
	webtest.MustSee(t, "reopen without a reason", p.B.Post(overview+"/reopen", url.Values{"reason": {" "}}), http.StatusUnprocessableEntity, "大会の再開には理由が必要です")
	if res := p.B.Post(overview+"/reopen", url.Values{"reason": {"1卓の訂正"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("reopen = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "audit log", p.B.Get(overview+"/audit"), http.StatusOK, "山田 が大会を終了しました。", "山田 が大会を再開しました。", "1卓の訂正")
}

// Mid-round the kiosk's standings count the complete rounds, say so, and
// show the games each player played; a switch shows every result so far.
func TestKioskStandingsAfterRound(t *testing.T) {
	p := webtest.NewPaired(t)
	p.SaveAll(1)
	if _, err := p.Service.PairNextRound(p.Ctx, "setup", p.Tournament.ID); err != nil {
		t.Fatal(err)
	}
	r2v, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	r2 := r2v.Round
	tb := r2.Tables[0]
	in := tournament.ResultInput{Declared: tb.Players[0]}
	for i, id := range tb.Players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 7, 5, 3}[i]})
	}
	if _, err := p.Service.SaveResult(p.Ctx, "setup", p.Tournament.ID, 2, tb.Number, in); err != nil {
		t.Fatal(err)
	}
	kiosk := fmt.Sprintf("/kiosk/%d", p.Tournament.ID)
	res := p.B.Get(kiosk)
	webtest.MustSee(t, "kiosk mid-round", res, http.StatusOK, "順位（第1回戦終了時点）", "<th scope=\"col\" class=\"num\">対戦数</th>", `href="`+kiosk+`?standings=live#standings"`)
	if strings.Contains(res.Body, `<td class="num">2</td></tr>`) {
		t.Errorf("the kiosk's standings after round 1 count a second game:\n%s", res.Body)
	}
	res = p.B.Get(kiosk + "?standings=live")
	webtest.MustSee(t, "live standings", res, http.StatusOK, "順位（途中経過: 第2回戦の入力済みの成績を含む）", `<td class="num">2</td></tr>`, `data-standings="live"`)
	var live api.LiveJSON
	webtest.APIClient{T: t, Env: p.Env}.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/live", p.Tournament.ID), nil, 200, &live)
	if live.StandingsAfter != 1 || live.StandingsLive {
		t.Errorf("live: standings_after %d, standings_live %v; want 1, false", live.StandingsAfter, live.StandingsLive)
	}
	for _, st := range live.Standings {
		if st.Played > 1 {
			t.Errorf("live standings after round 1 count %d games for %s", st.Played, st.Name)
		}
	}
}

// The ruleset page and the ruleset's JSON say which settings the tournament
// software applies and which are in-game rules (the longest road's tie, the
// bank running short), applied by the rules engine's referee API. Reached
// from a tournament, the one ruleset page puts the tournament's copy first,
// beside the server's rulesets, with its penalty catalogue.
func TestRulesetSaysWhatApplies(t *testing.T) {
	p := webtest.NewPaired(t)
	page := fmt.Sprintf("/judge/t/%d/ruleset", p.Tournament.ID)
	webtest.MustSee(t, "overview", p.B.Get(fmt.Sprintf("/judge/t/%d", p.Tournament.ID)), http.StatusOK, `href="`+page+`"`)
	res := p.B.Get(page)
	webtest.MustSee(t, "ruleset page", res, http.StatusOK, "ゲーム内ルール", "§6 の生産", "/api/v1/referee/position", "メモを取った",
		`<th scope="col" class="rs-copy"><span class="rs-name">proshop-2003</span>`, "この大会の写し")
	// row returns the row of the table whose rows carry ids of the prefix.
	row := func(id string) string {
		i := strings.Index(res.Body, `id="`+id+`"`)
		if i < 0 {
			t.Fatalf("ruleset page: no row %s", id)
		}
		r := res.Body[i:]
		return r[:strings.Index(r, "</tr>")]
	}
	const engine, software = "ゲーム内ルール（ルールエンジン）", `<span class="tag ok">大会ソフト</span>`
	for key, want := range map[string]string{
		"key-longest_road_tie": engine, "key-bank_shortage": engine,
		"key-dango": software, "key-game_minutes": software, "key-escalate_from": software, "key-layout.harbors": software,
		"key-robber_on_desert": software, "key-board.method": software, "key-require_breakdown": software,
		"setting-longest_road_tie": engine, "setting-bank_shortage": engine,
	} {
		if r := row(key); !strings.Contains(r, want) {
			t.Errorf("ruleset page: %s says %q, want %q", key, r, want)
		}
	}
	if r := row("setting-dango"); strings.Contains(r, engine) {
		t.Errorf("ruleset page: the dango rule is said to be an in-game rule: %q", r)
	}
	// The tournament's copy, then the server's national-2025 and proshop-2003.
	if r := row("key-escalate_from"); strings.Count(r, `<td class="rs-value">caution</td>`) != 3 {
		t.Errorf("ruleset page: escalate_from = %q, want caution in every column", r)
	}
	rec := webtest.Do(p.Handler, "GET", "/api/v1/rulesets/proshop-2003", "")
	if !strings.Contains(rec.Body.String(), `"in_game_settings":["longest_road_tie","bank_shortage"]`) {
		t.Errorf("GET ruleset = %s, want the in-game settings named", rec.Body)
	}
}
