package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/route"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// offers are what a console page lets its reader do: the POSTs of its
// forms (a form's action, or a submit button's formaction) and the pages
// its links open, each a path without its query.
type offers struct {
	posts, links []string
}

// offersOf reads a page as a browser would: every form posting somewhere,
// every button sending its form elsewhere, every link.
func offersOf(body string) offers {
	var o offers
	z := html.NewTokenizer(strings.NewReader(body))
	post := false // whether the form the tokens are in posts
	for {
		switch z.Next() {
		case html.ErrorToken:
			return o
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "form" {
				post = false
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			attrs := map[string]string{}
			for more := true; more; {
				var k, v []byte
				k, v, more = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			switch string(name) {
			case "form":
				post = strings.EqualFold(attrs["method"], http.MethodPost)
				if post {
					o.posts = append(o.posts, pathOf(attrs["action"]))
				}
			case "button", "input":
				if a, ok := attrs["formaction"]; ok && (post || strings.EqualFold(attrs["formmethod"], http.MethodPost)) {
					o.posts = append(o.posts, pathOf(a))
				}
			case "a":
				if h, ok := attrs["href"]; ok && strings.HasPrefix(h, "/") {
					o.links = append(o.links, pathOf(h))
				}
			}
		}
	}
}

func pathOf(target string) string {
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		return target[:i]
	}
	return target
}

// routeFor finds the staff's route a method and path reach, as the router
// would: a literal segment before a parameter.
func routeFor(routes []web.RouteEntry, method, path string) (web.RouteEntry, bool) {
	var best web.RouteEntry
	bestParams := -1
	segs := strings.Split(path, "/")
	for _, rt := range routes {
		if rt.Method != method {
			continue
		}
		pat := strings.Split(rt.Path, "/")
		if len(pat) != len(segs) {
			continue
		}
		params, ok := 0, true
		for i := range pat {
			switch {
			case strings.HasPrefix(pat[i], ":") && segs[i] != "":
				params++
			case pat[i] != segs[i]:
				ok = false
			}
		}
		if ok && (bestParams < 0 || params < bestParams) {
			best, bestParams = rt, params
		}
	}
	return best, bestParams >= 0
}

// consolePagesEnv is a tournament with something on every page: a round
// with a result, a correction waiting for a second pair of eyes, a
// players' report disputed (which called a judge; another player's call
// at that table joins it), a penalty, a season.
func consolePagesEnv(t *testing.T) (*webtest.Env, *strings.Replacer) {
	env, tid, params := securityEnv(t)
	on := true
	if _, err := env.Service.PatchTournament(env.Ctx, "setup", tid, tournament.TournamentPatch{ConfirmResults: &on, SelfReport: ptr(tournament.SelfReportApprove)}); err != nil {
		t.Fatal(err)
	}
	r, err := env.Service.RoundView(env.Ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	// A correction of table 1 waits for another account.
	var scores []tournament.Score
	for i, p := range r.Tables[0].Players {
		scores = append(scores, tournament.Score{PlayerID: p.PlayerID, VP: 7 - i})
	}
	if _, err := env.Service.SaveResult(env.Ctx, "setup", tid, 1, 1, tournament.ResultInput{Scores: scores, Version: 1, Reason: "記入ミス"}); err != nil {
		t.Fatal(err)
	}
	// Table 2 reports; a player disputes; another calls.
	players := r.Tables[1].Players
	codes := map[int64]string{}
	scores = nil
	for i, p := range players {
		issued, err := env.Service.IssueCode(env.Ctx, "setup", tid, p.PlayerID)
		if err != nil {
			t.Fatal(err)
		}
		codes[p.PlayerID] = issued.Code
		scores = append(scores, tournament.Score{PlayerID: p.PlayerID, VP: 8 - i})
	}
	rep, err := env.Service.ReportResult(env.Ctx, tid, 1, 2, players[0].PlayerID, codes[players[0].PlayerID], tournament.ReportInput{Scores: scores})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.DisputeReport(env.Ctx, tid, rep.ID, players[1].PlayerID, codes[players[1].PlayerID], tournament.DisputeInput{Note: "点数が違います"}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.CallJudge(env.Ctx, tid, players[2].PlayerID, codes[players[2].PlayerID], 2, "ルールの確認"); err != nil {
		t.Fatal(err)
	}
	return env, params
}

func ptr[T any](v T) *T { return &v }

// TestConsoleOffersEachRoleOnlyWhatItMay reads every page of the console
// as each role (head, judge, scorekeeper) over a tournament with something
// on every page, and holds every form it shows (and every button sending
// a form elsewhere) and every link to the staff's console against the
// roles the server enforces (roles.go): a role never sees a form it would
// be refused, nor a link to a page it may not open.
func TestConsoleOffersEachRoleOnlyWhatItMay(t *testing.T) {
	env, params := consolePagesEnv(t)
	routes := web.Routes()
	var staff []web.RouteEntry
	for _, rt := range routes {
		if rt.Access == web.Judge {
			staff = append(staff, rt)
		}
	}
	for _, role := range []tournament.Role{tournament.RoleHead, tournament.RoleJudge, tournament.RoleScorekeeper} {
		b := env.Browser()
		b.LoginAs("pages-"+string(role), role)
		pages, forms := 0, 0
		for _, rt := range staff {
			if rt.Method != http.MethodGet || strings.HasPrefix(rt.Path, "/api/") || !strings.HasPrefix(rt.Path, "/judge") {
				continue
			}
			path := params.Replace(rt.Path)
			res := b.Get(path)
			if !role.Allows(web.Need(rt)) {
				if res.Status != http.StatusForbidden {
					t.Errorf("%s's GET %s = %d, want 403", role, path, res.Status)
				}
				continue
			}
			if res.Status != http.StatusOK || !strings.Contains(res.Header.Get("Content-Type"), "text/html") {
				continue // a download, a redirect, a live part's fragment
			}
			pages++
			o := offersOf(res.Body)
			for _, p := range o.posts {
				forms++
				to, ok := routeFor(staff, http.MethodPost, p)
				switch {
				case !ok:
					if _, public := routeFor(routes, http.MethodPost, p); !public {
						t.Errorf("%s's %s has a form posting to %s, which no route takes", role, path, p)
					}
				case !role.Allows(web.Need(to)):
					t.Errorf("%s's %s shows a form posting to %s (%s), which needs %s", role, path, p, to.Path, web.Need(to))
				}
			}
			for _, l := range o.links {
				if to, ok := routeFor(staff, http.MethodGet, l); ok && !role.Allows(web.Need(to)) {
					t.Errorf("%s's %s links %s (%s), which needs %s", role, path, l, to.Path, web.Need(to))
				}
			}
		}
		if pages < 20 || forms < 10 {
			t.Errorf("%s read %d pages with %d forms, want the console's every page", role, pages, forms)
		}
	}
}

// A table device's pages link only to what the device may open: the turn
// page of a round that is not a final and of the final, and the record
// page, each lead nowhere the device is refused.
func TestTableDeviceLinksOnlyItsPages(t *testing.T) {
	env, params := consolePagesEnv(t)
	tid := params.Replace(":id")
	for _, record := range []bool{false, true} {
		var opened map[string]string
		webtest.MustJSON(t, "POST device", webtest.Do(env.Handler, "POST", fmt.Sprintf("/api/v1/tournaments/%s/rounds/1/tables/2/device", tid), fmt.Sprintf(`{"record":%v}`, record), webtest.APIToken...), http.StatusCreated, &opened)
		link, err := url.Parse(opened["url"])
		if err != nil {
			t.Fatal(err)
		}
		phone := env.Browser()
		res := phone.Get(link.Path)
		if res.Status != http.StatusSeeOther {
			t.Fatalf("the device's link = %d", res.Status)
		}
		pages := []string{res.Location}
		if record {
			pages = append(pages, fmt.Sprintf("/judge/t/%s/rounds/1/tables/2/game", tid))
		}
		var seen []string
		for _, p := range pages {
			page := phone.Get(p)
			webtest.MustSee(t, "the device's "+p, page, http.StatusOK)
			o := offersOf(page.Body)
			for _, l := range append(o.links, o.posts...) {
				if !strings.HasPrefix(l, "/judge") {
					continue
				}
				seen = append(seen, l)
				if got := phone.Get(l); got.Status != http.StatusOK {
					t.Errorf("the device (record %v) on %s links or posts to %s, which answers it %d", record, p, l, got.Status)
				}
			}
		}
		sort.Strings(seen)
		t.Logf("record %v: the device's pages lead to %v", record, seen)
	}
}

// The judges' landing page shows the open calls of the one tournament in
// play, in its navigation as the tournament's own pages do (live, with
// the chime); with two in play it names neither's.
func TestLandingPageShowsTheCallsInPlay(t *testing.T) {
	env, _ := consolePagesEnv(t)
	b := env.Browser()
	b.LoginAs("landing", tournament.RoleJudge)
	webtest.MustSee(t, "GET /judge with a tournament in play", b.Get("/judge"), http.StatusOK,
		`id="console-live"`, `id="calls-badge" data-open="1"`, "呼び出し1件 2卓", `id="chime"`)
	// So does every page of the console outside a tournament.
	head := env.Browser()
	head.LoginAs("landing-head", tournament.RoleHead)
	for _, path := range []string{route.People, route.Seasons, route.Rulesets, route.Staff, route.PastEvents} {
		webtest.MustSee(t, "GET "+path+" with a tournament in play", head.Get(path), http.StatusOK,
			`id="console-live"`, `id="calls-badge" data-open="1"`, "呼び出し1件 2卓", `id="chime"`)
	}

	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if page := b.Get("/judge"); strings.Contains(page.Body, `id="calls-badge"`) {
		t.Errorf("the landing page with two tournaments in play shows one's calls")
	}
	if page := head.Get(route.People); strings.Contains(page.Body, `id="calls-badge"`) {
		t.Errorf("the people page with two tournaments in play shows one's calls")
	}
}
