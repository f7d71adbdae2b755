package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// nationalFinal is a national event of 8 players, its one qualifying
// round played through the API and its top-4 final made.
func nationalFinal(t *testing.T, env *webtest.Env) (webtest.APIClient, api.TournamentJSON, string, api.FinalJSON) {
	t.Helper()
	cl, tour, base := webtest.NationalEvent(t, env, 1, 8)
	cl.Call("POST", base+"/rounds", nil, 201, nil)
	cl.Save(tour.ID, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	cl.Save(tour.ID, 1, 2, 0, []int{10, 7, 5, 2}, 0, "")
	var final api.FinalJSON
	cl.Call("POST", base+"/final", nil, 201, &final)
	return cl, tour, base, final
}

// Issue 24, defect 4: the final is not another Swiss round. Its console
// pages, printables, messages, nav and titles say 決勝 (決勝卓 for its
// table), never 第2回戦; re-pairing is not offered and warns of no repeat
// meetings (the finalists meet again by design); making the final again is
// its own action, with a reason, until it has a result.
func TestTheFinalIsNamedTheFinal(t *testing.T) {
	env := webtest.New(t)
	cl, tour, base, final := nationalFinal(t, env)
	b := env.Browser()
	b.Login("山田")
	judge := fmt.Sprintf("/judge/t/%d", tour.ID)
	never := func(what string, res webtest.Response, words ...string) {
		t.Helper()
		for _, w := range words {
			if strings.Contains(res.Body, w) {
				t.Errorf("%s says %q\n%s", what, w, res.Body)
			}
		}
	}
	round := b.Get(judge + "/rounds/2")
	webtest.MustSee(t, "the final's round page", round, http.StatusOK, "<title>決勝", "<h1>決勝</h1>", ">決勝</a>", ">決勝卓</a></h3>", `id="remake"`, "決勝を作り直す")
	never("the final's round page", round, "第2回戦", "組み直す", "次の回戦を組めます", "再戦", `action="`+judge+`/rounds/2/repair"`)
	for _, page := range []struct{ path, title string }{
		{"/rounds/2/tables/1", "<title>決勝卓"},
		{"/rounds/2/tables/1/score", "<title>決勝卓 成績表"},
		{"/rounds/2/tables/1/turns", "<title>決勝卓 手番時間"},
		{"/rounds/2/tables/1/game", "<title>対戦記録 — 決勝卓"},
		{"/rounds/2/print/names", "<title>決勝 組み合わせ（名前順）"},
		{"/rounds/2/print/tables", "<title>決勝 組み合わせ（卓順）"},
		{"/rounds/2/print/scores", "<title>決勝卓 成績表"},
		{"/rounds/2/print/boards", "<title>決勝卓 盤面シート"},
	} {
		res := b.Get(judge + page.path)
		webtest.MustSee(t, page.path, res, http.StatusOK, page.title)
		never(page.path, res, "第2回戦")
	}
	for _, path := range []string{"", "/players", "/standings", "/penalties"} {
		never(judge+path+"'s nav", b.Get(judge+path), "第2回戦")
	}

	// Its messages: the close before its result, a pairing again.
	webtest.MustSee(t, "closing before the final's result", b.Post(judge+"/close", nil), http.StatusConflict, "決勝卓の結果がまだ入力されていません")
	rec := webtest.Do(env.Handler, "POST", base+"/rounds/2/clock", `{"action":"extend","table":1,"seconds":60}`, "Authorization", "Bearer test-token")
	if !strings.Contains(rec.Body.String(), "延長の理由") && !strings.Contains(rec.Body.String(), "理由") {
		t.Errorf("an extension without a reason = %s", rec.Body)
	}
	rec = webtest.Do(env.Handler, "POST", base+"/rounds/2/repair", "", "Authorization", "Bearer test-token")
	if rec.Code != http.StatusNotFound && !strings.Contains(rec.Body.String(), "決勝は組み直せません") {
		t.Errorf("POST repair of the final = %d %s", rec.Code, rec.Body)
	}
	webtest.MustSee(t, "the console's repair of the final", b.Post(judge+"/rounds/2/repair", nil), http.StatusUnprocessableEntity, "決勝は組み直せません")

	// Made again, with a reason: a new draw, audited.
	webtest.MustSee(t, "remake without a reason", b.Post(judge+"/rounds/2/remake", url.Values{"reason": {" "}}), http.StatusUnprocessableEntity, "決勝を作り直す理由を入力してください")
	if res := b.Post(judge+"/rounds/2/remake", url.Values{"reason": {"江藤さんが体調不良で棄権"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("remake the final = %d\n%s", res.Status, res.Body)
	}
	var again api.FinalJSON
	cl.Call("POST", base+"/final/remake", `{"reason":"卓の番号を取り違えた"}`, 200, &again)
	if again.Number != 2 || again.Cut.Seed == final.Cut.Seed || len(again.Tables) != 1 {
		t.Errorf("the final made again = %+v, want round 2 again with a new seed (was %d)", again, final.Cut.Seed)
	}
	webtest.MustSee(t, "the audit log", b.Get(judge+"/audit"), http.StatusOK, "山田 が決勝を作り直しました（理由: 江藤さんが体調不良で棄権）。", "決勝卓")
	cl.Save(tour.ID, 2, 1, 0, []int{10, 7, 5, 5}, 0, "")
	rec = webtest.Do(env.Handler, "POST", base+"/final/remake", `{"reason":"遅すぎる"}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"final-has-result"`) {
		t.Errorf("remaking a played final = %d %s, want 409 final-has-result", rec.Code, rec.Body)
	}
	never("the final's round page once played", b.Get(judge+"/rounds/2"), `id="remake"`)
}

// Issue 24, defect 7: during and after the final the kiosk and the
// projector show the final's table first, its players with their seats,
// colours and (once played) VP, and its time; then everyone else. The
// projector lists no seating of players out of the final.
func TestKioskShowsTheFinalTableFirst(t *testing.T) {
	env := webtest.New(t)
	cl, tour, base, final := nationalFinal(t, env)
	cl.Call("POST", base+"/rounds/2/tables/1/seating", `{"auto":true}`, 200, nil)
	cl.Call("POST", base+"/rounds/2/clock", `{"action":"start"}`, 200, nil)
	anon := env.Browser()
	first := func(what, body string, later ...string) {
		t.Helper()
		at := strings.Index(body, `<section id="final-table" class="k-finaltable"`)
		if at < 0 || strings.Contains(body[at:at+120], "hidden") {
			t.Fatalf("%s has no final table shown\n%s", what, body)
		}
		for _, id := range later {
			if i := strings.Index(body, id); i >= 0 && i < at {
				t.Errorf("%s shows %s before the final table", what, id)
			}
		}
	}
	for _, view := range []string{"", "?view=projector"} {
		res := anon.Get(fmt.Sprintf("/kiosk/%d%s", tour.ID, view))
		webtest.MustSee(t, "the kiosk"+view+" during the final", res, http.StatusOK, `class="kiosk`, "has-final-table", `<span>決勝卓</span>`, `class="k-left" data-countdown="`,
			`<span class="chip red"`, `<section id="tables" class="k-panel" aria-labelledby="tables-h" hidden>`)
		first("the kiosk"+view, res.Body, `id="cut"`, `id="players"`, `id="standings"`)
		for _, p := range final.Tables[0].Players {
			webtest.MustSee(t, "the kiosk"+view+"'s final table", res, http.StatusOK, `<span class="k-name">`+p.Name+`</span>`)
		}
		hidden := strings.Contains(res.Body, `<section id="players" class="k-panel" aria-labelledby="players-h" hidden>`)
		if hidden != (view != "") {
			t.Errorf("the kiosk%s during the final: seating list hidden = %v, want it on phones alone", view, hidden)
		}
	}
	cl.Save(tour.ID, 2, 1, 0, []int{10, 7, 5, 5}, 0, "")
	cl.Call("POST", base+"/close", nil, 200, nil)
	for _, view := range []string{"", "?view=projector"} {
		res := anon.Get(fmt.Sprintf("/kiosk/%d%s", tour.ID, view))
		webtest.MustSee(t, "the kiosk"+view+" after the final", res, http.StatusOK, `<span class="k-place">1位</span>`, `<span class="k-vp">10点</span>`)
		first("the kiosk"+view+" after the final", res.Body, `id="final-results"`, `id="standings"`)
	}
}
