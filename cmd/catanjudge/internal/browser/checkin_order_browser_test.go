package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestBrowserCheckInOutlivesASlowSearch is the desk on a slow network: the
// judge types a reading and checks a player in before the search's answer
// came. The search's answer, asked first, arrives last: the list keeps the
// check-in's answer (its message, the player checked in), not the older
// answer that knew nothing of it.
func TestBrowserCheckInOutlivesASlowSearch(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	ctx0 := context.Background()
	tr, err := svc.CreateTournament(ctx0, "受付", tournament.TournamentInput{Name: "受付の朝", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	var hanako int64
	for _, n := range []string{"田中 一郎/たなか いちろう", "田中 花子/たなか はなこ", "佐藤 健/さとう けん"} {
		name, kana, _ := strings.Cut(n, "/")
		p, err := svc.AddPlayer(ctx0, "受付", tr.ID, tournament.PlayerInput{Name: name, Kana: kana})
		if err != nil {
			t.Fatal(err)
		}
		if name == "田中 花子" {
			hanako = p.ID
		}
	}
	ctx := sitetest.NewBrowser(t)
	// The searches' answers (GET with q=) are held back until the page
	// lets them go (window.releaseSearch), and the page counts them.
	const slowSearch = `(() => {
		const real = window.fetch;
		window.searchAsked = 0; window.searchAnswered = 0;
		let release; const released = new Promise(ok => { release = ok; });
		window.releaseSearch = release;
		window.fetch = (url, init) => {
			const answer = real(url, init);
			if ((init && init.method) || !String(url).includes("q=")) { return answer; }
			window.searchAsked++;
			return answer.then(res => released.then(() => { window.searchAnswered++; return res; }));
		};
		return true;
	})()`
	var done, status string
	err = chromedp.Run(ctx, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/players", base, tr.ID)),
		chromedp.WaitVisible(`#q`),
		chromedp.Evaluate(slowSearch, nil),
		chromedp.SendKeys(`#q`, "タナカ"),
		// The search is asked (after the pause in typing), not answered.
		chromedp.Poll(`window.searchAsked > 0`, nil),
		chromedp.Click(fmt.Sprintf(`#p%d button.primary`, hanako)),
		chromedp.WaitVisible(`#list-done`),
		chromedp.Evaluate(`window.releaseSearch(); true`, nil),
		chromedp.Poll(`window.searchAnswered === window.searchAsked`, nil),
	)
	if err != nil {
		t.Fatal(err)
	}
	// The held-back answer is shown, if it is, as soon as it is read: give
	// it a second to show that it is not.
	wiped := chromedp.Run(ctx, chromedp.Poll(`!document.getElementById("list-done")`, nil, chromedp.WithPollingTimeout(time.Second)))
	if wiped == nil {
		t.Fatal("the search's answer, asked before the check-in, replaced the check-in's answer")
	}
	if !errors.Is(wiped, chromedp.ErrPollingTimeout) {
		t.Fatal(wiped)
	}
	if err := chromedp.Run(ctx,
		chromedp.Text(`#list-done`, &done),
		chromedp.Text(fmt.Sprintf(`#p%d .tag`, hanako), &status),
		sitetest.Screenshot("checkin-slow-search"),
	); err != nil {
		t.Fatal(err)
	}
	if done != "田中 花子 を受付しました。" || status != "受付済み" {
		t.Errorf("after the check-in the list says %q and the row %q", done, status)
	}
}
