package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

const testAPIToken = "restart-test-token-0123456789"

// serveAt boots serve() on addr (":0" for a free port) over the data folder
// dir and returns the address it listens on and a function that stops it
// as Ctrl-C would, waiting until it has; the test stops it at the latest.
// More flags for serve may follow (--database).
func serveAt(t *testing.T, dir, addr string, flags ...string) (string, func()) {
	t.Helper()
	return serveTest(t, dir, addr, time.Now, nil, flags...)
}

// serveAtClock is serveAt with the service's clock.
func serveAtClock(t *testing.T, dir, addr string, now func() time.Time, flags ...string) (string, func()) {
	t.Helper()
	return serveTest(t, dir, addr, now, nil, flags...)
}

// serveEnv is serveAt with more environment variables.
func serveEnv(t *testing.T, dir, addr string, more map[string]string, flags ...string) (string, func()) {
	t.Helper()
	return serveTest(t, dir, addr, time.Now, more, flags...)
}

// serveTest is serveAt with the service's clock and more environment variables.
func serveTest(t *testing.T, dir, addr string, now func() time.Time, more map[string]string, flags ...string) (string, func()) {
	t.Helper()
	// The judges log in with browserPassword; scripts use the API token.
	env := map[string]string{"CATANJUDGE_JUDGE_PASSWORD": browserPassword, "CATANJUDGE_API_TOKEN": testAPIToken}
	maps.Copy(env, more)
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- serveWith(ctx, append([]string{"--addr", addr, "--data", dir}, flags...), func(k string) string { return env[k] },
			io.Discard, io.Discard, func(a string) { addrc <- a }, now)
	}()
	stopped := false
	stop := func() {
		t.Helper()
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-errc:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop within 10s")
		}
	}
	t.Cleanup(stop)
	select {
	case a := <-addrc:
		addBrowserJudges(t, "http://"+a, dir)
		return a, stop
	case err := <-errc:
		t.Fatalf("serve stopped before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not start within 20s")
	}
	return "", stop
}

// apiGet reads url with the test's API token, whatever the status: the
// caller checks it and closes the body.
func apiGet(t *testing.T, url string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testAPIToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res
}

// apiDo calls the JSON API with the test's API token and decodes the answer
// into out, failing the test unless the status is want.
func apiDo(t *testing.T, base, method, path string, body any, want int, out any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testAPIToken)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != want {
		t.Fatalf("%s %s = %d %s, want %d", method, path, res.StatusCode, data, want)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: decode %s: %v", method, path, data, err)
		}
	}
}

// testClock is the part of the clock state the restart test reads.
type testClock struct {
	State     string `json:"state"`
	Remaining int    `json:"remaining_seconds"`
}

// setUpRound creates a tournament with the players ("name/kana"), pairs
// round 1 and seats every table, through the API.
func setUpRound(t *testing.T, base string, players ...string) int64 {
	t.Helper()
	var tour struct {
		ID int64 `json:"id"`
	}
	apiDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "土曜カタン大会", "rounds": 3}, 201, &tour)
	for _, p := range players {
		// The last slash: a name may hold one ("<i>鈴木</i>/すずき").
		i := strings.LastIndex(p, "/")
		apiDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": p[:i], "kana": p[i+1:]}, 201, nil)
	}
	var round struct {
		Tables []struct{} `json:"tables"`
	}
	apiDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), nil, 201, &round)
	for i := range round.Tables {
		apiDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/%d/seating", tour.ID, i+1), map[string]any{"auto": true}, 200, nil)
	}
	return tour.ID
}

// handClock is a clock a test moves by hand, safe for concurrent use.
type handClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *handClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *handClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// TestClockSurvivesRestart starts the round clock, stops the server and
// starts it again on the same data: the time left goes on from where the
// facts say, neither reset nor frozen; a pause stays a pause across it.
// The servers read a clock the test moves, so the time they count is
// exactly the time the test lets pass.
func TestClockSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	clk := &handClock{at: time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)}
	addr, stop := serveAtClock(t, dir, "127.0.0.1:0", clk.now)
	base := "http://" + addr
	tid := setUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	clockPath := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tid)
	read := func(base string) testClock {
		t.Helper()
		var c testClock
		apiDo(t, base, "GET", clockPath, nil, 200, &c)
		return c
	}
	exactly := func(what string, got testClock, state string, left int) {
		t.Helper()
		if got.State != state || got.Remaining != left {
			t.Errorf("%s: %s with %d seconds left, want %s with %d", what, got.State, got.Remaining, state, left)
		}
	}

	apiDo(t, base, "POST", clockPath, map[string]any{"action": "start"}, 200, nil)
	clk.advance(12 * time.Second)
	before := read(base)
	exactly("before the restart", before, "running", 408)

	// The server is down for twenty seconds while the clock runs: the
	// players play on, and so does the clock.
	stop()
	clk.advance(20 * time.Second)
	addr, stop = serveAtClock(t, dir, "127.0.0.1:0", clk.now)
	base = "http://" + addr
	after := read(base)
	if after.State != "running" || after.Remaining >= before.Remaining || after.Remaining == 420 {
		t.Errorf("after the restart: %+v, want running with less than %d s left", after, before.Remaining)
	}
	exactly("after the restart", after, "running", 388)

	// Paused across a restart: no time lost, none added.
	clk.advance(500 * time.Millisecond)
	apiDo(t, base, "POST", clockPath, map[string]any{"action": "pause"}, 200, nil)
	paused := read(base)
	exactly("paused", paused, "paused", 388) // 387.5 s, shown rounded up
	stop()
	clk.advance(15 * time.Second)
	addr, stop = serveAtClock(t, dir, "127.0.0.1:0", clk.now)
	base = "http://" + addr
	if got := read(base); got.State != "paused" || got.Remaining != paused.Remaining {
		t.Errorf("paused across a restart: %+v, want paused with %d s left", got, paused.Remaining)
	}
	apiDo(t, base, "POST", clockPath, map[string]any{"action": "resume"}, 200, nil)
	clk.advance(11 * time.Second)
	exactly("after resuming", read(base), "running", 377) // 376.5 s
	stop()
}
