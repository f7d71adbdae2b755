package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// A national event's top-4 final through the JSON API: the coded refusals
// before the qualifying rounds are played and once the final is made, the
// contract's shape of the final, the cut with its draw and seed on the
// final round, and the standings with the final results first once the
// final is played.
func TestFinalOverHTTP(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	var rulesets struct {
		Rulesets []struct{ Name string } `json:"rulesets"`
	}
	cl.Call("GET", "/api/v1/rulesets", nil, 200, &rulesets)
	if !slices.ContainsFunc(rulesets.Rulesets, func(r struct{ Name string }) bool { return r.Name == "national-2025" }) {
		t.Errorf("GET /api/v1/rulesets = %+v, want national-2025 listed", rulesets)
	}
	_, tour, base := webtest.NationalEvent(t, env, 3, 16)
	refuse := func(status int, code string) {
		t.Helper()
		rec := webtest.Do(env.Handler, "POST", base+"/final", "", "Authorization", "Bearer test-token", "Accept-Language", "ja")
		var body struct{ Error, Code string }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != status || body.Code != code || body.Error == "" {
			t.Errorf("POST final = %d %s, want %d with code %s and a message", rec.Code, rec.Body, status, code)
		}
	}
	if rec := webtest.Do(env.Handler, "POST", base+"/final", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("POST final without a judge = %d, want 401", rec.Code)
	}
	for n := 1; n <= 2; n++ {
		cl.Call("POST", base+"/rounds", nil, 201, nil)
		for tb := 1; tb <= 4; tb++ {
			cl.Save(tour.ID, n, tb, 0, []int{10, 8, 6, 4}, 0, "")
		}
		refuse(http.StatusConflict, "qualifying-not-complete")
	}
	cl.Call("POST", base+"/rounds", nil, 201, nil)
	refuse(http.StatusConflict, "final-results-missing")
	// Round 3 ends by time (8 minutes of placement, 60 of play); two
	// players share 1st at table 2, and tie at the cut line.
	cl.Call("POST", base+"/rounds/3/clock", `{"action":"start"}`, 200, nil)
	env.Ahead.Add(int64(70 * time.Minute))
	for tb := 1; tb <= 4; tb++ {
		vp := []int{9, 7, 5, 3}
		if tb == 2 {
			vp = []int{9, 9, 3, 3}
		}
		cl.Save(tour.ID, 3, tb, 0, vp, -1, "")
	}

	var raw json.RawMessage
	cl.Call("POST", base+"/final", nil, http.StatusCreated, &raw)
	if got := webtest.KeysOf(t, raw); !slices.Equal(got, []string{"cut", "number", "tables"}) {
		t.Errorf("POST final keys = %v, want cut, number, tables", got)
	}
	var final struct {
		Number int
		Tables []json.RawMessage
		Cut    json.RawMessage
	}
	if err := json.Unmarshal(raw, &final); err != nil {
		t.Fatal(err)
	}
	if got := webtest.KeysOf(t, final.Cut); !slices.Equal(got, []string{"advancing", "draw", "seed"}) {
		t.Errorf("cut keys = %v, want advancing, draw, seed", got)
	}
	if len(final.Tables) != 1 || !slices.Equal(webtest.KeysOf(t, final.Tables[0]), []string{"number", "players"}) {
		t.Fatalf("tables = %s, want one table with number and players", final.Tables)
	}
	var made api.FinalJSON
	if err := json.Unmarshal(raw, &made); err != nil {
		t.Fatal(err)
	}
	if made.Number != 4 || len(made.Tables[0].Players) != 4 || len(made.Cut.Advancing) != 4 || len(made.Cut.Draw) != 2 || made.Cut.Seed == 0 {
		t.Errorf("POST final = %s, want round 4, a table of 4, the top 4 with a draw of 2 and its seed", raw)
	}
	if !slices.Contains(made.Cut.Draw, made.Cut.Advancing[3]) {
		t.Errorf("cut %+v: the last advancing player is not one of the drawn", made.Cut)
	}
	refuse(http.StatusConflict, "final-already-made")

	var r4 api.RoundJSON
	cl.Call("GET", base+"/rounds/4", nil, 200, &r4)
	if r4.Mode != "final" || r4.Cut == nil || r4.Cut.Seed != made.Cut.Seed || !slices.Equal(r4.Cut.Draw, made.Cut.Draw) {
		t.Errorf("GET round 4 = mode %s cut %+v, want the final with the cut %+v", r4.Mode, r4.Cut, made.Cut)
	}
	rec := webtest.Do(env.Handler, "GET", base+"/standings", "")
	if strings.Contains(rec.Body.String(), `"final"`) {
		t.Errorf("GET standings before the final is played = %s, want no final", rec.Body)
	}
	cl.Save(tour.ID, 4, 1, 0, []int{6, 7, 7, 10}, 3, "")
	rec = webtest.Do(env.Handler, "GET", base+"/standings", "")
	if !strings.HasPrefix(rec.Body.String(), `{"final":[`) {
		t.Errorf("GET standings after the final = %.80s..., want the final first", rec.Body)
	}
	var st struct {
		Final     []api.FinalStandingJSON
		Standings []json.RawMessage
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	winner := made.Tables[0].Players[3].ID
	if len(st.Final) != 16 || st.Final[0].Player != winner || st.Final[0].From != "final" || st.Final[0].Place != 1 ||
		st.Final[1].Rank != 2 || st.Final[2].Rank != 2 || st.Final[4].From != "standings" {
		t.Errorf("final results = %+v, want the final table's winner %d first, a shared 2nd, then the standings", st.Final, winner)
	}
	want := []string{"dropped_round", "firsts", "kana", "name", "played", "player", "points", "rank", "share", "vp"}
	if len(st.Standings) != 16 || !slices.Equal(webtest.KeysOf(t, st.Standings[0]), want) && !slices.Equal(webtest.KeysOf(t, st.Standings[0]), slices.DeleteFunc(slices.Clone(want), func(k string) bool { return k == "kana" })) {
		t.Errorf("standings rows = %s, want 16 with every field of before", st.Standings)
	}
}

// The standings page's final form: refused with the reason on the page
// while a qualifying round is unplayed, then made, back on the standings
// page with the cut.
func TestMakeFinalPage(t *testing.T) {
	env := webtest.New(t)
	cl, tour, base := webtest.NationalEvent(t, env, 1, 8)
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d/standings", tour.ID)
	if got := b.Get(page); got.Status != 200 || strings.Contains(got.Body, `action="`+page[:len(page)-len("standings")]+`final"`) || !strings.Contains(got.Body, "予選1回戦のうち0回戦") {
		t.Errorf("standings before round 1 = %d, want no final form and the reason why", got.Status)
	}
	cl.Call("POST", base+"/rounds", nil, 201, nil)
	refused := b.Post(fmt.Sprintf("/judge/t/%d/final", tour.ID), nil)
	if refused.Status != http.StatusConflict || !strings.Contains(refused.Body, "1卓の結果がまだ入力されていません") {
		t.Errorf("POST final with results missing = %d, want 409 with the reason on the page", refused.Status)
	}
	cl.Save(tour.ID, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	cl.Save(tour.ID, 1, 2, 0, []int{10, 6, 6, 2}, 0, "")
	if got := b.Get(page); !strings.Contains(got.Body, "決勝を作成（上位4名）") {
		t.Errorf("standings with the qualifying played: no final button")
	}
	if got := b.Get(fmt.Sprintf("/judge/t/%d", tour.ID)); !strings.Contains(got.Body, `id="make-final"`) {
		t.Errorf("the overview with the qualifying played: no final button")
	}
	// Closing before the final is played is warned, beside the button and
	// in its confirmation.
	webtest.MustSee(t, "the overview before the final", b.Get(fmt.Sprintf("/judge/t/%d", tour.ID)), http.StatusOK,
		`id="close-no-final"`, "予選の順位で優勝者が決まります", `data-confirm="決勝卓の結果がまだありません。`)
	made := b.Post(fmt.Sprintf("/judge/t/%d/final", tour.ID), nil)
	if made.Status != http.StatusSeeOther || made.Location != page+"#final" {
		t.Fatalf("POST final = %d to %q, want 303 to the standings", made.Status, made.Location)
	}
	got := b.Get(page)
	if !strings.Contains(got.Body, "決勝を作成しました") || !strings.Contains(got.Body, "同順位の抽選") || !strings.Contains(got.Body, "シード ") || strings.Contains(got.Body, "決勝を作成（上位4名）") {
		t.Errorf("standings after the final is made: want the flash, the draw with its seed and no button; got %s", got.Body)
	}
}

// The turn page of a final table: before the game time is over it counts
// the game time; then the judge picks whose turn it is, a tap passes the
// turn, a turn past the 2 minutes is listed, and the end time set is
// announced 10 minutes before.
func TestTurnPage(t *testing.T) {
	env := webtest.New(t)
	cl, tour, base := webtest.NationalEvent(t, env, 1, 4)
	cl.Call("POST", base+"/rounds", nil, 201, nil)
	cl.Save(tour.ID, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	b := env.Browser()
	b.Login("山田")
	if got := b.Get(fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/turns", tour.ID)); got.Status != 200 || !strings.Contains(got.Body, "決勝ではありません") {
		t.Errorf("the turn page of a qualifying table = %d, want the note that only a final has a turn limit", got.Status)
	}
	var final api.FinalJSON
	cl.Call("POST", base+"/final", nil, 201, &final)
	page := fmt.Sprintf("/judge/t/%d/rounds/2/tables/1/turns", tour.ID)
	if got := b.Get(fmt.Sprintf("/judge/t/%d/rounds/2", tour.ID)); !strings.Contains(got.Body, `href="`+page+`"`) {
		t.Errorf("the final round's page does not link the turn page")
	}
	cl.Call("POST", base+"/rounds/2/clock", `{"action":"start"}`, 200, nil)
	if got := b.Get(page); !strings.Contains(got.Body, "初期配置 1/8") {
		t.Errorf("the turn page in the placement phase: want 初期配置 1/8, got %s", got.Body)
	}
	env.Ahead.Add(int64(69 * time.Minute)) // 8 minutes of placement, 60 of play, then 1 of the limit
	got := b.Get(page)
	// Issue 24: the turn's limit counts from when its player is named.
	if !strings.Contains(got.Body, "手番のプレイヤーを選んでください") || !strings.Contains(got.Body, "その手番の制限時間が始まります") || strings.Contains(got.Body, "turns-big") {
		t.Errorf("the turn page after the game time: want a choice of player and nothing counting yet, got %s", got.Body)
	}
	first, second := final.Tables[0].Players[1], final.Tables[0].Players[2]
	turn := func(form url.Values) webtest.Response {
		t.Helper()
		form.Set("action", "turn")
		return b.Post(page, form)
	}
	if r := turn(url.Values{"player": {fmt.Sprint(first.ID)}}); r.Status != http.StatusSeeOther || r.Location != page {
		t.Fatalf("POST turn to %s = %d %s, want 303 back", first.Name, r.Status, r.Location)
	}
	env.Ahead.Add(int64(3 * time.Minute))
	got = b.Get(page)
	if !strings.Contains(got.Body, "1手番目") || !strings.Contains(got.Body, `class="turns-big over" data-countdown="-6`) || !strings.Contains(got.Body, "手番終了 → "+second.Name) {
		t.Errorf("the turn page a minute past the limit: want turn 1 of %s at +1:00 and a pass to %s, got %s", first.Name, second.Name, got.Body)
	}
	if r := turn(url.Values{}); r.Status != http.StatusSeeOther {
		t.Fatalf("POST turn (the next player) = %d", r.Status)
	}
	got = b.Get(page)
	if !strings.Contains(got.Body, "制限時間を超えた手番") || !strings.Contains(got.Body, "<td>"+first.Name+"</td><td class=\"num\">+1:0") {
		t.Errorf("the overruns: want %s +1:00 listed, got %s", first.Name, got.Body)
	}
	if r := b.Post(page, url.Values{"action": {"end"}, "minutes": {"九十"}}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `value="九十"`) {
		t.Errorf("POST end with no number = %d, want 422 with the value kept", r.Status)
	}
	if r := b.Post(page, url.Values{"action": {"end"}, "minutes": {"15"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("POST end in 15 minutes = %d %s", r.Status, r.Body)
	}
	if got := b.Get(page); !strings.Contains(got.Body, "終了時刻") || strings.Contains(got.Body, "turns-announce") {
		t.Errorf("the end set 15 minutes ahead: want it shown and not yet announced")
	}
	env.Ahead.Add(int64(6 * time.Minute))
	if got := b.Get(page); !strings.Contains(got.Body, "まで10分を切りました") {
		t.Errorf("9 minutes before the end: want the announcement, got %s", got.Body)
	}
	env.Ahead.Add(int64(10 * time.Minute))
	if got := b.Get(page); !strings.Contains(got.Body, "終了時刻になりました") {
		t.Errorf("after the end: want the table over")
	}
}

// The printed standings of an event whose final is played put the final
// results first, then the qualifying standings; after an earlier round
// they are the standings alone.
func TestPrintStandingsWithFinal(t *testing.T) {
	env := webtest.New(t)
	cl, tour, base := webtest.NationalEvent(t, env, 1, 8)
	b := env.Browser()
	b.Login("山田")
	cl.Call("POST", base+"/rounds", nil, 201, nil)
	cl.Save(tour.ID, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	cl.Save(tour.ID, 1, 2, 0, []int{10, 6, 6, 2}, 0, "")
	printURL := fmt.Sprintf("/judge/t/%d/standings/print", tour.ID)
	if got := b.Get(printURL); got.Status != 200 || strings.Contains(got.Body, "final-results") {
		t.Errorf("printed standings before the final = %d, want no final results", got.Status)
	}
	var final api.FinalJSON
	cl.Call("POST", base+"/final", nil, 201, &final)
	cl.Save(tour.ID, 2, 1, 0, []int{10, 7, 7, 4}, 0, "")
	got := b.Get(printURL)
	results, qualifying := strings.Index(got.Body, `<table class="final-results">`), strings.Index(got.Body, `<table class="standings-print">`)
	if got.Status != 200 || results < 0 || qualifying < results || !strings.Contains(got.Body, "<h2>最終順位</h2>") ||
		!strings.Contains(got.Body, "<h2>予選順位</h2>") || !strings.Contains(got.Body, "決勝卓 1位") {
		t.Errorf("printed standings after the final = %d, want the final results (決勝卓 1位) before the qualifying standings:\n%s", got.Status, got.Body)
	}
	if after1 := b.Get(printURL + "?after=1"); strings.Contains(after1.Body, "final-results") {
		t.Errorf("printed standings after round 1 show the final results")
	}
}
