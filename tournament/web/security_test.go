package web_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// probeResult is what the security walk looks at in a response.
type probeResult struct {
	Status   int
	Location string
	Header   http.Header
	Body     string // empty for an event stream, which never ends
}

// probe sends one request with b's cookies, an empty form and the header
// name, value pairs. An event stream's body is not read: the headers are
// all there is to check.
func probe(b *webtest.Browser, method, path string, header ...string) probeResult {
	b.Env.TB.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, b.Env.Server.URL+path, nil)
	if err != nil {
		b.Env.TB.Fatal(err)
	}
	if method != http.MethodGet && method != http.MethodHead {
		req.Body = io.NopCloser(strings.NewReader(""))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.HTTP.Do(req)
	if err != nil {
		b.Env.TB.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	out := probeResult{Status: res.StatusCode, Location: res.Header.Get("Location"), Header: res.Header}
	if ct, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); ct == "text/event-stream" {
		return out
	}
	data, err := io.ReadAll(res.Body)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		b.Env.TB.Fatalf("%s %s: read body: %v", method, path, err)
	}
	out.Body = string(data)
	return out
}

// securityEnv is a tournament with round 1 paired, a result and a
// penalty, so the walk reaches real pages rather than 404s. It returns the
// tournament's ID and the values of the route table's parameters.
func securityEnv(t *testing.T) (*webtest.Env, int64, *strings.Replacer) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(8)
	env.SeedSeason(tr.ID)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	var scores []tournament.Score
	for i, p := range r.Tables[0].Players {
		scores = append(scores, tournament.Score{PlayerID: p, VP: 6 + i})
	}
	env.TimeUp(tr.ID, 1)
	if _, err := env.Service.SaveResult(env.Ctx, "setup", tr.ID, 1, 1, tournament.ResultInput{Scores: scores}); err != nil {
		t.Fatal(err)
	}
	pen, err := env.Service.RecordPenalty(env.Ctx, "setup", tr.ID, tournament.PenaltyInput{PlayerID: ps[1].ID, Round: 1, Offence: "note-taking", Note: "メモ"})
	if err != nil {
		t.Fatal(err)
	}
	return env, tr.ID, strings.NewReplacer(
		":person", webtest.Itoa(ps[1].PersonID), ":season", "1", ":id", webtest.Itoa(tr.ID), ":pid", webtest.Itoa(ps[1].ID), ":n", "1", ":tn", "2", ":penalty", webtest.Itoa(pen.ID), ":batch", "0123", ":report", "1", ":move", "1",
		":sid", "1", ":call", "1", ":token", "no-such-device", ":team", "1",
		":lang", "en", ":name", "proshop-2003", "*file", "console.css",
	)
}

// TestRouteTableAsJudge walks every route of the table, of every method,
// with a judge's session: no judge route refuses the judge or sends them
// to the login page, and none fails with a 5xx on an empty request.
// Logging out runs on a session of its own, and logging every judge out
// after the walk.
func TestRouteTableAsJudge(t *testing.T) {
	env, _, params := securityEnv(t)
	judgeB := env.Browser()
	judgeB.Login("山田")
	leaving := env.Browser()
	leaving.Login("佐藤")
	// A browser's DELETE /api/v1/session logs its cookie out as the
	// logout does: on a session of its own too.
	leavingAPI := env.Browser()
	leavingAPI.Login("佐藤")
	for _, rt := range web.Routes() {
		if rt.Access != web.Judge {
			continue
		}
		path := params.Replace(rt.Path)
		if strings.ContainsAny(path, ":*") {
			t.Errorf("%s %s: no test value for a parameter", rt.Method, rt.Path)
			continue
		}
		if rt.Path == "/judge/logout-all" {
			continue // below: it ends every session, the walk's too
		}
		b := judgeB
		switch rt.Path {
		case "/judge/logout":
			b = leaving
		case "/api/v1/session":
			b = leavingAPI
		}
		res := probe(b, rt.Method, path)
		switch {
		case rt.Method == http.MethodDelete && rt.Path == "/api/v1/session":
			if res.Status != http.StatusNoContent {
				t.Errorf("judge DELETE /api/v1/session = %d, want 204", res.Status)
			}
		case rt.Path == "/judge/logout":
			if res.Status != http.StatusSeeOther || res.Location != "/judge/login?bye=1" {
				t.Errorf("judge POST /judge/logout = %d to %q, want 303 to the login page saying goodbye", res.Status, res.Location)
			}
		case res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden:
			t.Errorf("judge %s %s = %d, want the judge let through", rt.Method, path, res.Status)
		case strings.HasPrefix(res.Location, "/judge/login"):
			t.Errorf("judge %s %s = %d to %q, want no login asked", rt.Method, path, res.Status, res.Location)
		case res.Status >= 500:
			t.Errorf("judge %s %s = %d, want no server error\n%s", rt.Method, path, res.Status, res.Body)
		}
	}
	// The walk changed much, but never logged the judge out.
	if res := judgeB.Get("/judge"); res.Status != http.StatusOK {
		t.Errorf("GET /judge after the walk = %d, want 200", res.Status)
	}
	if res := probe(judgeB, http.MethodPost, "/judge/logout-all"); res.Status != http.StatusSeeOther || res.Location != "/judge/login?all=1" {
		t.Errorf("judge POST /judge/logout-all = %d to %q, want 303 to the login page saying why", res.Status, res.Location)
	}
}

// TestCrossOriginRefusedEverywhere sends every state change of the table
// as another site's page would make a judge's browser send it: each is
// refused before its handler runs, whatever the route.
func TestCrossOriginRefusedEverywhere(t *testing.T) {
	env, tid, params := securityEnv(t)
	judgeB := env.Browser()
	judgeB.Login("山田")
	before, err := env.Service.AuditLog(env.Ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range web.Routes() {
		if rt.Method == http.MethodGet || rt.Method == http.MethodHead {
			continue
		}
		path := params.Replace(rt.Path)
		for _, h := range [][]string{
			{"Sec-Fetch-Site", "cross-site"},
			{"Origin", "http://evil.example"},
		} {
			if res := probe(judgeB, rt.Method, path, h...); res.Status != http.StatusForbidden {
				t.Errorf("judge %s %s with %s: %s = %d, want 403", rt.Method, path, h[0], h[1], res.Status)
			}
		}
	}
	after, err := env.Service.AuditLog(env.Ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("cross-origin requests changed the tournament: %d audit lines, was %d", len(after), len(before))
	}
	if res := judgeB.Get("/judge"); res.Status != http.StatusOK {
		t.Errorf("GET /judge after the walk = %d, want the judge still logged in", res.Status)
	}
}

// TestOnlyJudgesChangeState checks the classification itself: every route
// open to anyone reads, except the stateless referee calculations (a POST
// with the facts in the body, storing nothing) and the logins (the form,
// and the API's session for scripts); a
// player changes their own state with their code (access player), which
// TestCodeGuessesAreLimited checks.
func TestOnlyJudgesChangeState(t *testing.T) {
	for _, rt := range web.Routes() {
		if rt.Access == web.Judge || rt.Access == web.Player || rt.Method == http.MethodGet || rt.Method == http.MethodHead {
			continue
		}
		stateless := rt.Method == http.MethodPost && strings.HasPrefix(rt.Path, "/api/v1/referee/")
		login := rt.Method == http.MethodPost && (rt.Path == "/judge/login" || rt.Path == "/api/v1/session")
		if !stateless && !login {
			t.Errorf("%s %s is %v: a route that may change state must be judge-only", rt.Method, rt.Path, rt.Access)
		}
	}
}

// TestSecurityHeaders checks every route's answer, anonymous and as a
// judge, and the error answers, for the security headers; and every page
// for what the content security policy would block: inline script, style
// attributes and elements, event handler attributes, javascript: URLs.
func TestSecurityHeaders(t *testing.T) {
	env, _, params := securityEnv(t)
	anon := env.Browser()
	judgeB := env.Browser()
	judgeB.Login("山田")
	want := map[string]string{
		"Content-Security-Policy": web.ContentSecurityPolicy,
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "same-origin",
		"X-Frame-Options":         "DENY",
	}
	check := func(who, method, path string, res probeResult) {
		t.Helper()
		for k, v := range want {
			if got := res.Header.Values(k); len(got) != 1 || got[0] != v {
				t.Errorf("%s %s %s (%d): %s = %q, want %q once", who, method, path, res.Status, k, got, v)
			}
		}
		for _, c := range res.Header.Values("Set-Cookie") {
			sc, err := http.ParseSetCookie(c)
			if err != nil {
				t.Errorf("%s %s %s: bad Set-Cookie %q: %v", who, method, path, c, err)
				continue
			}
			if !sc.HttpOnly || (sc.SameSite != http.SameSiteLaxMode && sc.SameSite != http.SameSiteStrictMode) {
				t.Errorf("%s %s %s: cookie %s is not HttpOnly with SameSite Lax or Strict: %q", who, method, path, sc.Name, c)
			}
		}
		if ct, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); ct == "text/html" {
			for _, problem := range cspProblems(res.Body) {
				t.Errorf("%s %s %s: %s", who, method, path, problem)
			}
		}
	}
	for _, rt := range web.Routes() {
		path := params.Replace(rt.Path)
		if strings.ContainsAny(path, ":*") {
			t.Errorf("%s %s: no test value for a parameter", rt.Method, rt.Path)
			continue
		}
		if rt.Method == http.MethodGet {
			check("judge", rt.Method, path, probe(judgeB, rt.Method, path))
		}
		check("anonymous", rt.Method, path, probe(anon, rt.Method, path))
	}
	for _, p := range []string{"/nope", "/judge/t/999", "/api/v1/tournaments/999", "/judge/t/1/rounds/9", "/judge/login?next=%2Fjudge"} {
		check("judge", http.MethodGet, p, probe(judgeB, http.MethodGet, p))
	}
	check("anonymous", http.MethodDelete, "/healthz", probe(anon, http.MethodDelete, "/healthz"))
	// The login sets the session cookie; a wrong password and the form
	// errors render pages too.
	for _, form := range []url.Values{{"name": {"x"}, "password": {"wrong"}}, {"name": {""}}, {"name": {"山田"}, "password": {webtest.Password}}} {
		b := env.Browser()
		res := b.Post("/judge/login", form)
		check("anonymous", http.MethodPost, "/judge/login "+form.Encode(), probeResult{Status: res.Status, Header: res.Header, Body: res.Body})
	}
}

// cspProblems lists what in an HTML page the content security policy
// blocks: script-src 'self' runs no inline script or event handler, and
// style-src 'self' applies no style attribute or element.
func cspProblems(page string) []string {
	var out []string
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			attrs := map[string]string{}
			for _, a := range tok.Attr {
				attrs[a.Key] = a.Val
				switch {
				case a.Key == "style":
					out = append(out, fmt.Sprintf("<%s style=%q>: style attributes are blocked; use a class", tok.Data, a.Val))
				case strings.HasPrefix(a.Key, "on"):
					out = append(out, fmt.Sprintf("<%s %s=...>: inline event handlers are blocked", tok.Data, a.Key))
				case (a.Key == "href" || a.Key == "src" || a.Key == "action") && strings.HasPrefix(strings.TrimSpace(strings.ToLower(a.Val)), "javascript:"):
					out = append(out, fmt.Sprintf("<%s %s=%q>: javascript: URLs are blocked", tok.Data, a.Key, a.Val))
				}
			}
			switch tok.Data {
			case "style":
				out = append(out, "<style> element: inline styles are blocked; use the static stylesheet")
			case "script":
				// A JSON data block is not run, so the policy does not apply to it.
				if _, ok := attrs["src"]; !ok && attrs["type"] != "application/json" {
					out = append(out, "inline <script>: blocked by script-src 'self'")
				}
			}
		}
	}
}

func TestCSPProblems(t *testing.T) {
	for _, tc := range []struct {
		page string
		want int
	}{
		{`<p class="x">ok</p><script src="/static/console.js" defer></script>`, 0},
		{`<script type="application/json" id="d">{"a":1}</script>`, 0},
		{`<script>alert(1)</script>`, 1},
		{`<div style="color:red">`, 1},
		{`<svg><style>.a{}</style></svg>`, 1},
		{`<button onclick="go()">`, 1},
		{`<a href=" JavaScript:go()">`, 1},
	} {
		if got := cspProblems(tc.page); len(got) != tc.want {
			t.Errorf("cspProblems(%q) = %q, want %d problems", tc.page, got, tc.want)
		}
	}
}
