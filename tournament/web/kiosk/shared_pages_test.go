package kiosk_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// countdowns are the kiosk's counts as rendered: seconds left when the
// bytes were made, which change with every rendering while a clock runs.
var countdowns = regexp.MustCompile(`data-countdown="\d+"`)

// The kiosk's page and live parts, and a table's board, are rendered once
// per change for every screen of the same view: the same bytes (the same
// ETag) while the clock runs on, counted down by the page to the
// deadlines they carry from the server's time each answer carries; 304
// to a page that has them; gzipped once for the browsers that take it.
// A change, or the clock's last minute, makes new ones. A search is
// rendered for its request, with the key kiosk.js searches the shared
// parts with.
func TestKioskPagesAreRenderedOncePerChange(t *testing.T) {
	env := webtest.New(t, webtest.WithLive())
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.ClockAction(env.Ctx, "setup", tr.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	anon := env.Browser()
	kiosk := fmt.Sprintf("/kiosk/%d", tr.ID)
	for _, path := range []string{kiosk, kiosk + "/live", kiosk + "/live?view=projector&lang=en", kiosk + "/rounds/1/tables/1/game"} {
		first := anon.Get(path)
		webtest.MustSee(t, path, first, 200)
		tag := first.Header.Get("ETag")
		if tag == "" || first.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: ETag %q, Cache-Control %q; want an ETag, and no-cache", path, tag, first.Header.Get("Cache-Control"))
		}
		// Three seconds on, the clock has moved, the bytes have not.
		env.Ahead.Add(int64(3 * time.Second))
		again := anon.Get(path)
		if again.Body != first.Body || again.Header.Get("ETag") != tag {
			t.Errorf("%s three seconds later: rendered again (ETag %s, then %s)", path, tag, again.Header.Get("ETag"))
		}
		t1, _ := strconv.ParseInt(first.Header.Get(render.ServerTime), 10, 64)
		t2, _ := strconv.ParseInt(again.Header.Get(render.ServerTime), 10, 64)
		if d := time.Duration(t2-t1) * time.Millisecond; d < 3*time.Second || d > 4*time.Second {
			t.Errorf("%s: the server's time moved %v in three seconds (%s, %s)", path, d, first.Header.Get(render.ServerTime), again.Header.Get(render.ServerTime))
		}
		for _, match := range []string{tag, "W/" + tag, `"other", ` + tag} {
			if res := anon.Get(path, "If-None-Match", match); res.Status != http.StatusNotModified || res.Body != "" {
				t.Errorf("%s with If-None-Match %s = %d with %d bytes, want 304 with none", path, match, res.Status, len(res.Body))
			}
		}
		if res := anon.Get(path, "If-None-Match", `"other"`); res.Status != 200 || res.Body != first.Body {
			t.Errorf("%s with another ETag = %d, want 200 with the page", path, res.Status)
		}
	}

	// The running clock's deadline is in the bytes, and stays put.
	live := anon.Get(kiosk + "/live")
	deadline := regexp.MustCompile(`id="clock-time"[^>]* data-deadline="(\d+)"`).FindStringSubmatch(live.Body)
	if deadline == nil {
		t.Fatalf("the running clock carries no deadline\n%s", live.Body)
	}
	rv, err := env.Service.RoundView(env.Ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.FormatInt(rv.Timer.Deadline.UnixMilli(), 10); deadline[1] != want {
		t.Errorf("the clock's deadline = %s, want the round's time signal %s", deadline[1], want)
	}

	// Gzipped once, for those who take it; the same page unzipped.
	zipped := rawGet(t, env, kiosk+"/live", "Accept-Encoding", "gzip")
	if zipped.Header().Get("Content-Encoding") != "gzip" || !strings.HasSuffix(zipped.Header().Get("ETag"), `-gz"`) || zipped.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("gzip asked: Content-Encoding %q, ETag %q, Vary %q", zipped.Header().Get("Content-Encoding"), zipped.Header().Get("ETag"), zipped.Header().Get("Vary"))
	}
	if body := gunzip(t, zipped.Body); body != live.Body {
		t.Errorf("the gzipped live parts differ from the plain ones")
	}
	if res := rawGet(t, env, kiosk+"/live", "Accept-Encoding", "gzip", "If-None-Match", zipped.Header().Get("ETag")); res.Code != http.StatusNotModified {
		t.Errorf("gzip with its ETag = %d, want 304", res.Code)
	}
	if res := rawGet(t, env, kiosk+"/live", "Accept-Encoding", "gzip;q=0"); res.Header().Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 was answered gzipped")
	}

	// A search is the request's own: rendered again, with its key.
	searched := anon.Get(kiosk + "/live?q=" + url.QueryEscape("アオ"))
	webtest.MustSee(t, "the live parts searched", searched, 200, "1人見つかりました", `id="find-count" class="k-count" role="status" data-key="あお"`)
	env.Ahead.Add(int64(2 * time.Second))
	if again := anon.Get(kiosk + "/live?q=" + url.QueryEscape("アオ")); countdowns.FindString(again.Body) == countdowns.FindString(searched.Body) {
		t.Errorf("a search two seconds later shows the same count, %s: shared, want it rendered for the request", countdowns.FindString(again.Body))
	}

	// A change makes new bytes; so does the clock's last minute.
	cl.Save(tr.ID, 1, 1, 0, []int{10, 6, 5, 4}, 0, "")
	after := anon.Get(kiosk + "/live")
	webtest.MustSee(t, "the live parts after a result", after, 200, `class="k-card status-finished"`, "10点")
	if after.Header.Get("ETag") == live.Header.Get("ETag") {
		t.Errorf("a result saved kept the ETag %s", live.Header.Get("ETag"))
	}
	left := time.Until(rv.Timer.Deadline.Add(-time.Duration(env.Ahead.Load())))
	env.Ahead.Add(int64(left - 30*time.Second))
	webtest.MustSee(t, "the live parts in the last minute", anon.Get(kiosk+"/live"), 200, `class="k-clock state-running warn"`, `data-countdown="30"`)
	env.Ahead.Add(int64(time.Minute))
	webtest.MustSee(t, "the live parts at time up", anon.Get(kiosk+"/live"), 200, `class="k-clock state-over up"`, "時間です", `class="k-card status-over"`)
}

// A room of phones asking at once after a change share one rendering:
// every answer is the same bytes, however many ask.
func TestKioskRoomSharesOneRendering(t *testing.T) {
	env := webtest.New(t, webtest.WithLive())
	tr, _ := env.SeedTournament(40)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.ClockAction(env.Ctx, "setup", tr.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/kiosk/%d/live", tr.ID)
	var wg sync.WaitGroup
	bodies := make([]string, 200)
	for i := range bodies {
		wg.Go(func() {
			// Each phone from its own address, as on the shop's network; the
			// service's clock moves on meanwhile.
			env.Ahead.Add(int64(10 * time.Millisecond))
			rec := webtest.Serve(env.Handler, httptest.NewRequest(http.MethodGet, path, nil), fmt.Sprintf("10.0.%d.%d:1", i/250, i%250+1))
			if rec.Code != http.StatusOK {
				t.Errorf("phone %d: %d %s", i, rec.Code, rec.Body)
			}
			bodies[i] = rec.Body.String()
		})
	}
	wg.Wait()
	seen := map[string]int{}
	for _, b := range bodies {
		seen[countdowns.FindString(b)]++
	}
	if len(seen) != 1 {
		t.Errorf("200 phones at once got %d renderings (%v), want one", len(seen), seen)
	}
}

// rawGet asks the site for path with the headers given, as a client that
// decodes nothing.
func rawGet(t *testing.T, env *webtest.Env, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return webtest.Serve(env.Handler, req, "198.51.100.7:1")
}

func gunzip(t *testing.T, b *bytes.Buffer) string {
	t.Helper()
	r, err := gzip.NewReader(b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// BenchmarkKioskLiveShared is one phone's fetch of the kiosk's live parts
// after a change, once the parts are rendered: what the read gate no
// longer bounds, the site's middleware and a copy of the bytes. A room of
// 5,000 phones costs 5,000 of these a change (cmd/kioskbench).
func BenchmarkKioskLiveShared(b *testing.B) {
	env := webtest.New(b, webtest.WithLive())
	tr, _ := env.SeedTournament(48)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		b.Fatal(err)
	}
	path := fmt.Sprintf("/kiosk/%d/live", tr.ID)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		if rec := webtest.Serve(env.Handler, req, fmt.Sprintf("10.1.%d.%d:1", i/250%250, i%250+1)); rec.Code != http.StatusOK {
			b.Fatalf("GET %s = %d", path, rec.Code)
		}
	}
}
