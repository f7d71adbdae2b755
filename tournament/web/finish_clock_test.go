package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
)

// Issue 24, defect 3: every table of the round has its result with time
// left on the clock. The round is over: the console's clock panel, the
// kiosk and the projector say 「全卓終了」 and count nothing down; the
// clock's JSON is "done" with the time left where it stood at the last
// result; pausing, resuming and extending are 409 round-done.
func TestRoundDoneStopsTheClock(t *testing.T) {
	p := newPairedEnv(t)
	if _, err := p.svc.ClockAction(p.ctx, "setup", p.t.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	p.saveAll(1)
	var at api.ClockJSON
	clockURL := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", p.t.ID)
	cl := apiClient{t: t, env: p.consoleEnv}
	cl.call("GET", clockURL, nil, 200, &at)
	if at.State != "done" || at.RemainingSeconds < 6*60 {
		t.Fatalf("GET clock with every result in = %q with %d s left, want done with about 7 minutes", at.State, at.RemainingSeconds)
	}
	p.ahead.Add(int64(3 * time.Minute))
	var later api.ClockJSON
	cl.call("GET", clockURL, nil, 200, &later)
	if later.State != "done" || later.RemainingSeconds != at.RemainingSeconds {
		t.Errorf("GET clock 3 minutes later = %q with %d s left, want done with the same %d s", later.State, later.RemainingSeconds, at.RemainingSeconds)
	}
	for _, body := range []string{`{"action":"pause"}`, `{"action":"resume"}`, `{"action":"extend","seconds":60,"reason":"ruling"}`} {
		rec := do(p.h, "POST", clockURL, body, "Authorization", "Bearer test-token")
		if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), `"code":"round-done"`) {
			t.Errorf("POST clock %s once the round is done = %d %s, want 409 round-done", body, rec.Code, rec.Body)
		}
	}
	res := p.b.post(fmt.Sprintf("/judge/t/%d/rounds/1/clock", p.t.ID), url.Values{"action": {"pause"}})
	mustSee(t, "the console's pause once done", res, http.StatusConflict, "全卓の結果")

	panel := p.b.get(fmt.Sprintf("/judge/t/%d/rounds/1/clock", p.t.ID))
	mustSee(t, "the clock panel", panel, http.StatusOK, `data-state="done"`, ">全卓終了</p>", "全卓の結果が入りました")
	for _, no := range []string{`value="pause"`, `value="extend"`, "残り時間"} {
		if strings.Contains(panel.Body, no) {
			t.Errorf("the clock panel of a round done still shows %q\n%s", no, panel.Body)
		}
	}
	for _, view := range []string{"", "?view=projector"} {
		res := p.b.get(fmt.Sprintf("/kiosk/%d%s", p.t.ID, view))
		mustSee(t, "the kiosk"+view, res, http.StatusOK, `<p id="clock-time" class="k-clock-time" role="timer">全卓終了</p>`)
	}
}
