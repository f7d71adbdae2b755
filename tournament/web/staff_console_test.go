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

// sameOrigin are the headers of a form posted from the console's own page.
func sameOrigin(env *webtest.Env) []string {
	return []string{"Origin", env.Server.URL, "Sec-Fetch-Site", "same-origin"}
}

// The head's staff page lists the accounts, adds one (its password shown
// once, which then logs in), changes a role, deactivates an account
// (whose open console then asks for a login) and resets a password; the
// other roles never see it.
func TestStaffPage(t *testing.T) {
	env := webtest.New(t)
	head := env.Browser()
	head.Login("山田")
	webtest.MustSee(t, "GET /judge as the head", head.Get("/judge"), http.StatusOK, `id="staff-link"`, "ヘッドジャッジ: 山田")
	webtest.MustSee(t, "GET /judge/staff", head.Get("/judge/staff"), http.StatusOK, "山田", tournament.FirstHead)

	res := head.Post("/judge/staff", url.Values{"name": {"佐藤"}, "role": {"judge"}}, sameOrigin(env)...)
	webtest.MustSee(t, "POST /judge/staff", res, http.StatusOK, `id="new-password"`, "佐藤")
	password := regexp.MustCompile(`<code>([^<]+)</code>`).FindStringSubmatch(res.Body)
	if password == nil {
		t.Fatalf("the new account's password is not shown:\n%s", res.Body)
	}
	webtest.MustSee(t, "POST /judge/staff with a name taken", head.Post("/judge/staff", url.Values{"name": {"さとう"}, "role": {"judge"}}, sameOrigin(env)...),
		http.StatusOK, `id="new-password"`)
	webtest.MustSee(t, "POST /judge/staff with the name taken", head.Post("/judge/staff", url.Values{"name": {"佐藤 "}, "role": {"judge"}}, sameOrigin(env)...),
		http.StatusUnprocessableEntity, "佐藤")

	judge := env.Browser()
	res = judge.Post("/judge/login", url.Values{"name": {"佐藤"}, "password": {password[1]}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("login with the shown password = %d\n%s", res.Status, res.Body)
	}
	page := judge.Get("/judge")
	webtest.MustSee(t, "GET /judge as a judge", page, http.StatusOK, "ジャッジ: 佐藤")
	if strings.Contains(page.Body, `id="staff-link"`) || strings.Contains(page.Body, "ヘッドジャッジ: 佐藤") {
		t.Errorf("a judge's console links the staff page or names the account a head")
	}
	if res := judge.Get("/judge/staff"); res.Status != http.StatusForbidden || !strings.Contains(res.Body, "ヘッドジャッジの権限が必要です") {
		t.Errorf("a judge's GET /judge/staff = %d, want 403 naming the head's role", res.Status)
	}

	st, err := env.Store.StaffByName(env.Ctx, "佐藤")
	if err != nil {
		t.Fatal(err)
	}
	member := fmt.Sprintf("/judge/staff/%d", st.ID)
	webtest.MustSee(t, "the role change", head.Post(member, url.Values{"role": {"scorekeeper"}}, sameOrigin(env)...), http.StatusSeeOther)
	webtest.MustSee(t, "GET /judge as a scorekeeper now", judge.Get("/judge"), http.StatusOK, "スコアキーパー: 佐藤")
	webtest.MustSee(t, "the deactivation", head.Post(member, url.Values{"active": {"0"}}, sameOrigin(env)...), http.StatusSeeOther)
	if res := judge.Get("/judge"); res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, "/judge/login") {
		t.Errorf("a deactivated account's console = %d to %q, want the login page", res.Status, res.Location)
	}
	webtest.MustSee(t, "a deactivated account's login", env.Browser().Post("/judge/login", url.Values{"name": {"佐藤"}, "password": {password[1]}}), http.StatusForbidden)
	webtest.MustSee(t, "the reactivation", head.Post(member, url.Values{"active": {"1"}}, sameOrigin(env)...), http.StatusSeeOther)
	res = head.Post(member+"/password", url.Values{}, sameOrigin(env)...)
	webtest.MustSee(t, "the reset", res, http.StatusOK, `id="new-password"`)
	reset := regexp.MustCompile(`<code>([^<]+)</code>`).FindStringSubmatch(res.Body)
	if reset == nil || reset[1] == password[1] {
		t.Fatalf("the reset shows %v, want a new password", reset)
	}
	webtest.MustSee(t, "the old password after the reset", env.Browser().Post("/judge/login", url.Values{"name": {"佐藤"}, "password": {password[1]}}), http.StatusUnauthorized)
	webtest.MustSee(t, "the new password", env.Browser().Post("/judge/login", url.Values{"name": {"佐藤"}, "password": {reset[1]}}), http.StatusSeeOther)
}

// The console shows each role only what it may do: a scorekeeper's round
// page has the score sheets but not the pairing, a scorekeeper's
// penalties page no form, the final table's turn page no console beyond it.
func TestConsoleShowsEachRoleItsOwn(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	judge := env.Browser()
	judge.LoginAs("佐藤", tournament.RoleJudge)
	keeper := env.Browser()
	keeper.LoginAs("記録係", tournament.RoleScorekeeper)
	j, k := judge.Get(round), keeper.Get(round)
	webtest.MustSee(t, "a judge's round page", j, http.StatusOK, "/rounds/1/tables/1/score", "/repair")
	webtest.MustSee(t, "a scorekeeper's round page", k, http.StatusOK, "/rounds/1/tables/1/score")
	for _, hidden := range []string{"/repair", "/swap", `action="/judge/t/1/rounds"`} {
		if strings.Contains(k.Body, hidden) {
			t.Errorf("a scorekeeper's round page offers %s", hidden)
		}
	}
	pen := fmt.Sprintf("/judge/t/%d/penalties", tr.ID)
	if jp, kp := judge.Get(pen), keeper.Get(pen); !strings.Contains(jp.Body, `method="post"`) || strings.Contains(kp.Body, `action="`+pen+`"`) {
		t.Errorf("the penalties page: a judge's has a form %v, a scorekeeper's has the penalty form %v; want only the judge's",
			strings.Contains(jp.Body, `method="post"`), strings.Contains(kp.Body, `action="`+pen+`"`))
	}
}

// A table device opens its table's turn page and nothing else of the
// console; revoking the table's devices ends it.
func TestTableDevice(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	device := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/device", tr.ID)
	var opened map[string]string
	webtest.MustJSON(t, "POST device", webtest.Do(env.Handler, "POST", device, `{"record":false}`, webtest.APIToken...), http.StatusCreated, &opened)
	link, err := url.Parse(opened["url"])
	if err != nil || len(opened) != 2 || opened["expires_at"] == "" || !strings.HasPrefix(link.Path, "/device/") {
		t.Fatalf("POST device = %v, want {\"url\",\"expires_at\"} with a device link", opened)
	}
	phone := env.Browser()
	turns := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/turns", tr.ID)
	if res := phone.Get(link.Path); res.Status != http.StatusSeeOther || res.Location != turns {
		t.Fatalf("GET the device's link = %d to %q, want 303 to %s", res.Status, res.Location, turns)
	}
	webtest.MustSee(t, "the device's turn page", phone.Get(turns), http.StatusOK)
	for _, other := range []string{
		fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID),
		fmt.Sprintf("/judge/t/%d/rounds/1/tables/2/turns", tr.ID),
		fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/game", tr.ID),
		fmt.Sprintf("/judge/t/%d/penalties", tr.ID),
		fmt.Sprintf("/judge/t/%d/audit", tr.ID),
		"/judge",
	} {
		if res := phone.Get(other); res.Status != http.StatusForbidden {
			t.Errorf("the device's GET %s = %d, want 403", other, res.Status)
		}
	}
	if rec := webtest.Do(env.Handler, "DELETE", device, "", webtest.APIToken...); rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE device = %d %s", rec.Code, rec.Body)
	}
	if res := phone.Get(turns); res.Status != http.StatusForbidden {
		t.Errorf("a revoked device's turn page = %d, want 403", res.Status)
	}
	if res := phone.Get(link.Path); res.Status != http.StatusForbidden {
		t.Errorf("a revoked device's link = %d, want 403", res.Status)
	}
}

// A phone remembers the player after their first right code: calling a
// judge then needs no code, until 「これは私ではありません」 forgets them.
func TestPhoneRemembersThePlayer(t *testing.T) {
	env := webtest.New(t)
	tr, r, codes := pairedEvent(t, env)
	p := r.Tables[0].Players[0]
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	phone := env.Browser()
	res := phone.Post(table+"/call", url.Values{"call_player": {webtest.Itoa(p)}, "player": {webtest.Itoa(p)}, "call_code": {"WRONG-CODE"}})
	if res.Status/100 != 4 {
		t.Fatalf("a call with a wrong code = %d, want it refused", res.Status)
	}
	webtest.MustSee(t, "a call with the right code", phone.Post(table+"/call", url.Values{"player": {webtest.Itoa(p)}, "call_code": {codes[p]}}), http.StatusOK)
	calls, err := env.Service.Calls(env.Ctx, tr.ID)
	if err != nil || len(calls) != 1 {
		t.Fatalf("calls = %v, %v; want the one", calls, err)
	}
	if _, err := env.Service.ResolveCall(env.Ctx, "setup", tr.ID, calls[0].ID, ""); err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "the table's page on the phone", phone.Get(table), http.StatusOK, "コードは不要です", "これは私ではありません")
	webtest.MustSee(t, "a call without a code from the phone that remembers", phone.Post(table+"/call", url.Values{"note": {"もう一度"}}), http.StatusOK)
	if calls, _ := env.Service.Calls(env.Ctx, tr.ID); len(calls) != 2 || calls[1].PlayerID != p {
		t.Errorf("calls = %+v, want a second call by the remembered player", calls)
	}
	res = phone.Post(fmt.Sprintf("/kiosk/%d/forget", tr.ID), url.Values{"back": {table}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("forget = %d", res.Status)
	}
	if page := phone.Get(table); strings.Contains(page.Body, "コードは不要です") {
		t.Errorf("the phone still remembers the player after 「これは私ではありません」")
	}
}
