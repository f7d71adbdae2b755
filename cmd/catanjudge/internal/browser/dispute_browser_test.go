package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserTableDispute is the dispute on phones (390×844): a
// player reports table 1, giving the winner's breakdown, whose counted VP
// shows as they type (a mistyped count flagged by the VP field, then
// cleared); another player disputes it with their own version and a note,
// and the table's page tells everyone a judge was called; on the judge's
// laptop the round page shows both versions with the difference marked,
// the judge opens the score sheet from the disputed version and saves it,
// the history saying it came from the players' report; the kiosk shows
// the result.
func TestBrowserTableDispute(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid, ps, codes := reportingTable(t, base, "異議テスト大会")
	table := fmt.Sprintf("%s/lang/ja?next=/kiosk/%d/rounds/1/tables/1", base, tid)
	winner, third := ps[0].ID, ps[2].ID
	poll := func(js string) chromedp.Action {
		return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(30*time.Second))
	}

	// The first phone reports, with the winner's breakdown.
	first := sitetest.NewBrowser(t)
	tasks := chromedp.Tasks{phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#report`)}
	for i, p := range ps {
		tasks = append(tasks, chromedp.SendKeys(fmt.Sprintf(`#vp_%d`, p.ID), []string{"10", "7", "5", "3"}[i]))
	}
	tasks = append(tasks,
		chromedp.Click(fmt.Sprintf(`.p-line:has(#vp_%d) summary`, winner)),
		chromedp.SendKeys(fmt.Sprintf(`#settlements_%d`, winner), "2"),
		chromedp.SendKeys(fmt.Sprintf(`#cities_%d`, winner), "2"),
		chromedp.Click(fmt.Sprintf(`#longest_road_%d`, winner)),
		chromedp.SendKeys(fmt.Sprintf(`#point_cards_%d`, winner), "1"),
		// 2 + 4 + 2 + 1 = 9 against the 10 typed: flagged by the VP.
		poll(fmt.Sprintf(`document.getElementById('total-%d').textContent === '9' && document.getElementById('vp_%d-check').textContent.includes('内訳からは9点')`, winner, winner)),
		sitetest.Screenshot("phone-report-breakdown-mismatch"),
		chromedp.SendKeys(fmt.Sprintf(`#point_cards_%d`, winner), kb.Backspace+"2"),
		poll(fmt.Sprintf(`document.getElementById('total-%d').textContent === '10' && document.getElementById('vp_%d-check').textContent === ''`, winner, winner)),
		chromedp.SetValue(`#declared`, fmt.Sprint(winner)),
		chromedp.SetValue(`#player`, fmt.Sprint(winner)),
		chromedp.SendKeys(`#code`, codes[winner]),
		sitetest.Screenshot("phone-report-breakdown"),
		chromedp.Click(`#report button[type=submit]`),
		chromedp.WaitVisible(`#report-done`),
	)
	if err := chromedp.Run(first, tasks); err != nil {
		t.Fatalf("report from the first phone: %v", err)
	}

	// The second phone disputes: the third player had 6, not 5.
	second := sitetest.NewBrowser(t)
	var called, scores string
	err := chromedp.Run(second, phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#answer`),
		chromedp.Click(`#dispute-details summary`),
		chromedp.WaitVisible(`#dispute-form`),
		chromedp.SendKeys(fmt.Sprintf(`#vp_%d`, third), kb.End+kb.Backspace+"6"),
		chromedp.SendKeys(`#note`, "上田さんは6点でした"),
		chromedp.SetValue(`#dispute_player`, fmt.Sprint(ps[1].ID)),
		chromedp.SendKeys(`#dispute_code`, codes[ps[1].ID]),
		sitetest.Screenshot("phone-dispute-form"),
		chromedp.Click(`#dispute`),
		chromedp.WaitVisible(`#judge-called`),
		chromedp.Text(`#judge-called`, &called),
		chromedp.Text(`#report-scores`, &scores),
		sitetest.Screenshot("phone-disputed"),
	)
	if err != nil || !strings.Contains(called, "ジャッジを呼びました") || !strings.Contains(scores, "違い") {
		t.Fatalf("dispute from the second phone: %v (%q, %q)", err, called, scores)
	}
	// Another player at the table is told so too.
	var told string
	err = chromedp.Run(sitetest.NewBrowser(t), phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#judge-called`), chromedp.Text(`#judge-called`, &told))
	if err != nil || !strings.Contains(told, "ジャッジを呼びました") {
		t.Fatalf("the table's page on a third phone: %v (%q)", err, told)
	}

	// The judge compares the versions on the round page and opens the
	// sheet from the disputed one.
	judge := sitetest.JudgeIn(t, base, "山田")
	var queue, typed, flash, history string
	var differs int
	err = chromedp.Run(judge,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1#reports", base, tid)),
		chromedp.WaitVisible(`.report-versions`),
		chromedp.Text(`#reports`, &queue),
		chromedp.Evaluate(`document.querySelectorAll('.report-versions tr.differs').length`, &differs),
		sitetest.Screenshot("round-dispute-versions"),
		chromedp.Click(`#reports a[href*="side=disputed"]`),
		chromedp.WaitVisible(`#from-report`),
		chromedp.Value(fmt.Sprintf(`#vp_%d`, third), &typed),
		sitetest.Screenshot("score-from-dispute"),
		chromedp.Click(`#score-form button[value=save]`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Text(`.flash`, &flash),
		chromedp.Text(`section[aria-labelledby=saved-h]`, &history),
	)
	if err != nil {
		t.Fatalf("the judge: %v", err)
	}
	for _, want := range []string{"報告の内容（青木 さん）", "異議の内容（井上 さん）", "違い", "異議のメモ: 上田さんは6点でした"} {
		if !strings.Contains(queue, want) {
			t.Errorf("the round page's queue lacks %q:\n%s", want, queue)
		}
	}
	if differs != 1 || typed != "6" || !strings.Contains(history, "参加者の報告") {
		t.Fatalf("%d rows marked different (want 1), the sheet opened with %q for 上田 (want 6), history %q (want the players' report); flash %q",
			differs, typed, history, flash)
	}
	// The queue says which version became the result: the disputing
	// player's, not a bare "accepted".
	var done string
	err = chromedp.Run(judge,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1#reports", base, tid)),
		chromedp.WaitVisible(`#reports`),
		chromedp.Text(`#reports`, &done),
		sitetest.Screenshot("round-dispute-accepted"),
	)
	if err != nil || !strings.Contains(done, "井上 さんの異議の版が第1版の結果になりました") || strings.Contains(done, "承認済み（第1版）") {
		t.Errorf("the round page's queue after the judge saved the disputed version: %v\n%s", err, done)
	}

	// The kiosk shows the result.
	var kiosk, page string
	err = chromedp.Run(first,
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d", base, tid)),
		chromedp.WaitVisible(`#table-cards`),
		chromedp.Evaluate(`document.getElementById('table-cards').innerText`, &kiosk),
		sitetest.Screenshot("phone-kiosk-after-dispute"),
		chromedp.Navigate(table),
		chromedp.WaitVisible(`#report-saved`),
		chromedp.Text(`main`, &page),
	)
	if err != nil || !strings.Contains(kiosk, "1位") || !strings.Contains(kiosk, "6点") || !strings.Contains(page, "記録済み") ||
		!strings.Contains(page, "ジャッジが 井上 さんの異議の版を結果にしました（第1版）") {
		t.Fatalf("the kiosk after the judge's sheet: %v\n%s\n%s", err, kiosk, page)
	}
}
