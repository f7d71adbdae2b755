package browser

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserRoundDone is issue 24's defect 3 in Chromium: the judge's
// round page and the projector are open with the clock running when the
// last table's result comes in. Both swap in 「全卓終了」 in place of the
// time left and count nothing down any more. Screenshots are kept.
func TestBrowserRoundDone(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tid), map[string]any{"action": "start"}, 200, nil)
	sitetest.SaveResult(t, base, tid, 1)

	judge, room := sitetest.NewBrowser(t), sitetest.NewBrowser(t)
	var before string
	err := chromedp.Run(judge,
		logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tid)),
		chromedp.WaitVisible(`#clock .clock-big`),
		chromedp.Text(`#clock .clock-big`, &before),
	)
	if err != nil {
		t.Fatalf("the round page: %v", err)
	}
	err = chromedp.Run(room,
		chromedp.EmulateViewport(1600, 900),
		chromedp.Navigate(fmt.Sprintf("%s/lang/ja?next=/kiosk/%d%%3Fview%%3Dprojector", base, tid)),
		chromedp.WaitVisible(`#clock-time`),
	)
	if err != nil {
		t.Fatalf("the projector: %v", err)
	}
	if !strings.Contains(before, ":") {
		t.Fatalf("the round page's clock before the last result = %q, want the time left", before)
	}

	sitetest.SaveResult(t, base, tid, 2)
	read := func(name string) (console, projector string) {
		t.Helper()
		err := chromedp.Run(judge,
			chromedp.WaitVisible(`#clock .clock-big.state-done`),
			chromedp.Text(`#clock .clock-big`, &console),
			sitetest.Screenshot("round-done-console-"+name),
		)
		if err == nil {
			err = chromedp.Run(room,
				chromedp.WaitVisible(`#clock.state-done`),
				chromedp.Text(`#clock-time`, &projector),
				sitetest.Screenshot("round-done-projector-"+name),
			)
		}
		if err != nil {
			t.Fatalf("the pages once the round is done: %v", err)
		}
		return console, projector
	}
	c1, p1 := read("now")
	time.Sleep(2 * time.Second)
	c2, p2 := read("later")
	for _, got := range []string{c1, c2, p1, p2} {
		if got != "全卓終了" {
			t.Errorf("the clocks once every table has its result say %q, %q (console) and %q, %q (projector), want 全卓終了, counting nothing", c1, c2, p1, p2)
			break
		}
	}
}

// TestBrowserWholeFinish is issue 24's finish of an event in Chromium: a
// shop event of 8 (proshop-2003), one qualifying round, a top-4 final the
// judge makes on the standings page, times on the round page's clock and
// ends by time with the qualifying leader second; the judge enters its
// score sheet and closes the event from the overview. The overview, the
// kiosk, the projector, the results page and the workbook all name the
// final's winner, never the qualifying leader; the final's pages say 決勝
// and offer no re-pairing. Screenshots are kept as artefacts.
func TestBrowserWholeFinish(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	base, ahead, tid, path := aheadEvent(t, map[string]any{"name": "土曜カタン大会", "rounds": 1})
	for _, p := range []string{"加藤 陽介/かとう ようすけ", "田中 健/たなか けん", "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "木村/きむら"} {
		name, kana, _ := strings.Cut(p, "/")
		sitetest.APIDo(t, base, "POST", path+"/players", map[string]any{"name": name, "kana": kana}, 201, nil)
	}
	sitetest.APIDo(t, base, "POST", path+"/rounds", nil, 201, nil)
	// Table 2's winner leads on the VP share: 10 of 24 against 10 of 28.
	for i, players := range sitetest.RoundTables(t, base, tid) {
		var scores []map[string]int64
		for k, p := range players {
			scores = append(scores, map[string]int64{"player": p.ID, "vp": [][]int64{{10, 8, 6, 4}, {10, 7, 5, 2}}[i][k]})
		}
		sitetest.APIDo(t, base, "PUT", fmt.Sprintf("%s/rounds/1/tables/%d/result", path, i+1), map[string]any{"scores": scores, "declared": players[0].ID}, 200, nil)
	}

	judge := fmt.Sprintf("%s/judge/t/%d", base, tid)
	ctx := sitetest.NewBrowser(t)
	err := chromedp.Run(ctx,
		logIn(base),
		chromedp.Navigate(judge+"/standings"),
		chromedp.WaitVisible(`#final form button`),
		chromedp.Evaluate(`window.confirm = () => true`, nil),
	)
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`#final form button`))
	}
	if err != nil {
		t.Fatalf("make the final: %v", err)
	}
	var final struct {
		Tables []struct {
			Players []sitetest.Seated `json:"players"`
		} `json:"tables"`
	}
	sitetest.APIDo(t, base, "GET", path+"/rounds/2", nil, 200, &final)
	finalists := final.Tables[0].Players // best qualified first
	leader, winner := finalists[0], finalists[1]

	// The final's round page: 決勝, no re-pairing; its clock started.
	var heading, nav string
	var repair bool
	err = chromedp.Run(ctx,
		chromedp.Navigate(judge+"/rounds/2"),
		chromedp.WaitVisible(`#clock`),
		chromedp.Text(`h1`, &heading),
		chromedp.Text(`nav [aria-current="page"]`, &nav),
		chromedp.Evaluate(`!!document.querySelector('form[action$="/repair"]')`, &repair),
		sitetest.Screenshot("finish-final-round"),
	)
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`#clock form button.primary`))
	}
	if err != nil {
		t.Fatalf("the final's round page: %v", err)
	}
	if heading != "決勝" || nav != "決勝" || repair {
		t.Errorf("the final's round page: heading %q, nav %q, re-pairing offered %v; want 決勝, 決勝, none", heading, nav, repair)
	}

	// The 7 minutes run out: the judge enters the final's sheet, ended by
	// time, the qualifying leader 8 VP behind the winner's 9.
	ahead.Add(int64(8 * time.Minute))
	vp := map[int64]string{leader.ID: "8", winner.ID: "9", finalists[2].ID: "7", finalists[3].ID: "5"}
	tasks := chromedp.Tasks{chromedp.Navigate(judge + "/rounds/2/tables/1/score"), chromedp.WaitVisible(`#score-form`)}
	for id, v := range vp {
		tasks = append(tasks, chromedp.SetValue(fmt.Sprintf(`#vp_%d`, id), v, chromedp.ByID))
	}
	tasks = append(tasks, chromedp.Click(`input[name="declared"][value="time"]`))
	err = chromedp.Run(ctx, tasks)
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`#score-form button[value="save"]`))
	}
	if err == nil {
		err = chromedp.Run(ctx, chromedp.Navigate(judge), chromedp.WaitVisible(`#close button`), chromedp.Evaluate(`window.confirm = () => true`, nil))
	}
	if err == nil {
		_, err = chromedp.RunResponse(ctx, chromedp.Click(`#close button`))
	}
	if err != nil {
		t.Fatalf("the final's sheet and the close: %v", err)
	}

	want := "優勝: " + winner.Name
	var overview, kiosk, projector, results string
	err = chromedp.Run(ctx,
		chromedp.Navigate(judge),
		chromedp.WaitVisible(`p.winner`),
		textNow(`p.winner`, &overview),
		sitetest.Screenshot("finish-overview"),
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d", base, tid)),
		chromedp.WaitVisible(`#winners`),
		textNow(`#winners`, &kiosk),
		sitetest.Screenshot("finish-kiosk"),
		chromedp.EmulateViewport(1600, 900),
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d?view=projector", base, tid)),
		chromedp.WaitVisible(`#winners`),
		textNow(`#winners`, &projector),
		sitetest.Screenshot("finish-projector"),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(fmt.Sprintf("%s/results/%d", base, tid)),
		chromedp.WaitVisible(`#winners`),
		textNow(`#winners`, &results),
		sitetest.Screenshot("finish-results"),
	)
	if err != nil {
		t.Fatalf("the pages after the close: %v", err)
	}
	for what, got := range map[string]string{"the overview": overview, "the kiosk": kiosk, "the projector": projector, "the results": results} {
		if got != want {
			t.Errorf("%s says %q, want %q (the final's winner; %s led the qualifying)", what, got, want, leader.Name)
		}
	}

	res := sitetest.APIGet(t, base+path+"/export.xlsx")
	defer res.Body.Close()
	wb, err := excelize.OpenReader(res.Body)
	if err != nil {
		t.Fatalf("the workbook: %v", err)
	}
	defer wb.Close()
	first := wb.GetSheetName(0)
	note, _ := wb.GetCellValue(first, "A2")
	top, _ := wb.GetCellValue(first, "C4")
	if !strings.HasPrefix(note, want+"。") || top != winner.Name {
		t.Errorf("the workbook's %s sheet says %q with %q first, want %q and %s first", first, note, top, want, winner.Name)
	}
}

// aheadEvent serves a new site whose clock runs ahead by what the test
// adds to ahead, and creates a tournament there through the API with the
// body given; it returns the site's base URL, the clock's lead and the
// tournament's ID and API path.
func aheadEvent(t *testing.T, body map[string]any) (string, *atomic.Int64, int64, string) {
	t.Helper()
	ahead := new(atomic.Int64)
	now := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	addr, _ := sitetest.ServeAtClock(t, t.TempDir(), "127.0.0.1:0", now)
	base := "http://" + addr
	var tour struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", body, 201, &tour)
	return base, ahead, tour.ID, fmt.Sprintf("/api/v1/tournaments/%d", tour.ID)
}

// textNow reads the text of the first element sel matches in one step, so
// that a page re-rendering it meanwhile (the kiosk's live updates) cannot
// leave the read holding a node gone.
func textNow(sel string, text *string) chromedp.Action {
	return chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).innerText`, sel), text)
}
