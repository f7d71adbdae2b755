package home_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestLandingPage is the front door as a player and a judge find it: the
// tournaments under way with their kiosk links, a closed one apart, the
// judge login; the icon browsers ask for; and a mistyped path as a page.
func TestLandingPage(t *testing.T) {
	p := webtest.NewPaired(t)
	env, done := p.Env, p.Tournament
	p.SaveAll(1)
	if _, err := env.Service.CloseTournament(env.Ctx, "setup", done.ID); err != nil {
		t.Fatal(err)
	}
	open, _ := env.SeedTournament(4)
	b := env.Browser()

	res := b.Get("/", "Accept", "text/html")
	webtest.MustSee(t, "GET /", res, http.StatusOK,
		`<h1>カタン大会</h1>`,
		fmt.Sprintf(`<a class="home-kiosk" href="/kiosk/%d">土曜カタン大会</a>`, open.ID),
		fmt.Sprintf(`href="/kiosk/%d?view=projector"`, open.ID),
		`<h2 id="finished-h">終了した大会</h2>`,
		fmt.Sprintf(`<li><a href="/kiosk/%d">土曜カタン大会</a>`, done.ID),
		`id="judge-login" href="/judge/login"`,
		`<link rel="icon" href="/static/favicon.svg?v=`)
	if strings.Contains(res.Body, fmt.Sprintf(`class="home-kiosk" href="/kiosk/%d"`, done.ID)) {
		t.Error("a closed tournament is listed among those under way")
	}
	// Without an Accept header (curl) it is still the page, not JSON.
	if res := b.Get("/"); !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET / without Accept: Content-Type %q, want HTML", res.Header.Get("Content-Type"))
	}

	en := b.Get("/", "Accept-Language", "en")
	webtest.MustSee(t, "GET / in English", en, http.StatusOK, `<h1>Catan tournaments</h1>`, `Log in as a judge`)

	b.Login("山田")
	webtest.MustSee(t, "GET / as a judge", b.Get("/"), http.StatusOK, `<a class="button primary" href="/judge">ジャッジ画面を開く</a>`)

	icon := b.Get("/favicon.ico")
	if icon.Status != http.StatusOK || icon.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(icon.Body, "<svg") {
		t.Errorf("GET /favicon.ico = %d %q, want the SVG icon", icon.Status, icon.Header.Get("Content-Type"))
	}

	missing := b.Get("/judge/t/1/roundz", "Accept", "text/html")
	webtest.MustSee(t, "a mistyped path", missing, http.StatusNotFound, `<!doctype html>`, `ページが見つかりません。`)
}
