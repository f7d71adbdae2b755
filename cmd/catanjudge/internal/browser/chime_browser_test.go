package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserConsoleChime is the chime on the judge's round page: a switch
// beside the clock panel, off until clicked, that rings three notes when
// the round's time runs out. The server reads a clock the test moves: the
// round is started three seconds before its end, the page counts down,
// asks the server at zero, and the server (moved past the end meanwhile)
// answers with the clock at time up.
func TestBrowserConsoleChime(t *testing.T) {
	sitetest.NeedChromium(t)
	clk := sitetest.NewHandClock(time.Now())
	addr, _ := sitetest.ServeAtClock(t, t.TempDir(), "127.0.0.1:0", clk.Now)
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	clockPath := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tid)
	sitetest.APIDo(t, base, "POST", clockPath, map[string]any{"action": "start"}, 200, nil)
	var c sitetest.Clock
	sitetest.APIDo(t, base, "GET", clockPath, nil, 200, &c)
	clk.Advance(time.Duration(c.Remaining-3) * time.Second)

	ctx := sitetest.NewBrowser(t)
	var pressedBefore, pressedAfter, rangOnClick, rangAtTimeUp, panel string
	var rangBefore bool
	err := chromedp.Run(ctx,
		logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)),
		chromedp.WaitVisible(`#chime`),
		chromedp.AttributeValue(`#chime`, "aria-pressed", &pressedBefore, nil),
		chromedp.AttributeValue(`#chime`, "data-rang", &rangOnClick, &rangBefore),
		chromedp.Click(`#chime`),
		chromedp.AttributeValue(`#chime`, "aria-pressed", &pressedAfter, nil),
		// The note rings once the browser has let the sound out.
		chromedp.Poll(`document.getElementById("chime").dataset.rang || null`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.AttributeValue(`#chime`, "data-rang", &rangOnClick, nil),
		chromedp.ActionFunc(func(context.Context) error {
			clk.Advance(10 * time.Second) // the round's end passes on the server
			return nil
		}),
		chromedp.Poll(`document.getElementById("chime").dataset.rang === "4" || null`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.AttributeValue(`#chime`, "data-rang", &rangAtTimeUp, nil),
		chromedp.AttributeValue(`#clock`, "class", &panel, nil),
		sitetest.Screenshot("console-chime"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if pressedBefore != "false" || rangBefore || pressedAfter != "true" {
		t.Errorf("the chime was pressed %q with data-rang present %v before the click, %q after; want off and silent until clicked", pressedBefore, rangBefore, pressedAfter)
	}
	if rangOnClick != "1" || rangAtTimeUp != "4" {
		t.Errorf("the chime rang %q on its click and %q in all at time up, want 1 and 4", rangOnClick, rangAtTimeUp)
	}
	if !strings.Contains(panel, "up") {
		t.Errorf("the clock panel's class is %q after the time up, want the server's up", panel)
	}
}

// TestBrowserChimeSaysWhenSoundIsHeld is the chime under a browser that
// plays sound only after the page is touched (forced here, as phones and
// most browsers do): a judge who switched the chime on opens the round
// page again, and a player's call comes in before they touch it. The
// page says the browser is holding the sound back and counts the notes
// it could not ring; the judge presses the button beside it, and the
// next call rings.
func TestBrowserChimeSaysWhenSoundIsHeld(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid, ps, codes := reportingTable(t, base, "チャイム大会")
	round := fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)
	poll := func(js string) chromedp.Action {
		return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(30*time.Second))
	}
	call := func(p seatedPlayer) int64 {
		var c struct {
			ID int64 `json:"id"`
		}
		sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/calls", tid), map[string]any{"player": p.ID, "code": codes[p.ID], "table": 1}, 201, &c)
		return c.ID
	}

	judge := sitetest.LogInAs(t, base, "山田", sitetest.StaffPassword(t, base, "山田"), chromedp.Flag("autoplay-policy", "document-user-activation-required"))
	var before bool
	err := chromedp.Run(judge,
		chromedp.Navigate(round),
		chromedp.WaitVisible(`#chime`),
		chromedp.Click(`#chime`),
		poll(`document.getElementById('chime').dataset.rang === '1'`),
		// A new page: the browser holds its sound back until it is touched.
		chromedp.Navigate(round),
		chromedp.WaitVisible(`#chime[aria-pressed="true"]`),
		chromedp.Evaluate(`!document.getElementById('chime-blocked').hidden`, &before),
	)
	if err != nil {
		t.Fatalf("the round page with the chime on: %v", err)
	}
	first := call(ps[0])
	var notice string
	err = chromedp.Run(judge,
		poll(`document.getElementById('calls-badge').dataset.open === '1' && document.getElementById('chime').dataset.missed === '2'`),
		chromedp.WaitVisible(`#chime-blocked`),
		chromedp.Text(`#chime-blocked`, &notice),
		sitetest.Screenshot("console-chime-held"),
	)
	if err != nil {
		t.Fatalf("the call while the sound is held: %v", err)
	}
	if !before || !strings.Contains(notice, "ブラウザが音を止めています") {
		t.Errorf("the held sound's notice: shown before the call %v, says %q", before, notice)
	}

	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/calls/%d/resolve", tid, first), map[string]any{"note": "済"}, 200, nil)
	err = chromedp.Run(judge,
		chromedp.Click(`#chime-enable`),
		// A new page counts anew: the button's note is its first.
		poll(`document.getElementById('chime-blocked').hidden && document.getElementById('chime').dataset.rang === '1'`),
	)
	if err != nil {
		var state string
		_ = chromedp.Run(judge, chromedp.Evaluate(`JSON.stringify({chime: {...document.getElementById('chime').dataset}, hidden: document.getElementById('chime-blocked').hidden})`, &state))
		t.Fatalf("letting the sound out: %v (%s)", err, state)
	}
	call(ps[1])
	var rang, missed string
	err = chromedp.Run(judge,
		poll(`document.getElementById('chime').dataset.rang === '3'`),
		chromedp.AttributeValue(`#chime`, "data-rang", &rang, nil),
		chromedp.AttributeValue(`#chime`, "data-missed", &missed, nil),
		sitetest.Screenshot("console-chime-let-out"),
	)
	if err != nil || missed != "2" {
		t.Fatalf("the next call once the sound is out: %v (rang %q, missed %q)", err, rang, missed)
	}
}
