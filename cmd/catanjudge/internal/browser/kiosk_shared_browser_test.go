package browser

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserKioskSharedParts is the kiosk as the server renders it once
// for every screen, in Chromium: a page rendered three minutes ago counts
// down from the server's time, not from when it was rendered, even where
// the device's clock is an hour off the server's; a player who searched
// keeps seeing their search marked on the parts every screen shares after
// a change; and parts that did not change come back as 304, nothing sent.
func TestBrowserKioskSharedParts(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	// The server's clock runs an hour ahead of the browser's.
	var ahead atomic.Int64
	ahead.Store(int64(time.Hour))
	now := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	addr, _ := sitetest.ServeAtClock(t, t.TempDir(), "127.0.0.1:0", now)
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tid), map[string]any{"action": "start"}, 200, nil)
	kiosk := fmt.Sprintf("%s/kiosk/%d", base, tid)
	ctx := sitetest.NewBrowser(t)

	var fresh string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next="+fmt.Sprintf("/kiosk/%d", tid)),
		chromedp.WaitVisible(`#entries tr`),
		chromedp.Sleep(1500*time.Millisecond),
		chromedp.Text(`#clock-time`, &fresh),
	); err != nil {
		t.Fatal(err)
	}
	if s := clockSeconds(t, fresh); s > 420 || s < 410 {
		t.Errorf("the kiosk just after the start shows %s, want about 6:58", fresh)
	}

	// Three minutes on by the server's clock, and nothing changed: the
	// page is the one rendered then, and shows the time left now.
	ahead.Add(int64(3 * time.Minute))
	var later string
	if err := chromedp.Run(ctx,
		chromedp.Navigate(kiosk),
		chromedp.WaitVisible(`#entries tr`),
		chromedp.Sleep(1500*time.Millisecond),
		chromedp.Text(`#clock-time`, &later),
	); err != nil {
		t.Fatal(err)
	}
	if s := clockSeconds(t, later); s > 240 || s < 228 {
		t.Errorf("the kiosk three minutes on shows %s, want about 3:58", later)
	}

	// A player searches, then a result comes in: the parts every screen
	// shares are marked with the search on the page.
	var rows []string
	var count, card string
	var mineTables int
	err := chromedp.Run(ctx,
		chromedp.SendKeys(`#q`, "アオ"),
		chromedp.Poll(`document.getElementById('find-count').textContent.includes('1人')`, nil, chromedp.WithPollingTimeout(30*time.Second)),
	)
	if err != nil {
		t.Fatalf("the search: %v", err)
	}
	tables := sitetest.RoundTables(t, base, tid)
	aoki := 0
	for i, tb := range tables {
		for _, p := range tb {
			if p.Name == "青木" {
				aoki = i + 1
			}
		}
	}
	other := 3 - aoki // the table without 青木
	sitetest.SaveResult(t, base, tid, other)
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(fmt.Sprintf(`.k-card[data-table="%d"] .k-place`, other)),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#entries tr')).filter(r => !r.hidden).map(r => r.innerText.replace(/\s+/g, ' '))`, &rows),
		chromedp.Text(`#find-count`, &count),
		chromedp.Evaluate(`document.querySelectorAll('.k-card.k-mine').length`, &mineTables),
		chromedp.Text(fmt.Sprintf(`.k-card[data-table="%d"]`, aoki), &card),
	)
	if err != nil {
		t.Fatalf("the result did not show: %v", err)
	}
	if len(rows) != 1 || !strings.Contains(rows[0], "青木") || count != "1人見つかりました" || mineTables != 1 {
		t.Errorf("after the result the search shows rows %q, count %q, %d tables marked; want 青木 alone, 1人, one table", rows, count, mineTables)
	}
	if !strings.Contains(card, "青木") {
		t.Errorf("the table marked as the player's is %q, want 青木's", card)
	}

	// The parts asked for again unchanged: 304, the body the browser kept.
	var sizes []int
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`(async () => {
			const url = document.body.getAttribute("data-live");
			await fetch(url, { cache: "no-cache" }).then(r => r.text());
			await fetch(url, { cache: "no-cache" }).then(r => r.text());
			const e = performance.getEntriesByType("resource").filter(e => e.name.endsWith(url)).pop();
			return [e.transferSize, e.encodedBodySize];
		})()`, &sizes, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 2 || sizes[1] == 0 || sizes[0] >= sizes[1] {
		t.Errorf("the unchanged parts asked again took %v bytes (transferred, body), want far fewer sent than the body", sizes)
	}
}
