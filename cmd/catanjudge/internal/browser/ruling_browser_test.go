package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// edge selects the board's edge (or the road on it) between corners a and
// b, whichever way the page names it.
func edge(attr, a, b string) string {
	return fmt.Sprintf(`[%s="%s %s"],[%s="%s %s"]`, attr, a, b, attr, b, a)
}

// follow opens the page the link sel points to.
func follow(sel string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var href string
		if err := chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).href`, sel), &href).Do(ctx); err != nil {
			return err
		}
		return chromedp.Navigate(href).Do(ctx)
	})
}

// submitFor clicks the submit button sel and waits for the page it posts
// to to show want: the old page is marked, and only a page without the
// mark counts. A check made while the page navigates is made again.
func submitFor(sel, want string) chromedp.Action {
	return chromedp.Tasks{
		chromedp.Evaluate(`document.documentElement.dataset.before = "1"`, nil),
		chromedp.Click(sel),
		chromedp.ActionFunc(func(ctx context.Context) error {
			check := fmt.Sprintf(`!document.documentElement.dataset.before && document.querySelector(%q) !== null`, want)
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				var ok bool
				if err := chromedp.Evaluate(check, &ok).Do(ctx); err == nil && ok {
					return nil
				}
			}
			return fmt.Errorf("%s after %s: not shown", want, sel)
		}),
	}
}

// TestBrowserScoreBreakdown enters a score sheet with breakdowns in
// Chromium: the VP counted from each breakdown shows as the judge types
// (the server counts it), a written total that does not add up is said
// beside its field before saving, and Save is refused with the field
// marked and every value kept.
func TestBrowserScoreBreakdown(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	ids := sitetest.RoundTables(t, base, tid)[0]
	first := ids[0].ID
	f := func(field string, id int64) string { return fmt.Sprintf("#%s_%d", field, id) }
	score := fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1/score", base, tid)
	ctx := sitetest.JudgeIn(t, base, "山田")
	var total, live, refused, invalid, kept string
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(score),
		// Follow the sheet's link to the breakdown (Navigate waits for the
		// page: a query sent while a click navigates may wait forever).
		follow(`#show-breakdown`),
		chromedp.WaitVisible(f("settlements", first)),
		// 2 settlements, 2 cities, the longest road, 2 one-point cards: 10.
		chromedp.SendKeys(f("settlements", first), "2"),
		chromedp.SendKeys(f("cities", first), "2"),
		chromedp.Click(f("longest_road", first)),
		chromedp.SendKeys(f("point_cards", first), "2"),
		chromedp.Poll(fmt.Sprintf(`document.querySelector("#total-%d").textContent === "10"`, first), nil),
		chromedp.Text(fmt.Sprintf("#total-%d", first), &total),
		// The judge writes 11 by mistake, and the others' VP.
		chromedp.SendKeys(f("vp", first), "11"),
		chromedp.SendKeys(f("vp", ids[1].ID), "7"),
		chromedp.SendKeys(f("vp", ids[2].ID), "5"),
		chromedp.SendKeys(f("vp", ids[3].ID), "3"),
		chromedp.Click(fmt.Sprintf(`input[name="declared"][value="%d"]`, first)),
		chromedp.WaitVisible(fmt.Sprintf("#vp_%d-check .field-error", first)),
		chromedp.Text(fmt.Sprintf("#vp_%d-check", first), &live),
		sitetest.Screenshot("60-score-breakdown-live"),
		submitFor(`button[value="save"]`, fmt.Sprintf("#vp_%d-error", first)),
		chromedp.Text(fmt.Sprintf("#vp_%d-error", first), &refused),
		chromedp.AttributeValue(f("vp", first), "aria-invalid", &invalid, nil),
		chromedp.Value(f("cities", first), &kept),
		sitetest.Screenshot("61-score-breakdown-refused"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if total != "10" {
		t.Errorf("the counted VP = %q, want 10", total)
	}
	want := "勝利点は11点と書かれていますが、内訳からは10点です（§11）"
	if !strings.Contains(live, want) || !strings.Contains(refused, want) || !strings.Contains(refused, ids[0].Name) {
		t.Errorf("while typing %q, after Save %q; want both to say %q", live, refused, want)
	}
	if invalid != "true" || kept != "2" {
		t.Errorf("after the refusal the VP field is aria-invalid=%q and the cities %q; want true and the typed 2 kept", invalid, kept)
	}
	// The judge corrects the VP to 10: the same live answer that clears
	// the refusal by the field places the sheet (the live placings),
	// each player's breakdown said beside the place.
	var placings, cleared string
	err = chromedp.Run(ctx,
		chromedp.SetValue(f("vp", first), ""),
		chromedp.SendKeys(f("vp", first), "10"),
		chromedp.WaitVisible(`#live-preview #preview`),
		chromedp.Poll(fmt.Sprintf(`document.querySelector("#vp_%d-check").textContent === ""`, first), nil),
		chromedp.Text(`#live-preview`, &placings),
		chromedp.JavascriptAttribute(f("vp", first), "ariaInvalid", &cleared),
		sitetest.Screenshot("62-score-breakdown-placings"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(placings, "1位") || !strings.Contains(placings, "家2・街2・ロンゲストロード・1ポイント×2") {
		t.Errorf("the live placings say %q, want 1位 with the breakdown", placings)
	}
	if cleared == "true" {
		t.Errorf("the corrected VP field is still aria-invalid")
	}
	// The table's rule: the second player claims the longest road too
	// (one card in the game, §10 ア): said by both players' breakdowns.
	second := ids[1].ID
	var both [2]string
	err = chromedp.Run(ctx,
		chromedp.SetValue(f("vp", first), "10"),
		chromedp.SetValue(f("vp", second), ""),
		chromedp.SendKeys(f("settlements", second), "1"),
		chromedp.SendKeys(f("cities", second), "2"),
		chromedp.Click(f("longest_road", second)),
		submitFor(`button[value="save"]`, fmt.Sprintf("#problems-%d .field-error", second)),
		chromedp.Text(fmt.Sprintf("#problems-%d", first), &both[0]),
		chromedp.Text(fmt.Sprintf("#problems-%d", second), &both[1]),
		sitetest.Screenshot("66-score-breakdown-table-rule"),
	)
	if err != nil {
		t.Fatal(err)
	}
	for i, msg := range both {
		if !strings.Contains(msg, "ロンゲストロードは1枚です（§10 ア）") {
			t.Errorf("row %d says %q, want the one longest road card", i+1, msg)
		}
	}
	var revs struct {
		Revisions []struct{} `json:"revisions"`
	}
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/revisions", tid), nil, 200, &revs)
	if len(revs.Revisions) != 0 {
		t.Errorf("the refused sheet was saved")
	}
}

// TestBrowserRulingByTaps rebuilds a position on a table's board by taps
// in Chromium: the first player's road of 7 takes the longest road, the
// second's road of 5 does not take it over, and the third's settlement
// cuts the first road to 5: a tie after a cut, so the card returns to the
// bank (§10 ア), with both longest trails highlighted. The ruling is saved
// with a note and shows on the table's page. Screenshots at laptop, tablet
// and phone widths.
func TestBrowserRulingByTaps(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	table := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1", tid)
	var seated struct {
		Players []struct {
			Name string `json:"name"`
			Seat int    `json:"seat"`
		} `json:"players"`
	}
	sitetest.APIDo(t, base, "POST", table+"/seating", map[string]any{"auto": true}, 200, &seated)
	sitetest.APIDo(t, base, "POST", table+"/board", map[string]any{"auto": true}, 200, nil)
	name := map[int]string{}
	for _, p := range seated.Players {
		name[p.Seat] = p.Name
	}
	page := fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1", base, tid)
	ctx := sitetest.JudgeIn(t, base, "山田")

	// tapRoad taps corners one after another as a road of the chosen
	// colour, waiting for each piece to be drawn.
	tapRoad := func(corners ...string) chromedp.Action {
		var acts chromedp.Tasks
		for i := 0; i+1 < len(corners); i++ {
			acts = append(acts, chromedp.Click(edge("data-edge", corners[i], corners[i+1]), chromedp.ByQuery),
				chromedp.WaitVisible(edge("data-piece", corners[i], corners[i+1]), chromedp.ByQuery))
		}
		return acts
	}
	tapCorner := func(c string) chromedp.Action {
		return chromedp.Tasks{
			chromedp.Click(fmt.Sprintf(`[data-at="%s"]`, c), chromedp.ByQuery),
			chromedp.WaitVisible(fmt.Sprintf(`[data-piece="%s"]`, c), chromedp.ByQuery),
		}
	}
	var took, kept, cut string
	var trails int
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(1366, 900),
		chromedp.Navigate(page),
		follow(`a[href$="/tables/1/ruling"]`),
		chromedp.WaitVisible(`#ruling-board`),
		// Seat 1: a settlement and a road of 7.
		chromedp.KeyEvent("1"),
		tapCorner("N(-1,0)"),
		tapRoad("N(-1,0)", "S(0,-1)", "N(0,0)", "S(1,-1)", "N(1,0)", "S(2,-1)", "N(2,0)", "S(3,-1)"),
		chromedp.Text(`#answer-longest-road`, &took),
		// Seat 2: a road of 5 does not take it over.
		chromedp.KeyEvent("2"),
		tapCorner("S(-1,1)"),
		tapRoad("S(-1,1)", "N(-1,2)", "S(0,1)", "N(0,2)", "S(1,1)", "N(1,2)"),
		chromedp.Text(`#answer-longest-road`, &kept),
		// Seat 3: a settlement in the middle of seat 1's road.
		chromedp.KeyEvent("3"),
		tapCorner("N(0,0)"),
		chromedp.Text(`#answer-longest-road`, &cut),
		chromedp.Evaluate(`document.querySelectorAll("#ruling-board polyline.trail").length`, &trails),
		sitetest.Screenshot("62-ruling-laptop"),
		chromedp.EmulateViewport(1024, 768),
		sitetest.Screenshot("63-ruling-tablet"),
		chromedp.EmulateViewport(390, 844),
		sitetest.Screenshot("64-ruling-phone"),
		chromedp.EmulateViewport(1366, 900),
		chromedp.SendKeys(`#note`, "道が切られて同点：場へ"),
		submitFor(`#save-ruling`, `#rulings .ruling`),
		sitetest.Screenshot("65-ruling-saved"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(took, name[1]+" — ") || !strings.Contains(took, "§10") {
		t.Errorf("after seat 1's road of 7 the longest road says %q, want %s with the section", took, name[1])
	}
	if !strings.HasPrefix(kept, name[1]+" — ") {
		t.Errorf("after seat 2's road of 5 the longest road says %q, want still %s", kept, name[1])
	}
	if !strings.HasPrefix(cut, "場（だれも持たない） — ") || !strings.Contains(cut, "§10") {
		t.Errorf("after the cut the longest road says %q, want the bank, with the section", cut)
	}
	if trails != 2 {
		t.Errorf("%d longest trails are highlighted, want 2 (seat 1's and seat 2's)", trails)
	}
	var saved string
	if err := chromedp.Run(ctx, chromedp.Text(`#rulings`, &saved)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(saved, "道が切られて同点：場へ") || !strings.Contains(saved, "場（だれも持たない）") {
		t.Errorf("the table's page says %q, want the saved ruling with its answer", saved)
	}
	var list struct {
		Rulings []struct {
			Steps []struct{} `json:"steps"`
		} `json:"rulings"`
	}
	sitetest.APIDo(t, base, "GET", table+"/rulings", nil, 200, &list)
	if len(list.Rulings) != 1 || len(list.Rulings[0].Steps) != 15 {
		t.Errorf("rulings = %+v, want one of 15 steps", list)
	}
}
