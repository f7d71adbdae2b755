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

// The record file is a judge's (issue 28: "GET /api/v1/tournaments/{id}/record
// (judge)"): it holds the judges' notes and the member numbers. A judge's
// and the head's session token read it; a scorekeeper's is refused with
// 403 role-forbidden naming the judge, through the API and through the
// console's session alike, and the tournament page offers the download to
// a judge and the head but not to a scorekeeper.
func TestRecordFileIsAJudges(t *testing.T) {
	env, tid, _ := securityEnv(t)
	path := fmt.Sprintf("/api/v1/tournaments/%d/record", tid)
	page := fmt.Sprintf("/judge/t/%d", tid)
	for _, tc := range []struct {
		role    tournament.Role
		allowed bool
	}{
		{tournament.RoleScorekeeper, false},
		{tournament.RoleJudge, true},
		{tournament.RoleHead, true},
	} {
		name := "record-" + string(tc.role)
		env.Account(name, tc.role)
		rec := webtest.Do(env.Handler, "GET", path, "", webtest.Bearer(webtest.Session(t, env, name, webtest.Password, tc.role))...)
		var p struct {
			Code string `json:"code"`
			Role string `json:"role"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &p)
		switch {
		case tc.allowed && (rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), `{"format":`)):
			t.Errorf("%s's GET %s = %d %.200s, want 200 and the record", tc.role, path, rec.Code, rec.Body)
		case !tc.allowed && (rec.Code != http.StatusForbidden || p.Code != "role-forbidden" || p.Role != string(tournament.RoleJudge)):
			t.Errorf("%s's GET %s = %d %.200s, want 403 role-forbidden naming judge", tc.role, path, rec.Code, rec.Body)
		}

		// The console's session reads the file through the same route (the
		// page's link), and its page offers the link only where it works.
		b := env.Browser()
		b.LoginAs(name, tc.role)
		if got := b.Get(path); (got.Status == http.StatusOK) != tc.allowed {
			t.Errorf("%s's console GET %s = %d, want allowed %v", tc.role, path, got.Status, tc.allowed)
		}
		res := b.Get(page)
		webtest.MustSee(t, string(tc.role)+"'s tournament page", res, http.StatusOK)
		if offered := strings.Contains(res.Body, `id="record-file"`); offered != tc.allowed {
			t.Errorf("%s's tournament page offers the record file: %v, want %v", tc.role, offered, tc.allowed)
		}
	}
}
