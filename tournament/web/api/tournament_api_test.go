package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// PATCH /api/v1/tournaments/{id} changes the settings it is given, keeps
// the others, answers the tournament as GET does, and refuses what the
// console's form refuses; only a judge may.
func TestAPIEditTournament(t *testing.T) {
	env := webtest.New(t)
	auth := []string{"Authorization", "Bearer test-token"}
	rec := webtest.Do(env.Handler, "POST", "/api/v1/tournaments", `{"name":"設定テスト","rounds":3,"venue":"秋葉原"}`, auth...)
	var tour struct {
		ID int64 `json:"id"`
	}
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &tour) != nil {
		t.Fatalf("create = %d %s", rec.Code, rec.Body)
	}
	path := fmt.Sprintf("/api/v1/tournaments/%d", tour.ID)
	if rec := webtest.Do(env.Handler, "GET", path, ""); !strings.Contains(rec.Body.String(), `"self_checkin":false`) || !strings.Contains(rec.Body.String(), `"self_report":"off"`) {
		t.Errorf("GET a new tournament = %s, want both settings off", rec.Body)
	}
	if rec := webtest.Do(env.Handler, "PATCH", path, `{"self_report":"auto"}`); rec.Code != http.StatusUnauthorized {
		t.Errorf("an anonymous PATCH = %d, want 401", rec.Code)
	}
	rec = webtest.Do(env.Handler, "PATCH", path, `{"self_checkin":true,"self_report":"approve"}`, auth...)
	if rec.Code != http.StatusOK {
		t.Fatalf("PATCH = %d %s", rec.Code, rec.Body)
	}
	if get := webtest.Do(env.Handler, "GET", path, ""); get.Body.String() != rec.Body.String() {
		t.Errorf("PATCH answered %s, GET %s; want the same tournament", rec.Body, get.Body)
	}
	for _, want := range []string{`"self_checkin":true`, `"self_report":"approve"`, `"name":"設定テスト"`, `"venue":"秋葉原"`, `"rounds":3`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("PATCH answered %s, want %s", rec.Body, want)
		}
	}
	for _, tc := range []struct{ body, want string }{
		{`{"self_report":"sometimes"}`, `"code":"self-report-mode"`},
		{`{"rounds":0}`, `"code":"rounds-out-of-range"`},
		{`{"name":""}`, `"code":"tournament-name-missing"`},
		{`{"self_checkin":"yes"}`, `"error"`},
		{`{"ruleset":"national-2025"}`, `"error"`},
	} {
		rec := webtest.Do(env.Handler, "PATCH", path, tc.body, auth...)
		if rec.Code/100 != 4 || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("PATCH %s = %d %s, want a refusal with %s", tc.body, rec.Code, rec.Body, tc.want)
		}
	}
	if rec := webtest.Do(env.Handler, "GET", path, ""); !strings.Contains(rec.Body.String(), `"self_report":"approve"`) || !strings.Contains(rec.Body.String(), `"rounds":3`) {
		t.Errorf("after the refused PATCHes GET = %s, want them unchanged", rec.Body)
	}
	if rec := webtest.Do(env.Handler, "PATCH", "/api/v1/tournaments/999", `{"name":"x"}`, auth...); rec.Code != http.StatusNotFound {
		t.Errorf("PATCH of no tournament = %d, want 404", rec.Code)
	}
}
