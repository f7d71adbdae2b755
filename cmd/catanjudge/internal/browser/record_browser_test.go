package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// recordedPlacements are the §4 placements the test enters by taps, each
// a settlement and its road. The last is the first player's second
// settlement, between forest, hills and pasture on the board of the
// capsule roll white 3, blue 5: a lumber and a brick for a road (§4 ウ).
var recordedPlacements = [][3]string{
	{"S(1,-3)", "S(1,-3)", "N(0,-2)"}, {"S(3,-2)", "S(3,-2)", "N(2,-1)"}, {"N(1,2)", "N(1,2)", "S(1,1)"},
	{"N(-3,2)", "N(-3,2)", "S(-2,1)"}, {"S(-2,-1)", "S(-2,-1)", "N(-3,1)"}, {"S(-1,2)", "S(-1,2)", "N(-1,3)"},
	{"N(2,1)", "N(2,1)", "S(3,-1)"}, {"S(1,0)", "S(1,0)", "N(0,1)"},
}

// poll waits up to 10 s for the page's script expression js to hold,
// asking every 100 ms: the judge's tab is in the background while the
// projector's is shown, and Chromium pauses animation frames there.
func poll(js string) chromedp.Action {
	return chromedp.Poll(js, nil, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))
}

// TestBrowserRecordGame records a short game in Chromium on the table's
// record page, by taps and the keyboard, while a second tab shows the
// kiosk's projector board: the placements tapped on the board, a
// placement the distance rule refuses (its section said by the form, the
// corner typed kept, nothing stored), a 7 typed as "3 4" and Enter, the
// robber tapped to its hex, a road built by a tap, the turn ended by a
// key, the next roll picked as white and blue, then the judge's time
// signal and the result saved from the record. After each piece the
// projector's board shows it, with no reload. Screenshots: the record page
// at 1024×768, the projector at 1600×900 and the board on a phone.
func TestBrowserRecordGame(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	table := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1", tid)
	sitetest.APIDo(t, base, "POST", table+"/board", map[string]any{"white": 3, "blue": 5}, 200, nil)
	ctx := sitetest.JudgeIn(t, base, "山田")

	// The projector's board, in a second tab of the same browser.
	kiosk, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Run(kiosk,
		chromedp.EmulateViewport(1600, 900),
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d/rounds/1/tables/1/game?view=projector", base, tid)),
		chromedp.WaitVisible(`#game-board`),
	); err != nil {
		t.Fatal(err)
	}
	// onProjector waits for the projector's tab to show what sel finds.
	onProjector := func(sel string) {
		t.Helper()
		if err := chromedp.Run(kiosk, poll(fmt.Sprintf(`document.querySelector(%q) !== null`, sel))); err != nil {
			t.Fatalf("the projector does not show %s: %v", sel, err)
		}
	}
	// run runs acts in the judge's tab.
	run := func(acts ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, acts...); err != nil {
			t.Fatal(err)
		}
	}
	piece := func(name string) string { return fmt.Sprintf(`#game-board [data-piece="%s"]`, name) }
	moves := func() int {
		var g struct {
			Moves []struct{} `json:"moves"`
		}
		sitetest.APIDo(t, base, "GET", table+"/game", nil, 200, &g)
		return len(g.Moves)
	}
	// place taps a settlement, then its road, and waits for the road.
	place := func(p [3]string) chromedp.Action {
		return chromedp.Tasks{
			chromedp.Click(fmt.Sprintf(`[data-at="%s"]`, p[0]), chromedp.ByQuery),
			chromedp.Click(edge("data-edge", p[1], p[2]), chromedp.ByQuery),
			chromedp.WaitVisible(edge("data-piece", p[1], p[2]), chromedp.ByQuery),
		}
	}
	var refused, kept, status string
	run(chromedp.EmulateViewport(1024, 768),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1", base, tid)),
		follow(`#record-link`),
		chromedp.WaitVisible(`#record-board`),
		place(recordedPlacements[0]))
	onProjector(piece(recordedPlacements[0][0]))
	// Next to that settlement: the distance rule (§4 ア).
	run(chromedp.Click(`[data-at="N(0,-2)"]`, chromedp.ByQuery),
		chromedp.Click(edge("data-edge", "N(0,-2)", "S(0,-3)"), chromedp.ByQuery),
		chromedp.WaitVisible(`#record-error`),
		chromedp.Text(`#record-error`, &refused),
		chromedp.Value(`#corner`, &kept),
		sitetest.Screenshot("70-record-refused"))
	// The refusal names the corner as the board is read, the top corner of
	// the first hex; the field keeps what the tap filled in.
	if !strings.Contains(refused, "§4 ア") || !strings.Contains(refused, "（1段目・左から1）の上の角") || kept != "N(0,-2)" {
		t.Errorf("the refused placement says %q with the corner field %q; want the distance rule's section and the corner named, the corner kept", refused, kept)
	}
	if n := moves(); n != 1 {
		t.Errorf("after the refused placement the record has %d moves, want 1", n)
	}
	for _, p := range recordedPlacements[1:] {
		run(place(p))
		onProjector(piece(p[0]))
	}
	run(chromedp.Text(`#record-status`, &status))
	if !strings.Contains(status, "1手番目") || !strings.Contains(status, "ダイスを振ります") {
		t.Fatalf("after the placements the status says %q, want the first turn's roll", status)
	}

	// Turn 1: a 7 typed on the keyboard, the robber tapped to its hex, a
	// road built by a tap, the turn ended by a key.
	var robberAsked, built string
	run(chromedp.Focus(`#dice`, chromedp.ByQuery),
		chromedp.SendKeys(`#dice`, "3 4\r"),
		poll(`document.querySelector("#record-status").textContent.includes("盗賊を移動します")`),
		chromedp.Text(`#record-status`, &robberAsked))
	onProjector(`.k-game.phase-robber`)
	run(chromedp.KeyEvent("x"),
		chromedp.Click(`[data-hex="(0,-1)"]`, chromedp.ByQuery),
		chromedp.Click(`button[value="robber"]`, chromedp.ByQuery),
		poll(`document.querySelector("#record-status").textContent.includes("交渉・建設")`),
		chromedp.KeyEvent("r"),
		chromedp.Click(edge("data-edge", "N(0,1)", "S(1,-1)"), chromedp.ByQuery),
		chromedp.WaitVisible(edge("data-piece", "N(0,1)", "S(1,-1)"), chromedp.ByQuery),
		chromedp.Text(`#record-moves li:first-child`, &built),
		sitetest.Screenshot("71-record-1024"))
	onProjector(`#game-board [data-piece="N(0,1) S(1,-1)"],#game-board [data-piece="S(1,-1) N(0,1)"]`)
	if !strings.Contains(robberAsked, "§6 イ") || !strings.Contains(built, "道 ") {
		t.Errorf("after the 7 the status said %q, and the last move is %q; want the robber (§6 イ), then a road", robberAsked, built)
	}
	run(chromedp.KeyEvent("e"),
		poll(`document.querySelector("#record-status").textContent.includes("2手番目")`))

	// Turn 2: the dice picked, white then blue, roll at once.
	var rolled, projected string
	run(chromedp.Click(`.die.white .pip:nth-of-type(2)`, chromedp.ByQuery),
		chromedp.Click(`.die.blue .pip:nth-of-type(3)`, chromedp.ByQuery),
		poll(`document.querySelector("#record-moves li:first-child").textContent.includes("白2・青3（5）")`),
		chromedp.Text(`#record-moves li:first-child`, &rolled))
	onProjector(`#game-moves li[value="13"]`)
	if err := chromedp.Run(kiosk, chromedp.Text(`#game-moves li:first-child`, &projected), sitetest.Screenshot("72-record-projector"),
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d/rounds/1/tables/1/game", base, tid)),
		chromedp.WaitVisible(`#game-board`),
		sitetest.Screenshot("73-record-phone")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(projected, "白2・青3（5）") {
		t.Errorf("the projector's last move is %q, want the roll just entered (%q)", projected, rolled)
	}

	run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		sitetest.Screenshot("75-record-console-phone"),
		chromedp.EmulateViewport(1024, 768))

	// The judge's time signal ends the game (§12): its result is saved
	// from the record, with the reason a game ended before the table's
	// time needs.
	var history string
	run(chromedp.Click(`#time-up`, chromedp.ByQuery),
		chromedp.WaitVisible(`#record-result`),
		sitetest.Screenshot("74-record-over"),
		chromedp.SendKeys(`#reason`, "配信卓をジャッジが終了"),
		submitFor(`#save-result`, `#revisions`),
		chromedp.Text(`#revisions`, &history))
	if !strings.Contains(history, "対戦記録から（14手）") || !strings.Contains(history, "配信卓をジャッジが終了") {
		t.Errorf("the score sheet's history says %q, want the revision from the record of 14 moves with its reason", history)
	}
}
