package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/jackc/pgx/v5"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// testSessionKey is the CATANJUDGE_SESSION_KEY every server of the
// two-server tests shares (openssl rand -base64 32).
const testSessionKey = "0YV2m4xk3Q8q2aN3rTqz1d7Xb5u9cLwE6hJk2pV8sFo="

// twoServers boots serve() twice on one new PostgreSQL database, with one
// session key, and returns their base URLs and the database's URL.
func twoServers(t *testing.T) (a, b, dsn string) {
	t.Helper()
	dsn = tournamenttest.NewPostgresDSN(t)
	env := map[string]string{"CATANJUDGE_SESSION_KEY": testSessionKey}
	addrA, _ := sitetest.ServeEnv(t, t.TempDir(), "127.0.0.1:0", env, "--database", dsn)
	addrB, _ := sitetest.ServeEnv(t, t.TempDir(), "127.0.0.1:0", env, "--database", dsn)
	return "http://" + addrA, "http://" + addrB, dsn
}

// liveEvent is one event of a live feed.
type liveEvent struct {
	Name string // the SSE event name: "change", "reconnect"
	Kind string `json:"kind"`
	// Action is the audit action of a change, "resync" for a resync.
	Action  string `json:"action"`
	Version int64  `json:"version"`
}

// openFeed opens a kiosk's live feed of tournament tid on base, as the
// kiosk's EventSource does, and returns its events; the channel closes
// when the feed ends. Once openFeed returns, the server has subscribed the
// feed (it answers only then). A minimal reader of the SSE lines the
// server writes (event, data, comments) is enough here.
func openFeed(t *testing.T, base string, tid int64) <-chan liveEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s/api/v1/tournaments/%d/events", base, tid), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("live feed of %d on %s: %s", tid, base, res.Status)
	}
	events := make(chan liveEvent, 1000)
	done := make(chan struct{})
	t.Cleanup(func() {
		cancel()
		<-done
	})
	go func() {
		defer close(done)
		defer close(events)
		defer res.Body.Close()
		readFeed(res.Body, events)
	}()
	return events
}

// readFeed sends the events of an SSE stream to events until it ends.
func readFeed(r io.Reader, events chan<- liveEvent) {
	sc := bufio.NewScanner(r)
	var e liveEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if e.Name != "" {
				events <- e
			}
			e = liveEvent{}
		case strings.HasPrefix(line, "event: "):
			e.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e)
		}
	}
}

// waitEvent waits for the first event of feed that ok accepts, for 10
// seconds at most.
func waitEvent(t *testing.T, feed <-chan liveEvent, what string, ok func(liveEvent) bool) liveEvent {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e, open := <-feed:
			if !open {
				t.Fatalf("the feed ended before %s", what)
			}
			if ok(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("waited 10s for %s", what)
		}
	}
}

// tableSeats returns the players of each table of round 1, by table number.
func tableSeats(t *testing.T, base string, tid int64) map[int][]int64 {
	t.Helper()
	var round struct {
		Tables []struct {
			Number  int `json:"number"`
			Players []struct {
				ID int64 `json:"id"`
			} `json:"players"`
		} `json:"tables"`
	}
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid), nil, 200, &round)
	seats := map[int][]int64{}
	for _, tb := range round.Tables {
		for _, p := range tb.Players {
			seats[tb.Number] = append(seats[tb.Number], p.ID)
		}
	}
	return seats
}

// resultBody is a result sheet of players saved on top of version, ended
// by the judge (no clock runs) for reason.
func resultBody(players []int64, version, vp int, reason string) map[string]any {
	var scores []crashScore
	for i, id := range players {
		scores = append(scores, crashScore{Player: id, VP: (vp + i) % 10})
	}
	return map[string]any{"version": version, "declared": nil, "scores": scores, "reason": reason}
}

func players(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("選手%02d/せんしゅ%02d", i+1, i+1))
	}
	return out
}

// Two servers on one PostgreSQL database, as docs/deploy.md runs them: a
// kiosk watching server B hears a save made through server A, and reads
// it from B at once (B's shared read went stale with the event); judges
// saving one table's first result through A and B at once: exactly one
// wins, every other gets 409 with the winner; when B loses the connection
// that hears A and gets it back, B's kiosk is told to re-fetch; a round
// clock started through A shows the same time left on B; a judge
// logged in on A is logged in on B, and a logout on B ends the session on
// A too.
func TestTwoServers(t *testing.T) {
	a, b, dsn := twoServers(t)
	tid := sitetest.SetUpRound(t, a, players(12)...)
	seats := tableSeats(t, b, tid)
	round := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid)

	t.Run("kiosk on B hears a save through A", func(t *testing.T) {
		live := fmt.Sprintf("/api/v1/tournaments/%d/live", tid)
		before := getBody(t, b+live)
		if again := getBody(t, b+live); again != before {
			t.Fatal("B's live state changed with nothing saved")
		}
		feed := openFeed(t, b, tid)
		var res struct {
			Version int `json:"version"`
		}
		sitetest.APIDo(t, a, "PUT", round+"/tables/1/result", resultBody(seats[1], 0, 3, "judge ended the game"), 200, &res)
		// The notices of the set-up's own writes through A may still be on
		// their way to B when its feed opens: wait for the result's.
		e := waitEvent(t, feed, "the save's change event on B", func(e liveEvent) bool { return e.Name == "change" && e.Kind == "result" })
		if e.Kind != "result" || !strings.HasPrefix(e.Action, "result.") || e.Version == 0 {
			t.Errorf("B's kiosk heard %+v, want a result change with its version", e)
		}
		if after := getBody(t, b+live); after == before {
			t.Error("B's live state after the event is the one read before the save: its read was not made stale")
		}
		var revs struct {
			Revisions []struct {
				Version int `json:"version"`
			} `json:"revisions"`
		}
		sitetest.APIDo(t, b, "GET", round+"/tables/1/revisions", nil, 200, &revs)
		if len(revs.Revisions) != 1 || revs.Revisions[0].Version != res.Version {
			t.Errorf("B reads revisions %+v, want the one saved through A", revs.Revisions)
		}
	})

	t.Run("kiosk on B re-fetches when B lost the other servers", func(t *testing.T) {
		feed := openFeed(t, b, tid)
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", store.ListenerName); err != nil {
			t.Fatal(err)
		}
		waitEvent(t, feed, "a resync on B's feed", func(e liveEvent) bool { return e.Name == "change" && e.Kind == "resync" })
	})

	t.Run("racing writers on A and B", func(t *testing.T) {
		const writers = 8
		statuses := make([]int, writers)
		bodies := make([]string, writers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := range writers {
			wg.Go(func() {
				base := []string{a, b}[w%2]
				<-start
				status, body, err := crashClient(http.DefaultClient, "PUT", base+round+"/tables/2/result",
					resultBody(seats[2], 0, w, "judge ended the game"))
				if err != nil {
					t.Error(err)
				}
				statuses[w], bodies[w] = status, string(body)
			})
		}
		close(start)
		wg.Wait()
		won := 0
		for w, status := range statuses {
			switch status {
			case http.StatusOK:
				won++
			case http.StatusConflict:
				if !strings.Contains(bodies[w], `"current_version":1`) {
					t.Errorf("writer %d: 409 %s, want the winner's version 1", w, bodies[w])
				}
			default:
				t.Errorf("writer %d: %d %s, want 200 or 409", w, status, bodies[w])
			}
		}
		if won != 1 {
			t.Errorf("%d writers won the first save of table 2, want exactly 1 (statuses %v)", won, statuses)
		}
	})

	t.Run("the clock started through A runs on B", func(t *testing.T) {
		type liveClock struct {
			Round struct {
				Clock sitetest.Clock `json:"clock"`
			} `json:"round"`
		}
		live := fmt.Sprintf("/api/v1/tournaments/%d/live", tid)
		var before liveClock
		sitetest.APIDo(t, b, "GET", live, nil, 200, &before) // B keeps this read until it hears of a change
		feed := openFeed(t, b, tid)
		sitetest.APIDo(t, a, "POST", round+"/clock", map[string]any{"action": "start"}, 200, nil)
		waitEvent(t, feed, "the clock's change on B", func(e liveEvent) bool { return e.Kind == "clock" })
		var onA, onB liveClock
		sitetest.APIDo(t, b, "GET", live, nil, 200, &onB)
		sitetest.APIDo(t, a, "GET", live, nil, 200, &onA)
		if before.Round.Clock.State != "ready" || onB.Round.Clock.State != "running" ||
			onA.Round.Clock.Remaining-onB.Round.Clock.Remaining > 1 || onB.Round.Clock.Remaining-onA.Round.Clock.Remaining > 1 {
			t.Errorf("clock on B before %+v, after %+v; on A %+v: want ready, then running as on A", before.Round.Clock, onB.Round.Clock, onA.Round.Clock)
		}
	})

	t.Run("a session on every server", func(t *testing.T) {
		cookie := judgeLogIn(t, a)
		for _, base := range []string{a, b} {
			if status := judgePage(t, base, cookie); status != http.StatusOK {
				t.Fatalf("the judge logged in on A gets %d from %s's console, want 200", status, base)
			}
		}
		judgeLogOut(t, b, cookie)
		deadline := time.Now().Add(10 * time.Second)
		for judgePage(t, a, cookie) == http.StatusOK {
			if time.Now().After(deadline) {
				t.Fatal("the session logged out on B still works on A after 10s")
			}
			time.Sleep(20 * time.Millisecond)
		}
		if status := judgePage(t, b, cookie); status == http.StatusOK {
			t.Error("the session logged out on B still works on B")
		}
	})
}

// getBody returns the body of a GET, failing unless it is 200.
func getBody(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %d %s, %v", url, res.StatusCode, data, err)
	}
	return string(data)
}

// noRedirect is a client that shows redirects rather than following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// judgeLogIn logs a judge in on base with the password and returns the
// session cookie.
func judgeLogIn(t *testing.T, base string) *http.Cookie {
	t.Helper()
	form := url.Values{"name": {tournament.FirstHead}, "password": {sitetest.BrowserPassword}}
	req, err := http.NewRequest("POST", base+"/judge/login", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == "catanjudge_session" && c.Value != "" {
			return c
		}
	}
	t.Fatalf("login on %s = %s without a session cookie", base, res.Status)
	return nil
}

// judgeLogOut logs the session of cookie out on base.
func judgeLogOut(t *testing.T, base string, cookie *http.Cookie) {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/judge/logout", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", base)
	req.AddCookie(cookie)
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout on %s = %s, want 303", base, res.Status)
	}
}

// judgePage returns the status of the console's first page on base with
// the session cookie: 200 logged in, a redirect to the login otherwise.
func judgePage(t *testing.T, base string, cookie *http.Cookie) int {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/judge", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(cookie)
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Server A (a real process) is killed with SIGKILL while judges save
// through A and B and kiosks watch both: the kiosk on A loses its feed,
// B keeps serving (saves and feeds), and every save either server
// acknowledged is in the database, exactly as sent.
func TestTwoServersOneKilled(t *testing.T) {
	bin := buildBinary(t)
	dsn := tournamenttest.NewPostgresDSN(t)
	a := startBinaryWith(t, bin, t.TempDir(), "A", []string{"CATANJUDGE_SESSION_KEY=" + testSessionKey}, "--database", dsn)
	addrB, _ := sitetest.ServeEnv(t, t.TempDir(), "127.0.0.1:0", map[string]string{"CATANJUDGE_SESSION_KEY": testSessionKey}, "--database", dsn)
	b := "http://" + addrB
	tid := sitetest.SetUpRound(t, b, players(32)...)
	seats := tableSeats(t, a.base, tid)
	round := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid)
	feedA := openFeed(t, a.base, tid)
	feedB := openFeed(t, b, tid)

	// Each writer corrects its own table again and again, version after
	// version: writers 0-3 through A, 4-7 through B.
	const writers, killAfter = 8, 40
	var (
		mu       sync.Mutex
		acked    = map[int]map[int]map[string]any{} // table → version → the sheet
		fromA    int
		killNow  = make(chan struct{})
		killOnce sync.Once
		stop     = make(chan struct{})
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 10 * time.Second}
	for w := range writers {
		table := w + 1
		acked[table] = map[int]map[string]any{}
		wg.Go(func() {
			base := b
			if w < 4 {
				base = a.base
			}
			for v := 0; ; v++ {
				select {
				case <-stop:
					return
				default:
				}
				body := resultBody(seats[table], v, v+w, fmt.Sprintf("writer %d correction %d", w, v))
				status, data, err := crashClient(client, "PUT", base+round+fmt.Sprintf("/tables/%d/result", table), body)
				if err != nil && base == a.base {
					return // A is gone: this save may or may not be stored
				}
				if err != nil || status != http.StatusOK {
					t.Errorf("writer %d: PUT table %d version %d = %d %s, %v", w, table, v, status, data, err)
					return
				}
				mu.Lock()
				acked[table][v+1] = body
				if base == a.base {
					if fromA++; fromA == killAfter {
						killOnce.Do(func() { close(killNow) })
					}
				}
				mu.Unlock()
			}
		})
	}
	select {
	case <-killNow:
	case <-time.After(60 * time.Second):
		t.Fatal("A did not acknowledge 40 saves within 60s")
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-a.done
	a.done <- nil
	// A's kiosk loses its feed (its EventSource would reconnect, through
	// the proxy, to B).
	for range feedA {
	}
	// B keeps serving: its writers go on, and its kiosk hears them.
	time.Sleep(500 * time.Millisecond)
	waitEvent(t, feedB, "a change on B after A died", func(e liveEvent) bool { return e.Name == "change" })
	close(stop)
	wg.Wait()

	for table, versions := range acked {
		var revs struct {
			Revisions []struct {
				Version int          `json:"version"`
				Scores  []crashScore `json:"scores"`
			} `json:"revisions"`
		}
		sitetest.APIDo(t, b, "GET", round+fmt.Sprintf("/tables/%d/revisions", table), nil, 200, &revs)
		for v, sheet := range versions {
			if v > len(revs.Revisions) {
				t.Errorf("table %d: acknowledged version %d is lost; %d revisions stored", table, v, len(revs.Revisions))
				continue
			}
			got, _ := json.Marshal(revs.Revisions[v-1].Scores)
			want, _ := json.Marshal(sheet["scores"])
			if string(got) != string(want) {
				t.Errorf("table %d version %d: stored %s, acknowledged %s", table, v, got, want)
			}
		}
		// A table whose writer used A may hold one save more, committed
		// as A died, unanswered.
		if extra := len(revs.Revisions) - len(versions); extra < 0 || extra > 1 || extra == 1 && table > 4 {
			t.Errorf("table %d: %d revisions stored for %d acknowledged", table, len(revs.Revisions), len(versions))
		}
	}
	t.Logf("A acknowledged %d saves before the kill; B %d in all", fromA, countB(acked))
	if res, err := http.Get(a.base + "/"); err == nil {
		res.Body.Close()
		t.Errorf("A still answers after SIGKILL: %s", res.Status)
	}
}

// countB counts the saves acknowledged through B (tables 5-8).
func countB(acked map[int]map[int]map[string]any) int {
	n := 0
	for table, versions := range acked {
		if table > 4 {
			n += len(versions)
		}
	}
	return n
}

// TestBrowserKioskAcrossServers is the kiosk in Chromium on server B while
// a judge saves through server A: the result shows on the open page
// without a reload, as quickly as a save through B would.
func TestBrowserKioskAcrossServers(t *testing.T) {
	sitetest.SkipWithoutChromium(t)
	a, b, _ := twoServers(t)
	tid := sitetest.SetUpRound(t, a, players(8)...)
	ctx := sitetest.NewBrowser(t)
	if err := chromedp.Run(ctx,
		chromedp.Navigate(b+"/lang/ja?next="+fmt.Sprintf("/kiosk/%d", tid)),
		chromedp.WaitVisible(`#entries tr`),
		// The feed connects meanwhile: the page shows what is saved before
		// it connects too, since it fetches the state on connecting.
		chromedp.WaitNotVisible(`#live-lost`),
	); err != nil {
		t.Fatal(err)
	}
	for table, base := range map[int]string{1: a, 2: b} {
		saved := time.Now()
		sitetest.SaveResult(t, base, tid, table)
		var card string
		sel := fmt.Sprintf(`.k-card[data-table="%d"]`, table)
		if err := chromedp.Run(ctx, chromedp.WaitVisible(sel+` .k-place`), chromedp.Text(sel, &card)); err != nil {
			t.Fatalf("table %d saved through %s did not show on B's kiosk: %v", table, base, err)
		}
		if took := time.Since(saved); took > 2*time.Second {
			t.Errorf("table %d saved through %s took %v to show on B's kiosk, want under 2 s", table, base, took)
		}
		if !strings.Contains(card, "10点") {
			t.Errorf("table %d on B's kiosk lacks the declared 10 VP:\n%s", table, card)
		}
	}
	if err := chromedp.Run(ctx, sitetest.Screenshot("24-kiosk-across-servers")); err != nil {
		t.Fatal(err)
	}
}

// Players' cards print from any server of the event: a card a judge
// makes through A (a new code) waits to be printed on B, which shares A's
// session key; the database holds it sealed, never the code in clear; a
// server on the same database with another key cannot open it, and says
// no card waits.
func TestCardsOnEveryServer(t *testing.T) {
	a, b, dsn := twoServers(t)
	// openssl rand -base64 32: not the event's key.
	other, _ := sitetest.ServeEnv(t, t.TempDir(), "127.0.0.1:0", map[string]string{"CATANJUDGE_SESSION_KEY": "3q0n7Rj8yQ2dFvK1LmZc4WbT9xUe6HpA5sGiNoJkYrE="}, "--database", dsn)
	c := "http://" + other
	var tour, player struct {
		ID int64 `json:"id"`
	}
	sitetest.APIDo(t, a, "POST", "/api/v1/tournaments", map[string]any{"name": "カード大会", "rounds": 1}, 201, &tour)
	sitetest.APIDo(t, a, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": "青木"}, 201, &player)

	cookie := judgeLogIn(t, a)
	req, err := http.NewRequest("POST", fmt.Sprintf("%s/judge/t/%d/players/%d/code", a, tour.ID, player.ID), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", a)
	req.AddCookie(cookie)
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if to := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(to, "/players#cards") {
		t.Fatalf("a new code on A = %s to %q, want 303 to the cards waiting on the players page", res.Status, to)
	}
	cards := fmt.Sprintf("/judge/t/%d/players/cards", tour.ID)

	page := func(base string, cookie *http.Cookie) string {
		t.Helper()
		req, err := http.NewRequest("GET", base+cards, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.AddCookie(cookie)
		req.AddCookie(&http.Cookie{Name: "lang", Value: "ja"})
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s%s = %s, %v", base, cards, res.Status, err)
		}
		return string(body)
	}
	code := regexp.MustCompile(`data-code>([2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4})<`).FindStringSubmatch(page(b, cookie))
	if code == nil {
		t.Fatalf("B's card page shows no code:\n%s", page(b, cookie))
	}
	if got := page(c, judgeLogIn(t, c)); !strings.Contains(got, "印刷を待っているカードはありません") || strings.Contains(got, code[1]) {
		t.Errorf("the server with another key shows:\n%s\nwant no card waiting", got)
	}

	// The database keeps the batch sealed: no code in clear, either way
	// it is typed.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var sealed []byte
	if err := conn.QueryRow(ctx, "SELECT sealed FROM card_batches").Scan(&sealed); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte(code[1])) || bytes.Contains(sealed, []byte(strings.ReplaceAll(code[1], "-", ""))) || bytes.Contains(sealed, []byte("青木")) {
		t.Errorf("the database holds the card in clear: %q", sealed)
	}
}
