package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// judgeIn starts a browser of the judge's own (its own cookies) and logs
// the judge in.
func judgeIn(t *testing.T, base, name string) context.Context {
	t.Helper()
	ctx := newBrowser(t)
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next=/judge/login"),
		chromedp.WaitVisible(`#password`),
		chromedp.SendKeys(`#name`, name),
		chromedp.SendKeys(`#password`, browserPassword),
		chromedp.Submit(`#password`),
		chromedp.WaitVisible(`#new-h`),
	)
	if err != nil {
		t.Fatalf("log %s in: %v", name, err)
	}
	return ctx
}

// TestBrowserTwoJudgesConflict is the case in Chromium with two
// judges: both open version 1 of table 1; 山田 corrects one player 7 → 8;
// 佐藤, still on version 1, edits another player and saves. The 409 page
// starts from version 2 (山田's 8), shows 佐藤's typed values beside the
// fields, and pressing Save on it as it stands never stores 7 again.
func TestBrowserTwoJudgesConflict(t *testing.T) {
	skipWithoutChromium(t)
	addr, _ := serveAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := setUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	saveResult(t, base, tid, 1) // version 1: 10 (declared), 7, 5, 3
	ids := roundTables(t, base, tid)[0]
	second, fourth := fmt.Sprintf("#vp_%d", ids[1].ID), fmt.Sprintf("#vp_%d", ids[3].ID)
	score := fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1/score", base, tid)

	yamada, sato := judgeIn(t, base, "山田"), judgeIn(t, base, "佐藤")
	for _, ctx := range []context.Context{yamada, sato} {
		if err := chromedp.Run(ctx, chromedp.Navigate(score), chromedp.WaitVisible(second)); err != nil {
			t.Fatal(err)
		}
	}
	// 山田 saves version 2: the second player 7 → 8, with a reason.
	err := chromedp.Run(yamada,
		chromedp.SetValue(second, "8"),
		chromedp.SendKeys(`#reason`, "7点を8点に訂正"),
		chromedp.Click(`button[value="save"]`),
		chromedp.WaitVisible(`.flash`),
	)
	if err != nil {
		t.Fatalf("山田's correction: %v", err)
	}
	// 佐藤, on version 1, corrects the fourth player 3 → 4.
	var notice, secondNow, fourthNow, fourthMine string
	err = chromedp.Run(sato,
		chromedp.SetValue(fourth, "4"),
		chromedp.SendKeys(`#reason`, "数え直し"),
		chromedp.Click(`button[value="save"]`),
		chromedp.WaitVisible(`#conflict`),
		chromedp.Text(`#conflict`, &notice),
		chromedp.Value(second, &secondNow),
		chromedp.Value(fourth, &fourthNow),
		chromedp.Text(fourth+"-mine", &fourthMine),
		screenshot("40-score-conflict"),
	)
	if err != nil {
		t.Fatalf("佐藤's stale save: %v", err)
	}
	if !strings.Contains(notice, "山田") || !strings.Contains(notice, "版2") || !strings.Contains(notice, "7点を8点に訂正") || !strings.Contains(notice, "7 → 8") {
		t.Errorf("the conflict notice = %q, want who (山田), the version, the reason and 7 → 8", notice)
	}
	if secondNow != "8" || fourthNow != "3" || fourthMine != "あなたの入力: 4" {
		t.Errorf("after the conflict the sheet shows %s and %s with %q beside; want the saved 8 and 3, with 4 typed beside", secondNow, fourthNow, fourthMine)
	}

	// Save as it stands: a correction needs its reason, and nothing is stored.
	var reasonError string
	err = chromedp.Run(sato,
		chromedp.Click(`#sheet-h ~ form button[value="save"]`),
		chromedp.WaitVisible(`#reason-error`),
		chromedp.Text(`#reason-error`, &reasonError),
	)
	if err != nil {
		t.Fatalf("save the conflict page as it stands: %v", err)
	}
	// 佐藤 makes the change again on the saved sheet, and saves.
	err = chromedp.Run(sato,
		chromedp.SetValue(fourth, "4"),
		chromedp.SetValue(`#reason`, "数え直し"),
		chromedp.Click(`#sheet-h ~ form button[value="save"]`),
		chromedp.WaitVisible(`.flash`),
	)
	if err != nil {
		t.Fatalf("佐藤's correction on version 2: %v", err)
	}
	var revs struct {
		Revisions []struct {
			Version int    `json:"version"`
			Judge   string `json:"judge"`
			Scores  []struct {
				Player int64 `json:"player"`
				VP     int   `json:"vp"`
			} `json:"scores"`
		} `json:"revisions"`
	}
	apiDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/revisions", tid), nil, 200, &revs)
	if n := len(revs.Revisions); n != 3 {
		t.Fatalf("table 1 has %d revisions, want 3: v1, 山田's v2, 佐藤's v3", n)
	}
	vp := map[int64]int{}
	for _, sc := range revs.Revisions[2].Scores {
		vp[sc.Player] = sc.VP
	}
	if revs.Revisions[2].Judge != "佐藤" || vp[ids[1].ID] != 8 || vp[ids[3].ID] != 4 {
		t.Errorf("version 3 by %s has %d and %d, want 佐藤's with 山田's 8 kept and 4", revs.Revisions[2].Judge, vp[ids[1].ID], vp[ids[3].ID])
	}
}
