package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

// The abuse measure: a judge and a kiosk load pages while anonymous
// clients, each from an address of its own, hammer the public endpoints
// as hard as the server's limits let them.
const (
	abusePlayers  = 100
	abuseRounds   = 3
	abuseClients  = 16
	abuseLoads    = 150 // page loads of each measured page, before and during
	abuseWarmUp   = 2 * time.Second
	abuseFeeds    = 8 // live feeds each client holds: all one address may
	abuseCompute  = 2 // referee requests each client keeps under way: all one address may
	abuseReads    = 2 // kiosk reads each client keeps under way
	abusePassword = "benchreport-judge-password"
)

// abuse serves a tournament (100 players, 3 rounds played) and loads a
// kiosk page and a judge's score sheet one after another, first alone,
// then while 16 anonymous clients hammer the referee API (25-player,
// 100-round schedules), the kiosk's reads and the live feed.
func (e *env) abuse(ctx context.Context) ([]row, error) {
	e.say("page latency while %d anonymous clients hammer the public endpoints", abuseClients)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	srv, err := e.abuseServer(ctx)
	if err != nil {
		return nil, err
	}
	defer srv.close()

	kiosk, judge := &http.Client{Transport: bench.Device(1)}, &http.Client{Transport: bench.Device(2)}
	cookie, err := srv.logIn(ctx, judge)
	if err != nil {
		return nil, err
	}
	kioskURL := fmt.Sprintf("%s/kiosk/%d", srv.base, srv.tid)
	scoreURL := fmt.Sprintf("%s/judge/t/%d/rounds/%d/tables/1/score", srv.base, srv.tid, abuseRounds)
	measure := func() (k, j []time.Duration, err error) {
		for range abuseLoads {
			t, err := timedGet(ctx, kiosk, kioskURL, "")
			if err != nil {
				return nil, nil, err
			}
			k = append(k, t)
			if t, err = timedGet(ctx, judge, scoreURL, cookie); err != nil {
				return nil, nil, err
			}
			j = append(j, t)
		}
		return k, j, nil
	}
	kBefore, jBefore, err := measure()
	if err != nil {
		return nil, err
	}

	h := &hammer{srv: srv}
	hctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range abuseClients {
		h.start(hctx, &wg, &http.Client{Transport: bench.Device(100 + i)})
	}
	time.Sleep(abuseWarmUp)
	h.began = time.Now()
	h.counted.Store(true)
	feeds := h.feeds.Load()
	kDuring, jDuring, err := measure()
	took := time.Since(h.began)
	h.counted.Store(false)
	feeds = min(feeds, h.feeds.Load())
	stop()
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if h.failed.Load() > 0 {
		return nil, fmt.Errorf("abuse: %d hammering requests failed outright: %v", h.failed.Load(), h.firstErr.Load())
	}
	load := fmt.Sprintf("%s requests/s (%d%% refused 429, %d%% busy 503), %d feeds held",
		bench.Count(int(float64(h.requests.Load())/took.Seconds())), h.share(&h.tooMany), h.share(&h.busy), feeds)
	rowFor := func(what string, before, during []time.Duration) row {
		return row{what, fmt.Sprintf("%d loads, %d clients hammering", abuseLoads, abuseClients), bench.Duration(bench.Percentile(during, 50)), bench.Duration(bench.Percentile(during, 99)),
			fmt.Sprintf("alone p50 %s, p99 %s (p50 %s)", bench.Duration(bench.Percentile(before, 50)), bench.Duration(bench.Percentile(before, 99)), bench.Ratio(bench.Percentile(during, 50), bench.Percentile(before, 50)))}
	}
	return []row{
		rowFor("kiosk page under anonymous hammering", kBefore, kDuring),
		rowFor("judge page under anonymous hammering", jBefore, jDuring),
		{"  the hammering (referee API, kiosk, feeds)", "", "", "", load},
	}, nil
}

// abuseServer is the site over a played tournament on a temporary store,
// on loopback, as cmd/catanjudge wires it.
type abuseServer struct {
	stop func() // the site's server
	st   *store.Store
	dir  string
	base string
	tid  int64
}

func (e *env) abuseServer(ctx context.Context) (*abuseServer, error) {
	dir, err := os.MkdirTemp("", "benchreport-")
	if err != nil {
		return nil, err
	}
	s := &abuseServer{dir: dir}
	broker := live.NewBroker(0, 0)
	// Filling the database is not what is measured.
	if s.st, err = store.Open(ctx, store.DatabaseFile(dir)+"?_synchronous=OFF", store.WithAfterCommit(broker.Committed)); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	svc := tournament.NewService(s.st, e.rulesets, time.Now)
	if s.tid, err = playTournament(ctx, svc); err != nil {
		s.close()
		return nil, err
	}
	if _, err := auth.SetUpHead(ctx, s.st, abusePassword, dir); err != nil {
		s.close()
		return nil, err
	}
	keys, err := auth.LoadSessionKeys(dir)
	if err != nil {
		s.close()
		return nil, err
	}
	h, err := web.New(web.Deps{Rulesets: e.rulesets, Service: svc, Settings: s.st, SessionKeys: keys, Broker: broker, PublicURL: "http://192.0.2.1:8080"})
	if err != nil {
		s.close()
		return nil, err
	}
	if s.base, s.stop, err = bench.Serve(ctx, h); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *abuseServer) close() {
	if s.stop != nil {
		s.stop()
	}
	s.st.Close()
	os.RemoveAll(s.dir)
}

// logIn logs a judge in through the login form and returns the cookie.
func (s *abuseServer) logIn(ctx context.Context, client *http.Client) (string, error) {
	form := url.Values{"name": {tournament.FirstHead}, "password": {abusePassword}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/judge/login", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	noRedirect := *client
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := noRedirect.Do(req)
	if err != nil {
		return "", err
	}
	res.Body.Close()
	cookie, _, _ := strings.Cut(res.Header.Get("Set-Cookie"), ";")
	if res.StatusCode != http.StatusSeeOther || cookie == "" {
		return "", fmt.Errorf("log in: %s", res.Status)
	}
	return cookie, nil
}

// playTournament registers the players, and pairs and plays every round.
func playTournament(ctx context.Context, svc *tournament.Service) (int64, error) {
	t, err := svc.CreateTournament(ctx, "bench", tournament.TournamentInput{Name: "ベンチマーク大会", Rounds: abuseRounds})
	if err != nil {
		return 0, err
	}
	ps, err := importPlayers(ctx, svc, t.ID, abusePlayers)
	if err != nil {
		return 0, err
	}
	for _, p := range ps {
		if _, err := svc.CheckIn(ctx, "bench", p.TournamentID, p.ID, true); err != nil {
			return 0, err
		}
	}
	for n := 1; n <= abuseRounds; n++ {
		r, err := svc.PairNextRound(ctx, "bench", t.ID)
		if err != nil {
			return 0, err
		}
		for k, tb := range r.Tables {
			// The last round's table 1 stays open: the judge's sheet.
			if n == abuseRounds && k == 0 {
				continue
			}
			var scores []tournament.Score
			for i, id := range tb.Players {
				scores = append(scores, tournament.Score{PlayerID: id, VP: (k+i*3+n)%9 + 1})
			}
			// No clock runs: a game ended by time before its signal needs
			// the judge's reason (§12).
			in := tournament.ResultInput{Scores: scores, Reason: "ジャッジが終了"}
			if _, err := svc.SaveResult(ctx, "bench", t.ID, n, tb.Number, in); err != nil {
				return 0, err
			}
		}
	}
	return t.ID, nil
}

// hammer is the anonymous clients' load, and what the server answered.
type hammer struct {
	srv      *abuseServer
	began    time.Time
	counted  atomic.Bool // count answers only while the pages are measured
	requests atomic.Int64
	tooMany  atomic.Int64
	busy     atomic.Int64
	feeds    atomic.Int64
	failed   atomic.Int64
	firstErr atomic.Value
}

func (h *hammer) share(n *atomic.Int64) int {
	if r := h.requests.Load(); r > 0 {
		return int(100 * n.Load() / r)
	}
	return 0
}

// scheduleBody is the request that took 2.9 s of CPU before the limits.
var scheduleBody = func() string {
	var ps []string
	for i := range 25 {
		ps = append(ps, fmt.Sprintf(`{"id":"p%02d"}`, i))
	}
	return `{"mode":"schedule","rounds":100,"players":[` + strings.Join(ps, ",") + `]}`
}()

// start sets one client to work: its feeds, its referee requests and its
// kiosk reads, each kept going until ctx ends.
func (h *hammer) start(ctx context.Context, wg *sync.WaitGroup, client *http.Client) {
	s := h.srv
	for range abuseFeeds {
		wg.Go(func() { h.feed(ctx, client, fmt.Sprintf("%s/api/v1/tournaments/%d/events", s.base, s.tid)) })
	}
	for range abuseCompute {
		wg.Go(func() {
			for ctx.Err() == nil {
				h.do(ctx, client, http.MethodPost, s.base+"/api/v1/referee/pairings", scheduleBody)
			}
		})
	}
	reads := []string{
		fmt.Sprintf("/kiosk/%d", s.tid), fmt.Sprintf("/kiosk/%d/live", s.tid), fmt.Sprintf("/api/v1/tournaments/%d/live", s.tid),
		fmt.Sprintf("/api/v1/tournaments/%d/standings", s.tid), fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", s.tid),
		fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d/clock", s.tid, abuseRounds), fmt.Sprintf("/kiosk/%d/qr.png", s.tid),
	}
	for w := range abuseReads {
		wg.Go(func() {
			for i := w; ctx.Err() == nil; i++ {
				h.do(ctx, client, http.MethodGet, s.base+reads[i%len(reads)], "")
			}
		})
	}
}

// do sends one request and counts its answer.
func (h *hammer) do(ctx context.Context, client *http.Client, method, target, body string) {
	res, ok := h.send(ctx, client, method, target, body)
	if !ok {
		return
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if !h.counted.Load() {
		return
	}
	h.requests.Add(1)
	switch res.StatusCode {
	case http.StatusOK:
	case http.StatusTooManyRequests:
		h.tooMany.Add(1)
		// As a client told to retry later would, briefly.
		sleep(ctx, 100*time.Millisecond)
	case http.StatusServiceUnavailable:
		h.busy.Add(1)
		sleep(ctx, 100*time.Millisecond)
	default:
		h.fail(fmt.Errorf("%s %s: %s", method, target, res.Status))
	}
}

// feed holds a live feed open, and opens another when it ends.
func (h *hammer) feed(ctx context.Context, client *http.Client, target string) {
	for ctx.Err() == nil {
		res, ok := h.send(ctx, client, http.MethodGet, target, "")
		if !ok {
			return
		}
		if res.StatusCode != http.StatusOK {
			res.Body.Close()
			sleep(ctx, time.Second)
			continue
		}
		h.feeds.Add(1)
		_, _ = io.Copy(io.Discard, bufio.NewReader(res.Body))
		res.Body.Close()
		h.feeds.Add(-1)
	}
}

// send sends one request; a failure other than the hammering's end is
// counted.
func (h *hammer) send(ctx context.Context, client *http.Client, method, target, body string) (*http.Response, bool) {
	req, err := http.NewRequestWithContext(ctx, method, target, strings.NewReader(body))
	if err != nil {
		h.fail(err)
		return nil, false
	}
	res, err := client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			h.fail(err)
		}
		return nil, false
	}
	return res, true
}

func (h *hammer) fail(err error) {
	if h.failed.Add(1) == 1 {
		h.firstErr.Store(err)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// timedGet loads a page and returns how long it took.
func timedGet(ctx context.Context, client *http.Client, target, cookie string) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	began := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	var body bytes.Buffer
	_, err = io.Copy(&body, res.Body)
	res.Body.Close()
	took := time.Since(began)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", target, res.Status)
	}
	return took, err
}
