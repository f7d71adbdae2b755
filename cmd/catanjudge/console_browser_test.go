package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestBrowserLandingPage opens / as a player and as a judge would: the
// tournament under way is listed and its link opens the kiosk; the judge
// login is there; the browser finds the icon.
func TestBrowserLandingPage(t *testing.T) {
	base, dir := browserSite(t)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	_, err := svc.CreateTournament(context.Background(), "受付", tournament.TournamentInput{Name: "土曜カタン大会", Date: "2026-11-28", Venue: "秋葉原店", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t)

	var listed, kioskHref, kioskTitle, login string
	var iconStatus int
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next=/"),
		chromedp.WaitVisible(`#open-h`),
		chromedp.Text(`.home-list`, &listed),
		screenshot("landing-laptop"),
		chromedp.EmulateViewport(390, 844),
		screenshot("landing-phone"),
		chromedp.Evaluate(`fetch("/favicon.ico").then(r => r.status)`, &iconStatus, awaitPromise),
		chromedp.Click(`#judge-login`),
		chromedp.WaitVisible(`#password`),
		chromedp.Location(&login),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`a.home-kiosk`),
		chromedp.AttributeValue(`a.home-kiosk`, "href", &kioskHref, nil),
		chromedp.ActionFunc(func(ctx context.Context) error {
			return chromedp.Navigate(base + kioskHref).Do(ctx)
		}),
		chromedp.Title(&kioskTitle),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(listed, "土曜カタン大会") || !strings.Contains(listed, "秋葉原店") {
		t.Errorf("the landing page lists %q, want the tournament and its venue", listed)
	}
	if !strings.Contains(kioskTitle, "土曜カタン大会") {
		t.Errorf("the tournament's link opened %q, want its kiosk", kioskTitle)
	}
	if iconStatus != 200 {
		t.Errorf("GET /favicon.ico = %d, want 200", iconStatus)
	}
	if want := base + "/judge/login"; login != want {
		t.Errorf("the judge login link went to %s, want %s", login, want)
	}
}
