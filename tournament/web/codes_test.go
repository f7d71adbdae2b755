package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// cardCode finds the codes printed on a sheet of cards.
var cardCode = regexp.MustCompile(`data-code>([0-9A-Z]{4}-[0-9A-Z]{4})<`)

// A player registered at the desk gets a card with their code, shown from
// the registration's redirect; the code works, the card sheet is not
// cached, is no other tournament's and is still there after a restart; a
// judge's new code voids the old one and shows a new card.
func TestConsolePlayerCards(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(0)
	other, _ := env.seedTournament(0)
	b := env.browser()
	b.login("山田")
	players := fmt.Sprintf("/judge/t/%d/players", tr.ID)
	res := b.post(players, url.Values{"name": {"青木"}, "kana": {"あおき"}})
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, players+"/cards/") {
		t.Fatalf("register = %d to %q, want 303 to the card", res.Status, res.Location)
	}
	cards := res.Location
	res = b.get(cards)
	mustSee(t, "the card", res, http.StatusOK, "参加者カード", "青木", "あおき", "あなたのコード", "続けて次の参加者を登録", "/kiosk/"+itoa(tr.ID)+"/qr.png")
	if got := res.Header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("the card's Cache-Control = %q, want no-store", got)
	}
	m := cardCode.FindStringSubmatch(res.Body)
	if m == nil {
		t.Fatalf("the card shows no code\n%s", res.Body)
	}
	old := m[1]
	ps, err := env.svc.Players(env.ctx, tr.ID)
	if err != nil || len(ps) != 1 {
		t.Fatalf("players = %v, %v", ps, err)
	}
	if _, err := env.svc.CheckCode(env.ctx, tr.ID, ps[0].ID, old); err != nil {
		t.Fatalf("the printed code %s does not check: %v", old, err)
	}
	// Another tournament's address, or a batch nobody issued, shows no card.
	otherCards := strings.Replace(cards, fmt.Sprintf("/t/%d/", tr.ID), fmt.Sprintf("/t/%d/", other.ID), 1)
	for _, path := range []string{otherCards, players + "/cards/0123456789abcdef0123456789abcdef"} {
		res := b.get(path)
		mustSee(t, path, res, http.StatusOK, "このカードはもう表示できません")
		if strings.Contains(res.Body, old) {
			t.Errorf("%s shows the code", path)
		}
	}

	// The cards are kept in the database, sealed: a restart (or another
	// server with the same keys) prints them again.
	env.srv.Config.Handler = env.newHandler()
	if m := cardCode.FindStringSubmatch(b.get(cards).Body); m == nil || m[1] != old {
		t.Errorf("after a restart the card shows %v, want %s", m, old)
	}

	player := fmt.Sprintf("%s/%d", players, ps[0].ID)
	mustSee(t, "the player's page", b.get(player), http.StatusOK, "参加者コード", "新しいコードを発行してカードを印刷")
	res = b.post(player+"/code", nil)
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, players+"/cards/") {
		t.Fatalf("new code = %d to %q, want 303 to the card", res.Status, res.Location)
	}
	m = cardCode.FindStringSubmatch(b.get(res.Location).Body)
	if m == nil || m[1] == old {
		t.Fatalf("new card's code %v, old %s", m, old)
	}
	if _, err := env.svc.CheckCode(env.ctx, tr.ID, ps[0].ID, old); err == nil {
		t.Errorf("the old code still checks")
	}
	if _, err := env.svc.CheckCode(env.ctx, tr.ID, ps[0].ID, m[1]); err != nil {
		t.Errorf("the new code %s does not check: %v", m[1], err)
	}
	mustSee(t, "the audit log", b.get(fmt.Sprintf("/judge/t/%d/audit", tr.ID)), http.StatusOK, "のコードを発行し直しました")
}

// The API answers a new player's code, and a new one when a judge issues
// it; the list of players never shows codes.
func TestAPIPlayerCode(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(0)
	auth := []string{"Authorization", "Bearer test-token"}
	rec := do(env.h, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID), `{"name":"井上"}`, auth...)
	var p struct {
		ID   int64  `json:"id"`
		Code string `json:"code"`
	}
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &p) != nil || !codeShape.MatchString(p.Code) {
		t.Fatalf("POST players = %d %s, want 201 with a code", rec.Code, rec.Body)
	}
	if _, err := env.svc.CheckCode(env.ctx, tr.ID, p.ID, p.Code); err != nil {
		t.Fatalf("the answered code does not check: %v", err)
	}
	rec = do(env.h, "GET", fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID), "", auth...)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"code"`) {
		t.Errorf("GET players = %d %s, want no code", rec.Code, rec.Body)
	}
	path := fmt.Sprintf("/api/v1/tournaments/%d/players/%d/code", tr.ID, p.ID)
	if rec := do(env.h, "POST", path, ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("anonymous POST code = %d, want 401", rec.Code)
	}
	rec = do(env.h, "POST", path, "", auth...)
	var n struct {
		Code string `json:"code"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &n) != nil || !codeShape.MatchString(n.Code) || n.Code == p.Code {
		t.Fatalf("POST code = %d %s, want 200 with a new code", rec.Code, rec.Body)
	}
	if _, err := env.svc.CheckCode(env.ctx, tr.ID, p.ID, p.Code); err == nil {
		t.Errorf("the old code still checks")
	}
}

// codeShape is a code as the API answers it.
var codeShape = regexp.MustCompile(`^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$`)
