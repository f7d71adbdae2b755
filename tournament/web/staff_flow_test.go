package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// pairedEvent is a tournament of 8 players with round 1 paired, and the
// players' codes by ID.
func pairedEvent(t *testing.T, env *webtest.Env) (tournament.Tournament, tournament.Round, map[int64]string) {
	t.Helper()
	tr, ps := env.SeedTournament(8)
	codes := map[int64]string{}
	for _, p := range ps {
		issued, err := env.Service.IssueCode(env.Ctx, "setup", tr.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		codes[p.ID] = issued.Code
	}
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tr, r, codes
}

// A player calls a judge with their code; the staff list the call, claim
// it, escalate it and resolve it, each audited under their account; a
// wrong code is counted as a check-in's is.
func TestJudgeCallsAPI(t *testing.T) {
	env := webtest.New(t)
	tr, r, codes := pairedEvent(t, env)
	base := fmt.Sprintf("/api/v1/tournaments/%d/calls", tr.ID)
	caller := r.Tables[1].Players[0]

	rec := webtest.Do(env.Handler, "POST", base, fmt.Sprintf(`{"player":%d,"code":%q,"table":2,"note":"道の長さ"}`, caller, codes[caller]))
	var opened map[string]any
	webtest.MustJSON(t, "POST calls", rec, http.StatusCreated, &opened)
	if len(opened) != 2 || opened["status"] != "open" || opened["id"] == nil {
		t.Fatalf("POST calls = %s, want {\"id\",\"status\":\"open\"}", rec.Body)
	}
	id := int64(opened["id"].(float64))
	// A wrong code, another table than the player's: refused, nothing called.
	if rec := webtest.Do(env.Handler, "POST", base, fmt.Sprintf(`{"player":%d,"code":"WRONG-CODE","table":2}`, caller)); rec.Code != http.StatusUnprocessableEntity && rec.Code != http.StatusForbidden {
		t.Errorf("a call with a wrong code = %d %s, want it refused", rec.Code, rec.Body)
	}
	if rec := webtest.Do(env.Handler, "POST", base, fmt.Sprintf(`{"player":%d,"code":%q,"table":1}`, caller, codes[caller])); rec.Code/100 != 4 {
		t.Errorf("a call to another player's table = %d %s, want it refused", rec.Code, rec.Body)
	}
	// Anonymous and player requests never read the queue.
	if rec := webtest.Do(env.Handler, "GET", base, ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("anonymous GET calls = %d, want 401", rec.Code)
	}

	judgeID, judgePassword := webtest.NewAccount(t, env, "佐藤", tournament.RoleJudge)
	_ = judgeID
	_, otherPassword := webtest.NewAccount(t, env, "田中", tournament.RoleJudge)
	_, keeperPassword := webtest.NewAccount(t, env, "記録係", tournament.RoleScorekeeper)
	judge := webtest.Bearer(webtest.Session(t, env, "佐藤", judgePassword, tournament.RoleJudge))
	other := webtest.Bearer(webtest.Session(t, env, "田中", otherPassword, tournament.RoleJudge))
	keeper := webtest.Bearer(webtest.Session(t, env, "記録係", keeperPassword, tournament.RoleScorekeeper))

	var list struct {
		Calls []map[string]any `json:"calls"`
	}
	webtest.MustJSON(t, "a scorekeeper's GET calls", webtest.Do(env.Handler, "GET", base, "", keeper...), http.StatusOK, &list)
	if len(list.Calls) != 1 {
		t.Fatalf("GET calls = %+v, want the one call", list.Calls)
	}
	c := list.Calls[0]
	for _, k := range []string{"id", "round", "table", "player", "note", "status", "at"} {
		if _, ok := c[k]; !ok {
			t.Errorf("a call lacks %q: %v", k, c)
		}
	}
	if c["round"] != 1.0 || c["table"] != 2.0 || c["player"] != float64(caller) || c["note"] != "道の長さ" || c["status"] != "open" {
		t.Errorf("GET calls = %v, want the open call of round 1 table 2 by the player with its note", c)
	}
	if _, ok := c["claimed_by"]; ok {
		t.Errorf("an open call says it was claimed: %v", c)
	}
	claim := fmt.Sprintf("%s/%d/claim", base, id)
	webtest.MustForbid(t, "a scorekeeper's claim", webtest.Do(env.Handler, "POST", claim, "", keeper...), tournament.RoleJudge)

	var call map[string]any
	webtest.MustJSON(t, "claim", webtest.Do(env.Handler, "POST", claim, "", judge...), http.StatusOK, &call)
	if call["status"] != "claimed" || call["claimed_by"] != "佐藤" {
		t.Errorf("claim = %v, want claimed by 佐藤", call)
	}
	if rec := webtest.Do(env.Handler, "POST", claim, "", other...); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "call-claimed") {
		t.Errorf("another judge's claim of a claimed call = %d %s, want 409 call-claimed", rec.Code, rec.Body)
	}
	// The player's phone says who is coming.
	phone := env.Browser()
	webtest.MustSee(t, "the table's phone page", phone.Get(fmt.Sprintf("/kiosk/%d/rounds/1/tables/2", tr.ID)), http.StatusOK, "佐藤")

	webtest.MustJSON(t, "escalate", webtest.Do(env.Handler, "POST", fmt.Sprintf("%s/%d/escalate", base, id), "", judge...), http.StatusOK, &call)
	if call["status"] != "escalated" {
		t.Errorf("escalate = %v, want escalated", call)
	}
	// An escalated call is any judge's to take.
	webtest.MustJSON(t, "the other judge's claim of the escalated call", webtest.Do(env.Handler, "POST", claim, "", other...), http.StatusOK, &call)
	webtest.MustJSON(t, "resolve", webtest.Do(env.Handler, "POST", fmt.Sprintf("%s/%d/resolve", base, id), `{"note":"道は6本で最長"}`, other...), http.StatusOK, &call)
	if call["status"] != "resolved" || call["resolution"] != "道は6本で最長" {
		t.Errorf("resolve = %v, want resolved with its note", call)
	}
	if rec := webtest.Do(env.Handler, "POST", claim, "", judge...); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "call-resolved") {
		t.Errorf("a claim of a resolved call = %d %s, want 409 call-resolved", rec.Code, rec.Body)
	}

	log, err := env.Store.AuditLog(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range log {
		if strings.HasPrefix(e.Action, "call.") {
			lines = append(lines, e.Action+" "+e.Judge)
		}
	}
	want := []string{"call.resolve 田中", "call.claim 田中", "call.escalate 佐藤", "call.claim 佐藤", "call.open " + tournament.PlayerActor}
	if strings.Join(lines, ", ") != strings.Join(want, ", ") {
		t.Errorf("the audit log's calls = %v, want %v", lines, want)
	}
}

// Under confirm_results a saved sheet is entered until another account
// confirms it unchanged: the account that entered it may not, a stale
// version is refused, the kiosk and the standings count it nowhere until
// then, a correction needs confirming again, and a head may confirm their
// own with a reason.
func TestConfirmResultsAPI(t *testing.T) {
	env := webtest.New(t)
	tr, _, _ := pairedEvent(t, env)
	tid := webtest.Itoa(tr.ID)
	var patched map[string]any
	webtest.MustJSON(t, "PATCH confirm_results", webtest.Do(env.Handler, "PATCH", "/api/v1/tournaments/"+tid, `{"confirm_results":true}`, webtest.APIToken...), http.StatusOK, &patched)
	if patched["confirm_results"] != true {
		t.Fatalf("PATCH confirm_results = %v, want it on", patched)
	}
	_, p1 := webtest.NewAccount(t, env, "入力係", tournament.RoleScorekeeper)
	_, p2 := webtest.NewAccount(t, env, "確認係", tournament.RoleScorekeeper)
	_, p3 := webtest.NewAccount(t, env, "主任", tournament.RoleHead)
	enterer := webtest.Bearer(webtest.Session(t, env, "入力係", p1, tournament.RoleScorekeeper))
	checker := webtest.Bearer(webtest.Session(t, env, "確認係", p2, tournament.RoleScorekeeper))
	head := webtest.Bearer(webtest.Session(t, env, "主任", p3, tournament.RoleHead))

	result := "/api/v1/tournaments/" + tid + "/rounds/1/tables/1/result"
	webtest.MustJSON(t, "PUT result", webtest.Do(env.Handler, "PUT", result, webtest.Sheet(t, env, tr.ID, 1, 1, 0), enterer...), http.StatusOK, nil)
	// Table 2's result too, confirmed at once: the standings count a
	// round once every table of it has a result that counts.
	webtest.MustJSON(t, "PUT table 2", webtest.Do(env.Handler, "PUT", "/api/v1/tournaments/"+tid+"/rounds/1/tables/2/result", webtest.Sheet(t, env, tr.ID, 1, 2, 0), enterer...), http.StatusOK, nil)
	webtest.MustJSON(t, "confirm table 2", webtest.Do(env.Handler, "POST", "/api/v1/tournaments/"+tid+"/rounds/1/tables/2/result/confirm", `{"version":1}`, checker...), http.StatusOK, nil)
	standings := func() string {
		t.Helper()
		return webtest.Do(env.Handler, "GET", "/api/v1/tournaments/"+tid+"/standings", "").Body.String()
	}
	before := standings()
	if strings.Contains(before, `"played":1`) {
		t.Errorf("the standings count a round with an entered result: %s", before)
	}
	webtest.MustSee(t, "the kiosk", env.Browser().Get("/kiosk/"+tid), http.StatusOK, "確認待ち")

	confirm := result + "/confirm"
	rec := webtest.Do(env.Handler, "POST", confirm, `{"version":1}`, enterer...)
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"confirm-self"`) {
		t.Errorf("the enterer's own confirmation = %d %s, want 409 confirm-self", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "POST", confirm, `{"version":2}`, checker...)
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"stale-result"`) {
		t.Errorf("a confirmation of another version = %d %s, want 409 stale-result", rec.Code, rec.Body)
	}
	var confirmed map[string]any
	webtest.MustJSON(t, "another account's confirmation", webtest.Do(env.Handler, "POST", confirm, `{"version":1}`, checker...), http.StatusOK, &confirmed)
	if confirmed["confirmed_by"] != "確認係" {
		t.Errorf("confirm = %v, want confirmed_by 確認係", confirmed)
	}
	if after := standings(); !strings.Contains(after, `"played":1`) || !strings.Contains(after, `"vp":10`) {
		t.Errorf("the standings after the confirmation = %s, want the result counted", after)
	}

	// A correction waits for a confirmation again; a head confirms their
	// own with a reason, and not without one.
	correction := strings.Replace(webtest.Sheet(t, env, tr.ID, 1, 1, 1), `{"version":1,`, `{"version":1,"reason":"数え直し",`, 1)
	webtest.MustJSON(t, "the head's correction", webtest.Do(env.Handler, "PUT", result, correction, head...), http.StatusOK, nil)
	webtest.MustSee(t, "the kiosk after a correction", env.Browser().Get("/kiosk/"+tid), http.StatusOK, "確認待ち")
	if rec := webtest.Do(env.Handler, "POST", confirm, `{"version":2}`, head...); rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "confirm-self") {
		t.Errorf("a head's own confirmation without a reason = %d %s, want 409 confirm-self", rec.Code, rec.Body)
	}
	webtest.MustJSON(t, "a head's own confirmation with a reason", webtest.Do(env.Handler, "POST", confirm, `{"version":2,"reason":"確認係が休憩中"}`, head...), http.StatusOK, &confirmed)
	if confirmed["confirmed_by"] != "主任" {
		t.Errorf("the head's confirmation = %v, want confirmed_by 主任", confirmed)
	}
	log, err := env.Store.AuditLog(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if log[0].Action != "result.confirm" || log[0].Judge != "主任" || !strings.Contains(log[0].After, "確認係が休憩中") {
		t.Errorf("the latest audit line = %+v, want the head's confirmation with its reason", log[0])
	}
	var revs struct {
		Revisions []map[string]any `json:"revisions"`
	}
	if err := json.Unmarshal(webtest.Do(env.Handler, "GET", "/api/v1/tournaments/"+tid+"/rounds/1/tables/1/revisions", "", webtest.APIToken...).Body.Bytes(), &revs); err != nil || len(revs.Revisions) != 2 ||
		revs.Revisions[0]["confirmed_by"] != "確認係" || revs.Revisions[1]["confirmed_by"] != "主任" {
		t.Errorf("revisions = %+v, %v; want each with who confirmed it", revs.Revisions, err)
	}
}
