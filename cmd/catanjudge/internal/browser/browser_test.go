package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserJudgeFlow is a judge's morning in Chromium: log in with the
// keyboard, create a tournament, pair round 1, enter a score sheet with a
// mistake, see the message next to the field with the values kept, fix it,
// save and see the placings.
func TestBrowserJudgeFlow(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	ctx := sitetest.NewBrowser(t)

	// Log in with the keyboard only: the name field has the focus. The
	// language switch first, as headless Chromium asks for English.
	var heading string
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next=/judge"),
		chromedp.WaitVisible(`#name`),
		sitetest.Screenshot("01-login"),
		chromedp.KeyEvent("山田"),
		chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent(sitetest.StaffPassword(t, base, "山田")),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(`#new-h`),
		chromedp.Text(`#new-h`, &heading),
	)
	if err != nil {
		t.Fatalf("log in: %v", err)
	}
	if heading != "大会の作成" {
		t.Fatalf("after login the page shows %q, want the tournaments page", heading)
	}

	// Create a tournament from the default ruleset.
	var loc string
	err = chromedp.Run(ctx,
		chromedp.SendKeys(`#name`, "土曜カタン大会"),
		chromedp.SetValue(`#date`, "2025-11-22"),
		chromedp.SendKeys(`#venue`, "秋葉原店"),
		chromedp.SetValue(`#rounds`, "3"),
		chromedp.Click(`#new-h ~ form button[type=submit]`),
		chromedp.WaitVisible(`#facts-h`),
		chromedp.Location(&loc),
	)
	if err != nil {
		t.Fatalf("create tournament: %v", err)
	}
	var tid int64
	if _, err := fmt.Sscanf(loc, base+"/judge/t/%d", &tid); err != nil {
		t.Fatalf("tournament page URL %q: %v", loc, err)
	}

	// Seven players come from the desk list; one is registered by hand,
	// with a name that must show as text.
	sitetest.AddPlayers(t, dir, tid, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら")
	const evil = "<script>alert(1)</script>"
	var players string
	err = chromedp.Run(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/players", base, tid)),
		chromedp.WaitVisible(`#name`),
		chromedp.SendKeys(`#name`, evil),
		chromedp.SendKeys(`#kana`, "んすくりぷと"),
		chromedp.Click(`#add-h ~ form button[type=submit]`),
		// Back to the form, the new player's card waiting to be printed.
		chromedp.WaitVisible(`#waiting-cards .code`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Text(`#list-h ~ .table-wrap`, &players),
		sitetest.Screenshot("02-players"),
	)
	if err != nil {
		t.Fatalf("register a player: %v", err)
	}
	if !strings.Contains(players, evil) {
		t.Errorf("the players list does not show the name %q as text:\n%s", evil, players)
	}

	// Pair round 1 from the overview.
	var tables int
	err = chromedp.Run(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d", base, tid)),
		chromedp.Click(`form[action$="/rounds"] button`),
		chromedp.WaitVisible(`#table-1`),
		chromedp.Evaluate(`document.querySelectorAll('.tables section').length`, &tables),
		sitetest.Screenshot("03-round"),
	)
	if err != nil {
		t.Fatalf("pair round 1: %v", err)
	}
	if tables != 2 {
		t.Fatalf("round 1 has %d tables, want 2 for 8 players", tables)
	}

	// The score sheet of table 1: the first player declared with 8 VP.
	var ids []string
	err = chromedp.Run(ctx,
		sitetest.Click(`a[href$="/tables/1/score"]`),
		chromedp.WaitVisible(`input[name="declared"]`),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('input[id^="vp_"]')).map(e => e.id)`, &ids),
	)
	if err != nil {
		t.Fatalf("open the score sheet: %v", err)
	}
	if len(ids) != 4 {
		t.Fatalf("score sheet has %d VP fields, want 4", len(ids))
	}
	typed := []string{"8", "7", "6", "5"}
	var actions []chromedp.Action
	for i, id := range ids {
		actions = append(actions, chromedp.SendKeys("#"+id, typed[i]))
	}
	actions = append(actions,
		chromedp.Click(`input[name="declared"]`),
		chromedp.Click(`button[value="save"]`),
		chromedp.WaitVisible(`#declared-error`),
	)
	var msg string
	actions = append(actions, chromedp.Text(`#declared-error`, &msg), sitetest.Screenshot("04-score-mistake"))
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatalf("save the sheet with a mistake: %v", err)
	}
	if !strings.Contains(msg, "10点以上") {
		t.Errorf("message next to the declared winner = %q, want the §11 rule", msg)
	}
	for i, id := range ids {
		var v string
		if err := chromedp.Run(ctx, chromedp.Value("#"+id, &v)); err != nil {
			t.Fatal(err)
		}
		if v != typed[i] {
			t.Errorf("VP field %s after the refused save = %q, want %q kept", id, v, typed[i])
		}
	}

	// Fix it: the winner had 10 VP. Preview, then save.
	var preview, saved string
	err = chromedp.Run(ctx,
		chromedp.SetValue("#"+ids[0], ""),
		chromedp.SendKeys("#"+ids[0], "10"),
		chromedp.Click(`button[value="preview"]`),
		chromedp.WaitVisible(`#preview`),
		chromedp.Text(`#preview`, &preview),
		chromedp.Click(`button[value="save"]`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Text(`#saved-h ~ table`, &saved),
		sitetest.Screenshot("05-score-saved"),
	)
	if err != nil {
		t.Fatalf("fix and save the sheet: %v", err)
	}
	for _, want := range []string{"1位", "2位", "3位", "4位", "勝利宣言"} {
		if !strings.Contains(preview, want) || !strings.Contains(saved, want) {
			t.Errorf("placings lack %q\npreview:\n%s\nsaved:\n%s", want, preview, saved)
		}
	}

	// The same sheet on a tablet, then the table set-up with the board.
	err = chromedp.Run(ctx,
		chromedp.EmulateViewport(820, 1180),
		chromedp.Reload(),
		chromedp.WaitVisible(`#saved-h`),
		sitetest.Screenshot("06-score-tablet"),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/2", base, tid)),
		chromedp.Click(`#seating form input[name="auto"] ~ div button`),
		chromedp.WaitVisible(`#seating .placings`),
		chromedp.Click(`#board form input[name="auto"] ~ button`),
		chromedp.WaitVisible(`svg.board`),
		sitetest.Screenshot("07-table-board"),
		chromedp.Click(`a[hreflang="en"]`),
		chromedp.WaitVisible(`svg.board`),
		sitetest.Screenshot("08-table-board-en"),
		chromedp.Click(`a[hreflang="ja"]`),
		chromedp.WaitVisible(`svg.board`),
	)
	if err != nil {
		t.Fatalf("table set-up: %v", err)
	}

	// Table 2's sheet with the keyboard alone: the first VP field has the
	// focus, Tab walks the fields, an arrow key picks "time" in the radio
	// group, the judge's reason follows (the round's clock never started,
	// so the game ended before its signal, §12), and Enter on the save
	// button saves.
	var saved2 string
	err = chromedp.Run(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/2/score", base, tid)),
		chromedp.WaitVisible(`input[name="declared"]`),
		chromedp.KeyEvent("9"), chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent("8"), chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent("8"), chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent("4"), chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent(kb.ArrowLeft), // from the first choice round to the last: time
		chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent("judge ended the game"),
		chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab), // preview, then save
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(`.flash`),
		chromedp.Text(`#saved-h ~ table`, &saved2),
	)
	if err != nil {
		t.Fatalf("score sheet by keyboard: %v", err)
	}
	// §12: no declaration, 9 8 8 4 places 1st, 2nd, 2nd, 4th.
	for _, want := range []string{"1位", "2位", "4位"} {
		if !strings.Contains(saved2, want) {
			t.Errorf("table 2 placings lack %q:\n%s", want, saved2)
		}
	}
	if strings.Contains(saved2, "3位") || strings.Contains(saved2, "勝利宣言") {
		t.Errorf("table 2 placings = %q, want a shared 2nd and no declaration", saved2)
	}

	// A penalty from the catalogue, with the suggested level shown first;
	// then the standings and the audit log.
	var suggested string
	err = chromedp.Run(ctx,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/penalties", base, tid)),
		chromedp.WaitVisible(`#player`),
		chromedp.SetValue(`#player`, "1"),
		chromedp.SetValue(`#round`, "1"),
		chromedp.SetValue(`#offence`, "note-taking"),
		chromedp.SendKeys(`#note`, "ゲーム中にメモ"),
		chromedp.Click(`button[value="suggest"]`),
		chromedp.WaitVisible(`#level-hint ~ .notice`),
		chromedp.Text(`#level-hint ~ .notice`, &suggested),
		chromedp.Click(`button[value="record"]`),
		chromedp.WaitVisible(`.flash`),
		sitetest.Screenshot("09-penalties"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/standings", base, tid)),
		chromedp.WaitVisible(`main table`, chromedp.ByQuery),
		sitetest.Screenshot("10-standings"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/audit", base, tid)),
		chromedp.WaitVisible(`main table`, chromedp.ByQuery),
		sitetest.Screenshot("11-audit"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d", base, tid)),
		chromedp.WaitVisible(`#facts-h`),
		sitetest.Screenshot("12-overview"),
	)
	if err != nil {
		t.Fatalf("penalties, standings and audit: %v", err)
	}
	if !strings.Contains(suggested, "警告") {
		t.Errorf("suggested level = %q, want a warning for a first note-taking", suggested)
	}
}
