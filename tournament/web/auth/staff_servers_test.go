package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// Two servers of one event over one database (SQLite, and PostgreSQL as
// a hall runs it): an account's session token and cookie from one are
// taken by the other; a deactivation or a new password on one ends them
// on both at once (each request reads the account), a logout on one as
// soon as the other hears of it (the peers' feed).
func TestStaffSessionsAcrossServers(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			var dsn string
			if engine == "postgres" {
				dsn = tournamenttest.NewPostgresDSN(t)
			} else {
				var err error
				if dsn, err = store.FileDSN(t.TempDir()); err != nil {
					t.Fatal(err)
				}
			}
			a := tournamenttest.OpenDSN(t, dsn)
			env := webtest.New(t, webtest.OnStore(a, a, nil))
			// Server A hears of the others' logouts as serve has it hear
			// (the peers' feed on PostgreSQL: listenToPeers).
			var reread func(context.Context) error
			depsA := env.Deps
			depsA.Reread = func(f func(context.Context) error) { reread = f }
			first, err := web.New(depsA)
			if err != nil {
				t.Fatal(err)
			}
			b := tournamenttest.OpenDSN(t, dsn)
			deps := env.Deps
			deps.Service = tournamenttest.NewServiceOn(t, b, time.Now)
			deps.Settings, deps.Cards = b, b
			other, err := web.New(deps)
			if err != nil {
				t.Fatal(err)
			}
			servers := map[string]http.Handler{"A": first, "B": other}
			tr, _ := env.SeedTournament(4)
			players := fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID)

			id, password := webtest.NewAccount(t, env, "佐藤", tournament.RoleJudge)
			token := webtest.Bearer(webtest.Session(t, env, "佐藤", password, tournament.RoleJudge))
			cookie := loginCookie(t, first, "佐藤", password)
			for name, h := range servers {
				if rec := webtest.Do(h, "GET", players, "", token...); rec.Code != http.StatusOK {
					t.Errorf("server %s: the token of server A = %d, want 200", name, rec.Code)
				}
				if rec := webtest.Do(h, "GET", "/judge", "", "Cookie", cookie); rec.Code != http.StatusOK {
					t.Errorf("server %s: the cookie of server A = %d, want 200", name, rec.Code)
				}
			}
			// Deactivated on server B: both servers refuse both at once.
			webtest.MustJSON(t, "PATCH active false on B", webtest.Do(other, "PATCH", fmt.Sprintf("/api/v1/staff/%d", id), `{"active":false}`, webtest.APIToken...), http.StatusOK, nil)
			for name, h := range servers {
				if rec := webtest.Do(h, "GET", players, "", token...); rec.Code != http.StatusUnauthorized {
					t.Errorf("server %s: a deactivated account's token = %d, want 401", name, rec.Code)
				}
				if rec := webtest.Do(h, "GET", "/judge", "", "Cookie", cookie); rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/judge/login") {
					t.Errorf("server %s: a deactivated account's cookie = %d, want 303 to the login page", name, rec.Code)
				}
			}
			// Reactivated with a new password from server A; a logout on
			// server B ends the new token on server A too.
			webtest.MustJSON(t, "PATCH active true", webtest.Do(env.Handler, "PATCH", fmt.Sprintf("/api/v1/staff/%d", id), `{"active":true}`, webtest.APIToken...), http.StatusOK, nil)
			token = webtest.Bearer(webtest.Session(t, env, "佐藤", password, tournament.RoleJudge))
			if rec := webtest.Do(other, "DELETE", "/api/v1/session", "", token...); rec.Code != http.StatusNoContent {
				t.Fatalf("DELETE /api/v1/session on B = %d %s", rec.Code, rec.Body)
			}
			if err := reread(env.Ctx); err != nil {
				t.Fatal(err)
			}
			if rec := webtest.Do(first, "GET", players, "", token...); rec.Code != http.StatusUnauthorized {
				t.Errorf("server A: a token logged out on B = %d, want 401", rec.Code)
			}
			token = webtest.Bearer(webtest.Session(t, env, "佐藤", password, tournament.RoleJudge))
			var reset map[string]string
			webtest.MustJSON(t, "POST password on B", webtest.Do(other, "POST", fmt.Sprintf("/api/v1/staff/%d/password", id), "", webtest.APIToken...), http.StatusOK, &reset)
			if rec := webtest.Do(first, "GET", players, "", token...); rec.Code != http.StatusUnauthorized {
				t.Errorf("server A: a token from before a new password set on B = %d, want 401", rec.Code)
			}
			webtest.Session(t, env, "佐藤", reset["password"], tournament.RoleJudge)
		})
	}
}

// loginCookie logs in to the account name through h's login form and
// returns the session cookie as a Cookie header's value.
func loginCookie(t *testing.T, h http.Handler, name, password string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/judge/login", strings.NewReader(url.Values{"name": {name}, "password": {password}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.Name == webtest.SessionCookie {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatalf("login as %s = %d without a session cookie", name, rec.Code)
	return ""
}
