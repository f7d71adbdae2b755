package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestBrowserNationalBoard is a national-rules table in Chromium: the judge
// compares the rulesets, enters the corner die on the table page with the
// keyboard, sees the board laid by the spiral, prints its board sheet, and
// starts the clock: the round page and the kiosk show the placement under
// way, its countdown the big number; the judge ends table 1's placement
// early and its play time starts. Screenshots are kept as artefacts.
func TestBrowserNationalBoard(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	ctx0 := context.Background()
	tr, err := svc.CreateTournament(ctx0, "受付", tournament.TournamentInput{Name: "カタン地区予選", Date: "2025-11-22", Ruleset: "national-2025", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	sitetest.AddPlayers(t, dir, tr.ID, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら")
	if _, err := svc.PairNextRound(ctx0, "受付", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetSeating(ctx0, "山田", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	ctx := sitetest.NewBrowser(t)
	round := fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tr.ID)

	var differs int
	var gameTime string
	err = chromedp.Run(ctx,
		logIn(base),
		chromedp.Navigate(base+"/judge/rulesets"),
		chromedp.WaitVisible(`table.rulesets`),
		chromedp.Evaluate(`document.querySelectorAll('tr.differs').length`, &differs),
		chromedp.Text(`#setting-time td`, &gameTime),
		sitetest.Screenshot("rulesets"),
	)
	if err != nil {
		t.Fatalf("the rulesets page: %v", err)
	}
	if differs < 5 || !strings.Contains(gameTime, "初期配置 家1軒につき1分") {
		t.Errorf("rulesets page: %d rows marked as differing, game time %q", differs, gameTime)
	}

	var hint, title string
	err = chromedp.Run(ctx,
		chromedp.Navigate(round+"/tables/1"),
		chromedp.WaitVisible(`#corner`),
		chromedp.Focus(`#corner`),
		chromedp.KeyEvent("5"),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(`svg.board`),
		chromedp.Text(`#board .hint`, &hint),
		chromedp.AttributeValue(`svg.board`, "aria-label", &title, nil),
		sitetest.Screenshot("national-table"),
	)
	if err != nil {
		t.Fatalf("enter the corner die: %v", err)
	}
	if !strings.Contains(hint, "ダイス 5（南西の角）") || !strings.Contains(hint, "配り直しはありません") {
		t.Errorf("the board's note = %q, want the corner die 5 (south-west) and no re-deal", hint)
	}

	var corner string
	err = chromedp.Run(ctx,
		chromedp.EmulateViewport(794, 1123),
		emulation.SetEmulatedMedia().WithMedia("print"),
		chromedp.Navigate(round+"/print/boards?table=1"),
		chromedp.WaitVisible(`svg.board`),
		chromedp.Text(`.board-sheet .roll`, &corner),
		chromedp.Evaluate(`document.fonts.ready.then(() => true)`, nil, awaitPromise),
		sitetest.Screenshot("national-board-sheet"),
		emulation.SetEmulatedMedia().WithMedia(""),
		chromedp.EmulateViewport(1280, 900),
	)
	if err != nil {
		t.Fatalf("the board sheet: %v", err)
	}
	if !strings.Contains(corner, "ダイス 5 → 南西の角") {
		t.Errorf("the board sheet's corner = %q", corner)
	}

	var phase, kioskPhase string
	err = chromedp.Run(ctx,
		chromedp.Navigate(round),
		chromedp.WaitVisible(`#clock`),
	)
	if err == nil {
		// The start button posts the form: wait for the page it leads to,
		// or the next query may run in the page being left.
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`#clock form button.primary`))
	}
	if err != nil {
		t.Fatalf("start the clock: %v", err)
	}
	// Issue 24: the placement's countdown is the big number, the time to
	// the signal beside it.
	var big, label, kioskBig, kioskLabel string
	// The page swaps its clock in when it hears of the start: read the
	// three parts at once, when all show the placement phase.
	var roundClock placementClock
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`.clock-phase`),
		readPlacementClock(`.clock-phase`, `#clock .clock-big`, `#clock-label`, &roundClock),
		sitetest.Screenshot("national-round-clock"),
	)
	if err != nil {
		t.Fatalf("the clock's placement phase: %v", err)
	}
	phase, big, label = roundClock.Phase, roundClock.Time, roundClock.Label
	if !strings.HasPrefix(big, "0:5") && big != "1:00" || label != "配置 1/8の残り" || !strings.HasPrefix(phase, "試合終了まで67:5") && !strings.HasPrefix(phase, "試合終了まで68:00") {
		t.Errorf("the round page's clock = %q %q, %q; want the first placement's minute, then the 68 minutes to the signal", big, label, phase)
	}
	// The judge ends table 1's placement: its play time starts.
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`window.confirm = () => true`, nil),
	)
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`#clock .placement-end button`))
	}
	var left string
	if err == nil {
		err = chromedp.Run(ctx,
			chromedp.WaitVisible(`#clock`),
			chromedp.Text(`#clock .clock-tables tbody tr:first-child td.num`, &left),
			sitetest.Screenshot("national-placement-ended"),
		)
	}
	if err != nil {
		t.Fatalf("end table 1's placement: %v", err)
	}
	if !strings.HasPrefix(left, "59:5") && left != "60:00" {
		t.Errorf("table 1 after its placement's end has %q left, want its 60 minutes of play", left)
	}
	// The projector swaps its clock's parts in one by one as it hears of
	// the change: read the three at once, when all show the placement phase.
	var kioskClock placementClock
	err = chromedp.Run(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d?view=projector", base, tr.ID)),
		chromedp.WaitVisible(`#clock-phase`),
		readPlacementClock(`#clock-phase`, `#clock-time`, `#clock-label`, &kioskClock),
		sitetest.Screenshot("national-kiosk"),
	)
	if err != nil {
		t.Fatalf("the projector's placement phase: %v", err)
	}
	kioskPhase, kioskBig, kioskLabel = kioskClock.Phase, kioskClock.Time, kioskClock.Label
	if !strings.HasPrefix(kioskBig, "0:5") && kioskBig != "1:00" || kioskLabel != "配置 1/8の残り" || !strings.HasPrefix(kioskPhase, "試合終了まで6") {
		t.Errorf("the projector's clock = %q %q, %q; want the first placement's minute, then the time to the signal", kioskBig, kioskLabel, kioskPhase)
	}
}

// placementClock is what a clock shows in the placement phase: the time to
// the signal (Phase), the big number (Time) and what it counts (Label).
type placementClock struct{ Phase, Time, Label string }

// readPlacementClock waits until the clock's three parts, read together,
// all show the placement phase (a placement's label, the time to the
// signal shown, a big m:ss), and reads them into out: a page that swaps
// its clock in as it hears of a change may show one part of the new clock
// beside two of the old, or none while the swap is under way.
func readPlacementClock(phaseSel, timeSel, labelSel string, out *placementClock) chromedp.Action {
	return chromedp.Poll(fmt.Sprintf(`(() => {
		const text = sel => { const el = document.querySelector(sel); return el && !el.hidden ? el.innerText : ""; };
		const c = { Phase: text(%q), Time: text(%q), Label: text(%q) };
		return c.Label.startsWith("配置 ") && c.Phase.startsWith("試合終了まで") && /^\d+:\d\d$/.test(c.Time.trim()) ? c : null;
	})()`, phaseSel, timeSel, labelSel), out, chromedp.WithPollingTimeout(30*time.Second))
}
