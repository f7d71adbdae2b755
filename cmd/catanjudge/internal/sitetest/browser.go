package sitetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

const (
	chromiumPath = "/usr/bin/chromium"
	// BrowserPassword is the first start's head judge's password
	// (tournament.FirstHead) on every test server.
	BrowserPassword = "browser-test-password"
	// Artefacts is the folder, under the test's package, the screenshots
	// and printed PDFs go to: CI keeps it.
	Artefacts = "testdata/artefacts"
)

// BrowserSite boots server.Serve on a free port with a temporary data folder and
// returns its base URL and data folder; the server stops with the test.
func BrowserSite(t *testing.T) (string, string) {
	t.Helper()
	NeedChromium(t)
	dir := t.TempDir()
	addr, _ := ServeAt(t, dir, "127.0.0.1:0")
	return "http://" + addr, dir
}

// NewBrowser starts headless Chromium with a laptop-sized window, and
// the extra flags a test gives.
func NewBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	// Not t.TempDir: Chromium's helpers may still write to the profile as
	// the test ends, and a failed removal would fail the test.
	profile, err := os.MkdirTemp("", "catanjudge-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	}
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	// A bound on a hung browser, not an estimate: beside the other
	// packages' tests a long one (a whole game recorded by taps) has
	// taken 67 s.
	ctx, cancel := context.WithTimeout(bctx, 4*time.Minute)
	t.Cleanup(func() {
		cancel()
		cancelBrowser()
		cancelAlloc()
		for range 10 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return ctx
}

// Screenshot saves the whole page as testdata/artefacts/name.png, kept by CI.
func Screenshot(name string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var png []byte
		if err := chromedp.FullScreenshot(&png, 100).Do(ctx); err != nil {
			return err
		}
		if err := os.MkdirAll(Artefacts, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(Artefacts, name+".png"), png, 0o644)
	})
}

// Click waits until sel is visible and clicks the first element it
// matches, found and clicked in one step of the page's own script. The
// console's live pages swap a part in when the event changes (a round
// just paired is announced to the page that shows it): chromedp's Click
// finds the node, then moves the mouse to it, and a swap in between left
// it clicking a node no longer there ("Could not find node with given id").
func Click(sel string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := chromedp.WaitVisible(sel).Do(ctx); err != nil {
			return err
		}
		quoted, err := json.Marshal(sel)
		if err != nil {
			return err
		}
		var clicked bool
		js := fmt.Sprintf(`(() => { const e = document.querySelector(%s); if (!e) return false; e.click(); return true })()`, quoted)
		if err := chromedp.Evaluate(js, &clicked).Do(ctx); err != nil {
			return err
		}
		if !clicked {
			return fmt.Errorf("click %s: no element matches it any more", sel)
		}
		return nil
	})
}

// AddPlayers registers checked-in players through the service, over the
// server's own database file, to spend the browser's time on the judge's work.
func AddPlayers(t *testing.T, dir string, tid int64, names ...string) {
	t.Helper()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	for _, n := range names {
		name, kana, _ := strings.Cut(n, "/")
		in := tournament.PlayerInput{Name: name, Kana: kana, CheckedIn: true}
		if _, err := svc.AddPlayer(context.Background(), "受付", tid, in); err != nil {
			t.Fatal(err)
		}
	}
}

// NeedChromium skips the test when Chromium is missing, or fails it when
// CATANJUDGE_REQUIRE_BROWSER=1 (as CI sets).
func NeedChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CATANJUDGE_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CATANJUDGE_REQUIRE_BROWSER=1 but %s is missing: %v", chromiumPath, err)
		}
		t.Skipf("%s is missing; install chromium to run the browser tests", chromiumPath)
	}
}

// SkipWithoutChromium skips a browser test where Chromium is not installed,
// unless CATANJUDGE_REQUIRE_BROWSER=1 (CI) makes that a failure.
func SkipWithoutChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CATANJUDGE_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CATANJUDGE_REQUIRE_BROWSER=1 but %s is missing: %v", chromiumPath, err)
		}
		t.Skipf("%s is missing; install chromium to run the browser tests", chromiumPath)
	}
}

// Seated is a player at a table, as the round's JSON lists them.
type Seated struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// RoundTables returns the players of each table of round 1, in pairing order.
func RoundTables(t *testing.T, base string, tid int64) [][]Seated {
	t.Helper()
	var round struct {
		Tables []struct {
			Players []Seated `json:"players"`
		} `json:"tables"`
	}
	APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid), nil, 200, &round)
	out := make([][]Seated, len(round.Tables))
	for i, tb := range round.Tables {
		out[i] = tb.Players
	}
	return out
}

// SaveResult saves table's score sheet through the API: the first player
// in pairing order declares with 10 VP, the others have 7, 5 and 3.
func SaveResult(t *testing.T, base string, tid int64, table int) {
	t.Helper()
	var scores []map[string]int64
	players := RoundTables(t, base, tid)[table-1]
	for i, p := range players {
		scores = append(scores, map[string]int64{"player": p.ID, "vp": []int64{10, 7, 5, 3}[i]})
	}
	APIDo(t, base, "PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/%d/result", tid, table),
		map[string]any{"scores": scores, "declared": players[0].ID}, 200, nil)
}

// JudgeIn starts a browser of the judge's own (its own cookies) and logs
// the judge in.
func JudgeIn(t *testing.T, base, name string) context.Context {
	t.Helper()
	return LogInAs(t, base, name, StaffPassword(t, base, name))
}

// CheckRevision checks that the latest revision of round 1's table is
// version, by judge, with the VP want of the players it names.
func CheckRevision(t *testing.T, base string, tid int64, table, version int, judge string, want map[int64]int) {
	t.Helper()
	var revs struct {
		Revisions []struct {
			Version int    `json:"version"`
			Judge   string `json:"judge"`
			Scores  []struct {
				Player int64 `json:"player"`
				VP     int   `json:"vp"`
			} `json:"scores"`
		} `json:"revisions"`
	}
	APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/%d/revisions", tid, table), nil, 200, &revs)
	if n := len(revs.Revisions); n != version {
		t.Fatalf("table %d has %d revisions, want %d", table, n, version)
	}
	last := revs.Revisions[version-1]
	got := map[int64]int{}
	for _, sc := range last.Scores {
		got[sc.Player] = sc.VP
	}
	for p, vp := range want {
		if got[p] != vp || last.Judge != judge {
			t.Errorf("version %d by %s gives player %d %d VP, want %s's with %d", last.Version, last.Judge, p, got[p], judge, vp)
		}
	}
}
