package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
	"github.com/google/go-cmp/cmp"
)

// selfCheckInEnv is a site with a tournament that lets players check
// themselves in, and its players with their codes.
func selfCheckInEnv(t *testing.T, n int) (*webtest.Env, tournament.Tournament, []tournament.Player) {
	t.Helper()
	env := webtest.New(t)
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "セルフ大会", Rounds: 3, SelfCheckIn: true})
	if err != nil {
		t.Fatal(err)
	}
	var ps []tournament.Player
	for i := range n {
		p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%d", i+1)})
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
	rec := webtest.Do(env.Handler, "POST", path, fmt.Sprintf(`{"player":%d,"code":"nope-nope"}`, ps[0].ID))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "player-code-wrong") {
		t.Fatalf("wrong code = %d %s, want 422 player-code-wrong", rec.Code, rec.Body)
	}
	// A judge's arrangements for the player are not the code holder's to
	// read: the answer is who checked in, and no more.
	if _, err := env.Service.EditPlayer(env.Ctx, "setup", tr.ID, ps[0].ID, tournament.PlayerEdit{
		PlayerInput: tournament.PlayerInput{Name: ps[0].Name}, FixedTable: 1, KeepApart: []int64{ps[1].ID},
	}); err != nil {
		t.Fatal(err)
	}
	rec = webtest.Do(env.Handler, "POST", path, fmt.Sprintf(`{"player":%d,"code":%q}`, ps[0].ID, strings.ToLower(ps[0].Code)))
	var got map[string]any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &got) != nil || got["checked_in"] != true {
		t.Fatalf("self check-in = %d %s, want 200 checked in", rec.Code, rec.Body)
	}
	want := map[string]any{"id": float64(ps[0].ID), "name": ps[0].Name, "checked_in": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("self check-in answer mismatch (-want +got):\n%s", diff)
	}
	// Turned off by a judge: refused, whatever the code.
	rec = webtest.Do(env.Handler, "POST", "/api/v1/tournaments", `{"name":"受付大会","rounds":2}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"self_checkin":false`) {
		t.Fatalf("create = %d %s, want self_checkin false by default", rec.Code, rec.Body)
	}
	var desk struct{ ID int64 }
	_ = json.Unmarshal(rec.Body.Bytes(), &desk)
	p, err := env.Service.AddPlayer(env.Ctx, "setup", desk.ID, tournament.PlayerInput{Name: "青木"})
	if err != nil {
		t.Fatal(err)
	}
	rec = webtest.Do(env.Handler, "POST", fmt.Sprintf("/api/v1/tournaments/%d/checkin", desk.ID), fmt.Sprintf(`{"player":%d,"code":%q}`, p.ID, p.Code))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "self-checkin-off") {
		t.Fatalf("self check-in at the desk's tournament = %d %s, want 422 self-checkin-off", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "POST", "/api/v1/tournaments", `{"name":"セルフ","rounds":2,"self_checkin":true}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"self_checkin":true`) {
		t.Fatalf("create with self_checkin = %d %s", rec.Code, rec.Body)
	}
}

// Guessing codes is limited per address (10 wrong, then 429 for every
// player from it) and per player and address (5 wrong at one player, then
// 429 for that player from it); right codes do not count. Nothing counts
// per player alone (issue 24): the attack of rotating addresses, five
// wrong codes for each of the 8 players from its own address, 40
// requests, used to lock every player out; each player's own phone
// checks in.
func TestCodeGuessesAreLimited(t *testing.T) {
	env, tr, ps := selfCheckInEnv(t, 8)
	path := fmt.Sprintf("/api/v1/tournaments/%d/checkin", tr.ID)
	guess := func(addr string, p tournament.Player, code string) *httptest.ResponseRecorder {
		return doFrom(env.Handler, addr, path, fmt.Sprintf(`{"player":%d,"code":%q}`, p.ID, code))
	}
	wrong := "ZZZZ-ZZZZ"
	for i, p := range ps {
		for k := range 5 {
			if got := guess(fmt.Sprintf("10.0.0.%d:1", 8*i+k+1), p, wrong).Code; got != http.StatusUnprocessableEntity {
				t.Fatalf("wrong guess %d at %s = %d, want 422", k+1, p.Name, got)
			}
		}
	}
	for i, p := range ps {
		if rec := guess(fmt.Sprintf("10.0.9.%d:1", i+1), p, p.Code); rec.Code != http.StatusOK {
			t.Errorf("%s's own phone after 5 wrong codes from other addresses = %d %s, want 200", p.Name, rec.Code, rec.Body)
		}
	}

	// One address at one player: 5 wrong, then refused for that player,
	// right code or not, while the address may still try another.
	guesser := "10.0.3.1:1"
	for k := range 5 {
		if got := guess(guesser, ps[0], wrong).Code; got != http.StatusUnprocessableEntity {
			t.Fatalf("wrong guess %d at %s from one address = %d, want 422", k+1, ps[0].Name, got)
		}
	}
	if rec := guess(guesser, ps[0], wrong); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "120" {
		t.Fatalf("a sixth guess at %s from one address = %d (Retry-After %q), want 429 with Retry-After 120", ps[0].Name, rec.Code, rec.Header().Get("Retry-After"))
	}
	// One address at many players: 10 wrong in all, then refused for everyone.
	for k := range 5 {
		if got := guess(guesser, ps[1+k%2], wrong).Code; got != http.StatusUnprocessableEntity {
			t.Fatalf("wrong guess %d at another player from one address = %d, want 422", k+6, got)
		}
	}
	if rec := guess(guesser, ps[2], ps[2].Code); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "30" {
		t.Fatalf("after 10 wrong codes from one address = %d (Retry-After %q), want 429 with Retry-After 30", rec.Code, rec.Header().Get("Retry-After"))
	}
	// Right codes never count: a desk tablet checking everyone in.
	desk := "10.0.4.1:1"
	for range 3 {
		for _, p := range ps {
			if got := guess(desk, p, p.Code).Code; got != http.StatusOK {
				t.Fatalf("right code of %s from the desk = %d, want 200", p.Name, got)
			}
		}
	}
	// The guessed players' own phones still work.
	for _, p := range ps[:3] {
		if rec := guess("10.0.5.1:1", p, p.Code); rec.Code != http.StatusOK {
			t.Errorf("%s's own phone beside the guesser = %d %s, want 200", p.Name, rec.Code, rec.Body)
		}
	}
}

// The kiosk's check-in page on a phone: choose a name, type the code.
func TestKioskSelfCheckIn(t *testing.T) {
	env, tr, ps := selfCheckInEnv(t, 2)
	b := env.Browser()
	page := fmt.Sprintf("/kiosk/%d/checkin", tr.ID)
	webtest.MustSee(t, "the check-in page", b.Get(page), http.StatusOK, "コードで受付", "選手1", "選手2", `name="code"`)
	form := url.Values{"player": {webtest.Itoa(ps[1].ID)}, "code": {"ABCD-EFGH"}}
	webtest.MustSee(t, "a wrong code", b.Post(page, form), http.StatusUnprocessableEntity, "コードが正しくありません", `aria-invalid="true"`)
	form.Set("code", strings.ReplaceAll(ps[1].Code, "-", " "))
	webtest.MustSee(t, "the right code", b.Post(page, form), http.StatusOK, "選手2 さん、受付が完了しました")
	webtest.MustSee(t, "again", b.Post(page, form), http.StatusOK, "選手2 さんはすでに受付済みです")
	if p, _ := env.Service.GetPlayer(env.Ctx, tr.ID, ps[1].ID); !p.CheckedIn {
		t.Fatalf("not checked in")
	}
	// Closed by the judge's edit: the page says the desk checks in.
	if _, err := env.Service.EditTournament(env.Ctx, "setup", tr.ID, tournament.TournamentInput{Name: "セルフ大会", Rounds: 3}); err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "the page at the desk's tournament", b.Get(page), http.StatusOK, "受付はジャッジが行います")
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
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	b := env.Browser()
	webtest.MustSee(t, "kiosk before pairing", b.Get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK,
		`id="players-none"`, "組み合わせが出ると、ここに参加者ごとの卓・席・色が表示されます。")
	webtest.MustSee(t, "check-in page", b.Get(fmt.Sprintf("/kiosk/%d/checkin", tr.ID)), http.StatusOK, fmt.Sprintf(`href="/kiosk/%d"`, tr.ID))
}
