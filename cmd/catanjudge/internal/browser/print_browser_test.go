package browser

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"golang.org/x/text/encoding/japanese"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// seedPrintRound creates, over the server's database file, a tournament of
// 11 checked-in players with round 1 paired (tables of 4, 4 and 3), every
// table seated and every board set up but the last, and returns its ID
// and the number of tables.
func seedPrintRound(t *testing.T, dir string) (int64, int) {
	t.Helper()
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	check := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	tr, err := svc.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: "土曜カタン大会", Date: "2025-11-22", Venue: "秋葉原店", Rounds: 3})
	check(nil, err)
	names := []string{"青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう",
		"木村/きむら", "久保/くぼ", "小林/こばやし", "佐藤/さとう", "長谷川 美由紀/はせがわ みゆき"}
	sitetest.AddPlayers(t, dir, tr.ID, names...)
	r, err := svc.PairNextRound(ctx, "受付", tr.ID)
	check(nil, err)
	for _, tb := range r.Tables {
		check(svc.SetSeating(ctx, "山田", tr.ID, 1, tb.Number, tournament.SeatingInput{Auto: true}))
		if tb.Number < len(r.Tables) {
			check(svc.SetBoard(ctx, "山田", tr.ID, 1, tb.Number, tournament.BoardInput{Auto: true}))
		}
	}
	return tr.ID, len(r.Tables)
}

// awaitPromise makes Evaluate wait for the promise the script returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// logIn logs the browser in as a judge, in Japanese.
func logIn(base string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(base + "/lang/ja?next=/judge/login"),
		chromedp.WaitVisible(`#name`),
		chromedp.SendKeys(`#name`, "山田"),
		chromedp.SendKeys(`#password`, sitetest.PasswordOf(base, "山田")),
		chromedp.Submit(`#password`),
		chromedp.WaitVisible(`#new-h`),
	}
}

// printedPage is one printable: its path under the round and its artefact.
type printedPage struct {
	path, artefact, ready string
}

// pdfPages counts the pages of a PDF: its /Type /Page objects, not the
// /Pages tree nodes. Chromium writes no object streams, so every page
// object is in the clear.
func pdfPages(pdf []byte) int {
	return len(regexp.MustCompile(`/Type\s*/Page\b`).FindAll(pdf, -1))
}

// TestBrowserPrintables prints the round's score sheets to PDF with
// Chromium and checks one A4 page per table; then it renders each
// printable as print media and keeps a PNG of it (and the PDF) as artefacts.
func TestBrowserPrintables(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, tables := seedPrintRound(t, dir)
	ctx := sitetest.NewBrowser(t)
	if err := chromedp.Run(ctx, logIn(base)); err != nil {
		t.Fatalf("log in: %v", err)
	}
	round := fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)

	var pdf []byte
	var sheets int
	err := chromedp.Run(ctx,
		chromedp.Navigate(round+"/print/scores"),
		chromedp.WaitVisible(`.score-sheet`),
		chromedp.Evaluate(`document.fonts.ready.then(() => document.querySelectorAll('.score-sheet').length)`, &sheets, awaitPromise),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			pdf, _, err = page.PrintToPDF().
				WithPrintBackground(true).
				WithPaperWidth(8.27).WithPaperHeight(11.69).
				WithPreferCSSPageSize(true).
				Do(ctx)
			return err
		}),
	)
	if err != nil {
		t.Fatalf("print the score sheets: %v", err)
	}
	if err := os.MkdirAll(sitetest.Artefacts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sitetest.Artefacts, "print-scores.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("PrintToPDF returned no PDF (%d bytes)", len(pdf))
	}
	if sheets != tables {
		t.Errorf("the score sheets page has %d sheets, want %d tables", sheets, tables)
	}
	if n := pdfPages(pdf); n != tables {
		t.Errorf("the score sheets print on %d pages, want one per table (%d)", n, tables)
	}
	// An A4 page is 210 × 297 mm: 595.3 × 841.9 points.
	for _, m := range regexp.MustCompile(`/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]`).FindAllSubmatch(pdf, -1) {
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		if math.Abs(w-595.3) > 1.5 || math.Abs(h-841.9) > 1.5 {
			t.Errorf("a PDF page is %.1f × %.1f points, want A4 (595.3 × 841.9)", w, h)
		}
	}

	// On screen the sheets show as the paper will, under a toolbar that
	// warns this address cannot be reached from a phone.
	var warning string
	err = chromedp.Run(ctx,
		chromedp.EmulateViewport(1100, 900),
		chromedp.Navigate(round+"/print/scores?table=2"),
		chromedp.WaitVisible(`.toolbar .warn`),
		chromedp.Text(`.toolbar .warn`, &warning),
		sitetest.Screenshot("print-scores-screen"),
	)
	if err != nil {
		t.Fatalf("the score sheet on screen: %v", err)
	}
	if port := base[strings.LastIndex(base, ":")+1:]; !strings.Contains(warning, "127.0.0.1") || !strings.Contains(warning, "--addr 0.0.0.0:"+port) {
		t.Errorf("the toolbar's warning %q does not name the loopback address and the fix on port %s", warning, port)
	}

	// Each printable as it prints: the print media, an A4-wide window.
	for _, p := range []printedPage{
		{"/print/names", "print-pairings-names", `table.by-name`},
		{"/print/tables", "print-pairings-tables", `.by-table`},
		{"/print/scores", "print-scores", `.score-sheet`},
		{"/print/boards", "print-boards", `svg.board`},
	} {
		err := chromedp.Run(ctx,
			chromedp.EmulateViewport(794, 1123),
			emulation.SetEmulatedMedia().WithMedia("print"),
			chromedp.Navigate(round+p.path),
			chromedp.WaitVisible(p.ready),
			chromedp.Evaluate(`document.fonts.ready.then(() => true)`, nil, awaitPromise),
			chromedp.Poll(`Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)`, nil, chromedp.WithPollingTimeout(30*time.Second)),
			sitetest.Screenshot(p.artefact),
		)
		if err != nil {
			t.Fatalf("render %s: %v", p.path, err)
		}
	}
}

// TestBrowserImportPlayers uploads the desk list as Excel saves it on a
// Japanese PC (Shift_JIS CSV), checks the preview, confirms it, and finds
// the players registered, with the round page's print links on the way.
func TestBrowserImportPlayers(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, _ := seedPrintRound(t, dir)
	ctx := sitetest.NewBrowser(t)
	list, err := japanese.ShiftJIS.NewEncoder().String("氏名,フリガナ,固定卓\r\n青木,あおき,\r\n山本 花子,やまもと はなこ,2\r\n,なし,\r\n")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "受付名簿.csv")
	if err := os.WriteFile(file, []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	players := fmt.Sprintf("%s/judge/t/%d/players", base, tid)
	var summary, problems string
	var listed []string
	err = chromedp.Run(ctx,
		logIn(base),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)),
		chromedp.WaitVisible(`.print-links`),
		sitetest.Screenshot("print-round-links"),
		chromedp.Navigate(players),
		chromedp.Click(`a[href$="/players/import"]`),
		chromedp.WaitVisible(`#file`),
		chromedp.SetUploadFiles(`#file`, []string{file}),
		chromedp.Click(`#upload-h ~ form button[type=submit]`),
		chromedp.WaitVisible(`#preview-h`),
		chromedp.Text(`#preview-h ~ .notice`, &summary),
		chromedp.Text(`#import-problems`, &problems),
		sitetest.Screenshot("import-preview"),
		chromedp.Click(`form[action$="/import/confirm"] button`),
		// The players, the new players' cards waiting with their codes.
		chromedp.WaitVisible(`#waiting-cards .code`),
		chromedp.WaitVisible(`.flash`),
		sitetest.Screenshot("import-cards"),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#list-h ~ .table-wrap tbody td:nth-child(2) a')).map(a => a.textContent)`, &listed),
	)
	if err != nil {
		t.Fatalf("import the desk list: %v", err)
	}
	if want := "新しく登録: 1人 ・ 登録済みのため追加しない: 1人 ・ エラーのため取り込まない: 1行"; !strings.Contains(summary, want) {
		t.Errorf("preview summary %q, want %q", summary, want)
	}
	if !strings.Contains(problems, "4行目: 名前が空です。") {
		t.Errorf("preview problems %q, want row 4's empty name", problems)
	}
	if !slices.Contains(listed, "山本 花子") || len(listed) != 12 {
		t.Errorf("players after the import: %q, want the 11 from before and 山本 花子", listed)
	}
}

// seedLongRound creates, over the server's database file, a tournament of
// 40 checked-in players, some with the longest names the console takes,
// with round 1 paired, every table seated and its board set up: the
// printables at their widest and longest.
func seedLongRound(t *testing.T, dir string) int64 {
	t.Helper()
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	tr, err := svc.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: "土曜カタン大会 秋葉原店 第12回 オープン戦（どなたでも参加できます）", Date: "2025-11-22", Venue: "秋葉原店", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range 40 {
		name := fmt.Sprintf("参加者%02d", i+1)
		kana := fmt.Sprintf("さんかしゃ%02d", i+1)
		if i%7 == 0 {
			// The longest a name and a reading may be (tournament.MaxNameRunes).
			name = strings.Repeat("長", 56) + fmt.Sprintf("%04d", i)
			kana = strings.Repeat("ながい", 19) + fmt.Sprintf("%03d", i)
		}
		if i%11 == 5 {
			name = "Maximilian-Alexander Featherstonehaugh-Wolfeschlegelsteinhausen"[:60]
		}
		names = append(names, name+"/"+kana)
	}
	sitetest.AddPlayers(t, dir, tr.ID, names...)
	r, err := svc.PairNextRound(ctx, "受付", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		if _, err := svc.SetSeating(ctx, "山田", tr.ID, 1, tb.Number, tournament.SeatingInput{Auto: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.SetBoard(ctx, "山田", tr.ID, 1, tb.Number, tournament.BoardInput{Auto: true}); err != nil {
			t.Fatal(err)
		}
	}
	return tr.ID
}

// saveRound1 saves a result at every table of round 1: the first player
// declared with 10 VP, the others 8, 6 and 4; edit, when not nil, may
// change a table's sheet first.
func saveRound1(t *testing.T, svc *tournament.Service, tid int64, edit func(tournament.TableView, *tournament.ResultInput)) {
	t.Helper()
	saveRound(t, svc, tid, 1, edit)
}

// saveRound is saveRound1 for round n.
func saveRound(t *testing.T, svc *tournament.Service, tid int64, n int, edit func(tournament.TableView, *tournament.ResultInput)) {
	t.Helper()
	ctx := context.Background()
	v, err := svc.RoundView(ctx, tid, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, tv := range v.Tables {
		in := tournament.ResultInput{Declared: tv.Players[0].PlayerID}
		for i, sv := range tv.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: sv.PlayerID, VP: 10 - 2*i})
		}
		if edit != nil {
			edit(tv, &in)
		}
		if _, err := svc.SaveResult(ctx, "山田", tid, n, tv.Table.Number, in); err != nil {
			t.Fatal(err)
		}
	}
}

// closeLongRound saves a result at every table of seedLongRound's round 1
// (saveRound1) and closes the tournament.
func closeLongRound(t *testing.T, dir string, tid int64) {
	t.Helper()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	saveRound1(t, svc, tid, nil)
	if _, err := svc.CloseTournament(context.Background(), "山田", tid); err != nil {
		t.Fatal(err)
	}
}
