package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestBrowserTwoJudgesConflict is the case in Chromium with two
// judges: both open version 1 of table 1; 山田 corrects one player 7 → 8;
// 佐藤, still on version 1, edits another player and saves. The 409 page
// starts from version 2 (山田's 8), shows 佐藤's typed values beside the
// fields, and pressing Save on it as it stands never stores 7 again.
func TestBrowserTwoJudgesConflict(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	sitetest.SaveResult(t, base, tid, 1) // version 1: 10 (declared), 7, 5, 3
	ids := sitetest.RoundTables(t, base, tid)[0]
	second, fourth := fmt.Sprintf("#vp_%d", ids[1].ID), fmt.Sprintf("#vp_%d", ids[3].ID)
	score := fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1/score", base, tid)

	yamada, sato := sitetest.JudgeIn(t, base, "山田"), sitetest.JudgeIn(t, base, "佐藤")
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
		sitetest.Screenshot("40-score-conflict"),
	)
	if err != nil {
		t.Fatalf("佐藤's stale save: %v", err)
	}
	if !strings.Contains(notice, "山田") || !strings.Contains(notice, "版2") || !strings.Contains(notice, "7点を8点に訂正") || !strings.Contains(notice, "7 → 8") {
		t.Errorf("the conflict notice = %q, want who (山田), the version, the reason and 7 → 8", notice)
	}
	if secondNow != "8" || fourthNow != "3" || fourthMine != "あなたの入力: 4点" {
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
	sitetest.CheckRevision(t, base, tid, 1, 3, "佐藤", map[int64]int{ids[1].ID: 8, ids[3].ID: 4})
}

// TestBrowserConflictKeepsTheCorrection is issue 24's sequence in
// Chromium with two judges: A (山田) saves table 5 with 渡辺 6; B (佐藤)
// opens it; A corrects 渡辺 6 → 7; B changes only 中村 8 → 9 and saves.
// The conflict's "your input" is 中村's 9 alone; 「自分の入力に戻して順位を
// 確認」 keeps 渡辺's 7; saving stores version 3 with A's correction and
// B's. Then both change 中村 on version 3: B's, taken back over A's, asks
// before it saves, naming 中村 with the three values, and is saved only
// once B confirms.
func TestBrowserConflictKeepsTheCorrection(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	dir := t.TempDir()
	addr, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	var tour struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "土曜カタン大会", "rounds": 3}, 201, &tour)
	names := []string{"渡辺/わたなべ", "中村/なかむら"}
	for i := range 18 {
		names = append(names, fmt.Sprintf("参加者%02d/さんかしゃ%02d", i+1, i+1))
	}
	sitetest.AddPlayers(t, dir, tour.ID, names...)
	// 渡辺 and 中村 play table 5, as in the issue.
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	players, err := svc.Players(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	id := map[string]int64{}
	for _, p := range players {
		id[p.Name] = p.ID
		if p.Name == "渡辺" || p.Name == "中村" {
			if _, err := svc.EditPlayer(ctx, "受付", tour.ID, p.ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: p.Name, Kana: p.Kana}, FixedTable: 5}); err != nil {
				t.Fatal(err)
			}
		}
	}
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), nil, 201, nil)
	table := sitetest.RoundTables(t, base, tour.ID)[4]
	var others []int64
	for _, p := range table {
		if p.ID != id["渡辺"] && p.ID != id["中村"] {
			others = append(others, p.ID)
		}
	}
	if len(table) != 4 || len(others) != 2 {
		t.Fatalf("table 5 seats %v, want 渡辺, 中村 and two more", table)
	}
	vp := func(pid int64) string { return fmt.Sprintf("#vp_%d", pid) }
	watanabe, nakamura := vp(id["渡辺"]), vp(id["中村"])
	score := fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/5/score", base, tour.ID)
	save := chromedp.Click(`#score-form button[value="save"]`)

	a, b := sitetest.JudgeIn(t, base, "山田"), sitetest.JudgeIn(t, base, "佐藤")
	// A saves version 1: 渡辺 6, 中村 8, the winner 10, the last 5.
	err = chromedp.Run(a,
		chromedp.Navigate(score),
		chromedp.WaitVisible(watanabe),
		chromedp.SendKeys(vp(others[0]), "10"),
		chromedp.SendKeys(watanabe, "6"),
		chromedp.SendKeys(nakamura, "8"),
		chromedp.SendKeys(vp(others[1]), "5"),
		chromedp.Click(fmt.Sprintf(`input[name="declared"][value="%d"]`, others[0])),
		save,
		chromedp.WaitVisible(`.flash`),
	)
	if err != nil {
		t.Fatalf("A saves version 1: %v", err)
	}
	// B opens it; A corrects 渡辺 6 → 7.
	if err := chromedp.Run(b, chromedp.Navigate(score), chromedp.WaitVisible(nakamura)); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Run(a,
		chromedp.Navigate(score),
		chromedp.WaitVisible(watanabe),
		chromedp.SetValue(watanabe, "7"),
		chromedp.SendKeys(`#reason`, "渡辺さん 6点→7点"),
		save,
		chromedp.WaitVisible(`.flash`),
	)
	if err != nil {
		t.Fatalf("A corrects 渡辺: %v", err)
	}
	// B changes only 中村 8 → 9, and saves: a conflict.
	var mine, watanabeNow, nakamuraNow string
	var marked []string
	err = chromedp.Run(b,
		chromedp.SetValue(nakamura, "9"),
		chromedp.SendKeys(`#reason`, "中村さん 数え直し"),
		save,
		chromedp.WaitVisible(`#stale`),
		chromedp.Text(`#stale .mine`, &mine),
		chromedp.Value(watanabe, &watanabeNow),
		chromedp.Value(nakamura, &nakamuraNow),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('p.mine')).map(e => e.id)`, &marked),
		sitetest.Screenshot("conflict-issue24-stale"),
	)
	if err != nil {
		t.Fatalf("B's save on version 1: %v", err)
	}
	if !strings.Contains(mine, "中村") || !strings.Contains(mine, "9点") || strings.Contains(mine, "渡辺") {
		t.Errorf("B's input on the conflict page = %q, want 中村's 9 and not 渡辺, whom B never touched", mine)
	}
	if watanabeNow != "7" || nakamuraNow != "8" || len(marked) != 1 || marked[0] != nakamura[1:]+"-mine" {
		t.Errorf("the conflict page shows 渡辺 %s and 中村 %s, with %v marked; want the saved 7 and 8, 中村 alone marked", watanabeNow, nakamuraNow, marked)
	}
	// 「自分の入力に戻して順位を確認」, then save.
	err = chromedp.Run(b,
		chromedp.Click(`#stale form button`),
		chromedp.WaitReady(`#score-form input[name="base"]`),
		chromedp.Value(watanabe, &watanabeNow),
		chromedp.Value(nakamura, &nakamuraNow),
		sitetest.Screenshot("conflict-issue24-mine-back"),
		save,
		chromedp.WaitVisible(`.flash`),
	)
	if err != nil {
		t.Fatalf("B takes their input back and saves: %v", err)
	}
	if watanabeNow != "7" || nakamuraNow != "9" {
		t.Errorf("B's input taken back shows 渡辺 %s and 中村 %s, want A's 7 and B's 9", watanabeNow, nakamuraNow)
	}
	sitetest.CheckRevision(t, base, tour.ID, 5, 3, "佐藤", map[int64]int{id["渡辺"]: 7, id["中村"]: 9})

	// Both change 中村 on version 3: A to 10, then B to 8.
	for _, ctx := range []context.Context{a, b} {
		if err := chromedp.Run(ctx, chromedp.Navigate(score), chromedp.WaitVisible(nakamura)); err != nil {
			t.Fatal(err)
		}
	}
	err = chromedp.Run(a, chromedp.SetValue(nakamura, "10"), chromedp.SendKeys(`#reason`, "中村さん 10点"), save, chromedp.WaitVisible(`.flash`))
	if err != nil {
		t.Fatalf("A's 中村 10: %v", err)
	}
	var asked string
	err = chromedp.Run(b,
		chromedp.SetValue(nakamura, "8"),
		chromedp.SendKeys(`#reason`, "中村さん 8点"),
		save,
		chromedp.WaitVisible(`#stale`),
		chromedp.Click(`#stale form button`),
		chromedp.WaitReady(`#score-form input[name="base"]`),
		save,
		chromedp.WaitVisible(`#overwrite`),
		chromedp.Text(`#overwrite`, &asked),
		sitetest.Screenshot("conflict-issue24-overwrite"),
	)
	if err != nil {
		t.Fatalf("B's 中村 8 over A's 10: %v", err)
	}
	if !strings.Contains(asked, "中村") || !strings.Contains(asked, "9点") || !strings.Contains(asked, "10点") || !strings.Contains(asked, "8点") || strings.Contains(asked, "渡辺") {
		t.Errorf("the question before overwriting = %q, want 中村 with 9, A's 10 and B's 8", asked)
	}
	sitetest.CheckRevision(t, base, tour.ID, 5, 4, "山田", map[int64]int{id["中村"]: 10})
	if err := chromedp.Run(b, chromedp.Click(`#overwrite-button`), chromedp.WaitVisible(`.flash`)); err != nil {
		t.Fatalf("B confirms: %v", err)
	}
	sitetest.CheckRevision(t, base, tour.ID, 5, 5, "佐藤", map[int64]int{id["渡辺"]: 7, id["中村"]: 8})
}
