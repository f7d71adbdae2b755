package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// sameOrigin are the headers of a form posted from the console's own page.
func sameOrigin(env *consoleEnv) []string {
	return []string{"Origin", env.srv.URL, "Sec-Fetch-Site", "same-origin"}
}

// The head's staff page lists the accounts, adds one (its password shown
// once, which then logs in), changes a role, deactivates an account
// (whose open console then asks for a login) and resets a password; the
// other roles never see it.
func TestStaffPage(t *testing.T) {
	env := newConsoleEnv(t)
	head := env.browser()
	head.login("山田")
	mustSee(t, "GET /judge as the head", head.get("/judge"), http.StatusOK, `id="staff-link"`, "ヘッドジャッジ: 山田")
	mustSee(t, "GET /judge/staff", head.get("/judge/staff"), http.StatusOK, "山田", tournament.FirstHead)

	res := head.post("/judge/staff", url.Values{"name": {"佐藤"}, "role": {"judge"}}, sameOrigin(env)...)
	mustSee(t, "POST /judge/staff", res, http.StatusOK, `id="new-password"`, "佐藤")
	password := regexp.MustCompile(`<code>([^<]+)</code>`).FindStringSubmatch(res.Body)
	if password == nil {
		t.Fatalf("the new account's password is not shown:\n%s", res.Body)
	}
	mustSee(t, "POST /judge/staff with a name taken", head.post("/judge/staff", url.Values{"name": {"さとう"}, "role": {"judge"}}, sameOrigin(env)...),
		http.StatusOK, `id="new-password"`)
	mustSee(t, "POST /judge/staff with the name taken", head.post("/judge/staff", url.Values{"name": {"佐藤 "}, "role": {"judge"}}, sameOrigin(env)...),
		http.StatusUnprocessableEntity, "佐藤")

	judge := env.browser()
	res = judge.post("/judge/login", url.Values{"name": {"佐藤"}, "password": {password[1]}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("login with the shown password = %d\n%s", res.Status, res.Body)
	}
	page := judge.get("/judge")
	mustSee(t, "GET /judge as a judge", page, http.StatusOK, "ジャッジ: 佐藤")
	if strings.Contains(page.Body, `id="staff-link"`) || strings.Contains(page.Body, "ヘッドジャッジ: 佐藤") {
		t.Errorf("a judge's console links the staff page or names the account a head")
	}
	if res := judge.get("/judge/staff"); res.Status != http.StatusForbidden || !strings.Contains(res.Body, "ヘッドジャッジの権限が必要です") {
		t.Errorf("a judge's GET /judge/staff = %d, want 403 naming the head's role", res.Status)
	}

	st, err := env.st.StaffByName(env.ctx, "佐藤")
	if err != nil {
		t.Fatal(err)
	}
	member := fmt.Sprintf("/judge/staff/%d", st.ID)
	mustSee(t, "the role change", head.post(member, url.Values{"role": {"scorekeeper"}}, sameOrigin(env)...), http.StatusSeeOther)
	mustSee(t, "GET /judge as a scorekeeper now", judge.get("/judge"), http.StatusOK, "スコアキーパー: 佐藤")
	mustSee(t, "the deactivation", head.post(member, url.Values{"active": {"0"}}, sameOrigin(env)...), http.StatusSeeOther)
	if res := judge.get("/judge"); res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, "/judge/login") {
		t.Errorf("a deactivated account's console = %d to %q, want the login page", res.Status, res.Location)
	}
	mustSee(t, "a deactivated account's login", env.browser().post("/judge/login", url.Values{"name": {"佐藤"}, "password": {password[1]}}), http.StatusForbidden)
	mustSee(t, "the reactivation", head.post(member, url.Values{"active": {"1"}}, sameOrigin(env)...), http.StatusSeeOther)
	res = head.post(member+"/password", url.Values{}, sameOrigin(env)...)
	mustSee(t, "the reset", res, http.StatusOK, `id="new-password"`)
	reset := regexp.MustCompile(`<code>([^<]+)</code>`).FindStringSubmatch(res.Body)
	if reset == nil || reset[1] == password[1] {
		t.Fatalf("the reset shows %v, want a new password", reset)
	}
	mustSee(t, "the old password after the reset", env.browser().post("/judge/login", url.Values{"name": {"佐藤"}, "password": {password[1]}}), http.StatusUnauthorized)
	mustSee(t, "the new password", env.browser().post("/judge/login", url.Values{"name": {"佐藤"}, "password": {reset[1]}}), http.StatusSeeOther)
}

// The console shows each role only what it may do: a scorekeeper's round
// page has the score sheets but not the pairing, a scorekeeper's
// penalties page no form, the final table's turn page no console beyond it.
func TestConsoleShowsEachRoleItsOwn(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(8)
	if _, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	judge := env.browser()
	judge.loginAs("佐藤", tournament.RoleJudge)
	keeper := env.browser()
	keeper.loginAs("記録係", tournament.RoleScorekeeper)
	j, k := judge.get(round), keeper.get(round)
	mustSee(t, "a judge's round page", j, http.StatusOK, "/rounds/1/tables/1/score", "/repair")
	mustSee(t, "a scorekeeper's round page", k, http.StatusOK, "/rounds/1/tables/1/score")
	for _, hidden := range []string{"/repair", "/swap", `action="/judge/t/1/rounds"`} {
		if strings.Contains(k.Body, hidden) {
			t.Errorf("a scorekeeper's round page offers %s", hidden)
		}
	}
	pen := fmt.Sprintf("/judge/t/%d/penalties", tr.ID)
	if jp, kp := judge.get(pen), keeper.get(pen); !strings.Contains(jp.Body, `method="post"`) || strings.Contains(kp.Body, `action="`+pen+`"`) {
		t.Errorf("the penalties page: a judge's has a form %v, a scorekeeper's has the penalty form %v; want only the judge's",
			strings.Contains(jp.Body, `method="post"`), strings.Contains(kp.Body, `action="`+pen+`"`))
	}
}

// A table device opens its table's turn page and nothing else of the
// console; revoking the table's devices ends it.
func TestTableDevice(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(8)
	if _, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	device := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/device", tr.ID)
	var opened map[string]string
	mustJSON(t, "POST device", do(env.h, "POST", device, `{"record":false}`, apiToken...), http.StatusCreated, &opened)
	link, err := url.Parse(opened["url"])
	if err != nil || len(opened) != 2 || opened["expires_at"] == "" || !strings.HasPrefix(link.Path, "/device/") {
		t.Fatalf("POST device = %v, want {\"url\",\"expires_at\"} with a device link", opened)
	}
	phone := env.browser()
	turns := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/turns", tr.ID)
	if res := phone.get(link.Path); res.Status != http.StatusSeeOther || res.Location != turns {
		t.Fatalf("GET the device's link = %d to %q, want 303 to %s", res.Status, res.Location, turns)
	}
	mustSee(t, "the device's turn page", phone.get(turns), http.StatusOK)
	for _, other := range []string{
		fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID),
		fmt.Sprintf("/judge/t/%d/rounds/1/tables/2/turns", tr.ID),
		fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/game", tr.ID),
		fmt.Sprintf("/judge/t/%d/penalties", tr.ID),
		fmt.Sprintf("/judge/t/%d/audit", tr.ID),
		"/judge",
	} {
		if res := phone.get(other); res.Status != http.StatusForbidden {
			t.Errorf("the device's GET %s = %d, want 403", other, res.Status)
		}
	}
	if rec := do(env.h, "DELETE", device, "", apiToken...); rec.Code != http.StatusNoContent {
		t.Fatalf("DELETE device = %d %s", rec.Code, rec.Body)
	}
	if res := phone.get(turns); res.Status != http.StatusForbidden {
		t.Errorf("a revoked device's turn page = %d, want 403", res.Status)
	}
	if res := phone.get(link.Path); res.Status != http.StatusForbidden {
		t.Errorf("a revoked device's link = %d, want 403", res.Status)
	}
}

// A phone remembers the player after their first right code: calling a
// judge then needs no code, until 「これは私ではありません」 forgets them.
func TestPhoneRemembersThePlayer(t *testing.T) {
	env := newConsoleEnv(t)
	tr, r, codes := pairedEvent(t, env)
	p := r.Tables[0].Players[0]
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	phone := env.browser()
	res := phone.post(table+"/call", url.Values{"call_player": {itoa(p)}, "player": {itoa(p)}, "call_code": {"WRONG-CODE"}})
	if res.Status/100 != 4 {
		t.Fatalf("a call with a wrong code = %d, want it refused", res.Status)
	}
	mustSee(t, "a call with the right code", phone.post(table+"/call", url.Values{"player": {itoa(p)}, "call_code": {codes[p]}}), http.StatusOK)
	calls, err := env.svc.Calls(env.ctx, tr.ID)
	if err != nil || len(calls) != 1 {
		t.Fatalf("calls = %v, %v; want the one", calls, err)
	}
	if _, err := env.svc.ResolveCall(env.ctx, "setup", tr.ID, calls[0].ID, ""); err != nil {
		t.Fatal(err)
	}
	mustSee(t, "the table's page on the phone", phone.get(table), http.StatusOK, "コードは不要です", "これは私ではありません")
	mustSee(t, "a call without a code from the phone that remembers", phone.post(table+"/call", url.Values{"note": {"もう一度"}}), http.StatusOK)
	if calls, _ := env.svc.Calls(env.ctx, tr.ID); len(calls) != 2 || calls[1].PlayerID != p {
		t.Errorf("calls = %+v, want a second call by the remembered player", calls)
	}
	res = phone.post(fmt.Sprintf("/kiosk/%d/forget", tr.ID), url.Values{"back": {table}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("forget = %d", res.Status)
	}
	if page := phone.get(table); strings.Contains(page.Body, "コードは不要です") {
		t.Errorf("the phone still remembers the player after 「これは私ではありません」")
	}
}
