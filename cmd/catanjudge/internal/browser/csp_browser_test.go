package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// cspListener collects what Chromium says about the content security
// policy: violations come as log entries, and a page may also log them.
type cspListener struct {
	mu   sync.Mutex
	page string
	seen []string
}

func (l *cspListener) at(page string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.page = page
}

func (l *cspListener) hear(text string) {
	if !strings.Contains(strings.ToLower(text), "content security policy") {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, l.page+": "+text)
}

// take returns what was heard since the last take.
func (l *cspListener) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.seen
	l.seen = nil
	return out
}

// TestBrowserCSP opens every console page, the printables and the kiosk
// in Chromium under the server's content security policy and fails on any
// violation Chromium reports. It first proves it can hear one.
func TestBrowserCSP(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	sitetest.SaveResult(t, base, tid, 1)
	tpath := fmt.Sprintf("/api/v1/tournaments/%d", tid)
	sitetest.APIDo(t, base, "POST", tpath+"/rounds/1/tables/2/board", map[string]any{"auto": true}, 200, nil)
	sitetest.APIDo(t, base, "POST", tpath+"/rounds/1/clock", map[string]any{"action": "start"}, 200, nil)
	var players struct {
		Players []struct {
			ID int64 `json:"id"`
		} `json:"players"`
	}
	sitetest.APIDo(t, base, "GET", tpath+"/players", nil, 200, &players)
	pid := players.Players[0].ID
	sitetest.APIDo(t, base, "POST", tpath+"/penalties", map[string]any{"player": pid, "round": 1, "offence": "note-taking", "note": "メモ"}, 201, nil)

	ctx := sitetest.NewBrowser(t)
	l := &cspListener{page: "start"}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *cdplog.EventEntryAdded:
			l.hear(ev.Entry.Text)
		case *runtime.EventConsoleAPICalled:
			for _, arg := range ev.Args {
				l.hear(string(arg.Value) + " " + arg.Description)
			}
		case *runtime.EventExceptionThrown:
			l.hear(ev.ExceptionDetails.Text)
		}
	})
	if err := chromedp.Run(ctx, cdplog.Enable(), runtime.Enable()); err != nil {
		t.Fatal(err)
	}

	// The listener must hear a violation, or the test could never fail.
	l.at("login (self-check)")
	err := chromedp.Run(ctx,
		chromedp.Navigate(base+"/judge/login"),
		chromedp.WaitVisible(`#name`),
		chromedp.Evaluate(`document.body.setAttribute("style", "outline: 1px solid red"); true`, nil),
	)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(l.take()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("Chromium reported no violation for a style attribute set by script: the listener hears nothing")
		}
		time.Sleep(50 * time.Millisecond)
	}

	l.at("login")
	lctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	err = chromedp.Run(lctx,
		chromedp.Navigate(base+"/lang/ja?next=/judge/login"),
		chromedp.WaitVisible(`#name`),
		chromedp.SetValue(`#name`, "山田"),
		chromedp.SetValue(`#password`, sitetest.StaffPassword(t, base, "山田")),
		chromedp.Click(`form button[type=submit]`),
		chromedp.WaitVisible(`#new-h`),
	)
	if err != nil {
		var loc, body string
		_ = chromedp.Run(ctx, chromedp.Location(&loc), chromedp.Text("body", &body))
		t.Fatalf("log in: %v; at %s: %s; heard %q", err, loc, body, l.take())
	}
	judge := fmt.Sprintf("/judge/t/%d", tid)
	pages := []string{
		"/judge",
		judge,
		judge + "/players",
		judge + "/players/import",
		fmt.Sprintf("%s/players/%d", judge, pid),
		judge + "/rounds/1",
		judge + "/rounds/1/tables/1",
		judge + "/rounds/1/tables/2",
		judge + "/rounds/1/tables/1/score",
		judge + "/rounds/1/tables/2/score",
		judge + "/rounds/1/print/names",
		judge + "/rounds/1/print/tables",
		judge + "/rounds/1/print/scores",
		judge + "/rounds/1/print/boards",
		judge + "/penalties",
		judge + "/standings",
		judge + "/audit",
		judge + "/rounds/9",
		"/lang/en?next=" + judge + "/rounds/1/tables/2",
		fmt.Sprintf("/kiosk/%d", tid),
		fmt.Sprintf("/kiosk/%d?view=projector", tid),
		"/judge/login",
	}
	for _, p := range pages {
		l.at(p)
		var loc string
		err := chromedp.Run(ctx,
			chromedp.Navigate(base+p),
			chromedp.WaitReady(`body`),
			// Deferred scripts run and the kiosk connects to its feed.
			chromedp.Sleep(300*time.Millisecond),
			chromedp.Location(&loc),
		)
		if err != nil {
			t.Errorf("open %s: %v", p, err)
		}
		if strings.Contains(loc, "/judge/login") {
			t.Errorf("open %s: the browser is at %s, not logged in", p, loc)
		}
	}
	// Violations are reported asynchronously: give the last ones a moment.
	time.Sleep(300 * time.Millisecond)
	for _, v := range l.take() {
		t.Errorf("content security policy violation on %s", v)
	}
}
