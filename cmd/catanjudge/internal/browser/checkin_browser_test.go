package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// phone makes the browser a phone: 390 × 844 CSS pixels at 3x, touch.
func phone() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		if err := emulation.SetDeviceMetricsOverride(390, 844, 3, true).Do(ctx); err != nil {
			return err
		}
		return emulation.SetTouchEmulationEnabled(true).Do(ctx)
	})
}

// TestBrowserSelfCheckIn: a judge registers a player at the desk, whose
// card with the code waits on the players page; on a phone the player opens the kiosk, follows
// its check-in link, chooses their name, types the code in small letters
// with a space, and is checked in; a wrong code first is refused in place.
func TestBrowserSelfCheckIn(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	dir := t.TempDir()
	addr, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	var tour struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "月例会", "rounds": 3, "self_checkin": true}, 201, &tour)
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": "井上", "kana": "いのうえ", "checked_in": false}, 201, nil)
	// The longest name in the list sets the width of the name's choice.
	sitetest.APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": "長谷川 勘右衛門之助", "kana": "はせがわ かんうえもんのすけ", "checked_in": false}, 201, nil)

	judge := sitetest.JudgeIn(t, base, "山田")
	var code string
	err := chromedp.Run(judge,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/players", base, tour.ID)),
		chromedp.WaitVisible(`#name`),
		chromedp.SendKeys(`#name`, "青木"),
		chromedp.SendKeys(`#kana`, "あおき"),
		// Registered ahead of the day: the player checks in on arrival.
		chromedp.Evaluate(`document.querySelector('input[name=check_in]').checked = false`, nil),
		chromedp.Submit(`#name`),
		chromedp.WaitVisible(`#waiting-cards .code`),
		chromedp.Text(`#waiting-cards .code`, &code),
		sitetest.Screenshot("player-card"),
	)
	if err != nil {
		t.Fatalf("register at the desk: %v", err)
	}
	code = strings.TrimSpace(code)
	if len(code) != 9 || code[4] != '-' {
		t.Fatalf("the card shows the code %q", code)
	}

	ctx := sitetest.NewBrowser(t)
	typed := strings.ToLower(code[:4] + " " + code[5:])
	var refused, done string
	var overflow int
	err = chromedp.Run(ctx,
		phone(),
		chromedp.Navigate(fmt.Sprintf("%s/lang/ja?next=/kiosk/%d", base, tour.ID)),
		chromedp.WaitVisible(`.k-checkin a`),
		chromedp.Click(`.k-checkin a`),
		chromedp.WaitVisible(`#player`),
		chromedp.Evaluate(`document.documentElement.scrollWidth - document.documentElement.clientWidth`, &overflow),
		chromedp.SetValue(`#player`, playerOption(t, base, tour.ID, "青木")),
		chromedp.SendKeys(`#code`, "abcd efgh"),
		chromedp.Click(`.p-form button`),
		chromedp.WaitVisible(`#checkin-error`),
		chromedp.Text(`#checkin-error`, &refused),
		sitetest.Screenshot("phone-checkin-refused"),
		chromedp.SetValue(`#player`, playerOption(t, base, tour.ID, "青木")),
		chromedp.SendKeys(`#code`, typed),
		chromedp.Click(`.p-form button`),
		chromedp.WaitVisible(`#checked-in`),
		chromedp.Text(`#checked-in`, &done),
		sitetest.Screenshot("phone-checked-in"),
	)
	if err != nil {
		t.Fatalf("check in on the phone: %v", err)
	}
	if overflow > 0 {
		t.Errorf("the check-in page is %d px wider than the phone's screen: the page scrolls sideways", overflow)
	}
	if !strings.Contains(refused, "コードが正しくありません") {
		t.Errorf("a wrong code says %q", refused)
	}
	if !strings.Contains(done, "青木 さん、受付が完了しました") {
		t.Errorf("the check-in says %q", done)
	}
	var players struct {
		Players []struct {
			Name      string `json:"name"`
			CheckedIn bool   `json:"checked_in"`
		} `json:"players"`
	}
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), nil, 200, &players)
	for _, p := range players.Players {
		if p.CheckedIn != (p.Name == "青木") {
			t.Errorf("%s checked in: %v", p.Name, p.CheckedIn)
		}
	}
}

// playerOption is the value of a player's option on the check-in form: their ID.
func playerOption(t *testing.T, base string, tid int64, name string) string {
	t.Helper()
	var players struct {
		Players []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"players"`
	}
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/players", tid), nil, 200, &players)
	for _, p := range players.Players {
		if p.Name == name {
			return fmt.Sprint(p.ID)
		}
	}
	t.Fatalf("no player %s", name)
	return ""
}
