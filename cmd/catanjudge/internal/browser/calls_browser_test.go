package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserJudgeCallReachesTheConsole is issue 27's call in Chromium: a
// judge has the round page open; a player calls a judge from table 1's
// phone page with a note, and the call appears on the judge's round page
// and in the navigation's count without a reload; the judge claims it,
// which opens the table's ruling view on its board with the call above
// it; the player's phone says who is coming, again without a reload; the
// judge resolves it with a note.
func TestBrowserJudgeCallReachesTheConsole(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid, ps, codes := reportingTable(t, base, "呼び出しテスト大会")
	poll := func(js string) chromedp.Action {
		return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(30*time.Second))
	}

	judge := sitetest.JudgeIn(t, base, "山田")
	round := fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)
	var before string
	err := chromedp.Run(judge,
		chromedp.Navigate(round),
		chromedp.WaitReady(`#live-calls`),
		chromedp.Text(`#calls-badge`, &before),
		// A mark on the page that a reload would lose.
		chromedp.Evaluate(`window.notReloaded = true`, nil),
	)
	if err != nil || !strings.Contains(before, "呼び出しなし") {
		t.Fatalf("the round page before the call: %v (badge %q)", err, before)
	}

	caller := sitetest.NewBrowser(t)
	var status string
	err = chromedp.Run(caller, phone(),
		chromedp.Navigate(fmt.Sprintf("%s/lang/ja?next=/kiosk/%d/rounds/1/tables/1", base, tid)),
		chromedp.WaitVisible(`#call-form`),
		chromedp.SendKeys(`#call_note`, "最長交易路の長さ"),
		chromedp.SetValue(`#call_player`, fmt.Sprint(ps[1].ID)),
		chromedp.SendKeys(`#call_code`, codes[ps[1].ID]),
		chromedp.Click(`#call-judge`),
		chromedp.WaitVisible(`#call-status`),
		chromedp.Text(`#call-status`, &status),
		sitetest.Screenshot("phone-call-sent"),
	)
	if err != nil {
		t.Fatalf("the call from the phone: %v", err)
	}

	// The round page shows the call without a reload.
	var listed, badge string
	var stayed bool
	err = chromedp.Run(judge,
		poll(`!!document.querySelector('#calls .call-open') && document.getElementById('calls-badge').dataset.open === '1'`),
		chromedp.Text(`#calls`, &listed),
		chromedp.Text(`#calls-badge`, &badge),
		chromedp.Evaluate(`window.notReloaded === true`, &stayed),
		sitetest.Screenshot("round-call-live"),
	)
	if err != nil || !stayed {
		t.Fatalf("the call on the judge's round page: %v (reloaded: %v)", err, !stayed)
	}
	for _, want := range []string{"1卓", "井上", "最長交易路の長さ"} {
		if !strings.Contains(listed, want) {
			t.Errorf("the round page's calls lack %q:\n%s", want, listed)
		}
	}
	if !strings.Contains(badge, "1卓") {
		t.Errorf("the navigation's calls say %q, want table 1", badge)
	}

	// Claiming opens the table's ruling view on its board.
	var banner string
	err = chromedp.Run(judge,
		chromedp.Click(`#calls .call-open form[action$="/claim"] button`),
		chromedp.WaitVisible(`#claimed-call`),
		chromedp.WaitVisible(`#ruling-board-live`),
		chromedp.Text(`#claimed-call`, &banner),
		sitetest.Screenshot("ruling-call-claimed"),
	)
	if err != nil || !strings.Contains(banner, "1卓") || !strings.Contains(banner, "最長交易路の長さ") {
		t.Fatalf("the claimed call's ruling view: %v (%q)", err, banner)
	}

	// The phone says who is coming, without a reload.
	var coming string
	err = chromedp.Run(caller,
		poll(`document.getElementById('call-status') && document.getElementById('call-status').textContent.includes('山田')`),
		chromedp.Text(`#call-status`, &coming),
		sitetest.Screenshot("phone-call-claimed"),
	)
	if err != nil {
		t.Fatalf("the phone after the claim: %v (%q)", err, coming)
	}

	// Resolved from the ruling view, with what was decided.
	err = chromedp.Run(judge,
		chromedp.SendKeys(`#resolve-note`, "道は5本で最長"),
		chromedp.Click(`#claimed-call form[action$="/resolve"] button`),
		chromedp.WaitReady(`body`),
	)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	var raw struct {
		Calls []map[string]any `json:"calls"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/calls", tid), nil, 200, &raw)
		if len(raw.Calls) == 1 && raw.Calls[0]["status"] == "resolved" || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(raw.Calls) != 1 || raw.Calls[0]["status"] != "resolved" || raw.Calls[0]["claimed_by"] != "山田" || raw.Calls[0]["resolution"] != "道は5本で最長" {
		t.Errorf("GET calls after the resolution = %v, want the call resolved by 山田 with its note", raw.Calls)
	}
}
