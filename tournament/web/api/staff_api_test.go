package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The head makes accounts through the API; each logs in with its own
// name and password to a token its role bounds, the audit log names it,
// and a deactivation or a new password ends its sessions.
func TestStaffAPI(t *testing.T) {
	env := webtest.New(t)
	tr, players := env.SeedTournament(8)
	tid := webtest.Itoa(tr.ID)

	judgeID, judgePassword := webtest.NewAccount(t, env, "佐藤", tournament.RoleJudge)
	_, keeperPassword := webtest.NewAccount(t, env, "ｽｺｱ 係", tournament.RoleScorekeeper)
	// Names are one account however they are typed.
	if rec := webtest.Do(env.Handler, "POST", "/api/v1/staff", `{"name":"スコア係","role":"judge"}`, webtest.APIToken...); rec.Code != http.StatusConflict && rec.Code != http.StatusUnprocessableEntity {
		t.Errorf("POST /api/v1/staff of a name taken = %d %s, want a refusal", rec.Code, rec.Body)
	}
	// Each refusal names what is wrong: an empty name is the new
	// account's, not a login's.
	for body, code := range map[string]string{`{"name":"API","role":"judge"}`: "staff-name-reserved",
		`{"name":"鈴木","role":"owner"}`: "staff-role-unknown", `{"name":"","role":"judge"}`: "staff-name-missing"} {
		rec := webtest.Do(env.Handler, "POST", "/api/v1/staff", body, webtest.APIToken...)
		if rec.Code != http.StatusUnprocessableEntity {
			t.Errorf("POST /api/v1/staff %s = %d %s, want 422", body, rec.Code, rec.Body)
		}
		if !strings.Contains(rec.Body.String(), `"code":"`+code+`"`) {
			t.Errorf("POST /api/v1/staff %s = %s, want the code %s", body, rec.Body, code)
		}
	}

	var list struct {
		Staff []map[string]any `json:"staff"`
	}
	rec := webtest.Do(env.Handler, "GET", "/api/v1/staff", "", webtest.APIToken...)
	webtest.MustJSON(t, "GET /api/v1/staff", rec, http.StatusOK, &list)
	var names []string
	for _, st := range list.Staff {
		names = append(names, fmt.Sprintf("%v/%v/%v", st["name"], st["role"], st["active"]))
		if len(st) != 4 || st["id"] == nil {
			t.Errorf("GET /api/v1/staff lists %v, want exactly id, name, role, active", st)
		}
	}
	if want := []string{"head/head/true", "佐藤/judge/true", "ｽｺｱ 係/scorekeeper/true"}; !slices.Equal(names, want) {
		t.Errorf("GET /api/v1/staff = %v, want %v", names, want)
	}

	judge := webtest.Bearer(webtest.Session(t, env, "佐藤", judgePassword, tournament.RoleJudge))
	keeper := webtest.Bearer(webtest.Session(t, env, "スコア係", keeperPassword, tournament.RoleScorekeeper))

	// Each role's token does what its role allows and is refused the rest,
	// naming the role needed.
	webtest.MustForbid(t, "a judge's GET /api/v1/staff", webtest.Do(env.Handler, "GET", "/api/v1/staff", "", judge...), tournament.RoleHead)
	webtest.MustForbid(t, "a judge's POST /api/v1/staff", webtest.Do(env.Handler, "POST", "/api/v1/staff", `{"name":"田中","role":"head"}`, judge...), tournament.RoleHead)
	webtest.MustForbid(t, "a judge's PATCH of the tournament", webtest.Do(env.Handler, "PATCH", "/api/v1/tournaments/"+tid, `{"name":"x"}`, judge...), tournament.RoleHead)
	rec = webtest.Do(env.Handler, "POST", "/api/v1/tournaments/"+tid+"/players", `{"name":"追加 選手","kana":"ついか せんしゅ"}`, judge...)
	webtest.MustJSON(t, "a judge's POST players", rec, http.StatusCreated, nil)
	webtest.MustForbid(t, "a scorekeeper's POST players", webtest.Do(env.Handler, "POST", "/api/v1/tournaments/"+tid+"/players", `{"name":"別 選手","kana":"べつ せんしゅ"}`, keeper...), tournament.RoleJudge)
	webtest.MustForbid(t, "a scorekeeper's POST penalties", webtest.Do(env.Handler, "POST", "/api/v1/tournaments/"+tid+"/penalties",
		fmt.Sprintf(`{"player":%d,"round":1,"offence":"note-taking"}`, players[0].ID), keeper...), tournament.RoleJudge)
	webtest.MustForbid(t, "a scorekeeper's POST rounds", webtest.Do(env.Handler, "POST", "/api/v1/tournaments/"+tid+"/rounds", `{}`, keeper...), tournament.RoleJudge)
	// Reads are every account's.
	webtest.MustJSON(t, "a scorekeeper's GET players", webtest.Do(env.Handler, "GET", "/api/v1/tournaments/"+tid+"/players", "", keeper...), http.StatusOK, nil)
	webtest.MustJSON(t, "a judge's POST rounds", webtest.Do(env.Handler, "POST", "/api/v1/tournaments/"+tid+"/rounds", `{}`, judge...), http.StatusCreated, nil)
	webtest.MustJSON(t, "a scorekeeper's PUT result", webtest.Do(env.Handler, "PUT", "/api/v1/tournaments/"+tid+"/rounds/1/tables/1/result", webtest.Sheet(t, env, tr.ID, 1, 1, 0), keeper...), http.StatusOK, nil)

	// Every audit line names the account that acted; the API token acts as 「API」.
	log, err := env.Store.AuditLog(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	acted := map[string]string{}
	for _, e := range log { // the latest first
		if _, ok := acted[e.Action]; !ok {
			acted[e.Action] = e.Judge
		}
	}
	if acted["player.add"] != "佐藤" || acted["round.pair"] != "佐藤" || acted["result.save"] != "ｽｺｱ 係" {
		t.Errorf("the audit log names %v, want 佐藤 for the player and the pairing, ｽｺｱ 係 for the result", acted)
	}
	registry, err := env.Store.AuditLog(env.Ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(registry, func(e tournament.AuditEntry) bool { return strings.HasPrefix(e.Action, "staff.") }); i < 0 ||
		registry[i].Judge != tournament.APIActor || strings.Contains(registry[i].After, "$2") {
		t.Errorf("the registry's audit log = %+v, want the accounts made by 「API」 without their hashes", registry)
	}

	// A deactivated account's token ends at once; it can no longer log in.
	rec = webtest.Do(env.Handler, "PATCH", fmt.Sprintf("/api/v1/staff/%d", judgeID), `{"active":false}`, webtest.APIToken...)
	var edited map[string]any
	webtest.MustJSON(t, "PATCH active false", rec, http.StatusOK, &edited)
	if edited["active"] != false || edited["role"] != "judge" {
		t.Errorf("PATCH active false = %v, want the judge inactive", edited)
	}
	if rec := webtest.Do(env.Handler, "GET", "/api/v1/tournaments/"+tid+"/players", "", judge...); rec.Code != http.StatusUnauthorized {
		t.Errorf("a deactivated account's token = %d %s, want 401", rec.Code, rec.Body)
	}
	if rec := webtest.Do(env.Handler, "POST", "/api/v1/session", fmt.Sprintf(`{"name":"佐藤","password":%q}`, judgePassword)); rec.Code != http.StatusForbidden {
		t.Errorf("a deactivated account's login = %d %s, want 403", rec.Code, rec.Body)
	}
	// Reactivated, with the head's role now; old tokens stay ended.
	webtest.MustJSON(t, "PATCH active true", webtest.Do(env.Handler, "PATCH", fmt.Sprintf("/api/v1/staff/%d", judgeID), `{"active":true,"role":"head"}`, webtest.APIToken...), http.StatusOK, nil)
	if rec := webtest.Do(env.Handler, "GET", "/api/v1/tournaments/"+tid+"/players", "", judge...); rec.Code != http.StatusUnauthorized {
		t.Errorf("a token from before a deactivation, after reactivation = %d, want 401", rec.Code)
	}
	head := webtest.Bearer(webtest.Session(t, env, "佐藤", judgePassword, tournament.RoleHead))
	webtest.MustJSON(t, "a new head's GET /api/v1/staff", webtest.Do(env.Handler, "GET", "/api/v1/staff", "", head...), http.StatusOK, nil)

	// A reset password is answered once; the old one and its tokens end.
	var reset map[string]string
	webtest.MustJSON(t, "POST password", webtest.Do(env.Handler, "POST", fmt.Sprintf("/api/v1/staff/%d/password", judgeID), "", head...), http.StatusOK, &reset)
	if len(reset) != 1 || len(reset["password"]) < 16 || reset["password"] == judgePassword {
		t.Errorf("POST password = %v, want {\"password\"} with a new one", reset)
	}
	if rec := webtest.Do(env.Handler, "GET", "/api/v1/staff", "", head...); rec.Code != http.StatusUnauthorized {
		t.Errorf("a token from before a new password = %d, want 401", rec.Code)
	}
	if rec := webtest.Do(env.Handler, "POST", "/api/v1/session", fmt.Sprintf(`{"name":"佐藤","password":%q}`, judgePassword)); rec.Code != http.StatusUnauthorized {
		t.Errorf("the old password after a reset = %d, want 401", rec.Code)
	}
	head = webtest.Bearer(webtest.Session(t, env, "佐藤", reset["password"], tournament.RoleHead))

	// Logging out ends the token.
	if rec := webtest.Do(env.Handler, "DELETE", "/api/v1/session", "", keeper...); rec.Code != http.StatusNoContent {
		t.Errorf("DELETE /api/v1/session = %d %s, want 204", rec.Code, rec.Body)
	}
	if rec := webtest.Do(env.Handler, "GET", "/api/v1/tournaments/"+tid+"/players", "", keeper...); rec.Code != http.StatusUnauthorized {
		t.Errorf("a logged-out token = %d, want 401", rec.Code)
	}
	if rec := webtest.Do(env.Handler, "GET", "/api/v1/staff", "", head...); rec.Code != http.StatusOK {
		t.Errorf("another account's token after a logout = %d, want 200", rec.Code)
	}
	if rec := webtest.Do(env.Handler, "GET", "/api/v1/staff", "", "Authorization", "Bearer "+strings.Repeat("x", 40)); rec.Code != http.StatusUnauthorized {
		t.Errorf("a made-up token = %d, want 401", rec.Code)
	}
	// A wrong password is 401, and counts against the login limit as a
	// wrong token does (the old password and the made-up token above were
	// two): five at once.
	for i := range 3 {
		rec := webtest.Do(env.Handler, "POST", "/api/v1/session", `{"name":"佐藤","password":"wrong"}`)
		if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), `"code":"login-wrong"`) {
			t.Fatalf("wrong password %d = %d %s, want 401 login-wrong", i+3, rec.Code, rec.Body)
		}
	}
	if rec := webtest.Do(env.Handler, "POST", "/api/v1/session", fmt.Sprintf(`{"name":"佐藤","password":%q}`, judgePassword)); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Errorf("a login after 5 wrong passwords = %d %s, want 429 with Retry-After", rec.Code, rec.Body)
	}
}
