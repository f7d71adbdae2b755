package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserConsoleChime is the chime on the judge's round page: a switch
// beside the clock panel, off until clicked, that rings three notes when
// the round's time runs out. The server reads a clock the test moves: the
// round is started three seconds before its end, the page counts down,
// asks the server at zero, and the server (moved past the end meanwhile)
// answers with the clock at time up.
func TestBrowserConsoleChime(t *testing.T) {
	needChromium(t)
	clk := &handClock{at: time.Now()}
	addr, _ := serveAtClock(t, t.TempDir(), "127.0.0.1:0", clk.now)
	base := "http://" + addr
	tid := setUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	clockPath := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tid)
	apiDo(t, base, "POST", clockPath, map[string]any{"action": "start"}, 200, nil)
	var c testClock
	apiDo(t, base, "GET", clockPath, nil, 200, &c)
	clk.advance(time.Duration(c.Remaining-3) * time.Second)

	ctx := newBrowser(t)
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
		chromedp.Poll(`document.getElementById("chime").dataset.rang || null`, nil, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.AttributeValue(`#chime`, "data-rang", &rangOnClick, nil),
		chromedp.ActionFunc(func(context.Context) error {
			clk.advance(10 * time.Second) // the round's end passes on the server
			return nil
		}),
		chromedp.Poll(`document.getElementById("chime").dataset.rang === "4" || null`, nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.AttributeValue(`#chime`, "data-rang", &rangAtTimeUp, nil),
		chromedp.AttributeValue(`#clock`, "class", &panel, nil),
		screenshot("console-chime"),
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
