package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

func TestLoginLogout(t *testing.T) {
	env := webtest.New(t)
	env.Account("山田", tournament.RoleHead)
	b := env.Browser()

	res := b.Get("/judge")
	if res.Status != http.StatusSeeOther || res.Location != "/judge/login?next=%2Fjudge" {
		t.Fatalf("anonymous GET /judge = %d to %q, want 303 to the login page", res.Status, res.Location)
	}
	webtest.MustSee(t, "GET /judge/login", b.Get("/judge/login?next=%2Fjudge"), http.StatusOK,
		"ジャッジ ログイン", `name="password"`, `value="/judge"`)

	res = b.Post("/judge/login", url.Values{"name": {"山田"}, "password": {"wrong"}})
	webtest.MustSee(t, "POST /judge/login with a wrong password", res, http.StatusUnauthorized, "パスワードが違います。", `value="山田"`)
	if strings.Contains(res.Body, `value="wrong"`) {
		t.Errorf("the login page shows the wrong password back:\n%s", res.Body)
	}
	res = b.Post("/judge/login", url.Values{"name": {""}, "password": {""}})
	webtest.MustSee(t, "POST /judge/login empty", res, http.StatusUnprocessableEntity, "アカウント名を入力してください。", "パスワードを入力してください。")

	res = b.Post("/judge/login", url.Values{"name": {"山田"}, "password": {webtest.Password}, "next": {"/judge/t/1"}})
	if res.Status != http.StatusSeeOther || res.Location != "/judge/t/1" {
		t.Fatalf("POST /judge/login = %d to %q, want 303 to next", res.Status, res.Location)
	}
	cookie := res.Header.Get("Set-Cookie")
	for _, want := range []string{webtest.SessionCookie + "=", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("session cookie %q lacks %q", cookie, want)
		}
	}
	webtest.MustSee(t, "GET /judge after login", b.Get("/judge"), http.StatusOK, "ジャッジ: 山田", "大会の作成")

	res = b.Post("/judge/logout", nil)
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, "/judge/login") {
		t.Fatalf("POST /judge/logout = %d to %q, want 303 to the login page", res.Status, res.Location)
	}
	if res := b.Get("/judge"); res.Status != http.StatusSeeOther {
		t.Fatalf("GET /judge after logout = %d, want 303 to the login page", res.Status)
	}
}

func TestLoginRedirectStaysOnSite(t *testing.T) {
	env := webtest.New(t)
	env.Account("a", tournament.RoleScorekeeper)
	for _, next := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"} {
		b := env.Browser()
		res := b.Post("/judge/login", url.Values{"name": {"a"}, "password": {webtest.Password}, "next": {next}})
		if res.Status != http.StatusSeeOther || res.Location != "/judge" {
			t.Errorf("login with next %q = %d to %q, want 303 to /judge", next, res.Status, res.Location)
		}
	}
}

// A browser drops tabs and line breaks from a Location and reads "\\" as
// "/": a next carrying any of them, or any other control character or
// space, would leave the site. The language switch and the login both
// fall back to /judge.
func TestRedirectRefusesControlCharacters(t *testing.T) {
	env := webtest.New(t)
	env.Account("a", tournament.RoleScorekeeper)
	for _, next := range []string{
		"/\t/other-host/x", "/\n/other-host", "/\r\n/other-host", "/ /other-host", "/\u3000/other-host",
		"/\x00/other-host", "/\x1b/other-host", "/\u0085/other-host", "/\u00a0/other-host", "/x/\\other",
	} {
		b := env.Browser()
		if res := b.Get("/lang/en?next=" + url.QueryEscape(next)); res.Status != http.StatusSeeOther || res.Location != "/judge" {
			t.Errorf("GET /lang/en?next=%q = %d to %q, want 303 to /judge", next, res.Status, res.Location)
		}
		res := b.Post("/judge/login", url.Values{"name": {"a"}, "password": {webtest.Password}, "next": {next}})
		if res.Status != http.StatusSeeOther || res.Location != "/judge" {
			t.Errorf("login with next %q = %d to %q, want 303 to /judge", next, res.Status, res.Location)
		}
	}
	if res := env.Browser().Get("/lang/en?next=%2F%FF"); res.Location != "/judge" {
		t.Errorf("GET /lang/en?next=/\\xff = %d to %q, want 303 to /judge", res.Status, res.Location)
	}
	// Paths on the site, queries included, still go where they say.
	for _, next := range []string{"/judge/t/1", "/kiosk/1?q=%E9%9D%92&view=projector", "/judge/t/1/rounds/2#table-3"} {
		if res := env.Browser().Get("/lang/ja?next=" + url.QueryEscape(next)); res.Location != next {
			t.Errorf("GET /lang/ja?next=%q = %d to %q, want 303 to it", next, res.Status, res.Location)
		}
	}
}

func TestLoginRateLimit(t *testing.T) {
	env := webtest.New(t)
	b := env.Browser()
	for i := range 5 {
		res := b.Post("/judge/login", url.Values{"name": {"x"}, "password": {"guess"}})
		if res.Status != http.StatusUnauthorized {
			t.Fatalf("attempt %d = %d, want 401", i+1, res.Status)
		}
	}
	// Even the right password waits once wrong ones have used the limit up.
	res := b.Post("/judge/login", url.Values{"name": {"x"}, "password": {webtest.Password}})
	webtest.MustSee(t, "6th attempt", res, http.StatusTooManyRequests, "ログインの試行が多すぎます")
	if res.Header.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After")
	}
	res = b.Post("/judge/login", url.Values{"name": {"x"}, "password": {webtest.Password}}, "Accept-Language", "en-US,en;q=0.9")
	webtest.MustSee(t, "7th attempt in English", res, http.StatusTooManyRequests, "Too many login attempts")
}

func TestCrossOriginPostRefused(t *testing.T) {
	env := webtest.New(t)
	b := env.Browser()
	b.Login("山田")
	form := url.Values{"name": {"横取り大会"}, "rounds": {"3"}}
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "cross-site"},
		{"Origin", "http://evil.example"},
	} {
		res := b.Post("/judge/tournaments", form, h...)
		if res.Status != http.StatusForbidden {
			t.Errorf("POST /judge/tournaments with %s: %s = %d, want 403", h[0], h[1], res.Status)
		}
	}
	ts, err := env.Service.ListTournaments(env.Ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 0 {
		t.Fatalf("a cross-origin post created %d tournaments", len(ts))
	}
	res := b.Post("/judge/tournaments", form, "Sec-Fetch-Site", "same-origin", "Origin", env.Server.URL)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("same-origin POST /judge/tournaments = %d, want 303\n%s", res.Status, res.Body)
	}
	// A script with the API token is not a browser: a stray header does not stop it.
	anon := env.Browser()
	res = anon.Post("/judge/tournaments", form, "Authorization", "Bearer test-token", "Sec-Fetch-Site", "cross-site")
	if res.Status != http.StatusSeeOther {
		t.Fatalf("POST with the API token = %d, want 303\n%s", res.Status, res.Body)
	}
	res = anon.Post("/judge/tournaments", form, "Authorization", "Bearer wrong")
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, "/judge/login") {
		t.Fatalf("POST with a wrong token = %d to %q, want 303 to the login page", res.Status, res.Location)
	}
	// A wrong token neither skips the cross-origin check nor falls back to
	// the judge's session cookie.
	for _, h := range [][]string{
		{"Authorization", "Bearer junk", "Origin", "http://evil.example"},
		{"Authorization", "Bearer junk", "Sec-Fetch-Site", "same-origin", "Origin", env.Server.URL},
	} {
		res = b.Post("/judge/tournaments", form, h...)
		if res.Status == http.StatusSeeOther && !strings.HasPrefix(res.Location, "/judge/login") {
			t.Errorf("POST with a session cookie and %v = %d to %q, want it refused", h, res.Status, res.Location)
		}
	}
	if ts, err := env.Service.ListTournaments(env.Ctx); err != nil || len(ts) != 2 {
		t.Errorf("tournaments after the refused posts = %d, %v; want the 2 created above", len(ts), err)
	}
}

// TestRouteTableAccess walks the one route table: every judge route refuses
// an anonymous request (401 for the API, 303 to the login page for pages)
// and lets a logged-in judge through; kiosk and public routes need no login.
func TestRouteTableAccess(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(8)
	env.SeedSeason(tr.ID)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	// Table 1 is set up for its game to be recorded (a table's record
	// needs its play order and its board).
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.SetBoard(env.Ctx, "setup", tr.ID, 1, 1, tournament.BoardInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	params := strings.NewReplacer(
		":id", webtest.Itoa(tr.ID), ":pid", webtest.Itoa(ps[0].ID), ":n", "1", ":tn", "1", ":penalty", "1", ":batch", "0123", ":report", "1", ":move", "1",
		":person", webtest.Itoa(ps[0].PersonID), ":season", "1", ":lang", "en", ":name", "proshop-2003", "*file", "console.css",
		":sid", "1", ":call", "1", ":token", "no-such-device",
	)
	// A team's pages are a team event's: its own tournament, with a team.
	teamEvent, teams, _ := env.TeamSeed()
	teamParams := strings.NewReplacer(":id", webtest.Itoa(teamEvent.ID), ":team", webtest.Itoa(teams[0].ID), ":n", "1")
	routes := web.Routes()
	if len(routes) < 20 {
		t.Fatalf("route table has %d routes; the walk would prove little", len(routes))
	}
	anon := env.Browser()
	judgeB := env.Browser()
	judgeB.Login("山田")
	for _, rt := range routes {
		path := params.Replace(rt.Path)
		if strings.Contains(rt.Path, ":team") {
			path = teamParams.Replace(rt.Path)
		}
		if strings.ContainsAny(path, ":*") {
			t.Errorf("%s %s: no test value for a parameter", rt.Method, rt.Path)
			continue
		}
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			// probe, not do: the event stream's body never ends.
			probe := probe(anon, rt.Method, path)
			res := webtest.Response{Status: probe.Status, Location: probe.Location}
			switch {
			case rt.Access == web.Judge && strings.HasPrefix(rt.Path, "/api/"):
				if res.Status != http.StatusUnauthorized {
					t.Errorf("anonymous %s %s = %d, want 401", rt.Method, path, res.Status)
				}
			case rt.Access == web.Judge:
				if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, "/judge/login") {
					t.Errorf("anonymous %s %s = %d to %q, want 303 to the login page", rt.Method, path, res.Status, res.Location)
				}
			case rt.Path == route.OpenDevice:
				// A link of no device is refused as an ended one is (403),
				// and never asks for a login.
				if res.Status != http.StatusForbidden || strings.HasPrefix(res.Location, "/judge/login") {
					t.Errorf("anonymous %s %s = %d to %q, want 403 for a link of no device", rt.Method, path, res.Status, res.Location)
				}
			default:
				if res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden ||
					strings.HasPrefix(res.Location, "/judge/login") {
					t.Errorf("anonymous %s %s (%v) = %d to %q, want no login needed", rt.Method, path, rt.Access, res.Status, res.Location)
				}
			}
			if rt.Access != web.Judge || rt.Method != http.MethodGet {
				return
			}
			// A judge gets every page; a GET never changes anything, so
			// walking them all as a judge is safe.
			res = judgeB.Get(path)
			if res.Status != http.StatusOK {
				t.Errorf("judge GET %s = %d, want 200\n%s", path, res.Status, res.Body)
			}
		})
	}
}

func TestSessionSurvivesRestart(t *testing.T) {
	env := webtest.New(t)
	b := env.Browser()
	b.Login("山田")
	// A second server over the same store signs with the same keys, read
	// from the same data folder.
	env.Server.Config.Handler = env.NewHandler()
	webtest.MustSee(t, "GET /judge on the restarted server", b.Get("/judge"), http.StatusOK, "ジャッジ: 山田")
}

func TestLanguageSwitch(t *testing.T) {
	env := webtest.New(t)
	b := env.Browser()
	b.Login("山田")
	webtest.MustSee(t, "GET /judge", b.Get("/judge"), http.StatusOK, "大会の作成", `href="/lang/en?next=%2fjudge"`)
	res := b.Get("/lang/en?next=%2Fjudge")
	if res.Status != http.StatusSeeOther || res.Location != "/judge" {
		t.Fatalf("GET /lang/en = %d to %q, want 303 back to /judge", res.Status, res.Location)
	}
	webtest.MustSee(t, "GET /judge in English", b.Get("/judge"), http.StatusOK, "Create a tournament", `<html lang="en">`)
	if res := b.Get("/lang/en?next=https%3A%2F%2Fevil.example"); res.Location != "/judge" {
		t.Errorf("language switch redirects off the site to %q", res.Location)
	}
}

func TestStaticFiles(t *testing.T) {
	env := webtest.New(t)
	b := env.Browser()
	res := b.Get("/static/console.css")
	webtest.MustSee(t, "GET /static/console.css", res, http.StatusOK, "Noto Sans CJK JP", ":focus-visible")
	if got := res.Header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("unversioned Cache-Control = %q, want no-cache", got)
	}
	page := b.Get("/judge/login")
	i := strings.Index(page.Body, "/static/console.css?v=")
	if i < 0 {
		t.Fatalf("login page does not link the versioned stylesheet:\n%s", page.Body)
	}
	href := page.Body[i : i+strings.IndexByte(page.Body[i:], '"')]
	res = b.Get(href)
	if got := res.Header.Get("Cache-Control"); !strings.Contains(got, "immutable") {
		t.Errorf("versioned Cache-Control = %q, want a long immutable cache", got)
	}
	if got := b.Get("/static/nope.css").Status; got != http.StatusNotFound {
		t.Errorf("GET /static/nope.css = %d, want 404", got)
	}
}

// A new password given at start ends the head account's sessions, and
// only its: the other accounts keep theirs.
func TestPasswordChangeEndsSessions(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	players := "/api/v1/tournaments/" + webtest.Itoa(tr.ID) + "/players"
	b := env.Browser()
	b.Login(tournament.FirstHead)
	other := env.Browser()
	other.Login("山田")

	// The same password on every start keeps the judges logged in.
	env.Restart(webtest.Password)
	webtest.MustSee(t, "GET /judge after a restart with the same password", b.Get("/judge"), http.StatusOK, "ジャッジ: head")
	if res := b.Get(players); res.Status != http.StatusOK {
		t.Fatalf("GET %s after a restart with the same password = %d, want 200", players, res.Status)
	}

	env.Restart("a new password")
	if res := b.Get("/judge"); res.Status != http.StatusSeeOther || res.Location != "/judge/login?next=%2Fjudge" {
		t.Errorf("GET /judge with a cookie from before the password change = %d to %q, want 303 to the login page", res.Status, res.Location)
	}
	if res := b.Get(players); res.Status != http.StatusUnauthorized {
		t.Errorf("GET %s with a cookie from before the password change = %d, want 401", players, res.Status)
	}
	webtest.MustSee(t, "GET /judge on another account after the head's new password", other.Get("/judge"), http.StatusOK, "ジャッジ: 山田")
	res := b.Post("/judge/login", url.Values{"name": {tournament.FirstHead}, "password": {webtest.Password}})
	webtest.MustSee(t, "POST /judge/login with the old password", res, http.StatusUnauthorized, "パスワードが違います。")
	res = b.Post("/judge/login", url.Values{"name": {tournament.FirstHead}, "password": {"a new password"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("POST /judge/login with the new password = %d, want 303", res.Status)
	}
	webtest.MustSee(t, "GET /judge after logging in again", b.Get("/judge"), http.StatusOK, "ジャッジ: head")
}

func TestLogOutEveryone(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	players := "/api/v1/tournaments/" + webtest.Itoa(tr.ID) + "/players"
	laptop := env.Browser()
	laptop.Login("山田")
	tablet := env.Browser() // the lost one
	tablet.Login("佐藤")
	webtest.MustSee(t, "GET /judge on the tablet", tablet.Get("/judge"), http.StatusOK, "ジャッジ: 佐藤")
	webtest.MustSee(t, "GET /judge on the laptop", laptop.Get("/judge"), http.StatusOK,
		`action="/judge/logout-all"`, "全ジャッジをログアウト")

	res := laptop.Post("/judge/logout-all", nil)
	if res.Status != http.StatusSeeOther || res.Location != "/judge/login?all=1" {
		t.Fatalf("POST /judge/logout-all = %d to %q, want 303 to /judge/login?all=1", res.Status, res.Location)
	}
	webtest.MustSee(t, "GET "+res.Location, laptop.Get(res.Location), http.StatusOK,
		"すべての端末のジャッジをログアウトさせました。", `name="password"`)
	webtest.MustSee(t, "GET /judge/login?all=1 in English", laptop.Get(res.Location, "Accept-Language", "en"), http.StatusOK,
		"Every judge has been logged out on every device.")

	for _, d := range []struct {
		name string
		b    *webtest.Browser
	}{{"tablet", tablet}, {"laptop", laptop}} {
		name, b := d.name, d.b
		if res := b.Get("/judge"); res.Status != http.StatusSeeOther || res.Location != "/judge/login?next=%2Fjudge" {
			t.Errorf("GET /judge on the %s after logging everyone out = %d to %q, want 303 to the login page", name, res.Status, res.Location)
		}
		if res := b.Get(players); res.Status != http.StatusUnauthorized {
			t.Errorf("GET %s on the %s after logging everyone out = %d, want 401", players, name, res.Status)
		}
	}
	// The API token is no session: scripts keep working.
	if res := env.Browser().Get(players, "Authorization", "Bearer test-token"); res.Status != http.StatusOK {
		t.Errorf("GET %s with the API token = %d, want 200", players, res.Status)
	}
	// The new epoch is stored, so a restart does not bring the tablet back.
	env.Restart("")
	if res := tablet.Get("/judge"); res.Status != http.StatusSeeOther {
		t.Errorf("GET /judge on the tablet after a restart = %d, want 303 to the login page", res.Status)
	}
	laptop.Login("山田")
	webtest.MustSee(t, "GET /judge after logging in again", laptop.Get("/judge"), http.StatusOK, "ジャッジ: 山田")
}
