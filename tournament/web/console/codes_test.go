package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// cardCode finds the codes printed on a sheet of cards.
var cardCode = regexp.MustCompile(`data-code>([0-9A-Z]{4}-[0-9A-Z]{4})<`)

// batchField finds the batches a sheet of cards marks printed.
var batchField = regexp.MustCompile(`name="batch" value="([0-9a-f]{32})"`)

// A player registered at the desk goes back to an empty form, their card
// waiting on the players page with the others not printed yet (issue 24:
// a card page after each registration lost the codes of a judge who typed
// the next name): the codes show there and work; one sheet prints every
// card waiting, is not cached, is no other tournament's and is still there
// after a restart; once marked printed the cards leave the page, and can
// be printed again; a judge's new code voids the old one and its new card
// waits in its place.
func TestConsolePlayerCards(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(0)
	other, _ := env.SeedTournament(0)
	b := env.Browser()
	b.Login("山田")
	players := fmt.Sprintf("/judge/t/%d/players", tr.ID)
	for _, name := range []string{"青木", "井上"} {
		res := b.Post(players, url.Values{"name": {name}, "kana": {map[string]string{"青木": "あおき", "井上": "いのうえ"}[name]}})
		if res.Status != http.StatusSeeOther || res.Location != players+"#name" {
			t.Fatalf("register %s = %d to %q, want 303 back to the form", name, res.Status, res.Location)
		}
		page := b.Get(players)
		webtest.MustSee(t, "the players page after registering "+name, page, http.StatusOK, "参加者を登録しました", name)
		if got := page.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("the players page's Cache-Control = %q, want no-store", got)
		}
	}
	page := b.Get(players)
	webtest.MustSee(t, "the players page", page, http.StatusOK, "未印刷のカード 2枚", "2枚をまとめて印刷", "青木", "井上")
	codes := cardCode.FindAllStringSubmatch(page.Body, -1)
	ps, err := env.Service.Players(env.Ctx, tr.ID)
	if err != nil || len(ps) != 2 || len(codes) != 2 {
		t.Fatalf("players = %v, %v; codes on the page %v; want 2 of each", ps, err, codes)
	}
	for i, p := range ps {
		if _, err := env.Service.CheckCode(env.Ctx, tr.ID, p.ID, codes[i][1]); err != nil {
			t.Fatalf("%s's code %s on the players page does not check: %v", p.Name, codes[i][1], err)
		}
	}
	if strings.Contains(b.Get(fmt.Sprintf("/judge/t/%d/players", other.ID)).Body, codes[0][1]) {
		t.Errorf("another tournament's players page shows the codes")
	}

	sheet := b.Get(players + "/cards")
	webtest.MustSee(t, "the sheet of cards", sheet, http.StatusOK, "参加者カード", "青木", "あおき", "井上", "あなたのコード", "点線に沿って切り離してください",
		"2枚を印刷できた", "/kiosk/"+webtest.Itoa(tr.ID)+"/qr.png")
	if got := sheet.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("the sheet's Cache-Control = %q, want no-store", got)
	}
	if got := cardCode.FindAllStringSubmatch(sheet.Body, -1); len(got) != 2 || got[0][1] != codes[0][1] || got[1][1] != codes[1][1] {
		t.Errorf("the sheet prints %v, want the codes of the players page %v", got, codes)
	}
	if res := b.Get(fmt.Sprintf("/judge/t/%d/players/cards", other.ID)); strings.Contains(res.Body, codes[0][1]) || !strings.Contains(res.Body, "印刷を待っているカードはありません") {
		t.Errorf("another tournament's sheet shows:\n%s", res.Body)
	}
	// The cards are kept in the database, sealed: a restart (or another
	// server with the same keys) prints them again.
	env.Server.Config.Handler = env.NewHandler()
	sheet = b.Get(players + "/cards")
	if got := cardCode.FindAllStringSubmatch(sheet.Body, -1); len(got) != 2 || got[0][1] != codes[0][1] {
		t.Errorf("after a restart the sheet prints %v, want %v", got, codes)
	}
	batches := batchField.FindAllStringSubmatch(sheet.Body, -1)
	if len(batches) != 2 {
		t.Fatalf("the sheet marks %d batches printed, want the 2 registrations'", len(batches))
	}
	// Marking another tournament's batches printed changes nothing of them.
	mark := url.Values{"batch": {batches[0][1], batches[1][1]}}
	b.Post(fmt.Sprintf("/judge/t/%d/players/cards/printed", other.ID), mark)
	webtest.MustSee(t, "the players page after another tournament's print", b.Get(players), http.StatusOK, "未印刷のカード 2枚")
	res := b.Post(players+"/cards/printed", mark)
	if res.Status != http.StatusSeeOther || res.Location != players+"#cards" {
		t.Fatalf("printed = %d to %q, want 303 to the players page", res.Status, res.Location)
	}
	page = b.Get(players)
	webtest.MustSee(t, "the players page once printed", page, http.StatusOK, "カードを印刷済みにしました", "直前に印刷したカード（2枚）をもう一度印刷")
	if strings.Contains(page.Body, "未印刷のカード") || strings.Contains(page.Body, codes[0][1]) {
		t.Errorf("the printed cards still wait on the players page:\n%s", page.Body)
	}
	if got := cardCode.FindAllStringSubmatch(b.Get(players+"/cards?again=1").Body, -1); len(got) != 2 {
		t.Errorf("printed again: %v, want both cards", got)
	}

	player := fmt.Sprintf("%s/%d", players, ps[0].ID)
	webtest.MustSee(t, "the player's page", b.Get(player), http.StatusOK, "参加者コード", "新しいコードを発行")
	res = b.Post(player+"/code", nil)
	if res.Status != http.StatusSeeOther || res.Location != players+"#cards" {
		t.Fatalf("new code = %d to %q, want 303 to the cards on the players page", res.Status, res.Location)
	}
	page = b.Get(players)
	webtest.MustSee(t, "the players page after a new code", page, http.StatusOK, "新しいコードを発行しました", "未印刷のカード 1枚", "直前に印刷したカード（1枚）をもう一度印刷")
	fresh := cardCode.FindAllStringSubmatch(page.Body, -1)
	if len(fresh) != 1 || fresh[0][1] == codes[0][1] {
		t.Fatalf("the new card's code %v, old %s", fresh, codes[0][1])
	}
	if _, err := env.Service.CheckCode(env.Ctx, tr.ID, ps[0].ID, codes[0][1]); err == nil {
		t.Errorf("the old code still checks")
	}
	if _, err := env.Service.CheckCode(env.Ctx, tr.ID, ps[0].ID, fresh[0][1]); err != nil {
		t.Errorf("the new code %s does not check: %v", fresh[0][1], err)
	}
	// Printed again, the cards are the valid ones: 井上's, not 青木's old one.
	if got := cardCode.FindAllStringSubmatch(b.Get(players+"/cards?again=1").Body, -1); len(got) != 1 || got[0][1] != codes[1][1] {
		t.Errorf("printed again after 青木's new code: %v, want 井上's %s alone", got, codes[1][1])
	}
	webtest.MustSee(t, "the audit log", b.Get(fmt.Sprintf("/judge/t/%d/audit", tr.ID)), http.StatusOK, "のコードを発行し直しました")
}

// The API answers a new player's code, and a new one when a judge issues
// it; the list of players never shows codes.
func TestAPIPlayerCode(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(0)
	auth := []string{"Authorization", "Bearer test-token"}
	rec := webtest.Do(env.Handler, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID), `{"name":"井上"}`, auth...)
	var p struct {
		ID   int64  `json:"id"`
		Code string `json:"code"`
	}
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &p) != nil || !codeShape.MatchString(p.Code) {
		t.Fatalf("POST players = %d %s, want 201 with a code", rec.Code, rec.Body)
	}
	if _, err := env.Service.CheckCode(env.Ctx, tr.ID, p.ID, p.Code); err != nil {
		t.Fatalf("the answered code does not check: %v", err)
	}
	rec = webtest.Do(env.Handler, "GET", fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID), "", auth...)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"code"`) {
		t.Errorf("GET players = %d %s, want no code", rec.Code, rec.Body)
	}
	path := fmt.Sprintf("/api/v1/tournaments/%d/players/%d/code", tr.ID, p.ID)
	if rec := webtest.Do(env.Handler, "POST", path, ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("anonymous POST code = %d, want 401", rec.Code)
	}
	rec = webtest.Do(env.Handler, "POST", path, "", auth...)
	var n struct {
		Code string `json:"code"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &n) != nil || !codeShape.MatchString(n.Code) || n.Code == p.Code {
		t.Fatalf("POST code = %d %s, want 200 with a new code", rec.Code, rec.Body)
	}
	if _, err := env.Service.CheckCode(env.Ctx, tr.ID, p.ID, p.Code); err == nil {
		t.Errorf("the old code still checks")
	}
}

// codeShape is a code as the API answers it.
var codeShape = regexp.MustCompile(`^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$`)
