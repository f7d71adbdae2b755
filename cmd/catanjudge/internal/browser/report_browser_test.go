package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// seatedPlayer is a player at a table, as the round's JSON names them.
type seatedPlayer struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// reportingTable makes a tournament named name whose players report their
// tables (approve), registers four players and pairs round 1 through the
// API on base; it returns the tournament's ID, the players of table 1 and
// every player's code.
func reportingTable(t *testing.T, base, name string) (int64, []seatedPlayer, map[int64]string) {
	t.Helper()
	return reportingTableOf(t, base, name, [][2]string{{"青木"}, {"井上"}, {"上田"}, {"江藤"}})
}

// reportingTableOf is reportingTable with the four players' names and
// readings.
func reportingTableOf(t *testing.T, base, name string, players [][2]string) (int64, []seatedPlayer, map[int64]string) {
	t.Helper()
	var tour struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": name, "rounds": 3, "self_report": "approve"}, 201, &tour)
	codes := map[int64]string{}
	for _, pl := range players {
		var p struct {
			ID   int64  `json:"id"`
			Code string `json:"code"`
		}
		sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": pl[0], "kana": pl[1]}, 201, &p)
		codes[p.ID] = p.Code
	}
	var round struct {
		Tables []struct {
			Players []seatedPlayer `json:"players"`
		} `json:"tables"`
	}
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), nil, 201, &round)
	return tour.ID, round.Tables[0].Players, codes
}

// TestBrowserTableReport is the flow on phones: a player reports
// table 1 (every VP and who declared) with their code, two other players
// confirm from their own phones, the fourth from the API; the judge
// accepts the report on the round page, and the kiosk shows the placings.
// The table's players are two 佐藤 太郎 and two 田中 一郎: the phones tell
// each from the other by their reading, in the form and in what the
// players confirm.
func TestBrowserTableReport(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	dir := t.TempDir()
	addr, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid, ps, codes := reportingTableOf(t, base, "報告テスト大会",
		[][2]string{{"佐藤 太郎", "さとう たろう"}, {"佐藤 太郎", "さどう たろう"}, {"田中 一郎", "たなか いちろう"}, {"田中 一郎", "たなか かずお"}})
	labels := []string{"佐藤 太郎（さとう たろう）", "佐藤 太郎（さどう たろう）", "田中 一郎（たなか いちろう）", "田中 一郎（たなか かずお）"}
	// tellsApart fails unless a phone's page names each player by label.
	tellsApart := func(what, page string) {
		t.Helper()
		for _, l := range labels {
			if !strings.Contains(page, l) {
				t.Errorf("%s does not name %s:\n%s", what, l, page)
			}
		}
	}
	table := fmt.Sprintf("%s/lang/ja?next=/kiosk/%d/rounds/1/tables/1", base, tid)

	// The first phone reports.
	first := sitetest.NewBrowser(t)
	var done, form string
	tasks := chromedp.Tasks{phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#report`),
		chromedp.Evaluate(`document.getElementById('report').innerText`, &form)}
	for i, p := range ps {
		tasks = append(tasks, chromedp.SendKeys(fmt.Sprintf(`#vp_%d`, p.ID), []string{"10", "7", "5", "3"}[i]))
	}
	tasks = append(tasks,
		chromedp.SetValue(`#declared`, fmt.Sprint(ps[0].ID)),
		chromedp.SetValue(`#player`, fmt.Sprint(ps[0].ID)),
		chromedp.SendKeys(`#code`, strings.ToLower(codes[ps[0].ID])),
		sitetest.Screenshot("phone-report-form"),
		chromedp.Click(`#report button[type=submit]`),
		chromedp.WaitVisible(`#report-done`),
		chromedp.Text(`#report-done`, &done),
		sitetest.Screenshot("phone-reported"),
	)
	if err := chromedp.Run(first, tasks); err != nil {
		t.Fatalf("report from the first phone: %v", err)
	}
	if !strings.Contains(done, "送信しました") {
		t.Fatalf("after reporting the phone says %q", done)
	}
	tellsApart("the report form", form)

	// Two other phones confirm.
	for _, p := range ps[1:3] {
		ctx := sitetest.NewBrowser(t)
		var page string
		err := chromedp.Run(ctx, phone(), chromedp.Navigate(table), chromedp.WaitVisible(`#answer`),
			chromedp.Evaluate(`document.body.innerText`, &page),
			chromedp.SetValue(`#player`, fmt.Sprint(p.ID)),
			chromedp.SendKeys(`#code`, codes[p.ID]),
			chromedp.Click(`#confirm`),
			chromedp.WaitVisible(`#report-done`),
			chromedp.Text(`#report-done`, &done),
			sitetest.Screenshot("phone-confirmed"),
		)
		if err != nil || !strings.Contains(done, "確認しました") {
			t.Fatalf("confirm from %s's phone: %v (%q)", p.Name, err, done)
		}
		tellsApart("the confirmation", page)
	}
	var reports struct {
		Reports []struct {
			Report int64 `json:"report"`
		} `json:"reports"`
	}
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/reports", tid), nil, 200, &reports)
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/reports/%d/confirm", tid, reports.Reports[0].Report),
		map[string]any{"player": ps[3].ID, "code": codes[ps[3].ID]}, 200, nil)

	// The judge accepts it on the round page.
	judge := sitetest.JudgeIn(t, base, "山田")
	var flash string
	err := chromedp.Run(judge,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1#reports", base, tid)),
		chromedp.WaitVisible(`#reports form button`),
		sitetest.Screenshot("round-report-queue"),
		chromedp.Click(`#reports form button`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Text(`.flash`, &flash),
	)
	if err != nil || !strings.Contains(flash, "参加者の報告を卓の結果として保存しました") {
		t.Fatalf("accept: %v (%q)", err, flash)
	}
	// The judges' score sheet of the table, on a laptop.
	var sheet string
	err = chromedp.Run(judge,
		chromedp.EmulateViewport(1366, 768),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1/score", base, tid)),
		chromedp.WaitVisible(`#score-form`),
		chromedp.Evaluate(`document.querySelector('main').innerText`, &sheet),
		sitetest.Screenshot("score-same-names-laptop"),
	)
	if err != nil {
		t.Fatalf("the score sheet: %v", err)
	}
	tellsApart("the judges' score sheet", sheet)

	// The kiosk shows the table's placings.
	var kiosk string
	err = chromedp.Run(first,
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d", base, tid)),
		chromedp.WaitVisible(`#table-cards`),
		// One read: kiosk.js may swap the cards in as a change arrives.
		chromedp.Evaluate(`document.getElementById('table-cards').innerText`, &kiosk),
		sitetest.Screenshot("phone-kiosk-after-report"),
	)
	if err != nil || !strings.Contains(kiosk, "1位") || !strings.Contains(kiosk, ps[0].Name) {
		t.Fatalf("kiosk after the report: %v\n%s", err, kiosk)
	}
	// The table's own phone page shows the result as recorded.
	var recorded string
	err = chromedp.Run(first,
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d/rounds/1/tables/1", base, tid)),
		chromedp.WaitVisible(`#result-scores`),
		chromedp.Text(`#result-scores`, &recorded),
		sitetest.Screenshot("phone-table-recorded"),
	)
	if err != nil || !strings.Contains(recorded, "1位") {
		t.Fatalf("the table's page after the judge accepted: %v\n%s", err, recorded)
	}
}
