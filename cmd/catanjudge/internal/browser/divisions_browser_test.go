package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestBrowserDivisions runs an event of two divisions in Chromium: the
// overview refuses a division's name taken, each division's round page
// has its own tables and clock, its standings are its own players', the
// players page registers in either, and the kiosk shows each division.
func TestBrowserDivisions(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	main, err := svc.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: "冬のカタン大会", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.NameDivision(ctx, "受付", main.ID, "一般の部"); err != nil {
		t.Fatal(err)
	}
	kid, err := svc.AddDivision(ctx, "受付", main.ID, "小学生の部")
	if err != nil {
		t.Fatal(err)
	}
	register := func(division string, names ...string) {
		for _, nm := range names {
			if _, err := svc.AddPlayer(ctx, "受付", main.ID, tournament.PlayerInput{Name: nm, CheckedIn: true, Division: division}); err != nil {
				t.Fatal(err)
			}
		}
	}
	register("", "青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "久保")
	register("小学生の部", "あおい", "いつき", "うた", "えま")
	for _, id := range []int64{main.ID, kid.ID} {
		if _, err := svc.PairNextRound(ctx, "受付", id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.ClockAction(ctx, "受付", kid.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}

	b := sitetest.NewBrowser(t)
	var refused, round, standings, kiosk string
	err = chromedp.Run(b, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d", base, main.ID)),
		chromedp.WaitVisible(`#divisions`),
		chromedp.SendKeys(`#division-add-input`, "小学生の部"),
		chromedp.Submit(`#division-add-input`),
		chromedp.WaitVisible(`#division-add-error`),
		chromedp.Text(`#division-add-error`, &refused),
		chromedp.ScrollIntoView(`#divisions`),
		sitetest.Screenshot("divisions-overview-refused"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, kid.ID)),
		chromedp.WaitVisible(`#divisions-nav`),
		chromedp.Text(`main`, &round),
		sitetest.Screenshot("divisions-round"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/standings", base, kid.ID)),
		chromedp.WaitVisible(`#divisions-nav`),
		chromedp.Text(`main`, &standings),
		sitetest.Screenshot("divisions-standings"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/players", base, main.ID)),
		chromedp.WaitVisible(`#division`),
		sitetest.Screenshot("divisions-players"),
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d", base, kid.ID)),
		chromedp.WaitVisible(`#k-divisions`),
		chromedp.Text(`#k-divisions`, &kiosk),
		sitetest.Screenshot("divisions-kiosk"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(refused, "この大会にはすでに「小学生の部」があります") {
		t.Errorf("the refusal says %q", refused)
	}
	for _, want := range []string{"あおい", "えま"} {
		if !strings.Contains(round, want) || !strings.Contains(standings, want) {
			t.Errorf("小学生の部's round page or standings lack %s", want)
		}
	}
	for _, other := range []string{"青木", "久保"} {
		if strings.Contains(round, other) || strings.Contains(standings, other) {
			t.Errorf("小学生の部's round page or standings show %s of 一般の部", other)
		}
	}
	if !strings.Contains(kiosk, "一般の部") || !strings.Contains(kiosk, "小学生の部") {
		t.Errorf("the kiosk's divisions say %q, want both", kiosk)
	}
	if got, _ := svc.ListTournaments(ctx); len(got) != 2 {
		t.Errorf("%d tournaments after the refused division, want 2", len(got))
	}
}
