package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// place is the form of a placement on corner and edge, entered on the
// record's moves so far.
func place(expected int, corner, edge string) url.Values {
	return url.Values{"expected": {fmt.Sprint(expected)}, "tap": {"place"}, "do": {"place"}, "corner": {corner}, "edge": {edge}}
}

// placementForms are recordPlacements as the record page posts them.
var placementForms = [][2]string{
	{"S(1,-3)", "S(1,-3) N(0,-2)"}, {"S(3,-2)", "S(3,-2) N(2,-1)"}, {"N(1,2)", "N(1,2) S(1,1)"}, {"N(-3,2)", "N(-3,2) S(-2,1)"},
	{"S(-2,-1)", "S(-2,-1) N(-3,1)"}, {"S(-1,2)", "S(-1,2) N(-1,3)"}, {"N(2,1)", "N(2,1) S(3,-1)"}, {"S(0,-3)", "S(0,-3) N(-1,-1)"},
}

// The record page through the router: it says what a table lacks before
// a game can be recorded; a move entered is played and listed; a move the
// rules refuse is said with its section beside the form, what was typed
// kept and nothing stored; a stale record says so; a move lacking a corner
// says so by its field; the last move is undone; the finished game's
// result is saved from the record with its reason, and the score sheet's
// history and the audit log say it came from the record.
func TestRecordPage(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/game", tr.ID)
	table := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1", tr.ID)
	webtest.MustSee(t, "GET the record of an unseated table", b.Get(page), http.StatusOK, `id="record-missing"`, "手番がまだ決まっていません")
	webtest.MustSee(t, "GET the table page", b.Get(table), http.StatusOK, `id="record-missing"`)
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "GET the record of a table without a board", b.Get(page), http.StatusOK, "盤面がまだ設定されていません")
	if _, err := env.Service.SetBoard(env.Ctx, "setup", tr.ID, 1, 1, tournament.BoardInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "GET the table page", b.Get(table), http.StatusOK, `id="record-link"`, "対戦を記録する")
	webtest.MustSee(t, "GET the record", b.Get(page), http.StatusOK, "初期配置（§4）", `data-at="N(0,0)"`, `data-hex="(0,0)"`, "まだ手は記録されていません")

	res := b.Post(page, place(0, placementForms[0][0], placementForms[0][1]))
	if res.Status != http.StatusSeeOther {
		t.Fatalf("POST the first placement = %d, want 303\n%s", res.Status, res.Body)
	}
	live := place(1, placementForms[1][0], placementForms[1][1])
	live.Set("live", "1")
	webtest.MustSee(t, "POST the second placement (live)", b.Post(page, live), http.StatusOK, `id="record-live"`, "第2手を記録しました", "初期配置（§4）", "（3/8）")

	// The distance rule (§4 ア): said with its section, the corner typed
	// kept, nothing stored.
	res = b.Post(page, place(2, "N(0,-2)", "N(0,-2) S(1,-3)"))
	webtest.MustSee(t, "POST a placement next to a settlement", res, http.StatusUnprocessableEntity, `id="record-error"`, "距離の規則、§4 ア", `value="N(0,-2)"`)
	// A stale record: said, the typed move kept to enter again.
	res = b.Post(page, place(1, placementForms[2][0], placementForms[2][1]))
	webtest.MustSee(t, "POST on a stale record", res, http.StatusConflict, `id="record-stale"`, "2手になっています", `value="N(1,2)"`, `name="expected" value="2"`)
	// A placement without its corner: said by the field.
	res = b.Post(page, place(2, "", placementForms[2][1]))
	webtest.MustSee(t, "POST a placement without its corner", res, http.StatusUnprocessableEntity, `id="corner-error"`, "盤面の角をタップする")
	if g, err := env.Service.Game(env.Ctx, tr.ID, 1, 1); err != nil || len(g.Moves) != 2 {
		t.Fatalf("after the refusals the record has %d moves (%v), want 2", len(g.Moves), err)
	}

	for i, f := range placementForms[2:] {
		if res := b.Post(page, place(i+2, f[0], f[1])); res.Status != http.StatusSeeOther {
			t.Fatalf("POST placement %d = %d\n%s", i+3, res.Status, res.Body)
		}
	}
	roll := url.Values{"expected": {"8"}, "do": {"roll"}, "dice": {"２ ３"}}
	webtest.MustSee(t, "POST a roll typed in full width", b.Post(page, roll), http.StatusSeeOther)
	webtest.MustSee(t, "GET the record after the roll", b.Get(page), http.StatusOK, "ダイス 白2・青3（5）", "交渉・建設（§7・§8）")
	webtest.MustSee(t, "POST undo", b.Post(page, url.Values{"expected": {"9"}, "action": {"undo"}}), http.StatusSeeOther)
	webtest.MustSee(t, "GET the record after the undo", b.Get(page), http.StatusOK, "最後の手を取り消しました。", "がダイスを振ります（§6 ア）")
	webtest.MustSee(t, "POST the time signal", b.Post(page, url.Values{"expected": {"8"}, "do": {"time_up"}}), http.StatusSeeOther)
	// The result the record gives, before the signal of the table's time:
	// it needs the judge's reason (§12), said by the reason's field.
	webtest.MustSee(t, "GET the finished record", b.Get(page), http.StatusOK, `id="record-result"`, "終了の合図で終わりました（§12）", `id="record-result-waiting"`, "回戦の時計が始まっていません")
	res = b.Post(page, url.Values{"expected": {"9"}, "action": {"result"}, "version": {"0"}})
	webtest.MustSee(t, "POST the result without a reason", res, http.StatusUnprocessableEntity, `id="reason-error"`)
	res = b.Post(page, url.Values{"expected": {"9"}, "action": {"result"}, "version": {"0"}, "reason": {"ジャッジが終了"}})
	if res.Status != http.StatusSeeOther || !strings.Contains(res.Location, "/score") {
		t.Fatalf("POST the result = %d to %q, want 303 to the score sheet\n%s", res.Status, res.Location, res.Body)
	}
	webtest.MustSee(t, "GET the score sheet", b.Get(res.Location), http.StatusOK, "対戦記録から（9手）", "ジャッジが終了")
	res = b.Get(fmt.Sprintf("/judge/t/%d/audit", tr.ID))
	webtest.MustSee(t, "GET the audit log", res, http.StatusOK,
		"山田 が第1回戦 1卓の対戦記録に第1手を記録しました。", "山田 が第1回戦 1卓の対戦記録の第9手を取り消しました。", "山田 が第1回戦 1卓の成績を対戦記録から保存しました。")
	// Issue 25: each move's line says the move as the record page writes
	// it, with who made it.
	if !regexp.MustCompile(`第1手を記録しました。 <a [^>]*>[^<]*</a><br><span class="change">\S+ 家 [^<]+の角・道 [^<]+</span>`).MatchString(res.Body) {
		t.Errorf("the audit log's first move does not say the move:\n%s", res.Body)
	}
	webtest.MustSee(t, "GET the table page", b.Get(table), http.StatusOK, "対戦記録を開く（9手）", "結果が入力済みのため")
}

// The kiosk's board of a recorded table: public, live from the event feed
// (data-follow), what the table sees; a table without a record says so;
// the kiosk's table card links to it.
func TestKioskGamePage(t *testing.T) {
	env, tr, game := gameEnv(t)
	cl := webtest.APIClient{T: t, Env: env}
	anon := env.Browser()
	board := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1/game", tr.ID)
	webtest.MustSee(t, "GET the board of an unseated table", anon.Get(fmt.Sprintf("/kiosk/%d/rounds/1/tables/2/game", tr.ID)), http.StatusOK, `id="game-missing"`)
	webtest.MustSee(t, "GET the board before a move", anon.Get(board), http.StatusOK, `id="game-board"`, `data-follow="game result table"`, "直近の手（全0手）")
	for i, m := range recordPlacements {
		cl.Call("POST", game+"/moves", withExpected(m, i), 201, nil)
	}
	cl.Call("POST", game+"/moves", `{"do":"roll","dice":[1,1],"expected":8}`, 201, nil)
	webtest.MustSee(t, "GET the board", anon.Get(board+"?view=projector"), http.StatusOK, `class="kiosk k-game-page projector-game"`,
		`id="game-board"`, "ダイス 白1・青1（2）", "直近の手（全9手）", "の交渉・建設（§7・§8）")
	webtest.MustSee(t, "GET the board's live part", anon.Get(fmt.Sprintf("/kiosk/%d/rounds/1/tables/1/game/live", tr.ID)), http.StatusOK, `id="k-game"`)
	res := anon.Get(board)
	if strings.Contains(res.Body, `data-at=`) || strings.Contains(res.Body, "api ") {
		t.Errorf("the room's board has taps or who entered the moves")
	}
	webtest.MustSee(t, "GET the kiosk", anon.Get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK, `class="k-game-link" href="`+board+`"`)
}
