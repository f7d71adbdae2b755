package live_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// newLiveEnv is newConsoleEnv with the live feed wired as serve wires it.
func newLiveEnv(t *testing.T) (*webtest.Env, *live.Broker) {
	t.Helper()
	env := webtest.New(t, webtest.WithLive())
	return env, env.Broker
}

// sseEvent is one event read from a live feed.
type sseEvent struct {
	Name, ID string
	Data     live.Event
}

// stream is an open live feed, read line by line in a goroutine.
type stream struct {
	events chan sseEvent
	retry  chan string
	cancel context.CancelFunc
	done   chan struct{}
}

func openStream(t *testing.T, client *http.Client, target string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := client.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		res.Body.Close()
		t.Fatalf("GET %s = %d %s, want 200 text/event-stream", target, res.StatusCode, res.Header.Get("Content-Type"))
	}
	s := &stream{events: make(chan sseEvent, 16), retry: make(chan string, 1), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		var e sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e.Name != "" {
					s.events <- e
				}
				e = sseEvent{}
			case strings.HasPrefix(line, "retry: "):
				s.retry <- strings.TrimPrefix(line, "retry: ")
			case strings.HasPrefix(line, "event: "):
				e.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "id: "):
				e.ID = strings.TrimPrefix(line, "id: ")
			case strings.HasPrefix(line, "data: "):
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e.Data); err != nil {
					t.Errorf("event data %q: %v", line, err)
				}
			}
		}
	}()
	select {
	case r := <-s.retry:
		if r != "2000" {
			t.Errorf("retry = %s, want 2000", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the feed sent no retry line within 5s")
	}
	return s
}

func (s *stream) close() {
	s.cancel()
	<-s.done
}

// next returns the next event, or fails after wait.
func (s *stream) next(t *testing.T, wait time.Duration) sseEvent {
	t.Helper()
	select {
	case e := <-s.events:
		return e
	case <-time.After(wait):
		t.Fatalf("no event within %v", wait)
		return sseEvent{}
	}
}

// A change saved through the API reaches the open feeds of its tournament
// once committed, and only then: a refused save sends nothing. Closed
// feeds leave nothing behind.
func TestLiveFeed(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	env, broker := newLiveEnv(t)
	defer env.Server.Close()
	tr, _ := env.SeedTournament(8)
	other, _ := env.SeedTournament(3)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{}}
	defer client.Transport.(*http.Transport).CloseIdleConnections()
	feeds := []*stream{
		openStream(t, client, fmt.Sprintf("%s/api/v1/tournaments/%d/events", env.Server.URL, tr.ID)),
		openStream(t, client, fmt.Sprintf("%s/api/v1/tournaments/%d/events", env.Server.URL, tr.ID)),
	}
	otherFeed := openStream(t, client, fmt.Sprintf("%s/api/v1/tournaments/%d/events", env.Server.URL, other.ID))
	if n := broker.Subscribers(); n != 3 {
		t.Errorf("Subscribers() = %d with three feeds open, want 3", n)
	}

	// A refused save (the scores name nobody at the table) publishes nothing;
	// then a good one does.
	base := env.Server.URL
	status, body, err := webtest.APICall(client, base, "PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID),
		map[string]any{"scores": []map[string]int{{"player": 999, "vp": 3}}})
	if err != nil || status != http.StatusUnprocessableEntity {
		t.Fatalf("a bad score sheet = %d %s %v, want 422", status, body, err)
	}
	var round api.RoundJSON
	status, body, err = webtest.APICall(client, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil)
	if err != nil || status != 200 || json.Unmarshal(body, &round) != nil {
		t.Fatalf("GET round = %d %s %v", status, body, err)
	}
	var scores []map[string]int64
	for i, p := range round.Tables[0].Players {
		scores = append(scores, map[string]int64{"player": p.ID, "vp": int64(7 - i)})
	}
	livePath := fmt.Sprintf("/api/v1/tournaments/%d/live", tr.ID)
	var live api.LiveJSON
	if status, body, err = webtest.APICall(client, base, "GET", livePath, nil); err != nil || status != 200 || json.Unmarshal(body, &live) != nil ||
		live.Round.Tables[0].Result != nil {
		t.Fatalf("GET live before the save = %d %s %v, want no result yet", status, body, err)
	}
	saved := time.Now()
	// The clock has not started: the judge's reason records the early end (§12).
	if status, body, err = webtest.APICall(client, base, "PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID),
		map[string]any{"scores": scores, "reason": "ジャッジが終了"}); err != nil || status != 200 {
		t.Fatalf("save a result = %d %s %v", status, body, err)
	}
	for i, f := range feeds {
		e := f.next(t, 2*time.Second)
		if e.Name != "change" || e.Data.Kind != "result" || e.Data.Action != "result.save" || e.ID != fmt.Sprint(e.Data.Version) || e.Data.Version == 0 {
			t.Errorf("feed %d: first event %+v, want the result saved", i+1, e)
		}
	}
	t.Logf("result saved to event received: %v", time.Since(saved))
	// The live state the pages then fetch has the result: the change's
	// event made the shared read out of date.
	live = api.LiveJSON{}
	if status, body, err = webtest.APICall(client, base, "GET", livePath, nil); err != nil || status != 200 || json.Unmarshal(body, &live) != nil ||
		live.Round.Tables[0].Result == nil || live.Round.Clock.Tables[0].Status != "finished" {
		t.Errorf("GET live after the event = %d %s %v, want table 1 finished with its result", status, body, err)
	}
	if status, body, err = webtest.APICall(client, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tr.ID),
		map[string]any{"action": "start"}); err != nil || status != 200 {
		t.Fatalf("start the clock = %d %s %v", status, body, err)
	}
	if e := feeds[0].next(t, 2*time.Second); e.Data.Kind != "clock" || e.Data.Action != "clock.start" {
		t.Errorf("after the clock start: %+v, want a clock event", e)
	}
	select {
	case e := <-otherFeed.events:
		t.Errorf("the feed of another tournament got %+v", e)
	case <-time.After(100 * time.Millisecond):
	}

	for _, f := range append(feeds, otherFeed) {
		f.close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for broker.Subscribers() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := broker.Subscribers(); n != 0 {
		t.Errorf("Subscribers() = %d after every feed closed, want 0", n)
	}
	if res := env.Browser().Get("/api/v1/tournaments/999/events"); res.Status != http.StatusNotFound {
		t.Errorf("the feed of a missing tournament = %d, want 404", res.Status)
	}
	client.Transport.(*http.Transport).CloseIdleConnections()
	env.Server.Close()
	env.Store.Close()
}

// The clock through the API: the judge's actions, the state in the round
// and on its own, the rules refused in the request's language.
func TestClockAPI(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	clockPath := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tr.ID)
	var clk api.ClockJSON
	cl.Call("GET", clockPath, nil, 200, &clk)
	if clk.State != "ready" || clk.Deadline != nil || clk.RemainingSeconds != 420 || len(clk.Tables) != 2 || clk.Tables[0].Status != "ready" {
		t.Errorf("before the start: %+v, want ready with 420 s and two tables", clk)
	}
	cl.Call("POST", clockPath, `{"action":"start"}`, 200, &clk)
	if clk.State != "running" || clk.Deadline == nil || clk.RemainingSeconds != 420 {
		t.Errorf("after the start: %+v, want running with a deadline", clk)
	}
	cl.Call("POST", clockPath, `{"action":"extend","table":2,"seconds":90,"reason":"長い裁定"}`, 200, &clk)
	if tc := clk.Tables[1]; tc.Number != 2 || tc.ExtensionSeconds != 90 || tc.RemainingSeconds < 505 || tc.Status != "playing" ||
		!tc.Deadline.Equal(clk.Deadline.Add(90*time.Second)) {
		t.Errorf("table 2 after its extension: %+v (round deadline %v)", tc, clk.Deadline)
	}
	var round api.RoundJSON
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil, 200, &round)
	if round.Clock == nil || round.Clock.State != "running" || round.Clock.Tables[1].ExtensionSeconds != 90 {
		t.Errorf("the round's clock = %+v, want it running with table 2 extended", round.Clock)
	}
	if round.Tables[0].Players[0].Kana == "" {
		t.Errorf("the round's players carry no kana: %+v", round.Tables[0].Players[0])
	}
	// Anyone reads the clock; only a judge changes it.
	if rec := webtest.Do(env.Handler, "GET", clockPath, ""); rec.Code != 200 {
		t.Errorf("anonymous GET clock = %d, want 200", rec.Code)
	}
	if rec := webtest.Do(env.Handler, "POST", clockPath, `{"action":"pause"}`); rec.Code != http.StatusUnauthorized {
		t.Errorf("anonymous POST clock = %d, want 401", rec.Code)
	}
	refusals := []struct{ body, lang, want string }{
		{`{"action":"start"}`, "ja", "第1回戦の時計はもう始まっています。"},
		{`{"action":"start"}`, "en", "The clock of round 1 has already started."},
		{`{"action":"resume"}`, "ja", "第1回戦の時計は一時停止していません。"},
		{`{"action":"extend","table":1,"seconds":60}`, "ja", "延長には理由を入力してください。"},
		{`{"action":"extend","table":7,"seconds":60,"reason":"x"}`, "en", "Round 1 has no table 7."},
	}
	for _, r := range refusals {
		rec := webtest.Do(env.Handler, "POST", clockPath, r.body, "Authorization", "Bearer test-token", "Accept-Language", r.lang)
		var out struct{ Error string }
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		if rec.Code != http.StatusUnprocessableEntity || out.Error != r.want {
			t.Errorf("POST clock %s (%s) = %d %q, want 422 %q", r.body, r.lang, rec.Code, out.Error, r.want)
		}
	}
	if rec := webtest.Do(env.Handler, "POST", clockPath, `{"action":"start","speed":2}`, "Authorization", "Bearer test-token"); rec.Code != http.StatusBadRequest {
		t.Errorf("POST clock with an unknown field = %d, want 400", rec.Code)
	}
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/9/clock", tr.ID), nil, 404, nil)
}

// The players' kiosk: no login, everyone's table, seat and colour by kana,
// the search without script, the projector view, and names kept as text.
func TestKioskPage(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(7)
	evil, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: "<b>ボブ</b>", Kana: "ボブ"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.CheckIn(env.Ctx, "setup", evil.TournamentID, evil.ID, true); err != nil {
		t.Fatal(err)
	}
	anon := env.Browser()
	kiosk := fmt.Sprintf("/kiosk/%d", tr.ID)
	webtest.MustSee(t, "the kiosk before the pairing", anon.Get(kiosk), 200, "組み合わせはまだ発表されていません", "7:00", "開始前")

	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	res := anon.Get(kiosk)
	webtest.MustSee(t, "the kiosk", res, 200, "第1回戦", "1卓", "2卓", "1番手", "赤", `class="chip red"`, "&lt;b&gt;ボブ&lt;/b&gt;", `data-key="&lt;b&gt;ぼぶ&lt;/b&gt;ぼぶ"`,
		"/static/kiosk.js", `id="kiosk-text"`)
	if strings.Contains(res.Body, "<b>ボブ</b>") {
		t.Error("a player's name was written into the page as HTML")
	}
	if strings.Contains(strings.ToLower(res.Body), `method="post"`) {
		t.Error("the kiosk has a form that posts")
	}
	// The list is by reading: あおき (青木1) before いのうえ (井上1) before ... ぼぶ.
	if i, j, k := strings.Index(res.Body, "青木1"), strings.Index(res.Body, "井上1"), strings.Index(res.Body, "ぼぶ</span>"); !(i >= 0 && i < j && j < k) {
		t.Errorf("the list is not by kana: 青木1 at %d, 井上1 at %d, ぼぶ at %d", i, j, k)
	}

	// The search without script: a few letters of the reading, in katakana
	// or full-width, find the player.
	for _, q := range []string{"あお", "アオ", "青木", "ｱｵ"} {
		res := anon.Get(kiosk + "?q=" + url.QueryEscape(q))
		webtest.MustSee(t, "search "+q, res, 200, "1人見つかりました")
		if n := len(shownRow.FindAllString(res.Body, -1)); n != 1 {
			t.Errorf("search %q shows %d rows, want 1", q, n)
		}
	}
	webtest.MustSee(t, "search for nobody", anon.Get(kiosk+"?q=zz"), 200, "見つかりません")

	var table1 string
	for _, p := range ps {
		if p.ID == r.Tables[0].Players[0] {
			table1 = p.Name
		}
	}
	webtest.MustSee(t, "the projector", anon.Get(kiosk+"?view=projector"), 200, `class="kiosk projector"`, fmt.Sprintf(`src="/kiosk/%d/qr.png"`, tr.ID), table1)
	webtest.MustSee(t, "the kiosk in English", anon.Get(kiosk+"?lang=en"), 200, "Find your table", "Table 1", "Not started")

	qr := anon.Get(kiosk + "/qr.png")
	if qr.Status != 200 || qr.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(qr.Body, "\x89PNG") {
		t.Errorf("GET qr.png = %d %s, want a PNG", qr.Status, qr.Header.Get("Content-Type"))
	}
	if res := anon.Get("/kiosk/999"); res.Status != http.StatusNotFound {
		t.Errorf("the kiosk of a missing tournament = %d, want 404", res.Status)
	}
}

// The kiosk's live parts, which kiosk.js swaps in on each change: the
// parts alone, in the page's language, searched as the page is, the
// result a judge saves, and read-only.
func TestKioskLiveParts(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(8)
	anon := env.Browser()
	kiosk := fmt.Sprintf("/kiosk/%d", tr.ID)
	parts := kiosk + "/live"
	res := anon.Get(parts)
	webtest.MustSee(t, "the live parts before the pairing", res, 200,
		`id="round-label"`, "組み合わせはまだ発表されていません", `id="clock"`, "7:00", `data-for="kiosk"`, `id="standings"`)
	if strings.Contains(res.Body, "<html") || strings.Contains(res.Body, "k-foot") {
		t.Errorf("the live parts are a whole page\n%s", res.Body)
	}
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	webtest.MustSee(t, "the live parts", anon.Get(parts), 200, "第1回戦", `id="entries"`, "1卓", "2卓", `class="k-card status-ready"`)
	webtest.MustSee(t, "the live parts in English", anon.Get(parts+"?lang=en"), 200, "Round 1", "Table 1", "Not started")
	for _, q := range []string{"アオ", "ｱｵ"} {
		res := anon.Get(parts + "?q=" + url.QueryEscape(q))
		webtest.MustSee(t, "the live parts searched "+q, res, 200, "1人見つかりました")
		if n := len(shownRow.FindAllString(res.Body, -1)); n != 1 {
			t.Errorf("the live parts searched %q show %d rows, want 1", q, n)
		}
	}
	webtest.MustSee(t, "a search longer than any name", anon.Get(parts+"?q="+strings.Repeat("あ", 5000)), 200, "見つかりません")
	cl.Save(tr.ID, 1, 1, 0, []int{10, 6, 5, 4}, 0, "")
	webtest.MustSee(t, "the live parts after a result", anon.Get(parts), 200, `class="k-card status-finished"`, "1位", "10点")

	// The page points its script at the parts of its own view and language.
	webtest.MustSee(t, "the kiosk in English", anon.Get(kiosk+"?lang=en"), 200, fmt.Sprintf(`data-live="/kiosk/%d/live?lang=en"`, tr.ID))
	webtest.MustSee(t, "the projector with live standings", anon.Get(kiosk+"?view=projector&standings=live", "Accept-Language", "en"), 200,
		fmt.Sprintf(`data-live="/kiosk/%d/live?lang=en&amp;standings=live&amp;view=projector"`, tr.ID))

	if res := anon.Post(parts, nil); res.Status < 400 {
		t.Errorf("POST the live parts = %d, want a refusal", res.Status)
	}
	if res := anon.Get("/kiosk/999/live"); res.Status != http.StatusNotFound {
		t.Errorf("the live parts of a missing tournament = %d, want 404", res.Status)
	}
}

// shownRow is a kiosk list row the search did not hide (one it found is
// highlighted).
var shownRow = regexp.MustCompile(`<tr data-key="[^"]*"( class="k-mine")?>`)

// The live state the kiosk script fetches: the latest round with its clock
// and results, and the standings.
func TestLiveAPI(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(8)
	path := fmt.Sprintf("/api/v1/tournaments/%d/live", tr.ID)
	var live api.LiveJSON
	if rec := webtest.Do(env.Handler, "GET", path, ""); rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &live) != nil || live.Round != nil {
		t.Fatalf("GET live before the pairing = %d %s, want 200 with no round", rec.Code, rec.Body)
	}
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	cl.Save(tr.ID, 1, 2, 0, []int{10, 6, 5, 4}, 0, "")
	live = api.LiveJSON{}
	cl.Call("GET", path, nil, 200, &live)
	if live.Round == nil || live.Round.Number != 1 || live.Round.Clock == nil || live.Round.Tables[1].Result == nil || len(live.Standings) != 8 {
		t.Errorf("GET live = %+v, want round 1 with its clock, table 2's result and 8 standings", live)
	}
	if live.Tournament.ID != tr.ID || live.Round.Clock.Tables[1].Status != "finished" {
		t.Errorf("GET live: tournament %d, table 2 %s; want %d, finished", live.Tournament.ID, live.Round.Clock.Tables[1].Status, tr.ID)
	}
}

// The judge runs the clock from the round page: start, a refused
// extension shown next to its field with the values kept, an extension, a
// pause; the table statuses show on the page and in the audit log.
func TestConsoleClock(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	webtest.MustSee(t, "the round page", b.Get(round), 200, `id="clock"`, "時計を開始", "7:00", fmt.Sprintf(`href="/kiosk/%d"`, tr.ID))
	res := b.Post(round+"/clock", url.Values{"action": {"start"}})
	if res.Status != http.StatusSeeOther || res.Location != round+"#clock" {
		t.Fatalf("start = %d to %q, want 303 to the clock", res.Status, res.Location)
	}
	webtest.MustSee(t, "after the start", b.Get(round), 200, "時計を開始しました。", "一時停止", `data-state="running"`, "対戦中 2卓")
	res = b.Post(round+"/clock", url.Values{"action": {"extend"}, "table": {"2"}, "seconds": {"90"}, "reason": {""}})
	webtest.MustSee(t, "an extension without a reason", res, 422, "理由を入力してください。", `value="90"`, `id="extend_reason-error"`)
	res = b.Post(round+"/clock", url.Values{"action": {"extend"}, "table": {"2"}, "seconds": {"90"}, "reason": {"長い裁定"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("extend = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "after the extension", b.Get(round), 200, "延長を記録しました。", "&#43;1:30", "8:30")
	res = b.Post(round+"/clock", url.Values{"action": {"start"}})
	webtest.MustSee(t, "a second start", res, 422, "第1回戦の時計はもう始まっています。")
	if res := b.Post(round+"/clock", url.Values{"action": {"pause"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("pause = %d, want 303", res.Status)
	}
	webtest.MustSee(t, "paused", b.Get(round), 200, "一時停止中", "再開")
	webtest.MustSee(t, "the audit log", b.Get(fmt.Sprintf("/judge/t/%d/audit", tr.ID)), 200, "clock.start", "clock.extend", "clock.pause")
	webtest.MustSee(t, "the overview", b.Get(fmt.Sprintf("/judge/t/%d", tr.ID)), 200, fmt.Sprintf(`src="/kiosk/%d/qr.png"`, tr.ID))
}

// After the table's time signal the score sheet defaults to "ended by
// time", and a declared win needs the judge's confirmation that it came
// before the signal (§12), asked for next to its field and recorded.
func TestScoreSheetAfterTime(t *testing.T) {
	var now atomic.Pointer[time.Time]
	start := time.Date(2025, 11, 22, 13, 0, 0, 0, time.Local)
	now.Store(&start)
	env := webtest.New(t, webtest.WithLive(), webtest.AtClock(func() time.Time { return *now.Load() }))
	tr, _ := env.SeedTournament(8)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	score := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/score", tr.ID)
	if res := b.Get(score); strings.Contains(res.Body, `value="time" checked`) || strings.Contains(res.Body, "late_reason") {
		t.Errorf("before the start the sheet defaults to time or asks for a late reason")
	}
	if _, err := env.Service.ClockAction(env.Ctx, "setup", tr.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	later := start.Add(7*time.Minute + 30*time.Second)
	now.Store(&later)
	webtest.MustSee(t, "the sheet after the signal", b.Get(score), 200, `value="time" checked`, `id="late_reason"`, "13:07:00")
	webtest.MustSee(t, "the round page after the signal", b.Get(fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)), 200, "時間切れ 2卓", "時間です")

	form := url.Values{"action": {"save"}, "version": {"0"}, "declared": {fmt.Sprint(r.Tables[0].Players[0])}}
	for i, p := range r.Tables[0].Players {
		form.Set(fmt.Sprintf("vp_%d", p), fmt.Sprint([]int{10, 7, 5, 3}[i]))
	}
	res := b.Post(score, form)
	webtest.MustSee(t, "a declaration after the signal", res, 422, `id="late_reason-error"`, "合図", "value=\"10\"")
	form.Set("late_reason", "合図と同時に宣言")
	if res := b.Post(score, form); res.Status != http.StatusSeeOther {
		t.Fatalf("the confirmed declaration = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "the saved sheet", b.Get(score), 200, "合図の前の宣言と確認: 合図と同時に宣言")
}

// Score sheets are collected after the signal, so the judge confirms a
// declaration made before it (§12) with one box: ticked, its label in the
// judge's language is the reason recorded; a reason typed in wins over it;
// neither is refused next to the field, with what was typed kept.
func TestScoreSheetLateConfirmBox(t *testing.T) {
	var now atomic.Pointer[time.Time]
	start := time.Date(2025, 11, 22, 13, 0, 0, 0, time.Local)
	now.Store(&start)
	env := webtest.New(t, webtest.WithLive(), webtest.AtClock(func() time.Time { return *now.Load() }))
	tr, _ := env.SeedTournament(8)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.ClockAction(env.Ctx, "setup", tr.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	later := start.Add(8 * time.Minute)
	now.Store(&later)
	b := env.Browser()
	b.Login("山田")
	score := func(table int) string { return fmt.Sprintf("/judge/t/%d/rounds/1/tables/%d/score", tr.ID, table) }
	// sheet declares the table's player winner with 10 VP; extra sets fields.
	sheet := func(table, winner int, extra ...string) url.Values {
		players := r.Tables[table-1].Players
		form := url.Values{"action": {"save"}, "version": {"0"}, "declared": {fmt.Sprint(players[winner])}}
		for i, p := range players {
			vp := []int{7, 5, 3, 2}[i]
			if i == winner {
				vp = 10
			}
			form.Set(fmt.Sprintf("vp_%d", p), fmt.Sprint(vp))
		}
		for i := 0; i+1 < len(extra); i += 2 {
			form.Set(extra[i], extra[i+1])
		}
		return form
	}
	lateReasons := func(table int) []string {
		t.Helper()
		revs, err := env.Service.Revisions(env.Ctx, tr.ID, 1, table)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, rev := range revs {
			out = append(out, rev.LateReason)
		}
		return out
	}
	const boxJA = "宣言は終了の合図の前でした（成績表で確認）"
	const boxEN = "The declaration came before the signal (checked on the score sheet)"

	webtest.MustSee(t, "the sheet after the signal", b.Get(score(1)), 200,
		`<label class="choice" for="late_confirmed"><input type="checkbox" id="late_confirmed" name="late_confirmed" value="1" aria-describedby`, boxJA)
	if body := b.Get(score(1)).Body; strings.Index(body, `id="late_confirmed"`) > strings.Index(body, `id="late_reason"`) {
		t.Errorf("the box comes after the reason field: the keyboard reaches the quick confirmation second")
	}

	next := regexp.MustCompile(`id="late_reason"[^>]*aria-invalid="true"><p class="field-error" id="late_reason-error">([^<]*)</p>`)
	res := b.Post(score(1), sheet(1, 0))
	webtest.MustSee(t, "unticked and empty", res, http.StatusUnprocessableEntity, `value="10"`)
	if m := next.FindStringSubmatch(res.Body); m == nil || !strings.Contains(m[1], "チェックを入れるか理由を入力") {
		t.Errorf("unticked and empty: the message next to the reason field = %v, want it to offer the box\n%s", m, res.Body)
	}
	if strings.Contains(res.Body, "checked aria-describedby") {
		t.Errorf("unticked and empty: the box shows ticked")
	}

	form := sheet(1, 0, "late_confirmed", "1")
	form.Set(fmt.Sprintf("vp_%d", r.Tables[0].Players[3]), "")
	webtest.MustSee(t, "ticked with a VP missing", b.Post(score(1), form), http.StatusUnprocessableEntity,
		`value="1" checked aria-describedby`, `value="10"`)
	webtest.MustSee(t, "ticked, preview", b.Post(score(1), sheet(1, 0, "late_confirmed", "1", "action", "preview")), http.StatusOK,
		`id="preview"`, `value="1" checked aria-describedby`)
	if got := lateReasons(1); len(got) != 0 {
		t.Fatalf("after the refusals and the preview, table 1 has revisions %q", got)
	}

	if res := b.Post(score(1), sheet(1, 0, "late_confirmed", "1")); res.Status != http.StatusSeeOther {
		t.Fatalf("ticked and empty = %d, want 303\n%s", res.Status, res.Body)
	}
	if got := lateReasons(1); len(got) != 1 || got[0] != boxJA {
		t.Errorf("ticked and empty: late reasons %q, want [%q]", got, boxJA)
	}
	webtest.MustSee(t, "the saved sheet", b.Get(score(1)), 200, "合図の前の宣言と確認: "+boxJA)

	// A correction to another declared winner is checked again, in the
	// judge's language this time.
	en := []string{"Accept-Language", "en"}
	form = sheet(1, 1, "late_confirmed", "1", "version", "1", "reason", "wrong winner on the sheet")
	if res := b.Post(score(1), form, en...); res.Status != http.StatusSeeOther {
		t.Fatalf("ticked correction in English = %d, want 303\n%s", res.Status, res.Body)
	}
	if got := lateReasons(1); len(got) != 2 || got[1] != boxEN {
		t.Errorf("ticked correction in English: late reasons %q, want [%q %q]", got, boxJA, boxEN)
	}

	const typed = "卓で合図の前に宣言を確認"
	if res := b.Post(score(2), sheet(2, 2, "late_confirmed", "1", "late_reason", " "+typed+" ")); res.Status != http.StatusSeeOther {
		t.Fatalf("ticked and typed = %d, want 303\n%s", res.Status, res.Body)
	}
	if got := lateReasons(2); len(got) != 1 || got[0] != typed {
		t.Errorf("ticked and typed: late reasons %q, want [%q]", got, typed)
	}
}
