package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserRoundPageFollowsThePhones is issue 27's live round page in
// Chromium. A judge has the round page open with the chime on; on the
// players' phones one reports table 1, another confirms it, a third
// disputes it with a note. Each shows on the judge's page without a
// reload: the report, the confirmation's mark, then the dispute with the
// judge call it made (in the round's calls and the navigation's count),
// and the chime rings for it. The judge claims the call, which opens the
// table's ruling view on its board, and resolves it with a note; the
// disputing player's phone says who claimed it, without a reload. Another
// judge on the penalties page sees the call in the navigation, live.
func TestBrowserRoundPageFollowsThePhones(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid, ps, codes := reportingTable(t, base, "ライブ大会")
	table := fmt.Sprintf("%s/lang/ja?next=/kiosk/%d/rounds/1/tables/1", base, tid)
	poll := func(js string) chromedp.Action {
		return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(30*time.Second))
	}
	// stayed reads the mark a reload would lose.
	stayed := func(ctx context.Context, what string) {
		t.Helper()
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(`window.notReloaded === true`, &ok)); err != nil || !ok {
			t.Fatalf("the round page was reloaded for %s (%v)", what, err)
		}
	}

	judge := sitetest.JudgeIn(t, base, "山田")
	err := chromedp.Run(judge,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)),
		chromedp.WaitVisible(`#chime`),
		chromedp.Click(`#chime`), // the judge's click lets the sound out
		poll(`document.getElementById('chime').dataset.rang === '1'`),
		chromedp.Evaluate(`window.notReloaded = true`, nil),
	)
	if err != nil {
		t.Fatalf("the judge's round page: %v", err)
	}

	// Another judge is on the penalties page: its navigation follows the
	// calls too.
	other := sitetest.JudgeIn(t, base, "佐藤")
	err = chromedp.Run(other,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/penalties", base, tid)),
		chromedp.WaitVisible(`#calls-badge`),
		chromedp.Evaluate(`window.notReloaded = true`, nil),
	)
	if err != nil {
		t.Fatalf("the other judge's penalties page: %v", err)
	}

	// A phone reports table 1.
	tasks := chromedp.Tasks{phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#report`)}
	for i, p := range ps {
		tasks = append(tasks, chromedp.SendKeys(fmt.Sprintf(`#vp_%d`, p.ID), []string{"10", "7", "5", "3"}[i]))
	}
	tasks = append(tasks,
		chromedp.SetValue(`#declared`, fmt.Sprint(ps[0].ID)),
		chromedp.SetValue(`#player`, fmt.Sprint(ps[0].ID)),
		chromedp.SendKeys(`#code`, codes[ps[0].ID]),
		chromedp.Click(`#report button[type=submit]`),
		chromedp.WaitVisible(`#report-done`),
	)
	if err := chromedp.Run(sitetest.NewBrowser(t), tasks); err != nil {
		t.Fatalf("the report from the phone: %v", err)
	}
	var reported string
	var marks int
	err = chromedp.Run(judge,
		poll(`!!document.querySelector('#reports .report')`),
		chromedp.Text(`#reports`, &reported),
		chromedp.Evaluate(`[...document.querySelectorAll('#reports .report-scores td')].filter(td => td.textContent.trim() === '✔').length`, &marks),
		sitetest.Screenshot("round-live-report"),
	)
	if err != nil || !strings.Contains(reported, "青木") {
		t.Fatalf("the report on the round page: %v\n%s", err, reported)
	}
	stayed(judge, "the report")

	// Another phone confirms it: one more mark, live.
	err = chromedp.Run(sitetest.NewBrowser(t), phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#answer`),
		chromedp.SetValue(`#player`, fmt.Sprint(ps[1].ID)),
		chromedp.SendKeys(`#code`, codes[ps[1].ID]),
		chromedp.Click(`#confirm`),
		chromedp.WaitVisible(`#report-done`),
	)
	if err != nil {
		t.Fatalf("the confirmation from the phone: %v", err)
	}
	err = chromedp.Run(judge,
		poll(fmt.Sprintf(`[...document.querySelectorAll('#reports .report-scores td')].filter(td => td.textContent.trim() === '✔').length === %d`, marks+1)),
		sitetest.Screenshot("round-live-confirmed"),
	)
	if err != nil {
		t.Fatalf("the confirmation on the round page (%d marks before it): %v", marks, err)
	}
	stayed(judge, "the confirmation")

	// A third phone disputes it: the dispute and its call, live, and the
	// chime rings twice.
	disputer := sitetest.NewBrowser(t)
	third := ps[2].ID
	err = chromedp.Run(disputer, phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#answer`),
		chromedp.Click(`#dispute-details summary`),
		chromedp.WaitVisible(`#dispute-form`),
		chromedp.SendKeys(fmt.Sprintf(`#vp_%d`, third), kb.End+kb.Backspace+"6"),
		chromedp.SendKeys(`#note`, "上田さんは6点でした"),
		chromedp.SetValue(`#dispute_player`, fmt.Sprint(third)),
		chromedp.SendKeys(`#dispute_code`, codes[third]),
		chromedp.Click(`#dispute`),
		chromedp.WaitVisible(`#judge-called`),
		chromedp.WaitVisible(`#call-status`),
		chromedp.Evaluate(`window.notReloaded = true`, nil),
	)
	if err != nil {
		t.Fatalf("the dispute from the phone: %v", err)
	}
	var calls, badge, versions, rang string
	err = chromedp.Run(judge,
		poll(`!!document.querySelector('#calls .call-open') && document.getElementById('calls-badge').dataset.open === '1' && !!document.querySelector('#reports .report-versions')`),
		poll(`document.getElementById('chime').dataset.rang === '3'`),
		chromedp.Text(`#calls`, &calls),
		chromedp.Text(`#calls-badge`, &badge),
		chromedp.Text(`#reports`, &versions),
		chromedp.AttributeValue(`#chime`, "data-rang", &rang, nil),
		sitetest.Screenshot("round-live-dispute"),
	)
	if err != nil {
		var state string
		_ = chromedp.Run(judge, sitetest.Screenshot("round-live-dispute"), chromedp.Evaluate(`JSON.stringify({calls: !!document.querySelector('#calls .call-open'), open: document.getElementById('calls-badge').dataset.open, versions: !!document.querySelector('#reports .report-versions'), chime: {...document.getElementById('chime').dataset}, reports: document.getElementById('live-reports').innerText.slice(0, 400)})`, &state))
		t.Fatalf("the dispute on the round page: %v (%s)", err, state)
	}
	stayed(judge, "the dispute")
	for _, want := range []string{"1卓", "上田", "異議"} {
		if !strings.Contains(calls, want) {
			t.Errorf("the round page's calls lack %q:\n%s", want, calls)
		}
	}
	if !strings.Contains(badge, "1卓") || !strings.Contains(versions, "異議の内容（上田 さん）") || !strings.Contains(versions, "上田さんは6点でした") {
		t.Errorf("the navigation says %q; the reports say:\n%s", badge, versions)
	}

	var elsewhere string
	err = chromedp.Run(other,
		poll(`document.getElementById('calls-badge').dataset.open === '1'`),
		chromedp.Text(`#calls-badge`, &elsewhere),
		sitetest.Screenshot("penalties-live-call"),
	)
	if err != nil || !strings.Contains(elsewhere, "呼び出し1件") || !strings.Contains(elsewhere, "1卓") {
		t.Fatalf("the penalties page's navigation after the dispute: %v (%q)", err, elsewhere)
	}
	stayed(other, "the dispute, on the penalties page")

	// The judge claims the call: the table's ruling view on its board.
	var banner string
	err = chromedp.Run(judge,
		chromedp.Click(`#calls .call-open form[action$="/claim"] button`),
		chromedp.WaitVisible(`#claimed-call`),
		chromedp.WaitVisible(`#ruling-board-live`),
		chromedp.Text(`#claimed-call`, &banner),
		sitetest.Screenshot("ruling-dispute-claimed"),
	)
	if err != nil || !strings.Contains(banner, "1卓") || !strings.Contains(banner, "上田") {
		t.Fatalf("the claimed dispute's ruling view: %v (%q)", err, banner)
	}

	// The disputing player's phone says who is coming, without a reload.
	var coming string
	err = chromedp.Run(disputer,
		poll(`document.getElementById('call-status').textContent.includes('山田')`),
		chromedp.Text(`#call-status`, &coming),
		sitetest.Screenshot("phone-dispute-claimed"),
	)
	if err != nil {
		t.Fatalf("the phone after the claim: %v (%q)", err, coming)
	}
	stayed(disputer, "the claim")

	// Resolved from the ruling view with what was decided.
	err = chromedp.Run(judge,
		chromedp.SendKeys(`#resolve-note`, "点数表を直します"),
		chromedp.Click(`#claimed-call form[action$="/resolve"] button`),
		// The claim's flash is on the page already: wait for the resolution's.
		chromedp.WaitVisible(`//p[@data-flash][contains(., "解決済みにしました")]`, chromedp.BySearch),
	)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	var raw struct {
		Calls []map[string]any `json:"calls"`
	}
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/calls", tid), nil, 200, &raw)
	if len(raw.Calls) != 1 || raw.Calls[0]["status"] != "resolved" || raw.Calls[0]["claimed_by"] != "山田" || raw.Calls[0]["resolution"] != "点数表を直します" {
		t.Errorf("GET calls after the resolution = %v, want the dispute's call resolved by 山田 with its note", raw.Calls)
	}
}
