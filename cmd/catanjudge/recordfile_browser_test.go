package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server"
	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserDownloadRecordFile is a judge downloading the record file
// from the tournament page in Chromium, with the session alone (no API
// token): the link 「記録ファイルをダウンロード」 saves a JSON file named
// after the event, which names this build as its generator and which
// catanjudge check passes; the same file with one VP changed fails,
// naming the round and table. Screenshot: the tournament page.
func TestBrowserDownloadRecordFile(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "木村/きむら", "佐藤/さとう", "田中/たなか")
	sitetest.SaveResult(t, base, tid, 1)
	sitetest.SaveResult(t, base, tid, 2)
	ctx := sitetest.JudgeIn(t, base, "山田")

	downloads := t.TempDir()
	done := make(chan string, 1)
	chromedp.ListenTarget(ctx, func(ev any) {
		if p, ok := ev.(*browser.EventDownloadProgress); ok && p.State == browser.DownloadProgressStateCompleted {
			select {
			case done <- p.GUID:
			default:
			}
		}
	})
	var label string
	err := chromedp.Run(ctx,
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(downloads).WithEventsEnabled(true),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d", base, tid)),
		chromedp.WaitVisible(`#record-file`),
		chromedp.Text(`#record-file`, &label),
		sitetest.Screenshot("record-file-tournament"),
		chromedp.Click(`#record-file`),
	)
	if err != nil {
		t.Fatal(err)
	}
	if label != "記録ファイルをダウンロード" {
		t.Errorf("the tournament page's link reads %q, want 記録ファイルをダウンロード", label)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the record file did not download within 30 s")
	}
	// Chromium saves the file under the name the server suggests.
	path := filepath.Join(downloads, "土曜カタン大会.record.json")
	data, err := os.ReadFile(path)
	if err != nil {
		entries, _ := os.ReadDir(downloads)
		t.Fatalf("the download is not %s (the folder holds %v): %v", filepath.Base(path), entries, err)
	}
	var head struct {
		Format    int    `json:"format"`
		Generator string `json:"generator"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		t.Fatalf("the downloaded record is not JSON: %v\n%.300s", err, data)
	}
	if want := "catanjudge " + server.Version; head.Format != 1 || head.Generator != want {
		t.Errorf("the downloaded record is format %d by %q, want format 1 by %q", head.Format, head.Generator, want)
	}
	stdout, stderr, err := runCommand(t, "check", path)
	if err != nil {
		t.Fatalf("catanjudge check of the downloaded record: %v\n%s%s", err, stdout, stderr)
	}

	// The checker is not a rubber stamp: the first table's winner with one
	// VP less fails.
	tampered := strings.Replace(string(data), `"vp":10`, `"vp":9`, 1)
	if tampered == string(data) {
		t.Fatalf("the record has no \"vp\":10 to change:\n%.600s", data)
	}
	changed := filepath.Join(t.TempDir(), "changed.json")
	if err := os.WriteFile(changed, []byte(tampered), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runCommand(t, "check", changed)
	if err == nil || !strings.Contains(stdout, "round 1 table 1 ") {
		t.Errorf("catanjudge check of the record with a VP changed = %v, printing\n%s\nwant a failure naming round 1 table 1", err, stdout)
	}
}
