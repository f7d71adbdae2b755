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

// staffIn makes an account of role on the server at base through the
// staff API and logs a new browser in to it.
func staffIn(t *testing.T, base, name, role string) context.Context {
	t.Helper()
	var made struct {
		Password string `json:"password"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/staff", map[string]any{"name": name, "role": role}, 201, &made)
	return sitetest.LogInAs(t, base, name, made.Password)
}

// TestBrowserTwoPersonRule is issue 27's second pair of eyes in Chromium
// with two judges and a scorekeeper logged in at once, each to their own
// account: the scorekeeper enters table 1's sheet, and the round page
// says it waits for another account (the scorekeeper's own shows no
// confirm button); a judge's round page lists it without a reload, and
// the judge confirms it; the kiosk then counts it, and the audit log
// names each account.
func TestBrowserTwoPersonRule(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	var tour struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "二人確認テスト", "rounds": 3, "confirm_results": true}, 201, &tour)
	var ids []int64
	for _, n := range []string{"青木", "井上", "上田", "江藤"} {
		var p struct {
			ID int64 `json:"id"`
		}
		sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": n}, 201, &p)
		ids = append(ids, p.ID)
	}
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), nil, 201, nil)
	round := fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tour.ID)

	keeper := staffIn(t, base, "記録係", "scorekeeper")
	judgeA := staffIn(t, base, "田中", "judge")
	judgeB := sitetest.JudgeIn(t, base, "山田")
	poll := func(js string) chromedp.Action {
		return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(30*time.Second))
	}
	// 田中 has the round page open before the sheet is entered.
	if err := chromedp.Run(judgeA, chromedp.Navigate(round), chromedp.WaitReady(`#live-pending`), chromedp.Evaluate(`window.notReloaded = true`, nil)); err != nil {
		t.Fatalf("田中's round page: %v", err)
	}

	var who, own string
	tasks := chromedp.Tasks{chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1/score", base, tour.ID)), chromedp.WaitVisible(`#score-form`)}
	// The table's order is the pairing's; the players' ids say who is who.
	for i, id := range ids {
		tasks = append(tasks, chromedp.SetValue(fmt.Sprintf(`#vp_%d`, id), []string{"10", "7", "5", "3"}[i]))
	}
	tasks = append(tasks,
		chromedp.Click(fmt.Sprintf(`#declared input[value="%d"]`, ids[0])),
		chromedp.Click(`#score-form button[value=save]`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Navigate(round),
		chromedp.WaitVisible(`#pending-1`),
		chromedp.Text(`.who`, &who),
		chromedp.Text(`#pending-1`, &own),
		sitetest.Screenshot("round-pending-own"),
	)
	if err := chromedp.Run(keeper, tasks); err != nil {
		t.Fatalf("the scorekeeper's sheet: %v", err)
	}
	if !strings.Contains(who, "記録係") || !strings.Contains(who, "スコアキーパー") || !strings.Contains(own, "記録係") {
		t.Errorf("the scorekeeper's header %q and pending table %q, want 記録係 the スコアキーパー who entered it", who, own)
	}
	var buttons int
	if err := chromedp.Run(keeper, chromedp.Evaluate(`document.querySelectorAll('#pending-1 form button').length`, &buttons)); err != nil || buttons != 0 {
		t.Errorf("the scorekeeper's own entry shows %d confirm buttons (%v), want none", buttons, err)
	}

	// 田中's page lists it without a reload; 田中 confirms it.
	var stayed bool
	var listed, after string
	err := chromedp.Run(judgeA,
		poll(`!!document.querySelector('#pending-1 form button')`),
		chromedp.Evaluate(`window.notReloaded === true`, &stayed),
		chromedp.Text(`#pending-1`, &listed),
		sitetest.Screenshot("round-pending-live"),
		// The confirmation's form posts and the round page loads again.
		chromedp.Click(`#pending-1 form button`),
		chromedp.WaitNotPresent(`#pending-1`),
		chromedp.WaitReady(`#live-tables`),
		chromedp.Text(`#live-tables`, &after),
	)
	if err != nil || !stayed {
		t.Fatalf("田中's confirmation: %v (reloaded: %v)", err, !stayed)
	}
	if !strings.Contains(listed, "記録係") || strings.Contains(after, "確認待ち") {
		t.Errorf("the pending table on 田中's page = %q, want who entered it; the tables after = %q, want none waiting", listed, after)
	}

	// 山田, logged in meanwhile, reads the audit log: each account named.
	var audit string
	err = chromedp.Run(judgeB,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/audit", base, tour.ID)),
		chromedp.WaitVisible(`#main`),
		chromedp.Text(`#main`, &audit),
		sitetest.Screenshot("audit-two-person"),
	)
	if err != nil || !strings.Contains(audit, "田中 が") || !strings.Contains(audit, "記録係 が") {
		t.Errorf("the audit log: %v\n%s\nwant lines by 田中 and 記録係", err, audit)
	}
	var kiosk string
	if err := chromedp.Run(judgeB, chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d", base, tour.ID)), chromedp.WaitVisible(`#table-cards`),
		chromedp.Evaluate(`document.getElementById('table-cards').innerText`, &kiosk)); err != nil || strings.Contains(kiosk, "確認待ち") {
		t.Errorf("the kiosk after the confirmation: %v\n%s", err, kiosk)
	}
}
