package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// fetched is an answer of the server: its status, Retry-After and body.
type fetched struct {
	status int
	retry  string
	body   string
}

// fetch sends method to base+path with the session cookie (nil for none)
// and a form (nil for none), in Japanese.
func fetch(t *testing.T, method, base, path string, cookie *http.Cookie, form url.Values) fetched {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	req.AddCookie(&http.Cookie{Name: "lang", Value: "ja"})
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fetched{status: res.StatusCode, retry: res.Header.Get("Retry-After"), body: string(b)}
}

// Issue 24's PostgreSQL down: while the database cannot be reached, the
// kiosk keeps showing the room the last state it read; a page or a read
// it never had answers 503 with a page that says so and loads itself
// again (no bare 500); an action says it was not saved; the API answers
// 503 database-unavailable with Retry-After; /healthz says so. In
// Chromium, the judge's page that said so shows the tournament by itself
// once the database is back.
func TestBrowserDatabaseDown(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	cluster, dsn := tournamenttest.OwnPostgres(t)
	addr, stop := sitetest.ServeEnv(t, t.TempDir(), "127.0.0.1:0", map[string]string{"CATANJUDGE_SESSION_KEY": testSessionKey}, "--database", dsn)
	defer stop()
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	var other struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "日曜カタン大会", "rounds": 3}, 201, &other)
	kiosk := fmt.Sprintf("/kiosk/%d", tid)
	if got := fetch(t, "GET", base, kiosk, nil, nil); got.status != http.StatusOK || !strings.Contains(got.body, "青木") {
		t.Fatalf("the kiosk = %d, want the round", got.status)
	}
	cookie := judgeLogIn(t, base)
	browser := sitetest.JudgeIn(t, base, "山田")

	ctx := context.Background()
	if err := cluster.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	resumed := false
	defer func() {
		if !resumed {
			_ = cluster.Resume(ctx)
		}
	}()

	if got := fetch(t, "GET", base, kiosk, nil, nil); got.status != http.StatusOK || !strings.Contains(got.body, "青木") || !strings.Contains(got.body, "上田") {
		t.Errorf("the kiosk with the database down = %d, want the last state it read:\n%s", got.status, got.body)
	}
	overview := fmt.Sprintf("/judge/t/%d", tid)
	for _, tc := range []struct {
		what, path string
		cookie     *http.Cookie
	}{
		{"a kiosk never read", fmt.Sprintf("/kiosk/%d", other.ID), nil},
		{"the judge's overview", overview, cookie},
		{"the judge's round", fmt.Sprintf("/judge/t/%d/rounds/1", tid), cookie},
	} {
		got := fetch(t, "GET", base, tc.path, tc.cookie, nil)
		if got.status != http.StatusServiceUnavailable || got.retry != "5" || !strings.Contains(got.body, "データベースに接続できません") ||
			!strings.Contains(got.body, `<meta http-equiv="refresh" content="5">`) || !strings.Contains(got.body, "5秒ごとに読み込み直します") {
			t.Errorf("%s with the database down = %d (Retry-After %q), want 503 saying so and loading again:\n%s", tc.what, got.status, got.retry, got.body)
		}
	}
	save := url.Values{"version": {"0"}, "declared": {"time"}, "action": {"save"}}
	if got := fetch(t, "POST", base, fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/score", tid), cookie, save); got.status != http.StatusServiceUnavailable ||
		!strings.Contains(got.body, "この操作は保存されていません") || strings.Contains(got.body, `http-equiv="refresh"`) {
		t.Errorf("a save with the database down = %d, want 503 saying it was not saved, without reloading:\n%s", got.status, got.body)
	}
	res := sitetest.APIGet(t, fmt.Sprintf("%s/api/v1/tournaments/%d/players", base, tid))
	apiBody, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" || !strings.Contains(string(apiBody), `"code":"database-unavailable"`) {
		t.Errorf("the API with the database down = %s %s (Retry-After %q), want 503 database-unavailable", res.Status, apiBody, res.Header.Get("Retry-After"))
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := fetch(t, "GET", base, "/healthz", nil, nil)
		if got.status == http.StatusServiceUnavailable && strings.Contains(got.body, `"code":"database-unavailable"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz with the database down = %d %s, want 503 database-unavailable", got.status, got.body)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// In Chromium: the page that says so shows the tournament once the
	// database is back, by itself.
	var said, heading string
	err := chromedp.Run(browser,
		chromedp.Navigate(base+overview),
		chromedp.WaitVisible(`#error-then`),
		chromedp.Text(`main`, &said),
		sitetest.Screenshot("database-down"),
	)
	if err != nil {
		t.Fatalf("the overview in Chromium with the database down: %v", err)
	}
	if !strings.Contains(said, "データベースに接続できません") {
		t.Errorf("the page with the database down says %q", said)
	}
	if err := cluster.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	resumed = true
	err = chromedp.Run(browser, chromedp.WaitVisible(`#facts-h`), chromedp.Text(`h1`, &heading), sitetest.Screenshot("database-back"))
	if err != nil || !strings.Contains(heading, "土曜カタン大会") {
		t.Fatalf("the page once the database is back: %v (%q), want the tournament's overview", err, heading)
	}
}

// Issue 24's full disk in Chromium: the server's data folder on a small
// disk, filled while the judge types a score sheet. Saving it says why in
// Japanese, with the sheet as typed; once space is freed, pressing save
// again saves it.
func TestBrowserDiskFull(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	dir := tournamenttest.SmallDisk(t, 48<<20)
	addr, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	ids := sitetest.RoundTables(t, base, tid)[0]
	judge := sitetest.JudgeIn(t, base, "山田")
	score := fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/1/score", base, tid)
	tasks := chromedp.Tasks{chromedp.Navigate(score), chromedp.WaitVisible(fmt.Sprintf("#vp_%d", ids[0].ID))}
	for i, p := range ids {
		tasks = append(tasks, chromedp.SendKeys(fmt.Sprintf("#vp_%d", p.ID), []string{"10", "8", "6", "4"}[i]))
	}
	tasks = append(tasks, chromedp.Click(fmt.Sprintf(`input[name="declared"][value="%d"]`, ids[0].ID)))
	if err := chromedp.Run(judge, tasks); err != nil {
		t.Fatalf("type the sheet: %v", err)
	}
	free := tournamenttest.FillDisk(t, dir)
	var said, kept string
	err := chromedp.Run(judge,
		chromedp.Click(`#score-form button[value="save"]`),
		chromedp.WaitVisible(`#sheet-check .form-error`),
		chromedp.Text(`#sheet-check .form-error`, &said),
		chromedp.Value(fmt.Sprintf("#vp_%d", ids[1].ID), &kept),
		sitetest.Screenshot("score-disk-full"),
	)
	if err != nil {
		t.Fatalf("save with the disk full: %v", err)
	}
	if !strings.Contains(said, "ディスクがいっぱい") || !strings.Contains(said, "失われていません") || kept != "8" {
		t.Errorf("the sheet with the disk full says %q and keeps %q for 井上, want why and the 8 typed", said, kept)
	}
	free()
	var flash string
	err = chromedp.Run(judge,
		chromedp.Click(`#score-form button[value="save"]`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Text(`.flash`, &flash),
	)
	if err != nil || !strings.Contains(flash, "成績表を保存しました") {
		t.Fatalf("save once space is freed: %v (%q)", err, flash)
	}
	sitetest.CheckRevision(t, base, tid, 1, 1, "山田", map[int64]int{ids[0].ID: 10, ids[1].ID: 8})
}
