package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserKioskFinal is a national event's top-4 final as the room sees
// it in Chromium: on the projector (1600×900) the final's table with whose
// turn it is, the turn's countdown running and the end announced within
// the ruleset's 10 minutes, and the cut with the draw's seed; on a phone
// a player out of the final is told they did not advance; once the
// final's result is saved the phone's kiosk swaps in the final results,
// the final table's winner first. Screenshots are kept as artefacts.
func TestBrowserKioskFinal(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	base, ahead, tid, path := aheadEvent(t, map[string]any{"name": "カタン地区予選", "rounds": 1, "ruleset": "national-2025"})
	for _, p := range []string{"青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "工藤/くどう"} {
		name, kana, _ := strings.Cut(p, "/")
		sitetest.APIDo(t, base, "POST", path+"/players", map[string]any{"name": name, "kana": kana}, 201, nil)
	}
	sitetest.APIDo(t, base, "POST", path+"/rounds", nil, 201, nil)
	type table struct {
		Players []sitetest.Seated `json:"players"`
	}
	var round struct {
		Tables []table `json:"tables"`
	}
	save := func(n, tb int, declared int64, players []sitetest.Seated, vp ...int) {
		t.Helper()
		var scores []map[string]int64
		for i, p := range players {
			scores = append(scores, map[string]int64{"player": p.ID, "vp": int64(vp[i])})
		}
		sitetest.APIDo(t, base, "PUT", fmt.Sprintf("%s/rounds/%d/tables/%d/result", path, n, tb), map[string]any{"scores": scores, "declared": declared}, 200, nil)
	}
	sitetest.APIDo(t, base, "GET", path+"/rounds/1", nil, 200, &round)
	// Table 2's 2nd and 3rd share 6 VP: they tie for the 4th place of the cut.
	save(1, 1, round.Tables[0].Players[0].ID, round.Tables[0].Players, 10, 8, 6, 4)
	save(1, 2, round.Tables[1].Players[0].ID, round.Tables[1].Players, 10, 6, 6, 2)
	var final struct {
		Cut struct {
			Draw []int64 `json:"draw"`
			Seed uint64  `json:"seed"`
		} `json:"cut"`
	}
	sitetest.APIDo(t, base, "POST", path+"/final", nil, 201, &final)
	if len(final.Cut.Draw) != 2 {
		t.Fatalf("the final's cut = %+v, want a draw of 2", final.Cut)
	}
	out := round.Tables[0].Players[3] // 4 VP at table 1: out of the final
	sitetest.APIDo(t, base, "POST", path+"/rounds/2/tables/1/seating", map[string]any{"auto": true}, 200, nil)
	sitetest.APIDo(t, base, "POST", path+"/rounds/2/clock", map[string]any{"action": "start"}, 200, nil)
	// 8 minutes of placement and 60 of play are over, and a minute more.
	ahead.Add(int64(69 * time.Minute))
	var r2 struct {
		Tables []table `json:"tables"`
	}
	sitetest.APIDo(t, base, "GET", path+"/rounds/2", nil, 200, &r2)
	who := r2.Tables[0].Players[0]
	sitetest.APIDo(t, base, "POST", path+"/rounds/2/clock", map[string]any{"action": "turn", "table": 1, "player": who.ID}, 200, nil)
	// The judge sets the end 9 minutes from now: within the 10 minutes' notice.
	sitetest.APIDo(t, base, "POST", path+"/rounds/2/clock", map[string]any{"action": "end", "table": 1, "seconds": 9 * 60}, 200, nil)

	kiosk := fmt.Sprintf("%s/lang/ja?next=/kiosk/%d", base, tid)
	ctx := sitetest.NewBrowser(t)
	var turn, before, after, announce, cut, label, big, bigLater, bigLabel string
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1600, 900),
		chromedp.Navigate(kiosk+"%3Fview%3Dprojector"),
		chromedp.WaitVisible(`.k-turns`),
		// The page swaps its live parts in once its feed opens: read them after.
		chromedp.Sleep(700*time.Millisecond),
		chromedp.WaitVisible(`.k-turns`),
		chromedp.Text(`.k-turn`, &turn),
		chromedp.Text(`.k-turn-left`, &before),
		chromedp.Sleep(2100*time.Millisecond),
		chromedp.Text(`.k-turn-left`, &after),
		chromedp.Text(`.k-announce`, &announce),
		chromedp.Text(`#cut`, &cut),
		chromedp.Text(`#round-label`, &label),
		chromedp.Text(`#clock-time`, &big),
		chromedp.Text(`#clock-label`, &bigLabel),
		sitetest.Screenshot("kiosk-final-projector"),
		chromedp.Sleep(1100*time.Millisecond),
		chromedp.Text(`#clock-time`, &bigLater),
	)
	if err != nil {
		t.Fatalf("the projector during the final: %v", err)
	}
	if !strings.Contains(turn, "1手番目: "+who.Name) || before == after || !strings.HasPrefix(before, "2:") && !strings.HasPrefix(before, "1:") {
		t.Errorf("the final table's turn = %q, counting %q then %q: want %s's turn, the 1st, counting down from 2:00", turn, before, after, who.Name)
	}
	// Issue 24: the projector's big clock is the turn's countdown under 決勝卓
	// 手番制限中, not 時間です.
	if bigLabel != "決勝卓 手番制限中" || big == bigLater || !strings.HasPrefix(big, "1:") && !strings.HasPrefix(big, "2:") {
		t.Errorf("the projector's clock = %q under %q, then %q: want the turn's countdown under 決勝卓 手番制限中", big, bigLabel, bigLater)
	}
	if !strings.Contains(announce, "10分を切りました") {
		t.Errorf("the announcement = %q, want the end within 10 minutes", announce)
	}
	if !strings.Contains(cut, fmt.Sprintf("抽選 seed %d", final.Cut.Seed)) || label != "第2回戦・決勝" {
		t.Errorf("the cut = %q under %q, want the draw with its seed in the final round", cut, label)
	}

	var status string
	err = chromedp.Run(ctx,
		chromedp.EmulateViewport(412, 915),
		chromedp.Navigate(kiosk),
		chromedp.WaitVisible(`#q`),
		chromedp.SendKeys(`#q`, out.Name),
		chromedp.WaitVisible(`#entries tr:not([hidden]) .k-out`),
		chromedp.Text(`#entries tr:not([hidden]) .k-out`, &status),
		sitetest.Screenshot("kiosk-final-phone"),
	)
	if err != nil {
		t.Fatalf("the phone during the final: %v", err)
	}
	if status != "決勝には進出していません（決勝卓で対戦中です）" {
		t.Errorf("%s searched on the phone: %q, want that they did not advance", out.Name, status)
	}

	// The final's result is saved: the phone's kiosk, still open, shows the
	// final results.
	finalists := r2.Tables[0].Players
	save(2, 1, finalists[1].ID, finalists, 7, 10, 5, 5)
	var first, shown string
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`#final-results`),
		chromedp.Text(`#final-rows tr`, &first),
		sitetest.Screenshot("kiosk-final-results-phone"),
		chromedp.EmulateViewport(1600, 900),
		chromedp.Navigate(kiosk+"%3Fview%3Dprojector"),
		chromedp.WaitVisible(`#final-results`),
		chromedp.Sleep(500*time.Millisecond),
		// The projector pages through its panels: the final results first.
		chromedp.Evaluate(`[...document.querySelectorAll('.k-panel')].filter(p => !p.hidden && !p.classList.contains('k-off')).map(p => p.id).join(' ')`, &shown),
		sitetest.Screenshot("kiosk-final-results-projector"),
	)
	if err != nil {
		t.Fatalf("the kiosk after the final: %v", err)
	}
	if !strings.Contains(first, finalists[1].Name) || !strings.Contains(first, "決勝卓 1位") {
		t.Errorf("the final results' first line = %q, want %s from the final table", first, finalists[1].Name)
	}
	if shown != "final-results" {
		t.Errorf("the projector shows the panels %q, want the final results alone", shown)
	}
}
