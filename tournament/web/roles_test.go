package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The roles of issue 27 (and the record file of issue 28), as their text
// gives them: what a few routes need, held apart from roles.go so that the table there cannot drift from the
// issue unnoticed.
var issueRoles = map[string]tournament.Role{
	"POST /api/v1/staff":                                               tournament.RoleHead,
	"PATCH /api/v1/tournaments/:id":                                    tournament.RoleHead,
	"POST /api/v1/tournaments/:id/close":                               tournament.RoleHead,
	"DELETE /api/v1/tournaments/:id":                                   tournament.RoleHead,
	"POST /judge/backup":                                               tournament.RoleHead,
	"POST /api/v1/tournaments/:id/players":                             tournament.RoleJudge,
	"POST /api/v1/tournaments/:id/rounds":                              tournament.RoleJudge,
	"POST /api/v1/tournaments/:id/penalties":                           tournament.RoleJudge,
	"POST /api/v1/tournaments/:id/final":                               tournament.RoleJudge,
	"POST /judge/t/:id/penalties":                                      tournament.RoleJudge,
	"POST /judge/t/:id/players":                                        tournament.RoleJudge,
	"POST /judge/t/:id/players/:pid/disqualify":                        tournament.RoleJudge,
	"POST /judge/t/:id/rounds/:n/undo":                                 tournament.RoleJudge,
	"PUT /api/v1/tournaments/:id/rounds/:n/tables/:tn/result":          tournament.RoleScorekeeper,
	"POST /api/v1/tournaments/:id/rounds/:n/tables/:tn/seating":        tournament.RoleScorekeeper,
	"POST /api/v1/tournaments/:id/rounds/:n/tables/:tn/board":          tournament.RoleScorekeeper,
	"POST /api/v1/tournaments/:id/rounds/:n/clock":                     tournament.RoleScorekeeper,
	"POST /judge/t/:id/rounds/:n/tables/:tn/score":                     tournament.RoleScorekeeper,
	"POST /judge/t/:id/rounds/:n/tables/:tn/deal":                      tournament.RoleScorekeeper,
	"POST /api/v1/tournaments/:id/rounds/:n/tables/:tn/result/confirm": tournament.RoleScorekeeper,
	"GET /api/v1/tournaments/:id/record":                               tournament.RoleJudge,
}

// The sessions a walk leaves alone: logging out (each role may) would end
// the walk's own session, and logging everyone out every session.
func endsTheWalk(rt web.RouteEntry) bool {
	switch rt.Method + " " + rt.Path {
	case "POST /judge/logout", "POST /judge/logout-all", "DELETE /api/v1/session":
		return true
	}
	return false
}

// TestRoleRouteMatrix walks every route of the staff that changes state
// (and the head's reads) as each role: through the JSON API with the
// account's session token, and through the console's forms with its
// session cookie. Each is either let through (whatever the handler then
// says of the empty request, never 401, 403 role-forbidden or the login
// page) or refused with 403 role-forbidden naming the role it needs; the
// roles are those of roles.go, and agree with the issue's (issueRoles).
func TestRoleRouteMatrix(t *testing.T) {
	env, _, params := securityEnv(t)
	// A spare account whose password the walk resets and whose role it
	// edits: the walk's own accounts keep theirs.
	spare := env.Account("予備", tournament.RoleScorekeeper)
	sid := strings.NewReplacer(":sid", webtest.Itoa(spare.ID))

	routes := web.Routes()
	seen := map[string]bool{}
	for _, rt := range routes {
		if rt.Access != web.Judge {
			continue
		}
		key := rt.Method + " " + rt.Path
		if want, ok := issueRoles[key]; ok {
			seen[key] = true
			if got := web.Need(rt); got != want {
				t.Errorf("%s needs %s, the issue says %s", key, got, want)
			}
		}
	}
	for key := range issueRoles {
		if !seen[key] {
			t.Errorf("%s is not a route of the staff", key)
		}
	}

	type actor struct {
		role    tournament.Role
		token   []string
		browser *webtest.Browser
	}
	var actors []actor
	for _, role := range []tournament.Role{tournament.RoleScorekeeper, tournament.RoleJudge, tournament.RoleHead} {
		name := "matrix-" + string(role)
		env.Account(name, role)
		b := env.Browser()
		b.LoginAs(name, role)
		actors = append(actors, actor{role: role, token: webtest.Bearer(webtest.Session(t, env, name, webtest.Password, role)), browser: b})
	}
	walked := 0
	for _, a := range actors {
		for _, rt := range routes {
			if rt.Access != web.Judge || endsTheWalk(rt) || (rt.Method == http.MethodGet && web.Need(rt) == tournament.RoleScorekeeper) {
				continue
			}
			path := params.Replace(sid.Replace(rt.Path))
			if strings.ContainsAny(path, ":*") {
				t.Errorf("%s %s: no test value for a parameter", rt.Method, rt.Path)
				continue
			}
			want := web.Need(rt)
			allowed := a.role.Allows(want)
			what := fmt.Sprintf("%s's %s %s", a.role, rt.Method, path)
			walked++
			if strings.HasPrefix(rt.Path, "/api/") {
				rec := webtest.Do(env.Handler, rt.Method, path, "{}", a.token...)
				var p struct {
					Code string `json:"code"`
					Role string `json:"role"`
					Rule string `json:"rule"` // a refusal of the rules, not of the route
				}
				_ = json.Unmarshal(rec.Body.Bytes(), &p)
				switch {
				case allowed && (rec.Code == http.StatusUnauthorized || p.Code == "role-forbidden" && p.Rule == ""):
					t.Errorf("%s = %d %s, want it let through", what, rec.Code, rec.Body)
				case !allowed && (rec.Code != http.StatusForbidden || p.Code != "role-forbidden" || p.Role != string(want)):
					t.Errorf("%s = %d %s, want 403 role-forbidden naming %s", what, rec.Code, rec.Body, want)
				}
				continue
			}
			res := a.browser.Do(rt.Method, path, url.Values{}, "Origin", env.Server.URL, "Sec-Fetch-Site", "same-origin")
			refused := res.Status == http.StatusForbidden && strings.Contains(res.Body, "の権限が必要です")
			switch {
			case allowed && (refused || strings.HasPrefix(res.Location, "/judge/login")):
				t.Errorf("%s = %d to %q, want it let through\n%s", what, res.Status, res.Location, res.Body)
			case !allowed && !refused:
				t.Errorf("%s = %d to %q, want 403 with the role-forbidden page\n%s", what, res.Status, res.Location, res.Body)
			}
		}
	}
	if walked < 150 {
		t.Errorf("walked %d role × route pairs, want every state-changing route for 3 roles", walked)
	}
}
