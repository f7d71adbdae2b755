package browser

import (
	"bytes"
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

// qualifyingEvents imports three past events of one shop in a
// qualification's dates, each a table of 青木, 井上 and 上田, and makes
// the qualification (three attempts, real names asked) and the fourth
// event, whose players the desk checks in.
func qualifyingEvents(t *testing.T, base string) (fourth int64) {
	t.Helper()
	for i, d := range []string{"2025-10-04", "2025-11-01", "2025-11-29"} {
		table := []map[string]any{
			{"name": "青木", "kana": "あおき", "vp": 10}, {"name": "井上", "kana": "いのうえ", "vp": 8 - i}, {"name": "上田", "kana": "うえだ", "vp": 5 + i},
		}
		sitetest.APIDo(t, base, "POST", "/api/v1/events/import", map[string]any{"events": []map[string]any{{
			"name": fmt.Sprintf("予選 第%d戦", i+1), "date": d, "shop": "カードショップ東",
			"tables": []map[string]any{{"round": 1, "table": 1, "scores": table}}}}}, 201, nil)
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/seasons", map[string]any{"name": "2025年地区予選", "from": "2025-10-01", "to": "2026-01-31",
		"shops": []string{"カードショップ東"}, "formula": map[string]any{"kind": "placement", "points": []int{10, 7, 5, 3}, "best": 2},
		"qualification": map[string]any{"attempts": 3, "real_name": true}}, 201, nil)
	var tour struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "12月予選", "date": "2025-12-13", "shop": "カードショップ東", "rounds": 2}, 201, &tour)
	for _, p := range [][2]string{{"青木", "あおき"}, {"工藤", "くどう"}} {
		sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": p[0], "kana": p[1], "checked_in": false}, 201, nil)
	}
	return tour.ID
}

// TestBrowserFourthAttemptRefusedAtCheckIn: at the desk of a qualifying
// event, the players page says where each player stands in the season's
// qualification; 工藤's real name is typed beside the check-in and he
// checks in to his first attempt; 青木, who used his three, is refused
// in his row with the rule, and stays not checked in.
func TestBrowserFourthAttemptRefusedAtCheckIn(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid := qualifyingEvents(t, base)
	ctx := sitetest.JudgeIn(t, base, "山田")
	players := fmt.Sprintf("%s/judge/t/%d/players", base, tid)
	var aokiBefore, kudoBefore, kudoAfter, refused, aokiStatus string
	err := chromedp.Run(ctx,
		chromedp.Navigate(players),
		chromedp.WaitVisible(`[data-qualification]`),
		chromedp.Text(`//tr[.//a[text()="青木"]]//td[3]`, &aokiBefore, chromedp.BySearch),
		chromedp.Text(`//tr[.//a[text()="工藤"]]//td[3]`, &kudoBefore, chromedp.BySearch),
		sitetest.Screenshot("qualification-desk"),
		chromedp.SendKeys(`//tr[.//a[text()="工藤"]]//input[@name="real_name"]`, "工藤 一郎", chromedp.BySearch),
		chromedp.Click(`//tr[.//a[text()="工藤"]]//button[contains(@class,"primary")]`, chromedp.BySearch),
		chromedp.WaitVisible(`//tr[.//a[text()="工藤"]]//span[contains(@class,"ok")]`, chromedp.BySearch),
		chromedp.Text(`//tr[.//a[text()="工藤"]]//td[3]`, &kudoAfter, chromedp.BySearch),
		chromedp.Click(`//tr[.//a[text()="青木"]]//button[contains(@class,"primary")]`, chromedp.BySearch),
		chromedp.WaitVisible(`//tr[.//a[text()="青木"]]//p[@role="alert"]`, chromedp.BySearch),
		chromedp.Text(`//tr[.//a[text()="青木"]]//p[@role="alert"]`, &refused, chromedp.BySearch),
		chromedp.Text(`//tr[.//a[text()="青木"]]//td[3]`, &aokiStatus, chromedp.BySearch),
		sitetest.Screenshot("qualification-refused"),
	)
	if err != nil {
		t.Fatalf("check in at the desk: %v", err)
	}
	for _, c := range []struct{ what, got, want string }{
		{"青木 before", aokiBefore, "予選参加は3回までです（今季3回参加済み）"},
		{"工藤 before", kudoBefore, "受付すると今季1回目の予選参加です"},
		{"工藤 after", kudoAfter, "受付済み"},
		{"工藤 after", kudoAfter, "2025年地区予選: 今季1回目の予選参加です"},
		{"the refusal", refused, "受付できません。「2025年地区予選」の予選参加は1人3回までで、この方は今季すでに3回参加しています。"},
		{"青木 after", aokiStatus, "未受付"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("%s = %q, want it to say %q", c.what, c.got, c.want)
		}
	}
	// The real name went to the ledger, for the judges alone.
	var ledger struct {
		People []struct {
			Name     string `json:"name"`
			RealName string `json:"real_name"`
			Used     int    `json:"used"`
		} `json:"people"`
	}
	sitetest.APIDo(t, base, "GET", "/api/v1/seasons/1/qualification", nil, 200, &ledger)
	found := false
	for _, p := range ledger.People {
		if p.Name == "工藤" {
			found = p.RealName == "工藤 一郎" && p.Used == 1
		}
		if p.Name == "青木" && p.Used != 3 {
			t.Errorf("青木 used %d attempts after the refusal, want 3", p.Used)
		}
	}
	if !found {
		t.Errorf("the ledger = %+v, want 工藤 with his real name and one attempt", ledger.People)
	}
}

// TestBrowserSeasonPagePrints prints a season's page to A4 with Chromium
// and keeps the PDF; the person's page draws the rating's history.
func TestBrowserSeasonPagePrints(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	qualifyingEvents(t, base)
	ctx := sitetest.NewBrowser(t)
	var pdf []byte
	var rows int
	var marks int
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/lang/ja?next=/seasons/1"),
		chromedp.WaitVisible(`#season-standings`),
		chromedp.Evaluate(`document.querySelectorAll('#season-standings tbody tr').length`, &rows),
		sitetest.Screenshot("season-page"),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			pdf, _, err = page.PrintToPDF().WithPrintBackground(true).WithPaperWidth(8.27).WithPaperHeight(11.69).WithPreferCSSPageSize(true).Do(ctx)
			return err
		}),
		chromedp.Navigate(base+"/people/1"),
		chromedp.WaitVisible(`svg.rating-chart`),
		chromedp.Evaluate(`document.querySelectorAll('svg.rating-chart .rc-mark').length`, &marks),
		sitetest.Screenshot("person-rating"),
	)
	if err != nil {
		t.Fatalf("the season's page: %v", err)
	}
	if rows != 3 {
		t.Errorf("the season's standings list %d people, want 3", rows)
	}
	if marks != 3 {
		t.Errorf("青木's chart has %d marks, want one per event (3)", marks)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) || pdfPages(pdf) != 1 {
		t.Fatalf("the season prints %d pages (%d bytes), want one A4 page", pdfPages(pdf), len(pdf))
	}
	if err := os.MkdirAll(sitetest.Artefacts, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sitetest.Artefacts, "season-page.pdf"), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
}
