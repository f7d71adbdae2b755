package kiosk_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// A table's page on its players' phones, which every player of the table
// opens after each change, is rendered once per change for each view and
// answered as those bytes with an ETag (a phone that has them gets 304),
// behind the read gate's shared lane: the phone that remembers its player
// gets the page for that player (its forms ask no code), with no code in
// it; another phone gets the page that asks who they are.
func TestKioskTablePageIsRenderedOncePerChange(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	mine := env.Browser()
	form := url.Values{"player": {webtest.Itoa(ps[0])}, "code": {codes[ps[0]]}, "declared": {webtest.Itoa(ps[0])}}
	for i, p := range ps {
		form.Set("vp_"+webtest.Itoa(p), []string{"10", "7", "5", "3"}[i])
	}
	webtest.MustSee(t, "reported", mine.Post(table+"/report", form), http.StatusOK, "送信しました")

	me := fmt.Sprintf(`<input type="hidden" name="player" value="%d">`, ps[0])
	first := mine.Get(table)
	webtest.MustSee(t, "the reporter's phone", first, http.StatusOK, "確認待ち（4人中1人が確認済み）", me)
	tag := first.Header.Get("ETag")
	if tag == "" {
		t.Fatalf("the table's page has no ETag: rendered for the request")
	}
	if res := mine.Get(table, "If-None-Match", tag); res.Status != http.StatusNotModified {
		t.Errorf("the table's page with its ETag = %d, want 304", res.Status)
	}
	other := env.Browser().Get(table)
	webtest.MustSee(t, "another phone", other, http.StatusOK, "確認待ち（4人中1人が確認済み）", `name="code"`)
	if strings.Contains(other.Body, me) || other.Header.Get("ETag") == tag {
		t.Errorf("another phone got the reporter's page (ETag %s)", other.Header.Get("ETag"))
	}
	for _, res := range []webtest.Response{first, other} {
		if strings.Contains(res.Body, codes[ps[0]]) {
			t.Errorf("a shared page holds the reporter's code")
		}
	}
	if again := env.Browser().Get(table); again.Header.Get("ETag") != other.Header.Get("ETag") || again.Body != other.Body {
		t.Errorf("two phones that remember no one got two renderings")
	}
	// The call's status alone, for phone-call.js, is shared the same way.
	call := env.Browser().Get(table + "?part=call")
	webtest.MustSee(t, "the call's status", call, http.StatusOK, `id="call"`)
	if call.Header.Get("ETag") == "" || strings.Contains(call.Body, "<html") {
		t.Errorf("the call's status: ETag %q, a whole page: %v", call.Header.Get("ETag"), strings.Contains(call.Body, "<html"))
	}

	// A change makes new bytes.
	rs, err := env.Service.Reports(env.Ctx, tr.ID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("reports %v, %v", rs, err)
	}
	if _, err := env.Service.ConfirmReport(env.Ctx, tr.ID, rs[0].ID, ps[1], codes[ps[1]]); err != nil {
		t.Fatal(err)
	}
	after := mine.Get(table, "If-None-Match", tag)
	webtest.MustSee(t, "after a confirmation", after, http.StatusOK, "確認待ち（4人中2人が確認済み）", me)
	if after.Header.Get("ETag") == tag {
		t.Errorf("a confirmation kept the ETag %s", tag)
	}
}
