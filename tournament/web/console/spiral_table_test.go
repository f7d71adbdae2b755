package console_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// Under the national rules the table page asks for the corner die (or
// rolls it) instead of the capsule roll, says how the board was laid and
// offers no deal to enter; the board sheet prints the corner and the
// terrain seed.
func TestSpiralBoardPage(t *testing.T) {
	env := webtest.New(t)
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "カタン地区予選", Ruleset: "national-2025", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"青木", "井上", "上田", "江藤"} {
		p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.Service.CheckIn(env.Ctx, "setup", p.TournamentID, p.ID, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	tableURL := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1", tr.ID)

	res := b.Get(tableURL)
	webtest.MustSee(t, "table page before the board", res, http.StatusOK, `id="corner"`, "チップの開始角のダイス", "1 北西 · 2 北東 · 3 東 · 4 南東 · 5 南西 · 6 西", "コンソールでダイスを振る")
	if strings.Contains(res.Body, `id="white"`) {
		t.Error("the national table page asks for the capsule roll")
	}
	webtest.MustSee(t, "corner 9", b.Post(tableURL+"/board", url.Values{"corner": {"9"}}), http.StatusUnprocessableEntity, `id="corner-error"`)
	webtest.MustSee(t, "capsule dice", b.Post(tableURL+"/board", url.Values{"white": {"3"}, "blue": {"2"}}), http.StatusUnprocessableEntity, `id="corner-error"`)
	if res := b.Post(tableURL+"/board", url.Values{"corner": {"2"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("corner 2 = %d, want 303\n%s", res.Status, res.Body)
	}
	rv, err := env.Service.RoundView(env.Ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	seed := fmt.Sprint(rv.Tables[0].Table.Board.Seed)
	res = b.Get(tableURL)
	webtest.MustSee(t, "table with a spiral board", res, http.StatusOK, `<svg class="board"`, "チップの開始角: ダイス 2（北東の角）",
		"シード "+seed, "配り直しはありません", `class="robber"`)
	if strings.Contains(res.Body, `action="`+tableURL+`/deal"`) {
		t.Error("the national table page offers a chip deal to enter")
	}
	checkIDs(t, "table with a spiral board", res.Body)

	res = b.Get(fmt.Sprintf("/judge/t/%d/rounds/1/print/boards", tr.ID))
	webtest.MustSee(t, "board sheet", res, http.StatusOK, "ダイス 2 → 北東の角", "シード "+seed, "北東の角から A・B・C…R の順に")
	if strings.Contains(res.Body, "カプセルダイス") || strings.Contains(res.Body, "団子ルール") {
		t.Error("the national board sheet speaks of the capsule roll or the dango rule")
	}
	// The console rolls the die when asked.
	if res := b.Post(tableURL+"/board", url.Values{"auto": {"1"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("auto corner = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "table after the console's roll", b.Get(tableURL), http.StatusOK, "（コンソールが振りました）")
}

// The tournament API sets a national table's board from the corner die
// (refusing capsule dice with a 422), and the clock API says which
// placement is under way.
func TestSpiralTableAPI(t *testing.T) {
	env := webtest.New(t)
	callAPI := func(method, path, body string) *httptest.ResponseRecorder {
		return webtest.Do(env.Handler, method, path, body, "Authorization", "Bearer test-token", "Accept-Language", "en")
	}
	rec := callAPI("POST", "/api/v1/tournaments", `{"name":"地区予選","rounds":3,"ruleset":"national-2025"}`)
	if rec.Code != 201 || !strings.Contains(rec.Body.String(), `"game_minutes":60`) {
		t.Fatalf("create = %d %s", rec.Code, rec.Body)
	}
	for _, n := range []string{"青木", "井上", "上田", "江藤"} {
		callAPI("POST", "/api/v1/tournaments/1/players", `{"name":"`+n+`"}`)
	}
	if rec := callAPI("POST", "/api/v1/tournaments/1/rounds", ""); rec.Code != 201 {
		t.Fatalf("pair = %d %s", rec.Code, rec.Body)
	}
	board := "/api/v1/tournaments/1/rounds/1/tables/1/board"
	if rec := callAPI("POST", board, `{"white":3,"blue":2}`); rec.Code != 422 || !strings.Contains(rec.Body.String(), "give the corner die") {
		t.Errorf("capsule dice for a national table = %d %s, want 422", rec.Code, rec.Body)
	}
	rec = callAPI("POST", board, `{"corner":6}`)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"board":{"method":"spiral","corner":6,"start":"west","seed":`) {
		t.Errorf("corner 6 = %d %.300s, want the table with its spiral board", rec.Code, rec.Body)
	}
	clock := "/api/v1/tournaments/1/rounds/1/clock"
	if rec := callAPI("GET", clock, ""); !strings.Contains(rec.Body.String(), `"game_seconds":4080,"extension_seconds":0,"phase":"placement","placement":{"number":1,"of":8,"remaining_seconds":60}`) {
		t.Errorf("the clock before the start = %s, want 68 minutes and the first of 8 placements", rec.Body)
	}
	rec = callAPI("POST", clock, `{"action":"turn","table":1}`)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "turn limit") {
		t.Errorf("a pass outside a final's turn limit = %d %s, want 422", rec.Code, rec.Body)
	}
}
