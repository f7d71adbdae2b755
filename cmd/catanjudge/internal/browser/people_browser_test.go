package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// seedPlayedRound plays round 1 of the tournament seedPrintRound made:
// every table's result (table 1's winner with a breakdown), a VP deduction
// at table 2, then round 2 paired and seated. It returns the name of
// table 1's winner, whose reading is the last in their line.
func seedPlayedRound(t *testing.T, dir string, tid int64) (winner tournament.Player) {
	t.Helper()
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	v, err := svc.RoundView(ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	saveRound1(t, svc, tid, func(tv tournament.TableView, in *tournament.ResultInput) {
		if tv.Table.Number == 1 {
			in.Scores[0].Breakdown = &referee.Breakdown{Settlements: 2, Cities: 3, LongestRoad: true}
		}
	})
	if _, err := svc.RecordPenalty(ctx, "山田", tid, tournament.PenaltyInput{PlayerID: v.Tables[1].Players[1].PlayerID, Round: 1,
		Offence: "note-taking", Level: referee.VPDeduction, Note: "メモ帳"}); err != nil {
		t.Fatal(err)
	}
	r, err := svc.PairNextRound(ctx, "山田", tid)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		if _, err := svc.SetSeating(ctx, "山田", tid, 2, tb.Number, tournament.SeatingInput{Auto: true}); err != nil {
			t.Fatal(err)
		}
	}
	winner, err = svc.GetPlayer(ctx, tid, v.Tables[0].Players[0].PlayerID)
	if err != nil {
		t.Fatal(err)
	}
	return winner
}

// TestBrowserPlayerPage is a player on a phone (390 × 844): they find
// themselves on the kiosk by their reading, open their page from the
// highlighted line, and read round 1 (their table, seat, colour, 1st
// place with 10 VP and the breakdown, their rank after it, as now) and round 2's
// table; from there their record across events. Nothing is wider than the
// phone.
func TestBrowserPlayerPage(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid, _ := seedPrintRound(t, dir)
	me := seedPlayedRound(t, dir, tid)
	ctx := sitetest.NewBrowser(t)
	var href, heading, rank, round1, round2, record string
	var wide, recordWide bool
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(fmt.Sprintf("%s/lang/ja?next=/kiosk/%d", base, tid)),
		chromedp.WaitVisible(`#q`),
		chromedp.SendKeys(`#q`, me.Kana),
		chromedp.WaitVisible(`#entries tr.k-mine a.k-plink`),
		// The page brings their table into view with a smooth scroll: the
		// tap waits for it to end, as a player's thumb does.
		chromedp.Poll(`(() => { const r = document.querySelector(".k-card.k-mine").getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; })()`,
			nil, chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.ActionFunc(func(ctx context.Context) error {
			for range 20 {
				var still bool
				err := chromedp.Evaluate(`new Promise(done => { const y = scrollY; setTimeout(() => done(scrollY === y), 250); })`, &still, awaitPromise).Do(ctx)
				if err != nil || still {
					return err
				}
			}
			return nil
		}),
		chromedp.AttributeValue(`#entries tr.k-mine a.k-plink`, "href", &href, nil),
		chromedp.Click(`#entries tr.k-mine a.k-plink`),
		chromedp.WaitVisible(`#round-1`),
		chromedp.Text(`#pl-h`, &heading),
		chromedp.Text(`#player-rank`, &rank),
		chromedp.Text(`#round-1`, &round1),
		chromedp.Text(`#round-2`, &round2),
		chromedp.Evaluate(`document.documentElement.scrollWidth > innerWidth`, &wide),
		sitetest.Screenshot("player-page-phone"),
		chromedp.Click(`#person-link`),
		chromedp.WaitVisible(`#events`),
		chromedp.Text(`#events`, &record),
		chromedp.Evaluate(`document.documentElement.scrollWidth > innerWidth`, &recordWide),
		sitetest.Screenshot("person-page-phone"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("/kiosk/%d/players/%d", tid, me.ID); href != want {
		t.Errorf("the highlighted line links %q, want %q", href, want)
	}
	// Three tables' winners share the 1st places and the VP: the VP share
	// ranks them, the same after round 1 as now.
	n, _ := strings.CutPrefix(rank, "現在")
	if !strings.Contains(heading, me.Name) || !strings.HasSuffix(n, "位") {
		t.Errorf("the page is headed %q with %q, want %s with their rank so far", heading, rank, me.Name)
	}
	for _, want := range []string{"第1回戦", "1卓", "番手", "1位", "10点", "内訳: 家2・街3・ロンゲストロード", "勝利宣言", "第1回戦終了時点の順位: " + n} {
		if !strings.Contains(round1, want) {
			t.Errorf("round 1 reads %q, want %q in it", round1, want)
		}
	}
	if !strings.Contains(round2, "第2回戦") || !strings.Contains(round2, "卓") || strings.Contains(round2, "終了時点") {
		t.Errorf("round 2 reads %q, want its table and no rank yet", round2)
	}
	if !strings.Contains(record, "土曜カタン大会") || !strings.Contains(record, "開催中") {
		t.Errorf("their record reads %q, want the event under way", record)
	}
	if wide || recordWide {
		t.Errorf("a page is wider than the phone: player's %v, record %v", wide, recordWide)
	}
}

// monthlyEvents creates two events, of October and November, over the
// server's database file, and returns the service that made them.
func monthlyEvents(t *testing.T, dir string) (svc *tournament.Service, oct, nov tournament.Tournament) {
	t.Helper()
	svc = tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	var err error
	if oct, err = svc.CreateTournament(context.Background(), "受付", tournament.TournamentInput{Name: "10月定例会", Date: "2025-10-18", Rounds: 2}); err != nil {
		t.Fatal(err)
	}
	if nov, err = svc.CreateTournament(context.Background(), "受付", tournament.TournamentInput{Name: "11月定例会", Date: "2025-11-15", Rounds: 2}); err != nil {
		t.Fatal(err)
	}
	return svc, oct, nov
}

// TestBrowserRegisterReturningPlayer is the desk on a laptop registering
// someone who played last month under a reading typed another way: the
// form offers last month's entry with the event, the judge chooses it,
// and the person's page then lists both events.
func TestBrowserRegisterReturningPlayer(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc, oct, nov := monthlyEvents(t, dir)
	sato, err := svc.AddPlayer(context.Background(), "受付", oct.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := sitetest.NewBrowser(t)
	var legend, candidate, person, events string
	err = chromedp.Run(ctx,
		logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/players", base, nov.ID)),
		chromedp.WaitVisible(`#name`),
		chromedp.SendKeys(`#name`, "佐藤 太郎"),
		chromedp.SendKeys(`#kana`, "サトウ タロー"),
		chromedp.Submit(`#name`),
		chromedp.WaitVisible(`#candidates`),
		chromedp.Text(`#candidates legend`, &legend),
		chromedp.Text(fmt.Sprintf(`#candidates label:has(input[value="%d"])`, sato.PersonID), &candidate),
		sitetest.Screenshot("register-candidates"),
		chromedp.Click(fmt.Sprintf(`#candidates input[value="%d"]`, sato.PersonID)),
		chromedp.Click(`#add-h ~ form button[type=submit]`),
		chromedp.WaitVisible(`#waiting-cards .code`),
		chromedp.Click(`#list-h ~ .table-wrap tbody td:nth-child(2) a`),
		chromedp.WaitVisible(`#person-of`),
		chromedp.Text(`#person-of`, &person),
		chromedp.Click(`#person-of a`),
		chromedp.WaitVisible(`#person-events`),
		chromedp.Text(`#person-events`, &events),
		sitetest.Screenshot("person-two-events"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(legend, "佐藤 太郎") || !strings.Contains(candidate, "さとう たろう") || !strings.Contains(candidate, "10月定例会") {
		t.Errorf("the question %q offers %q, want 佐藤 太郎 of 10月定例会", legend, candidate)
	}
	if person != "登録者: 佐藤 太郎（2大会に参加） 登録者のページ · 公開ページ" {
		t.Errorf("the player's page says %q, want their person with 2 events", person)
	}
	if !strings.Contains(events, "11月定例会") || !strings.Contains(events, "10月定例会") || strings.Index(events, "11月") > strings.Index(events, "10月") {
		t.Errorf("the person's events read %q, want November then October", events)
	}
}

// TestBrowserMergePeople is a judge merging two entries of one person
// (one without a reading, from an import) from the registry on a laptop:
// the entry of the same name is offered on the person's page, asked about,
// merged, and the person then lists both events with the merge in the
// history; merging someone who played the same event is refused in place.
func TestBrowserMergePeople(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	svc, oct, nov := monthlyEvents(t, dir)
	add := func(tid int64, name, kana string) tournament.Player {
		p, err := svc.AddPlayer(context.Background(), "受付", tid, tournament.PlayerInput{Name: name, Kana: kana, Person: tournament.PersonChoice{New: true}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ito := add(oct.ID, "伊藤 美咲", "いとう みさき")
	noReading := add(nov.ID, "伊藤 美咲", "")
	add(nov.ID, "伊藤 美咲", "いとう みさ")
	ctx := sitetest.NewBrowser(t)
	var listed, buttons int
	var asked, events, history, refused string
	err := chromedp.Run(ctx,
		logIn(base),
		chromedp.Click(`#people-link`),
		chromedp.WaitVisible(`#q`),
		chromedp.SendKeys(`#q`, "伊藤"),
		chromedp.Submit(`#q`),
		chromedp.WaitVisible(`#people`),
		chromedp.Evaluate(`document.querySelectorAll("#people tbody tr").length`, &listed),
		sitetest.Screenshot("people-search"),
		chromedp.Click(fmt.Sprintf(`#people a[href="/judge/people/%d"]`, ito.PersonID)),
		chromedp.WaitVisible(`#alike`),
		// The answer to the question outlives the page the form leaves.
		chromedp.Evaluate(`window.confirm = m => { sessionStorage.asked = m; return true; }`, nil),
		// The entry without a reading: the first of the same name offered.
		chromedp.Click(`#alike li:first-child button`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Evaluate(`sessionStorage.asked || ""`, &asked),
		chromedp.Text(`#person-events`, &events),
		chromedp.Text(`#person-history`, &history),
		sitetest.Screenshot("person-merged"),
		// Issue 25: the other 伊藤 美咲 of November cannot be merged now: the
		// page says why in place of the button.
		chromedp.WaitVisible(`#alike li:first-child .refusal`),
		chromedp.Text(`#alike li:first-child .refusal`, &refused),
		chromedp.Evaluate(`document.querySelectorAll("#alike li:first-child button").length`, &buttons),
		sitetest.Screenshot("person-merge-refused"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if listed != 3 {
		t.Errorf("the search for 伊藤 lists %d people, want the 3 entries", listed)
	}
	// The two of one name are told apart by their readings and numbers.
	if want := fmt.Sprintf("「伊藤 美咲（登録者番号 %d）」を「伊藤 美咲（いとう みさき・登録者番号 %d）」に統合します", noReading.PersonID, ito.PersonID); !strings.Contains(asked, want) {
		t.Errorf("the merge asked %q, want it to say what it does: %q", asked, want)
	}
	if !strings.Contains(events, "11月定例会") || !strings.Contains(events, "10月定例会") {
		t.Errorf("after the merge the events read %q, want both", events)
	}
	if !strings.Contains(history, fmt.Sprintf("山田 が登録者「伊藤 美咲」（番号 %d）を「伊藤 美咲」（番号 %d）に統合しました。", noReading.PersonID, ito.PersonID)) {
		t.Errorf("the history reads %q, want the merge", history)
	}
	if !strings.Contains(refused, "どちらも「11月定例会」に参加しているため") || buttons != 0 {
		t.Errorf("the other 伊藤 美咲 says %q with %d merge buttons, want the refusal as two players of November and no button", refused, buttons)
	}
}

// TestBrowserResultsOnPhone opens a closed event's results from the
// landing page on a phone (390 × 844) and on a tablet (1024 × 768): the
// standings and the tables read without scrolling sideways.
func TestBrowserResultsOnPhone(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	tid := seedLongRound(t, dir)
	closeLongRound(t, dir, tid)
	ctx := sitetest.NewBrowser(t)
	var href string
	var phoneWide, tabletWide bool
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
		chromedp.Navigate(base+"/lang/ja?next=/"),
		chromedp.WaitVisible(`a.home-results`),
		chromedp.AttributeValue(`a.home-results`, "href", &href, nil),
		chromedp.Click(`a.home-results`),
		chromedp.WaitVisible(`table.results-round`),
		chromedp.Evaluate(`document.fonts.ready.then(() => true)`, nil, awaitPromise),
		chromedp.Evaluate(`document.documentElement.scrollWidth > innerWidth`, &phoneWide),
		sitetest.Screenshot("results-phone"),
		chromedp.EmulateViewport(1024, 768),
		chromedp.Reload(),
		chromedp.WaitVisible(`table.results-round`),
		chromedp.Evaluate(`document.documentElement.scrollWidth > innerWidth`, &tabletWide),
		sitetest.Screenshot("results-tablet"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("/results/%d", tid); href != want {
		t.Errorf("the landing page links the results at %q, want %q", href, want)
	}
	if phoneWide || tabletWide {
		t.Errorf("the results scroll sideways: on the phone %v, on the tablet %v", phoneWide, tabletWide)
	}
}
