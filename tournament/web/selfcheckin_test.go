package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/google/go-cmp/cmp"
)

// selfCheckInEnv is a site with a tournament that lets players check
// themselves in, and its players with their codes.
func selfCheckInEnv(t *testing.T, n int) (*consoleEnv, tournament.Tournament, []tournament.Player) {
	t.Helper()
	env := newConsoleEnv(t)
	tr, err := env.svc.CreateTournament(env.ctx, "setup", tournament.TournamentInput{Name: "セルフ大会", Rounds: 3, SelfCheckIn: true})
	if err != nil {
		t.Fatal(err)
	}
	var ps []tournament.Player
	for i := range n {
		p, err := env.svc.AddPlayer(env.ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%d", i+1)})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return env, tr, ps
}

// The JSON API's self check-in: {"player","code"} → 200 with the player
// checked in; a wrong code 422; a tournament checked in at the desk 422.
func TestAPISelfCheckIn(t *testing.T) {
	env, tr, ps := selfCheckInEnv(t, 2)
	path := fmt.Sprintf("/api/v1/tournaments/%d/checkin", tr.ID)
	rec := do(env.h, "POST", path, fmt.Sprintf(`{"player":%d,"code":"nope-nope"}`, ps[0].ID))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "player-code-wrong") {
		t.Fatalf("wrong code = %d %s, want 422 player-code-wrong", rec.Code, rec.Body)
	}
	// A judge's arrangements for the player are not the code holder's to
	// read: the answer is who checked in, and no more.
	if _, err := env.svc.EditPlayer(env.ctx, "setup", tr.ID, ps[0].ID, tournament.PlayerEdit{
		PlayerInput: tournament.PlayerInput{Name: ps[0].Name}, FixedTable: 1, KeepApart: []int64{ps[1].ID},
	}); err != nil {
		t.Fatal(err)
	}
	rec = do(env.h, "POST", path, fmt.Sprintf(`{"player":%d,"code":%q}`, ps[0].ID, strings.ToLower(ps[0].Code)))
	var got map[string]any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &got) != nil || got["checked_in"] != true {
		t.Fatalf("self check-in = %d %s, want 200 checked in", rec.Code, rec.Body)
	}
	want := map[string]any{"id": float64(ps[0].ID), "name": ps[0].Name, "checked_in": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("self check-in answer mismatch (-want +got):\n%s", diff)
	}
	// Turned off by a judge: refused, whatever the code.
	rec = do(env.h, "POST", "/api/v1/tournaments", `{"name":"受付大会","rounds":2}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"self_checkin":false`) {
		t.Fatalf("create = %d %s, want self_checkin false by default", rec.Code, rec.Body)
	}
	var desk struct{ ID int64 }
	_ = json.Unmarshal(rec.Body.Bytes(), &desk)
	p, err := env.svc.AddPlayer(env.ctx, "setup", desk.ID, tournament.PlayerInput{Name: "青木"})
	if err != nil {
		t.Fatal(err)
	}
	rec = do(env.h, "POST", fmt.Sprintf("/api/v1/tournaments/%d/checkin", desk.ID), fmt.Sprintf(`{"player":%d,"code":%q}`, p.ID, p.Code))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "self-checkin-off") {
		t.Fatalf("self check-in at the desk's tournament = %d %s, want 422 self-checkin-off", rec.Code, rec.Body)
	}
	rec = do(env.h, "POST", "/api/v1/tournaments", `{"name":"セルフ","rounds":2,"self_checkin":true}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"self_checkin":true`) {
		t.Fatalf("create with self_checkin = %d %s", rec.Code, rec.Body)
	}
}

// Guessing codes is limited per player (5 wrong, then 429 even from
// other addresses, and even with the right code) and per address (10
// wrong, then 429 for every player); right codes do not count.
func TestCodeGuessesAreLimited(t *testing.T) {
	env, tr, ps := selfCheckInEnv(t, 3)
	path := fmt.Sprintf("/api/v1/tournaments/%d/checkin", tr.ID)
	guess := func(addr string, p tournament.Player, code string) int {
		return doFrom(env.h, addr, path, fmt.Sprintf(`{"player":%d,"code":%q}`, p.ID, code)).Code
	}
	wrong := "ZZZZ-ZZZZ"
	for i := range 5 {
		if got := guess(fmt.Sprintf("10.0.0.%d:1", i+1), ps[0], wrong); got != http.StatusUnprocessableEntity {
			t.Fatalf("wrong guess %d at player 1 = %d, want 422", i+1, got)
		}
	}
	if got := guess("10.0.1.1:1", ps[0], ps[0].Code); got != http.StatusTooManyRequests {
		t.Fatalf("the right code after 5 wrong ones from other addresses = %d, want 429 (the player is locked)", got)
	}
	// One address: right codes never count, wrong ones lock it for all players.
	for range 3 {
		if got := guess("10.0.2.1:1", ps[1], ps[1].Code); got != http.StatusOK {
			t.Fatalf("right code = %d, want 200", got)
		}
	}
	n := 0
	for i := 0; n < 10; i++ {
		p := ps[1+i%2]
		if got := guess("10.0.3.1:1", p, wrong); got != http.StatusUnprocessableEntity {
			t.Fatalf("wrong guess %d from one address = %d, want 422", n+1, got)
		}
		n++
	}
	rec := doFrom(env.h, "10.0.3.1:1", path, fmt.Sprintf(`{"player":%d,"code":%q}`, ps[2].ID, ps[2].Code))
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("after 10 wrong codes from one address = %d (Retry-After %q), want 429 with Retry-After", rec.Code, rec.Header().Get("Retry-After"))
	}
	if p, _ := env.svc.GetPlayer(env.ctx, tr.ID, ps[2].ID); p.CheckedIn {
		t.Errorf("a refused guess checked the player in")
	}
}

// The kiosk's check-in page on a phone: choose a name, type the code.
func TestKioskSelfCheckIn(t *testing.T) {
	env, tr, ps := selfCheckInEnv(t, 2)
	b := env.browser()
	page := fmt.Sprintf("/kiosk/%d/checkin", tr.ID)
	mustSee(t, "the check-in page", b.get(page), http.StatusOK, "コードで受付", "選手1", "選手2", `name="code"`)
	form := url.Values{"player": {itoa(ps[1].ID)}, "code": {"ABCD-EFGH"}}
	mustSee(t, "a wrong code", b.post(page, form), http.StatusUnprocessableEntity, "コードが正しくありません", `aria-invalid="true"`)
	form.Set("code", strings.ReplaceAll(ps[1].Code, "-", " "))
	mustSee(t, "the right code", b.post(page, form), http.StatusOK, "選手2 さん、受付が完了しました")
	mustSee(t, "again", b.post(page, form), http.StatusOK, "選手2 さんはすでに受付済みです")
	if p, _ := env.svc.GetPlayer(env.ctx, tr.ID, ps[1].ID); !p.CheckedIn {
		t.Fatalf("not checked in")
	}
	// Closed by the judge's edit: the page says the desk checks in.
	if _, err := env.svc.EditTournament(env.ctx, "setup", tr.ID, tournament.TournamentInput{Name: "セルフ大会", Rounds: 3}); err != nil {
		t.Fatal(err)
	}
	mustSee(t, "the page at the desk's tournament", b.get(page), http.StatusOK, "受付はジャッジが行います")
}

// doFrom posts a JSON body from the client address addr.
func doFrom(h http.Handler, addr, target, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = addr
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// Issue 12: before the round is paired the kiosk says what its players'
// list will show, and the check-in page leads back to the kiosk.
func TestKioskBeforePairing(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(4)
	b := env.browser()
	mustSee(t, "kiosk before pairing", b.get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK,
		`id="players-none"`, "組み合わせが出ると、ここに参加者ごとの卓・席・色が表示されます。")
	mustSee(t, "check-in page", b.get(fmt.Sprintf("/kiosk/%d/checkin", tr.ID)), http.StatusOK, fmt.Sprintf(`href="/kiosk/%d"`, tr.ID))
}
