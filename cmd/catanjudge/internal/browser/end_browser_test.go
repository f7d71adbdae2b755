package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserEventEnd is the event's end seen on the projector in Chromium:
// a VP deduction shows as such on the open page (6 − 2 = 4 with its level),
// the standings say after which round they count, and when the judge closes
// the tournament the page, without a reload, stops its clock and shows the
// final standings with the winner instead of the seating.
func TestBrowserEventEnd(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	path := fmt.Sprintf("/api/v1/tournaments/%d", tid)
	sitetest.APIDo(t, base, "POST", path+"/rounds/1/clock", map[string]any{"action": "start"}, 200, nil)
	ctx := sitetest.NewBrowser(t)
	if err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1600, 900),
		chromedp.Navigate(base+"/lang/ja?next="+fmt.Sprintf("/kiosk/%d?view=projector", tid)),
		chromedp.WaitVisible(`#clock-time`),
	); err != nil {
		t.Fatal(err)
	}

	sitetest.SaveResult(t, base, tid, 1)
	sitetest.SaveResult(t, base, tid, 2)
	// The second player of table 1 wrote 7 and loses 2 for taking notes.
	second := sitetest.RoundTables(t, base, tid)[0][1]
	sitetest.APIDo(t, base, "POST", path+"/penalties", map[string]any{"player": second.ID, "round": 1, "offence": "note-taking", "level": "vp_deduction", "note": "メモ"}, 201, nil)
	var card, label string
	err := chromedp.Run(ctx,
		chromedp.WaitVisible(`.k-card[data-table="1"] .k-pen`),
		chromedp.Text(`.k-card[data-table="1"]`, &card),
		chromedp.TextContent(`#standings-label`, &label),
	)
	if err != nil {
		t.Fatalf("the deduction did not show: %v", err)
	}
	if !strings.Contains(card, "7 − 2 = 5点") || !strings.Contains(card, "勝利点減点") {
		t.Errorf("table 1 shows %q, want the deduction as 7 − 2 = 5点 with its level", card)
	}
	if label != "順位（第1回戦終了時点）" {
		t.Errorf("the standings say %q, want them after round 1", label)
	}

	sitetest.APIDo(t, base, "POST", path+"/close", nil, 200, nil)
	var winner, clock, finalLabel string
	var playersHidden bool
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`#final`),
		chromedp.Text(`#winners`, &winner),
		chromedp.Text(`#clock-time`, &clock),
		chromedp.TextContent(`#standings-label`, &finalLabel),
		chromedp.Evaluate(`document.getElementById('players').hidden`, &playersHidden),
		chromedp.Sleep(300*time.Millisecond),
		sitetest.Screenshot("30-projector-final"),
	)
	if err != nil {
		t.Fatalf("the close did not show: %v", err)
	}
	if !strings.HasPrefix(winner, "優勝: ") || clock != "大会終了" || finalLabel != "最終順位" || !playersHidden {
		t.Errorf("after the close: winner %q, clock %q, standings %q, seating hidden %v; want the winner, 大会終了, 最終順位, hidden",
			winner, clock, finalLabel, playersHidden)
	}
	var later string
	if err := chromedp.Run(ctx, chromedp.Sleep(1200*time.Millisecond), chromedp.Text(`#clock-time`, &later)); err != nil {
		t.Fatal(err)
	}
	if later != clock {
		t.Errorf("the clock moved after the close: %q, then %q", clock, later)
	}
	// The kiosk on a laptop or a phone: the winner, then the final standings.
	var standings string
	err = chromedp.Run(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d", base, tid)),
		// One read, once the rows show: the page swaps its parts in as
		// its feed opens, and a node read between two queries can be gone.
		chromedp.Poll(`(() => {
			const s = document.querySelector("#standings");
			return s && s.querySelector("#standing-rows tr") && s.offsetParent !== null ? s.innerText : null;
		})()`, &standings, chromedp.WithPollingTimeout(30*time.Second)),
		sitetest.Screenshot("31-kiosk-final"),
	)
	if err != nil {
		t.Fatalf("the kiosk after the close: %v", err)
	}
	if !strings.Contains(standings, "最終順位") || !strings.Contains(standings, "対戦数") {
		t.Errorf("the kiosk's standings after the close = %q, want the final standings with games played", standings)
	}
}
