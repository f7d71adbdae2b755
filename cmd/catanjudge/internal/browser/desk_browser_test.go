package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserDesk is issue 24's desk on a Saturday with self check-in, in
// Chromium. The judge types ten players one after another: each time the
// form comes back empty, and every new player's code waits on the players
// page (no card page in between to lose it on). A roster of three more is
// imported; its message shows on the players page, and goes once a player
// is checked in from the list, which says so itself; the bulk check-in
// with nobody ticked is refused as an error, not in the green box of
// success. One button prints the 13 cards, ten to an A4 sheet with cut
// lines (printed to PDF: 2 pages, every code on them); marked printed,
// they leave the page. A new code's message shows on the page it leads
// to, once: not again there, nor later on the overview or a round page.
func TestBrowserDesk(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	dir := t.TempDir()
	addr, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	var tour struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "土曜カタン大会", "rounds": 3, "self_checkin": true}, 201, &tour)
	players := fmt.Sprintf("%s/judge/t/%d/players", base, tour.ID)
	ctx := sitetest.NewBrowser(t)
	if err := chromedp.Run(ctx, logIn(base), chromedp.EmulateViewport(1280, 900), chromedp.Navigate(players), chromedp.WaitVisible(`#name`)); err != nil {
		t.Fatalf("open the players page: %v", err)
	}

	names := []string{"青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "久保", "小林", "佐藤"}
	for i, name := range names {
		var loc, focused string
		var waiting int
		err := chromedp.Run(ctx,
			chromedp.SendKeys(`#name`, name),
			chromedp.Submit(`#name`),
			// The row of the new card, on the page the form leads to.
			chromedp.WaitVisible(fmt.Sprintf(`#waiting-cards tbody tr:nth-child(%d)`, i+1)),
			chromedp.Location(&loc),
			chromedp.Evaluate(`document.activeElement.id`, &focused),
			chromedp.Evaluate(`document.querySelectorAll('#waiting-cards tbody tr').length`, &waiting),
		)
		if err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
		if loc != players+"#name" || focused != "name" || waiting != i+1 {
			t.Fatalf("after registering %s: at %s with the focus on #%s and %d cards waiting; want the players page's empty form and %d", name, loc, focused, waiting, i+1)
		}
	}
	var codes []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#waiting-cards .code')).map(e => e.textContent)`, &codes), sitetest.Screenshot("desk-cards-waiting")); err != nil {
		t.Fatal(err)
	}

	// A roster of three more: its message, then a check-in from the list.
	file := filepath.Join(t.TempDir(), "名簿.csv")
	if err := os.WriteFile(file, []byte("氏名,よみがな\n山本,やまもと\n中村,なかむら\n渡辺,わたなべ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var imported, done, flashes string
	err := chromedp.Run(ctx,
		chromedp.Click(`a[href$="/players/import"]`),
		chromedp.WaitVisible(`#file`),
		chromedp.SetUploadFiles(`#file`, []string{file}),
		chromedp.Click(`#upload-h ~ form button[type=submit]`),
		chromedp.WaitVisible(`form[action$="/import/confirm"] button`),
		chromedp.Click(`form[action$="/import/confirm"] button`),
		chromedp.WaitVisible(`[data-flash]`),
		chromedp.Text(`[data-flash]`, &imported),
	)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	err = chromedp.Run(ctx,
		chromedp.Click(`#p`+playerOption(t, base, tour.ID, "山本")+` form[action$="/checkin"] button`),
		chromedp.WaitVisible(`#list-done`),
		chromedp.Text(`#list-done`, &done),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('main .flash, main .notice')).map(e => e.textContent).join(' | ')`, &flashes),
		sitetest.Screenshot("desk-after-checkin"),
	)
	if err != nil {
		t.Fatalf("check in from the list: %v", err)
	}
	if !strings.Contains(imported, "名簿を取り込みました") || !strings.Contains(done, "山本 を受付しました") || strings.Contains(flashes, "名簿を取り込みました") {
		t.Errorf("the import said %q; after the check-in the list says %q and the page's messages are %q: want the check-in's, not the import's", imported, done, flashes)
	}

	// The bulk check-in with nobody ticked is an error.
	var refusal, refusalClass, green string
	err = chromedp.Run(ctx,
		chromedp.Click(`#bulk-checkin button:not([name])`),
		chromedp.WaitVisible(`#list-error`),
		chromedp.Text(`#list-error`, &refusal),
		chromedp.AttributeValue(`#list-error`, "class", &refusalClass, nil),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('main .flash')).map(e => e.textContent).join(' | ')`, &green),
		sitetest.Screenshot("desk-bulk-nobody"),
	)
	if err != nil {
		t.Fatalf("bulk check-in with nobody ticked: %v", err)
	}
	if !strings.Contains(refusal, "選ばれていません") || refusalClass != "form-error" || strings.Contains(green, "選ばれていません") {
		t.Errorf("nobody ticked: %q with class %q, green boxes %q; want the refusal styled as an error", refusal, refusalClass, green)
	}

	// One button prints every card waiting, ten to a sheet.
	var sheets, cards int
	var pdf []byte
	err = chromedp.Run(ctx,
		chromedp.Navigate(players),
		chromedp.WaitVisible(`#print-cards`),
		chromedp.Click(`#print-cards`),
		chromedp.WaitVisible(`.cards-sheet`),
		chromedp.Evaluate(`document.fonts.ready.then(() => document.querySelectorAll('.cards-sheet').length)`, &sheets, awaitPromise),
		chromedp.Evaluate(`document.querySelectorAll('.card').length`, &cards),
		sitetest.Screenshot("desk-cards-sheet"),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			pdf, _, err = page.PrintToPDF().WithPrintBackground(true).WithPreferCSSPageSize(true).Do(ctx)
			return err
		}),
	)
	if err != nil {
		t.Fatalf("print the cards: %v", err)
	}
	if err := os.WriteFile(filepath.Join(sitetest.Artefacts, "desk-cards.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if sheets != 2 || cards != 13 || pdfPages(pdf) != 2 {
		t.Errorf("the cards print %d cards on %d sheets, %d PDF pages; want 13 on 2", cards, sheets, pdfPages(pdf))
	}
	text := squeeze(strings.Join(pdfText(t, pdf), ""))
	for _, code := range codes {
		if !strings.Contains(text, squeeze(code)) {
			t.Errorf("the PDF lacks the code %s", code)
		}
	}
	var left string
	err = chromedp.Run(ctx,
		chromedp.Click(`#cards-done button`),
		chromedp.WaitVisible(`#reprint`),
		chromedp.Text(`main`, &left),
	)
	if err != nil {
		t.Fatalf("mark the cards printed: %v", err)
	}
	if strings.Contains(left, "未印刷のカード") || !strings.Contains(left, "カードを印刷済みにしました") || !strings.Contains(left, "13枚") {
		t.Errorf("the players page once printed:\n%s", left)
	}

	// A new code: its message on the page it leads to, once.
	var issued, again, overview string
	err = chromedp.Run(ctx,
		chromedp.Navigate(players+"/"+playerOption(t, base, tour.ID, "井上")),
		chromedp.WaitVisible(`form[action$="/code"]`),
		chromedp.Evaluate(`window.confirm = () => true`, nil),
		chromedp.Click(`form[action$="/code"] button`),
		chromedp.WaitVisible(`#waiting-cards`),
		chromedp.Text(`main`, &issued),
		chromedp.Reload(),
		chromedp.WaitVisible(`#waiting-cards`),
		chromedp.Text(`main`, &again),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d", base, tour.ID)),
		chromedp.WaitVisible(`h1`),
		chromedp.Text(`main`, &overview),
	)
	if err != nil {
		t.Fatalf("issue a new code: %v", err)
	}
	const msg = "新しいコードを発行しました"
	if !strings.Contains(issued, msg) || strings.Contains(again, msg) || strings.Contains(overview, msg) {
		t.Errorf("%q shows on the players page: %v, on reloading it: %v, on the overview: %v; want the first alone",
			msg, strings.Contains(issued, msg), strings.Contains(again, msg), strings.Contains(overview, msg))
	}
	sitetest.AddPlayers(t, dir, tour.ID, "木下/きのした", "森/もり", "林/はやし", "岡田/おかだ", "石井/いしい")
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), map[string]any{}, 201, nil)
	var round string
	err = chromedp.Run(ctx, chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tour.ID)), chromedp.WaitVisible(`#table-1`), chromedp.Text(`main`, &round))
	if err != nil || strings.Contains(round, msg) || strings.Contains(round, "名簿を取り込みました") {
		t.Errorf("the round page later: %v\n%s", err, round)
	}
}
