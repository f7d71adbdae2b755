package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserRoundDone is issue 24's defect 3 in Chromium: the judge's
// round page and the projector are open with the clock running when the
// last table's result comes in. Both swap in 「全卓終了」 in place of the
// time left and count nothing down any more. Screenshots are kept.
func TestBrowserRoundDone(t *testing.T) {
	skipWithoutChromium(t)
	addr, _ := serveAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := setUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	apiDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tid), map[string]any{"action": "start"}, 200, nil)
	saveResult(t, base, tid, 1)

	judge, room := newBrowser(t), newBrowser(t)
	var before string
	err := chromedp.Run(judge,
		logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)),
		chromedp.WaitVisible(`#clock .clock-big`),
		chromedp.Text(`#clock .clock-big`, &before),
	)
	if err != nil {
		t.Fatalf("the round page: %v", err)
	}
	err = chromedp.Run(room,
		chromedp.EmulateViewport(1600, 900),
		chromedp.Navigate(fmt.Sprintf("%s/lang/ja?next=/kiosk/%d%%3Fview%%3Dprojector", base, tid)),
		chromedp.WaitVisible(`#clock-time`),
	)
	if err != nil {
		t.Fatalf("the projector: %v", err)
	}
	if !strings.Contains(before, ":") {
		t.Fatalf("the round page's clock before the last result = %q, want the time left", before)
	}

	saveResult(t, base, tid, 2)
	read := func(name string) (console, projector string) {
		t.Helper()
		err := chromedp.Run(judge,
			chromedp.WaitVisible(`#clock .clock-big.state-done`),
			chromedp.Text(`#clock .clock-big`, &console),
			screenshot("round-done-console-"+name),
		)
		if err == nil {
			err = chromedp.Run(room,
				chromedp.WaitVisible(`#clock.state-done`),
				chromedp.Text(`#clock-time`, &projector),
				screenshot("round-done-projector-"+name),
			)
		}
		if err != nil {
			t.Fatalf("the pages once the round is done: %v", err)
		}
		return console, projector
	}
	c1, p1 := read("now")
	time.Sleep(2 * time.Second)
	c2, p2 := read("later")
	for _, got := range []string{c1, c2, p1, p2} {
		if got != "全卓終了" {
			t.Errorf("the clocks once every table has its result say %q, %q (console) and %q, %q (projector), want 全卓終了, counting nothing", c1, c2, p1, p2)
			break
		}
	}
}
