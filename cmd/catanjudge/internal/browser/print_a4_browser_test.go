package browser

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// paperEvent is the name of seedPaperEvent's tournament: long, so that it
// wraps in a running title too.
const paperEvent = "土曜カタン大会 秋葉原店 第12回 オープン戦（どなたでも参加できます）"

// longestName is the i-th of seedPaperEvent's players: a name and a
// reading each as long as the console takes (tournament.MaxNameRunes),
// Japanese with a reading in katakana, or Latin, by turns.
func longestName(i int) string {
	cut := func(s string, n int) string { return string([]rune(strings.Repeat(s, n))[:n]) }
	max := tournament.MaxNameRunes
	if i%2 == 0 {
		return cut("長谷川美由紀の", max-4) + fmt.Sprintf("%04d", i) + "/" + cut("ハセガワミユキノ", max-3) + fmt.Sprintf("%03d", i)
	}
	return cut("Maximilian-Alexander Featherstonehaugh-Wolfeschlegelstein ", max-2) + fmt.Sprintf("%02d", i) +
		"/" + cut("まくしみりあん ふぇざーすとーんほー ", max-3) + fmt.Sprintf("%03d", i)
}

// seedPaperEvent creates, over the server's database file, the event the
// printables are tried on: 40 checked-in players, every one with the
// longest name and reading allowed; round 1 seated, set up and its
// results entered; then one player dropped and round 2 paired (nine
// tables of 4 and one of 3) with table 1 left unseated, table 2 seated
// without a board and the others seated with their boards set up.
func seedPaperEvent(t *testing.T, dir string) (tid int64, tables [3]int) {
	t.Helper()
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	tr, err := svc.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: paperEvent, Date: "2025-11-22", Venue: "秋葉原店", Rounds: 3})
	must(nil, err)
	var names []string
	for i := range 40 {
		names = append(names, longestName(i))
	}
	sitetest.AddPlayers(t, dir, tr.ID, names...)
	r1, err := svc.PairNextRound(ctx, "受付", tr.ID)
	must(nil, err)
	for _, tb := range r1.Tables {
		must(svc.SetSeating(ctx, "山田", tr.ID, 1, tb.Number, tournament.SeatingInput{Auto: true}))
		must(svc.SetBoard(ctx, "山田", tr.ID, 1, tb.Number, tournament.BoardInput{Auto: true}))
	}
	saveRound1(t, svc, tr.ID, nil)
	players, err := svc.Players(ctx, tr.ID)
	must(nil, err)
	must(svc.DropPlayer(ctx, "受付", tr.ID, players[len(players)-1].ID))
	r2, err := svc.PairNextRound(ctx, "受付", tr.ID)
	must(nil, err)
	threes := 0
	for _, tb := range r2.Tables {
		if len(tb.Players) == 3 {
			threes++
		}
		if tb.Number >= 2 {
			must(svc.SetSeating(ctx, "山田", tr.ID, 2, tb.Number, tournament.SeatingInput{Auto: true}))
		}
		if tb.Number >= 3 {
			must(svc.SetBoard(ctx, "山田", tr.ID, 2, tb.Number, tournament.BoardInput{Auto: true}))
		}
	}
	if len(r1.Tables) != 10 || len(r2.Tables) != 10 || threes != 1 {
		t.Fatalf("rounds of %d and %d tables (%d of 3), want 10 of 4, then 9 of 4 and 1 of 3", len(r1.Tables), len(r2.Tables), threes)
	}
	return tr.ID, [3]int{0, len(r1.Tables), len(r2.Tables)}
}

// finishPaperEvent enters round 2's results and closes the tournament.
func finishPaperEvent(t *testing.T, dir string, tid int64) {
	t.Helper()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	saveRound(t, svc, tid, 2, nil)
	if _, err := svc.CloseTournament(context.Background(), "山田", tid); err != nil {
		t.Fatal(err)
	}
}

// pdfText returns the text of each page of a PDF, by poppler's pdftotext.
func pdfText(t *testing.T, pdf []byte) []string {
	t.Helper()
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CATANJUDGE_REQUIRE_BROWSER") == "1" {
			t.Fatalf("pdftotext is missing (apt-get install poppler-utils): %v", err)
		}
		t.Skipf("pdftotext is missing (apt-get install poppler-utils)")
	}
	file := filepath.Join(t.TempDir(), "print.pdf")
	if err := os.WriteFile(file, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-enc", "UTF-8", file, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\f"), "\f")
}

// squeeze drops the white space of s: pdftotext breaks lines where the
// page does.
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// layoutScript reads a printable laid out as print media in an A4 page's
// width, and returns what does not fit: an element past the page's edge,
// a bordered element within 2 px (half a millimetre) of it, a word of the
// game broken over two lines in a heading (English breaks between words). It also returns each heading with the notes
// that belong to it, which must not end a page.
const layoutScript = `(() => {
	const w = document.documentElement.clientWidth, inset = 2;
	const name = e => e.tagName.toLowerCase() + (typeof e.className === "string" && e.className ? "." + e.className.split(" ").join(".") : "");
	const over = [], bordered = [], broken = [], headings = [];
	for (const e of document.querySelectorAll("main *")) {
		const r = e.getBoundingClientRect();
		if (r.width <= 0 || r.height <= 0) continue;
		const where = name(e) + " " + Math.round(r.left) + "–" + Math.round(r.right) + "px: " + (e.textContent || "").trim().slice(0, 30);
		if (r.right > w + 0.5 || r.left < -0.5) over.push(where);
		const cs = getComputedStyle(e);
		const edged = ["Top", "Right", "Bottom", "Left"].some(s => parseFloat(cs["border" + s + "Width"]) > 0 && cs["border" + s + "Style"] !== "none");
		if (edged && (r.right > w - inset || r.left < inset)) bordered.push(where);
	}
	if (document.documentElement.scrollWidth > w) over.push("the page scrolls to " + document.documentElement.scrollWidth + "px");
	const words = ["ロンゲストロード", "ラージェストアーマー", "1ポイントカード", "勝利点シェア", "勝利点合計"];
	const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		if (!n.parentElement.closest("th, h1, h2, h3")) continue;
		for (const word of words) {
			const at = n.data.indexOf(word);
			if (at < 0) continue;
			const rg = document.createRange();
			rg.setStart(n, at);
			rg.setEnd(n, at + word.length);
			const tops = new Set(Array.from(rg.getClientRects()).filter(q => q.width > 0).map(q => Math.round(q.top)));
			if (tops.size > 1) broken.push(word + " in " + name(n.parentElement));
		}
	}
	for (const h of document.querySelectorAll("main h1, main h2, main h3")) {
		let text = h.textContent;
		for (let s = h.nextElementSibling; s && s.matches("p.hint, p.notice"); s = s.nextElementSibling) text += s.textContent;
		headings.push(text);
	}
	const running = Array.from(document.querySelectorAll(".running"), e => e.textContent);
	return {over: over.slice(0, 8), bordered: bordered.slice(0, 8), broken: broken.slice(0, 8), headings, running};
})()`

// printLayout is what layoutScript returns.
type printLayout struct {
	Over, Bordered, Broken, Headings []string
	Running                          []string // the running titles
}

// paperPrint is one printable of seedPaperEvent: its path under the
// console's tournament (or the site), what it shows once loaded, how many
// pages it must print on (0: any), and the words of its round, if any.
type paperPrint struct {
	path, artefact, ready string
	pages                 int
	round                 map[string]string // by language
}

// TestBrowserPrintablesFitA4 prints every printable of a 40-player event
// as Chromium prints it (A4, the page's CSS size), in both languages and
// with the longest names allowed, in every state a table can be in: not
// seated, seated, set up, its result entered, of 4 and of 3 players. The
// score and board sheets print on one page per table; every page of every
// printable names the tournament (and the round, for a round's
// printables); no heading ends a page; nothing is laid out past the page's
// edge, and no bordered element comes within half a millimetre of it; a
// word of the game is never broken over two lines.
func TestBrowserPrintablesFitA4(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, tables := seedPaperEvent(t, dir)
	ctx := sitetest.NewBrowser(t)
	if err := chromedp.Run(ctx, logIn(base)); err != nil {
		t.Fatalf("log in: %v", err)
	}
	if err := os.MkdirAll(sitetest.Artefacts, 0o755); err != nil {
		t.Fatal(err)
	}
	roundWords := func(n int) map[string]string {
		return map[string]string{"ja": fmt.Sprintf("第%d回戦", n), "en": fmt.Sprintf("Round %d", n)}
	}
	judge := fmt.Sprintf("/judge/t/%d", tid)
	var prints []paperPrint
	for _, n := range []int{1, 2} {
		r := fmt.Sprintf("%s/rounds/%d", judge, n)
		prints = append(prints,
			paperPrint{r + "/print/scores", fmt.Sprintf("a4-scores-r%d", n), `.score-sheet`, tables[n], roundWords(n)},
			paperPrint{r + "/print/boards", fmt.Sprintf("a4-boards-r%d", n), `.board-sheet`, tables[n], roundWords(n)},
		)
	}
	// The lists are alike in both rounds: round 1's, of 40 players.
	r1 := judge + "/rounds/1"
	prints = append(prints,
		paperPrint{r1 + "/print/names", "a4-names-r1", `table.by-name`, 0, roundWords(1)},
		paperPrint{r1 + "/print/tables", "a4-tables-r1", `.by-table`, 0, roundWords(1)},
	)
	prints = append(prints,
		paperPrint{judge + "/standings/print?after=1", "a4-standings", `table.standings-print`, 0, roundWords(1)},
		// The results anyone prints once the event is closed.
		paperPrint{fmt.Sprintf("/results/%d", tid), "a4-results", `table.results-round`, 0, nil},
	)
	// 186 mm at 96 px to the inch: the page inside @page's 12 mm margins.
	const pageWidth = 703
	for i, p := range prints {
		if i == len(prints)-1 {
			finishPaperEvent(t, dir, tid)
		}
		for _, lang := range []string{"ja", "en"} {
			name := p.artefact + "-" + lang
			var layout printLayout
			var pdf []byte
			err := chromedp.Run(ctx,
				chromedp.Navigate(base+"/lang/"+lang+"?next="+url.QueryEscape(p.path)),
				chromedp.EmulateViewport(pageWidth, 1000),
				emulation.SetEmulatedMedia().WithMedia("print"),
				chromedp.WaitVisible(p.ready),
				chromedp.Evaluate(`document.fonts.ready.then(() => true)`, nil, awaitPromise),
				chromedp.Evaluate(layoutScript, &layout),
				chromedp.ActionFunc(func(ctx context.Context) error {
					var err error
					pdf, _, err = page.PrintToPDF().WithPrintBackground(true).WithPreferCSSPageSize(true).Do(ctx)
					return err
				}),
			)
			if err != nil {
				t.Fatalf("print %s in %s: %v", p.path, lang, err)
			}
			if err := os.WriteFile(filepath.Join(sitetest.Artefacts, name+".pdf"), pdf, 0o644); err != nil {
				t.Fatal(err)
			}
			checkPrint(t, p, lang, layout, pdfText(t, pdf))
		}
	}
}

// checkPrint checks one printable's layout and the text of its PDF's pages.
func checkPrint(t *testing.T, p paperPrint, lang string, layout printLayout, pages []string) {
	t.Helper()
	what := p.path + " (" + lang + ")"
	if len(layout.Over) > 0 {
		t.Errorf("%s is wider than an A4 page inside its margins:\n%s", what, strings.Join(layout.Over, "\n"))
	}
	if len(layout.Bordered) > 0 {
		t.Errorf("%s has bordered elements on the printable edge:\n%s", what, strings.Join(layout.Bordered, "\n"))
	}
	if len(layout.Broken) > 0 {
		t.Errorf("%s breaks words over two lines:\n%s", what, strings.Join(layout.Broken, "\n"))
	}
	if p.pages != 0 && len(pages) != p.pages {
		t.Errorf("%s prints on %d pages, want one a table (%d)", what, len(pages), p.pages)
	}
	for i, text := range pages {
		flat := squeeze(text)
		if !strings.Contains(flat, squeeze(paperEvent)) {
			t.Errorf("%s: page %d does not name the tournament: %.200q", what, i+1, text)
		}
		if w := p.round[lang]; w != "" && !strings.Contains(strings.ToLower(flat), strings.ToLower(squeeze(w))) {
			t.Errorf("%s: page %d does not say %q: %.200q", what, i+1, w, text)
		}
		if i == len(pages)-1 {
			continue
		}
		// pdftotext may put the page's running title last.
		for _, r := range layout.Running {
			flat = strings.ReplaceAll(flat, squeeze(r), "")
		}
		for _, h := range layout.Headings {
			if h := squeeze(h); h != "" && strings.HasSuffix(flat, h) {
				t.Errorf("%s: page %d ends with the heading %q", what, i+1, h)
			}
		}
	}
}
