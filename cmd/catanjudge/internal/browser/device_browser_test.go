package browser

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestBrowserTableDevice is issue 27's table device in Chromium on a
// tablet left at the table: the judge's link opens table 1's turn-time
// page, every other page of the console is refused with what the device
// may open, and revoking the table's devices ends it.
func TestBrowserTableDevice(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	addr, stop := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	defer stop()
	base := "http://" + addr
	tid, _, _ := reportingTable(t, base, "卓端末テスト大会")
	device := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/device", tid)
	var opened struct {
		URL string `json:"url"`
	}
	sitetest.APIDo(t, base, "POST", device, map[string]any{}, 201, &opened)
	link, err := url.Parse(opened.URL)
	if err != nil {
		t.Fatal(err)
	}
	tablet := sitetest.NewBrowser(t)
	var title, loc string
	err = chromedp.Run(tablet,
		chromedp.Navigate(base+"/lang/ja?next="+url.QueryEscape(link.Path)),
		chromedp.WaitVisible(`#turns`),
		chromedp.Text(`h1`, &title),
		chromedp.Location(&loc),
		sitetest.Screenshot("device-turns"),
	)
	if err != nil || !strings.HasSuffix(loc, fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/turns", tid)) || !strings.Contains(title, "1卓") {
		t.Fatalf("the device's link: %v, at %s titled %q; want table 1's turn page", err, loc, title)
	}
	var nav int
	if err := chromedp.Run(tablet, chromedp.Evaluate(`document.querySelectorAll('nav.tnav, #staff-link, form[action="/judge/logout"]').length`, &nav)); err != nil || nav != 0 {
		t.Errorf("the device's turn page shows %d parts of the console's navigation (%v), want none", nav, err)
	}
	for _, other := range []string{
		fmt.Sprintf("/judge/t/%d/rounds/1", tid),
		fmt.Sprintf("/judge/t/%d/rounds/1/tables/1", tid),
		fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/score", tid),
		fmt.Sprintf("/judge/t/%d/penalties", tid),
		fmt.Sprintf("/judge/t/%d/audit", tid),
		"/judge",
	} {
		var body string
		if err := chromedp.Run(tablet, chromedp.Navigate(base+other), chromedp.WaitVisible(`body`), chromedp.Text(`body`, &body)); err != nil ||
			!strings.Contains(body, "この卓端末で開けるのは") {
			t.Errorf("the device's %s: %v\n%s\nwant it refused", other, err, body)
		}
	}
	sitetest.APIDo(t, base, "DELETE", device, nil, 204, nil)
	var ended string
	err = chromedp.Run(tablet,
		chromedp.Navigate(base+fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/turns", tid)),
		chromedp.WaitVisible(`body`),
		chromedp.Text(`body`, &ended),
		sitetest.Screenshot("device-revoked"),
	)
	if err != nil || !strings.Contains(ended, "無効になりました") {
		t.Errorf("the revoked device's turn page: %v\n%s", err, ended)
	}
}
