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

// TestBrowserLandingPage opens / as a player and as a judge would: the
// tournament under way is listed and its link opens the kiosk; the judge
// login is there; the browser finds the icon.
func TestBrowserLandingPage(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	_, err := svc.CreateTournament(context.Background(), "受付", tournament.TournamentInput{Name: "土曜カタン大会", Date: "2026-11-28", Venue: "秋葉原店", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx := sitetest.NewBrowser(t)

	var listed, kioskHref, kioskTitle, login string
	var iconStatus int
	err = chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next=/"),
		chromedp.WaitVisible(`#open-h`),
		chromedp.Text(`.home-list`, &listed),
		sitetest.Screenshot("landing-laptop"),
		chromedp.EmulateViewport(390, 844),
		sitetest.Screenshot("landing-phone"),
		chromedp.Evaluate(`fetch("/favicon.ico").then(r => r.status)`, &iconStatus, awaitPromise),
		chromedp.Click(`#judge-login`),
		chromedp.WaitVisible(`#password`),
		chromedp.Location(&login),
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`a.home-kiosk`),
		chromedp.AttributeValue(`a.home-kiosk`, "href", &kioskHref, nil),
		chromedp.ActionFunc(func(ctx context.Context) error {
			return chromedp.Navigate(base + kioskHref).Do(ctx)
		}),
		chromedp.Title(&kioskTitle),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(listed, "土曜カタン大会") || !strings.Contains(listed, "秋葉原店") {
		t.Errorf("the landing page lists %q, want the tournament and its venue", listed)
	}
	if !strings.Contains(kioskTitle, "土曜カタン大会") {
		t.Errorf("the tournament's link opened %q, want its kiosk", kioskTitle)
	}
	if iconStatus != 200 {
		t.Errorf("GET /favicon.ico = %d, want 200", iconStatus)
	}
	if want := base + "/judge/login"; login != want {
		t.Errorf("the judge login link went to %s, want %s", login, want)
	}
}

// TestBrowserScoreLivePlacings enters a score sheet by keyboard: the
// placings appear as the VP are typed, before any button; after Save the
// page offers the next table without a result, and it opens.
func TestBrowserScoreLivePlacings(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, _ := seedPrintRound(t, dir)
	ctx := sitetest.NewBrowser(t)
	sheet := fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/%%d/score", base, tid)

	var fields []string
	if err := chromedp.Run(ctx, logIn(base),
		chromedp.Navigate(fmt.Sprintf(sheet, 1)),
		chromedp.WaitVisible(`#sheet-h`),
		chromedp.Evaluate(`[...document.querySelectorAll("input[type=number]")].map(e => e.id)`, &fields),
	); err != nil {
		t.Fatal(err)
	}
	if len(fields) != 4 {
		t.Fatalf("table 1 has %d VP fields, want 4", len(fields))
	}
	var waiting, placings, saved, next string
	tasks := chromedp.Tasks{}
	for i, f := range fields[:3] {
		tasks = append(tasks, chromedp.SendKeys("#"+f, []string{"10", "7", "5"}[i]))
	}
	tasks = append(tasks,
		chromedp.WaitVisible(`#preview-waiting`),
		chromedp.Text(`#preview-waiting`, &waiting),
		chromedp.SendKeys("#"+fields[3], "3"),
		chromedp.Click(`#declared input[type=radio]`), // the first player, with 10
		chromedp.WaitVisible(`#preview-h`),
		chromedp.Text(`#live-preview table.placings`, &placings),
		sitetest.Screenshot("score-live-laptop"),
		chromedp.Click(`button[value=save]`),
		chromedp.WaitVisible(`#next-table`),
		chromedp.Text(`.flash`, &saved),
		chromedp.Click(`#next-table`),
		chromedp.WaitVisible(`#sheet-h`),
		chromedp.Location(&next),
	)
	if err := chromedp.Run(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(waiting, "勝利点") {
		t.Errorf("with three VP typed the preview says %q, want what is missing", waiting)
	}
	for _, want := range []string{"1位", "2位", "3位", "4位", "勝利宣言"} {
		if !strings.Contains(placings, want) {
			t.Errorf("live placings %q lack %q", placings, want)
		}
	}
	if !strings.Contains(saved, "保存しました") {
		t.Errorf("after Save the page says %q", saved)
	}
	if want := fmt.Sprintf(sheet, 2); next != want {
		t.Errorf("the next table link opened %s, want %s", next, want)
	}
}

// TestBrowserCheckInBySearch is the desk: type a reading, check the player
// in from the filtered list without the page reloading, the search kept
// and its box focused for the next name.
func TestBrowserCheckInBySearch(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	ctx0 := context.Background()
	tr, err := svc.CreateTournament(ctx0, "受付", tournament.TournamentInput{Name: "受付の朝", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	var hanako int64
	for _, n := range []string{"田中 一郎/たなか いちろう", "田中 花子/たなか はなこ", "佐藤 健/さとう けん"} {
		name, kana, _ := strings.Cut(n, "/")
		p, err := svc.AddPlayer(ctx0, "受付", tr.ID, tournament.PlayerInput{Name: name, Kana: kana})
		if err != nil {
			t.Fatal(err)
		}
		if name == "田中 花子" {
			hanako = p.ID
		}
	}
	ctx := sitetest.NewBrowser(t)
	row := fmt.Sprintf("#p%d", hanako)
	var shown, done, query, focused, status string
	var rows int
	var marker bool
	err = chromedp.Run(ctx, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/players", base, tr.ID)),
		chromedp.WaitVisible(`#q`),
		chromedp.Evaluate(`window.notReloaded = true`, nil),
		chromedp.SendKeys(`#q`, "タナカ"),
		// The answer to the whole reading: on a busy machine the pauses
		// between keys may ask for タ and タナ first, and a check-in sent
		// before the last answer would race it.
		chromedp.Poll(`(document.getElementById("shown") || {textContent: ""}).textContent.includes("「タナカ」")`, nil),
		chromedp.Text(`#shown`, &shown),
		chromedp.Evaluate(`document.querySelectorAll("#player-list tbody tr").length`, &rows),
		chromedp.Click(row+` button.primary`),
		chromedp.WaitVisible(`#list-done`),
		chromedp.Text(`#list-done`, &done),
		chromedp.Text(row+` .tag`, &status),
		chromedp.Value(`#q`, &query),
		chromedp.Evaluate(`document.activeElement.id`, &focused),
		chromedp.Evaluate(`window.notReloaded === true`, &marker),
		sitetest.Screenshot("checkin-search-laptop"),
		chromedp.EmulateViewport(390, 844),
		sitetest.Screenshot("checkin-search-phone"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(shown, "2人") || rows != 2 {
		t.Errorf("the search for タナカ shows %q with %d rows, want the two 田中", shown, rows)
	}
	if done != "田中 花子 を受付しました。" || status != "受付済み" {
		t.Errorf("after the check-in the list says %q and the row %q", done, status)
	}
	if query != "タナカ" || focused != "q" || !marker {
		t.Errorf("after the check-in: search %q, focus on #%s, page kept %v; want the search kept and focused without a reload", query, focused, marker)
	}
	p, err := svc.GetPlayer(ctx0, tr.ID, hanako)
	if err != nil || !p.CheckedIn {
		t.Errorf("田中 花子 is not checked in (err %v)", err)
	}
}

// TestBrowserSwapRepeatConfirm swaps two players in round 2 so that two
// players meet again: the page names both and asks; the confirmed swap
// is made and the round lists the repeat.
func TestBrowserSwapRepeatConfirm(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	ctx0 := context.Background()
	tr, err := svc.CreateTournament(ctx0, "受付", tournament.TournamentInput{Name: "再戦の確認", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	sitetest.AddPlayers(t, dir, tr.ID, "青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "久保", "小林", "佐藤", "清水", "鈴木")
	r1, err := svc.PairNextRound(ctx0, "受付", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r1.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 7, 5, 3}[i]})
		}
		if _, err := svc.SaveResult(ctx0, "受付", tr.ID, 1, tb.Number, in); err != nil {
			t.Fatal(err)
		}
	}
	r2, err := svc.PairNextRound(ctx0, "受付", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, b, added := tournamenttest.SwapAddingRepeat(t, svc, tr.ID, 2)
	name := func(id int64) string {
		p, err := svc.GetPlayer(ctx0, tr.ID, id)
		if err != nil {
			t.Fatal(err)
		}
		return p.Name
	}
	ctx := sitetest.NewBrowser(t)
	var asked, listed string
	err = chromedp.Run(ctx, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/2", base, tr.ID)),
		chromedp.WaitVisible(`#swap_a`),
		chromedp.SetValue(`#swap_a`, fmt.Sprint(a)),
		chromedp.SetValue(`#swap_b`, fmt.Sprint(b)),
		chromedp.SendKeys(`#swap_reason`, "友人同士の希望"),
		chromedp.Click(`#swap-h ~ form button[type=submit]`),
		chromedp.WaitVisible(`#swap-repeats`),
		chromedp.Text(`#swap-repeats`, &asked),
		chromedp.ScrollIntoView(`#swap-repeats`),
		sitetest.Screenshot("swap-repeat-confirm"),
		chromedp.Click(`#swap-repeats ~ div button[type=submit]`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Evaluate(`document.getElementById("repeats").textContent`, &listed),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, rp := range added {
		for _, id := range []int64{rp.A, rp.B} {
			if n := name(id); !strings.Contains(asked, n) {
				t.Errorf("the confirmation %q does not name %s", asked, n)
			}
		}
	}
	rv, err := svc.RoundView(ctx0, tr.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	if tournament.SamePairing(rv.Round, r2) {
		t.Error("the confirmed swap was not made")
	}
	if !strings.Contains(listed, name(added[0].A)) {
		t.Errorf("the round's repeats %q do not name %s", listed, name(added[0].A))
	}
}

// TestBrowserFocusFirstInvalid: after a refusal the focus is on the field
// to correct: the password after a wrong one (it was on the name), the
// first empty VP on a score sheet.
func TestBrowserFocusFirstInvalid(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, _ := seedPrintRound(t, dir)
	ctx := sitetest.NewBrowser(t)
	var afterWrong, afterMissing, firstField string
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next=/judge/login"),
		chromedp.WaitVisible(`#name`),
		chromedp.SendKeys(`#name`, "山田"),
		chromedp.SendKeys(`#password`, "wrong"),
		chromedp.Submit(`#password`),
		chromedp.WaitVisible(`#password-error`),
		chromedp.Evaluate(`document.activeElement.id`, &afterWrong),
		chromedp.SendKeys(`#password`, sitetest.StaffPassword(t, base, "山田")),
		chromedp.Submit(`#password`),
		chromedp.WaitVisible(`#new-h`),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1/score", base, tid)),
		chromedp.WaitVisible(`#sheet-h`),
		chromedp.Evaluate(`document.querySelectorAll("input[type=number]")[1].id`, &firstField),
		// Every VP but the second one.
		chromedp.Evaluate(`document.querySelectorAll("input[type=number]").forEach((e, i) => { if (i !== 1) e.value = String(9 - i) }); 1`, nil),
		chromedp.Click(`button[value=save]`),
		chromedp.WaitVisible(`.field-error`),
		chromedp.Evaluate(`document.activeElement.id`, &afterMissing),
	)
	if err != nil {
		t.Fatal(err)
	}
	if afterWrong != "password" {
		t.Errorf("after a wrong password the focus is on #%s, want #password", afterWrong)
	}
	// The sheet's first field has the page's autofocus; the second is the
	// one to correct.
	if afterMissing != firstField {
		t.Errorf("after a sheet without its second VP the focus is on #%s, want #%s", afterMissing, firstField)
	}
}

// TestBrowserAuditLogFilter filters the audit log by table and kind as a
// judge would, from its form: the sentences left are the table's results,
// each linked to its sheet; the record stays behind its toggle.
func TestBrowserAuditLogFilter(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, _ := seedPrintRound(t, dir)
	ctx := sitetest.NewBrowser(t)
	var lines []string
	var link string
	var rawOpen bool
	err := chromedp.Run(ctx, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/audit", base, tid)),
		chromedp.WaitVisible(`#audit-filter`),
		chromedp.SetValue(`#f-table`, "2"),
		chromedp.SetValue(`#f-kind`, "table"),
		chromedp.Click(`#audit-filter button[type=submit]`),
		// The page the filter answers marks its choice; the one it was
		// sent from does not.
		chromedp.WaitReady(`#f-kind option[value="table"][selected]`),
		chromedp.WaitVisible(`#audit-shown`),
		chromedp.Evaluate(`[...document.querySelectorAll("td.say")].map(e => e.textContent.trim())`, &lines),
		chromedp.AttributeValue(`td.say a`, "href", &link, nil),
		chromedp.Evaluate(`document.querySelector("table.audit details").open`, &rawOpen),
		sitetest.Screenshot("audit-filtered-laptop"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 {
		t.Fatalf("table 2's set-up entries: %q, want its seating and its board", lines)
	}
	for _, l := range lines {
		if !strings.Contains(l, "第1回戦 2卓") || !strings.HasPrefix(l, "山田 が") {
			t.Errorf("entry %q does not say who and where", l)
		}
	}
	if want := fmt.Sprintf("/judge/t/%d/rounds/1/tables/2", tid); link != want {
		t.Errorf("the entry links %q, want the table %q", link, want)
	}
	if rawOpen {
		t.Error("the raw record is open; it belongs behind its toggle")
	}
}

// TestBrowserKioskPhoneHighlight is a player on a phone: typing their
// reading highlights their line, their table and brings the table into
// view; switching to English keeps the search and the highlight.
func TestBrowserKioskPhoneHighlight(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, _ := seedPrintRound(t, dir)
	ctx := sitetest.NewBrowser(t)
	var inView, rowMine bool
	var table, after, query string
	var afterMine int
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(fmt.Sprintf("%s/lang/ja?next=/kiosk/%d", base, tid)),
		chromedp.WaitVisible(`#q`),
		chromedp.SendKeys(`#q`, "はせがわ"),
		// The page swaps its live parts in as its feed opens and changes
		// come: the cards are read in one evaluation each, never as a node
		// found by one query and read by the next.
		chromedp.Poll(`!!document.querySelector(".k-card.k-mine")`, nil, chromedp.WithPollingTimeout(30*time.Second)),
		// The smooth scroll takes its time on a busy machine: wait for it
		// to bring the table into view, for 5 s at most.
		chromedp.ActionFunc(func(ctx context.Context) error {
			err := chromedp.Poll(`(() => { const r = document.querySelector(".k-card.k-mine").getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; })()`,
				nil, chromedp.WithPollingTimeout(30*time.Second)).Do(ctx)
			inView = err == nil
			return nil
		}),
		chromedp.Evaluate(`!!document.querySelector("#entries tr.k-mine")`, &rowMine),
		chromedp.Evaluate(`document.querySelector(".k-card.k-mine h3 span").innerText`, &table),
		sitetest.Screenshot("kiosk-phone-highlight"),
		chromedp.Evaluate(`document.querySelector('.k-lang a[hreflang="en"]').click()`, nil),
		chromedp.WaitReady(`html[lang="en"]`),
		chromedp.WaitVisible(`#q`),
		chromedp.Value(`#q`, &query),
		chromedp.Evaluate(`document.querySelectorAll(".k-mine").length`, &afterMine),
		chromedp.Location(&after),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !inView || !rowMine {
		t.Errorf("after the search: the table in view %v, the line highlighted %v; want both", inView, rowMine)
	}
	if !strings.HasSuffix(table, "卓") {
		t.Errorf("the highlighted card is %q, want a table", table)
	}
	if query != "はせがわ" || afterMine < 2 {
		t.Errorf("after the language switch (%s) the search is %q with %d highlights; want it kept", after, query, afterMine)
	}
}

// TestBrowserProjector is the projector at the front of the room with 40
// players: the page of a long list in a badge large enough to read from
// the back, the warning that phones cannot open this machine's address
// (on the console's overview too), and the chime, switched on by a click,
// ringing when the clock the server shows turns to time up.
func TestBrowserProjector(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid := seedLongRound(t, dir)
	ctx := sitetest.NewBrowser(t)
	var pageNo, loopback, overviewWarn string
	var badgePx float64
	var rangOnClick, rangAtTimeUp string
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1920, 1080),
		chromedp.Navigate(fmt.Sprintf("%s/lang/ja?next=/kiosk/%d%%3Fview%%3Dprojector", base, tid)),
		chromedp.WaitVisible(`#loopback`),
		chromedp.Poll(`(document.querySelector(".k-panel:not(.k-off) .k-pageno") || {}).textContent`, &pageNo),
		chromedp.Evaluate(`parseFloat(getComputedStyle(document.querySelector(".k-panel:not(.k-off) .k-pageno")).fontSize)`, &badgePx),
		chromedp.Text(`#loopback`, &loopback),
		sitetest.Screenshot("projector-paging"),
		chromedp.Click(`#chime`),
		chromedp.AttributeValue(`#chime`, "data-rang", &rangOnClick, nil),
		// The server's clock view turning to time up, as kiosk.js swaps it in.
		chromedp.Evaluate(`document.getElementById("clock").classList.add("up"); document.dispatchEvent(new Event("live:swapped")); 1`, nil),
		chromedp.AttributeValue(`#chime`, "data-rang", &rangAtTimeUp, nil),
		logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d", base, tid)),
		chromedp.WaitVisible(`#loopback`),
		chromedp.Text(`#loopback`, &overviewWarn),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pageNo, "1 / ") || badgePx < 40 {
		t.Errorf("the projector's page badge says %q at %.0f px, want \"1 / N ページ\" at 40 px or more", pageNo, badgePx)
	}
	// The fix it names is the server's real port, not always 8080.
	port := base[strings.LastIndex(base, ":")+1:]
	for what, warn := range map[string]string{"projector": loopback, "overview": overviewWarn} {
		if !strings.Contains(warn, "127.0.0.1") || !strings.Contains(warn, "スマートフォン") || !strings.Contains(warn, "--addr 0.0.0.0:"+port) {
			t.Errorf("the %s's loopback warning says %q, want the fix --addr 0.0.0.0:%s", what, warn, port)
		}
	}
	if rangOnClick != "1" || rangAtTimeUp != "4" {
		t.Errorf("the chime rang %q notes on its click and %q in all at time up, want 1 and 4", rangOnClick, rangAtTimeUp)
	}
}
