package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// Issue 24, defect 3: every table of the round has its result with time
// left on the clock. The round is over: the console's clock panel, the
// kiosk and the projector say 「全卓終了」 and count nothing down; the
// clock's JSON is "done" with the time left where it stood at the last
// result; pausing, resuming and extending are 409 round-done.
func TestRoundDoneStopsTheClock(t *testing.T) {
	p := webtest.NewPaired(t)
	if _, err := p.Service.ClockAction(p.Ctx, "setup", p.Tournament.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	p.SaveAll(1)
	var at api.ClockJSON
	clockURL := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", p.Tournament.ID)
	cl := webtest.APIClient{T: t, Env: p.Env}
	cl.Call("GET", clockURL, nil, 200, &at)
	if at.State != "done" || at.RemainingSeconds < 6*60 {
		t.Fatalf("GET clock with every result in = %q with %d s left, want done with about 7 minutes", at.State, at.RemainingSeconds)
	}
	p.Ahead.Add(int64(3 * time.Minute))
	var later api.ClockJSON
	cl.Call("GET", clockURL, nil, 200, &later)
	if later.State != "done" || later.RemainingSeconds != at.RemainingSeconds {
		t.Errorf("GET clock 3 minutes later = %q with %d s left, want done with the same %d s", later.State, later.RemainingSeconds, at.RemainingSeconds)
	}
	for _, body := range []string{`{"action":"pause"}`, `{"action":"resume"}`, `{"action":"extend","seconds":60,"reason":"ruling"}`} {
		rec := webtest.Do(p.Handler, "POST", clockURL, body, "Authorization", "Bearer test-token")
		if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"round-done"`) {
			t.Errorf("POST clock %s once the round is done = %d %s, want 409 round-done", body, rec.Code, rec.Body)
		}
	}
	res := p.B.Post(fmt.Sprintf("/judge/t/%d/rounds/1/clock", p.Tournament.ID), url.Values{"action": {"pause"}})
	webtest.MustSee(t, "the console's pause once done", res, http.StatusConflict, "全卓の結果")

	panel := p.B.Get(fmt.Sprintf("/judge/t/%d/rounds/1/clock", p.Tournament.ID))
	webtest.MustSee(t, "the clock panel", panel, http.StatusOK, `data-state="done"`, ">全卓終了</p>", "全卓の結果が入りました")
	for _, no := range []string{`value="pause"`, `value="extend"`, "残り時間"} {
		if strings.Contains(panel.Body, no) {
			t.Errorf("the clock panel of a round done still shows %q\n%s", no, panel.Body)
		}
	}
	for _, view := range []string{"", "?view=projector"} {
		res := p.B.Get(fmt.Sprintf("/kiosk/%d%s", p.Tournament.ID, view))
		webtest.MustSee(t, "the kiosk"+view, res, http.StatusOK, `<p id="clock-time" class="k-clock-time" role="timer">全卓終了</p>`)
	}
}

// Issue 24, defect 6: in the national placement phase the placement's
// countdown is the big number on the console and the kiosk, the time to
// the signal beside it; the judge ends a table's placement early from the
// clock panel or the API, the table's play time starts then, and the
// audit log says so.
func TestPlacementPhaseOnThePages(t *testing.T) {
	env := webtest.New(t)
	cl, tour, base := webtest.NationalEvent(t, env, 3, 8)
	cl.Call("POST", base+"/rounds", nil, 201, nil)
	cl.Call("POST", base+"/rounds/1/clock", `{"action":"start"}`, 200, nil)
	b := env.Browser()
	b.Login("山田")
	panel := fmt.Sprintf("/judge/t/%d/rounds/1/clock", tour.ID)
	res := b.Get(panel)
	webtest.MustSee(t, "the clock panel in placement", res, http.StatusOK, `data-countdown="60"`, ">1:00</p>", "配置 1/8の残り", "試合終了まで",
		`data-countdown="4080"`, `value="placement-end"`, "配置終了")
	if strings.Contains(res.Body, ">68:00</p>") {
		t.Errorf("the clock panel's big number is the total, 68:00, in the placement phase\n%s", res.Body)
	}
	for _, view := range []string{"", "?view=projector"} {
		webtest.MustSee(t, "the kiosk"+view+" in placement", b.Get(fmt.Sprintf("/kiosk/%d%s", tour.ID, view)), http.StatusOK,
			`role="timer" data-countdown="60" data-state="running" data-time="0:00" data-deadline="`, `">1:00</p>`, "配置 1/8の残り", "試合終了まで<span")
	}

	env.Ahead.Add(int64(90 * time.Second)) // placement 2, 30 seconds of it left
	res = b.Post(fmt.Sprintf("/judge/t/%d/rounds/1/clock", tour.ID), url.Values{"action": {"placement-end"}, "table": {"1"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("end table 1's placement = %d\n%s", res.Status, res.Body)
	}
	var clk api.ClockJSON
	cl.Call("POST", base+"/rounds/1/clock", `{"action":"placement-end","table":2}`, 200, &clk)
	for _, tb := range clk.Tables {
		if tb.Phase != "play" || tb.Placement != nil || tb.RemainingSeconds > 60*60 {
			t.Errorf("table %d after its placement's end: phase %s, %d s left; want play with 60 minutes at most", tb.Number, tb.Phase, tb.RemainingSeconds)
		}
	}
	if clk.Phase != "play" {
		t.Errorf("the round with no table placing: phase %s, want play", clk.Phase)
	}
	rec := webtest.Do(env.Handler, "POST", base+"/rounds/1/clock", `{"action":"placement-end","table":2}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code":"placement-not-under-way"`) {
		t.Errorf("a second end of table 2's placement = %d %s, want 422 placement-not-under-way", rec.Code, rec.Body)
	}
	webtest.MustSee(t, "the audit log", b.Get(fmt.Sprintf("/judge/t/%d/audit", tour.ID)), http.StatusOK,
		"山田 が第1回戦 1卓の配置を終え、試合時間を始めました（-390s）")
}
