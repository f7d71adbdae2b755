package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/chromedp/chromedp"
)

// liveFetches counts the page's requests for the kiosk's live parts, from
// its network log (the Resource Timing entries).
const liveFetches = `performance.getEntriesByType("resource").filter(e => new URL(e.name).pathname.endsWith("/live")).length`

// TestBrowserKioskPushedParts is the kiosk in Chromium after a save: the
// change's event carries the new live parts, which the page swaps in with
// no request for /live, in its own language, search marked.
func TestBrowserKioskPushedParts(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	ctx := sitetest.NewBrowser(t)

	// The page fetches its parts once as its feed opens.
	var events string
	var before int
	err := chromedp.Run(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d?lang=en", base, tid)),
		chromedp.WaitVisible(`#entries tr`),
		chromedp.Poll(liveFetches+` >= 1`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Sleep(500*time.Millisecond),
		chromedp.Evaluate(`document.body.getAttribute("data-events")`, &events),
		chromedp.Evaluate(liveFetches, &before),
	)
	if err != nil {
		t.Fatalf("the kiosk: %v", err)
	}
	if want := fmt.Sprintf("/kiosk/%d/events?lang=en", tid); events != want {
		t.Errorf("the page follows the feed %q, want %q", events, want)
	}

	sitetest.SaveResult(t, base, tid, 1)
	var card string
	var after int
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`.k-card[data-table="1"] .k-place`),
		chromedp.Text(`.k-card[data-table="1"]`, &card),
		// Past the spread the page's fetches used to wait (0.4 s).
		chromedp.Sleep(800*time.Millisecond),
		chromedp.Evaluate(liveFetches, &after),
	)
	if err != nil {
		t.Fatalf("the result did not show: %v", err)
	}
	if after != before {
		t.Errorf("the page asked for /live %d times after the save, want none: the event carries the parts", after-before)
	}
	if !strings.Contains(card, "#1") || !strings.Contains(card, "Finished") {
		t.Errorf("table 1 after the result shows %q, want it finished with its placings, in English", card)
	}

	// A search the page shows is marked on the parts pushed after the
	// next change; only the search itself was asked for.
	var count string
	err = chromedp.Run(ctx,
		chromedp.SendKeys(`#q`, "アオ"),
		chromedp.Poll(`Array.from(document.querySelectorAll('#entries tr')).filter(r => !r.hidden).length === 1`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		// Each letter typed asks once: the last answer is in.
		chromedp.Sleep(500*time.Millisecond),
		chromedp.Evaluate(liveFetches, &before),
	)
	if err != nil {
		t.Fatalf("the search: %v", err)
	}
	sitetest.SaveResult(t, base, tid, 2)
	var rows []string
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`.k-card[data-table="2"] .k-place`),
		chromedp.Sleep(800*time.Millisecond),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#entries tr')).filter(r => !r.hidden).map(r => r.innerText)`, &rows),
		chromedp.Text(`#find-count`, &count),
		chromedp.Evaluate(liveFetches, &after),
	)
	if err != nil {
		t.Fatalf("the second result did not show: %v", err)
	}
	if len(rows) != 1 || !strings.Contains(rows[0], "青木") || !strings.Contains(count, "1") {
		t.Errorf("after the second result the search shows %q (%q), want 青木 alone", rows, count)
	}
	if after != before {
		t.Errorf("the page asked for /live %d times after the second save, want none", after-before)
	}
}
