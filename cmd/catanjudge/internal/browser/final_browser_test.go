package browser

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// saveAll saves a declared win at every table of round n: the VP of vp in
// each table's pairing order, the first declaring.
func saveAll(t *testing.T, svc *tournament.Service, tid int64, n int, vp ...[]int) {
	t.Helper()
	v, err := svc.RoundView(context.Background(), tid, n)
	if err != nil {
		t.Fatal(err)
	}
	for i, tb := range v.Round.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for k, p := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: vp[i][k]})
		}
		if _, err := svc.SaveResult(context.Background(), "山田", tid, n, tb.Number, in); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserFinal is a national event's top-4 final in Chromium: after
// the qualifying round the standings page offers the judge the final; two
// players tie at the cut, and the page shows the draw that decided with
// its seed; once the final table's sheet is in, the standings page puts
// the final results first, saying which lines the final decided, in
// Japanese and in English. Screenshots are kept as artefacts.
func TestBrowserFinal(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	ctx0 := context.Background()
	tr, err := svc.CreateTournament(ctx0, "受付", tournament.TournamentInput{Name: "カタン地区予選", Date: "2025-11-22", Ruleset: "national-2025", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	sitetest.AddPlayers(t, dir, tr.ID, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "工藤/くどう")
	if _, err := svc.PairNextRound(ctx0, "受付", tr.ID); err != nil {
		t.Fatal(err)
	}
	// Table 2's 2nd and 3rd share 6 VP: they tie for the 4th place of the cut.
	saveAll(t, svc, tr.ID, 1, []int{10, 8, 6, 4}, []int{10, 6, 6, 2})
	ctx := sitetest.NewBrowser(t)
	standings := fmt.Sprintf("%s/judge/t/%d/standings", base, tr.ID)

	var button string
	err = chromedp.Run(ctx,
		logIn(base),
		chromedp.Navigate(standings),
		chromedp.WaitVisible(`#final form button`),
		chromedp.Text(`#final form button`, &button),
		sitetest.Screenshot("final-offered"),
		// The form asks before it posts: say yes.
		chromedp.Evaluate(`window.confirm = () => true`, nil),
	)
	if err != nil {
		t.Fatalf("the standings page: %v", err)
	}
	if !strings.Contains(button, "決勝を作成（上位4名）") {
		t.Errorf("the final's button = %q, want 決勝を作成（上位4名）", button)
	}
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(`#final form button`)); err != nil {
		t.Fatalf("make the final: %v", err)
	}
	var cut string
	err = chromedp.Run(ctx,
		chromedp.WaitVisible(`#final .cut`),
		chromedp.Text(`#final .cut`, &cut),
		sitetest.Screenshot("final-made"),
	)
	if err != nil {
		t.Fatalf("the final made: %v", err)
	}
	rounds, err := svc.Rounds(ctx0, tr.ID)
	if err != nil || len(rounds) != 2 || rounds[1].Cut == nil || len(rounds[1].Cut.Draw) != 2 {
		t.Fatalf("rounds after the final = %+v, %v; want the final with a draw of 2", rounds, err)
	}
	if want := fmt.Sprintf("シード %d", rounds[1].Cut.Seed); !strings.Contains(cut, "同順位の抽選") || !strings.Contains(cut, want) {
		t.Errorf("the cut shown = %q, want the draw with %q", cut, want)
	}

	final := rounds[1].Tables[0].Players
	in := tournament.ResultInput{Declared: final[2]}
	for i, p := range final {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{7, 5, 10, 5}[i]})
	}
	if _, err := svc.SaveResult(ctx0, "山田", tr.ID, 2, 1, in); err != nil {
		t.Fatal(err)
	}
	var first, heads, firstEN string
	err = chromedp.Run(ctx,
		chromedp.Navigate(standings),
		chromedp.WaitVisible(`table.final-results`),
		chromedp.Text(`table.final-results tbody tr`, &first),
		chromedp.Evaluate(`[...document.querySelectorAll('h2')].map(h => h.textContent).join('|')`, &heads),
		sitetest.Screenshot("final-results"),
		chromedp.Navigate(standings+"?lang=en"),
		chromedp.WaitVisible(`table.final-results`),
		chromedp.Text(`table.final-results tbody tr`, &firstEN),
		sitetest.Screenshot("final-results-en"),
	)
	if err != nil {
		t.Fatalf("the final results: %v", err)
	}
	if !strings.Contains(first, "決勝卓 1位") {
		t.Errorf("the first line of the final results = %q, want the final table's winner", first)
	}
	if !strings.Contains(heads, "最終順位") || !strings.Contains(heads, "予選順位") {
		t.Errorf("the standings page's headings = %q, want 最終順位 and 予選順位", heads)
	}
	if !strings.Contains(firstEN, "final table, place 1") {
		t.Errorf("the first line in English = %q", firstEN)
	}

	// Printed, the standings page keeps the final results first.
	var pdf []byte
	err = chromedp.Run(ctx,
		chromedp.Navigate(standings),
		chromedp.WaitVisible(`table.final-results`),
		chromedp.Evaluate(`document.fonts.ready.then(() => true)`, nil, awaitPromise),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			pdf, _, err = page.PrintToPDF().WithPrintBackground(true).WithPaperWidth(8.27).WithPaperHeight(11.69).Do(ctx)
			return err
		}),
	)
	if err != nil {
		t.Fatalf("print the standings: %v", err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("PrintToPDF returned no PDF (%d bytes)", len(pdf))
	}
	if err := os.MkdirAll(sitetest.Artefacts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sitetest.Artefacts, "final-standings.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserTurnPage is a final table's phone in Chromium, its game time
// over: the judge picks whose turn it is, the countdown runs, a tap passes
// the turn, and the end time set shows. A screenshot is kept.
func TestBrowserTurnPage(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	st := tournamenttest.OpenStore(t, dir)
	svc := tournamenttest.NewServiceOn(t, st, time.Now)
	ctx0 := context.Background()
	tr, err := svc.CreateTournament(ctx0, "受付", tournament.TournamentInput{Name: "全国大会", Ruleset: "national-2025", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	sitetest.AddPlayers(t, dir, tr.ID, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	if _, err := svc.PairNextRound(ctx0, "受付", tr.ID); err != nil {
		t.Fatal(err)
	}
	saveAll(t, svc, tr.ID, 1, []int{10, 8, 6, 4})
	final, err := svc.MakeFinal(ctx0, "山田", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetSeating(ctx0, "山田", tr.ID, 2, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	// The final's clock started 69 minutes ago: 8 of placement and 60 of
	// play are over, and the turn under way has a minute left.
	start := tournament.ClockEvent{RoundID: final.ID, Kind: tournament.ClockStart, Judge: "山田", At: time.Now().Add(-69 * time.Minute)}
	if err := st.AddClockEvent(ctx0, &start, tournament.Change{Judge: "山田", At: start.At, Action: "clock.start", Subject: "round 2"}); err != nil {
		t.Fatal(err)
	}
	ctx := sitetest.NewBrowser(t)
	turns := fmt.Sprintf("%s/judge/t/%d/rounds/2/tables/1/turns", base, tr.ID)
	var before, after, phase string
	err = chromedp.Run(ctx,
		logIn(base),
		chromedp.EmulateViewport(412, 915),
		chromedp.Navigate(turns),
		chromedp.WaitVisible(`.turns-players button`),
	)
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`.turns-players form:first-child button`))
	}
	if err == nil {
		err = chromedp.Run(ctx,
			chromedp.WaitVisible(`.turns-pass`),
			chromedp.Text(`.turns-big`, &before),
			chromedp.Sleep(2100*time.Millisecond),
			chromedp.Text(`.turns-big`, &after),
			chromedp.SetValue(`#minutes`, "15"),
		)
	}
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`.turns-end-form button`))
	}
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`.turns-pass`))
	}
	if err == nil {
		err = chromedp.Run(ctx,
			chromedp.WaitVisible(`.turns-end`),
			chromedp.Text(`.turns-phase`, &phase),
			sitetest.Screenshot("final-turns"),
		)
	}
	if err != nil {
		t.Fatalf("the turn page: %v", err)
	}
	if before == after || !strings.HasPrefix(before, "1:") && !strings.HasPrefix(before, "2:") {
		t.Errorf("the countdown read %q, then %q two seconds later: want it running down from 2:00", before, after)
	}
	if !strings.Contains(phase, "2手番目") {
		t.Errorf("after choosing a player and one tap: %q, want turn 2 (issue 24: choosing the player starts turn 1)", phase)
	}
}
