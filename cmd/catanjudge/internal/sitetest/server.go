// Package sitetest is the harness of the tests that drive a real
// catanjudge server: one on a free port over its own data folder, its JSON
// API with the test token, a round set up through it, and headless
// Chromium logged in to its console (browser.go, staff.go). The browser
// tests (cmd/catanjudge/internal/browser) and the command's own tests
// (the restart, crash, two-server and fault tests of cmd/catanjudge)
// share it.
package sitetest

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

	"golang.org/x/crypto/bcrypt"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

// The servers the tests boot in their own process hash the staff's
// passwords at bcrypt's least cost, as the web tests do: at the default
// cost one hash and its check took 11–16 s under the race detector on
// this 2-core machine at a load of 9–12 (0.7 s without it), a browser
// test's server makes several (the judges', each account's), and slow
// starts were the browser tests' flake. What the tests check of a
// password (the login, a wrong one refused) is the same at any cost.
func init() { auth.PasswordCost = bcrypt.MinCost }

// TestAPIToken is the API token of every test server (CATANJUDGE_API_TOKEN).
const TestAPIToken = "restart-test-token-0123456789"

// ServeAt boots server.Serve on addr (":0" for a free port) over the data folder
// dir and returns the address it listens on and a function that stops it
// as Ctrl-C would, waiting until it has; the test stops it at the latest.
// More flags for serve may follow (--database).
func ServeAt(t *testing.T, dir, addr string, flags ...string) (string, func()) {
	t.Helper()
	return serveTest(t, dir, addr, time.Now, nil, flags...)
}

// ServeAtClock is ServeAt with the service's clock.
func ServeAtClock(t *testing.T, dir, addr string, now func() time.Time, flags ...string) (string, func()) {
	t.Helper()
	return serveTest(t, dir, addr, now, nil, flags...)
}

// ServeEnv is ServeAt with more environment variables.
func ServeEnv(t *testing.T, dir, addr string, more map[string]string, flags ...string) (string, func()) {
	t.Helper()
	return serveTest(t, dir, addr, time.Now, more, flags...)
}

// hangLimit is how long a test server may take to start or to stop
// before the test calls it hung. It is no estimate of a start: the test
// waits for the server to listen or to fail, whichever comes first, and
// on a machine loaded by other suites, under the race detector, a start
// (the store's migrations, the judges' password hashes) has taken more
// than 20 seconds.
const hangLimit = 3 * time.Minute

// serveTest is ServeAt with the service's clock and more environment variables.
func serveTest(t *testing.T, dir, addr string, now func() time.Time, more map[string]string, flags ...string) (string, func()) {
	t.Helper()
	// The judges log in with browserPassword; scripts use the API token.
	env := map[string]string{"CATANJUDGE_JUDGE_PASSWORD": BrowserPassword, "CATANJUDGE_API_TOKEN": TestAPIToken}
	maps.Copy(env, more)
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- server.ServeWith(ctx, append([]string{"--addr", addr, "--data", dir}, flags...), func(k string) string { return env[k] },
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
		case <-time.After(hangLimit):
			t.Errorf("serve did not stop within %v: it hangs", hangLimit)
		}
	}
	t.Cleanup(stop)
	select {
	case a := <-addrc:
		AddBrowserJudges(t, "http://"+a, dir)
		return a, stop
	case err := <-errc:
		t.Fatalf("serve stopped before listening: %v", err)
	case <-time.After(hangLimit):
		t.Fatalf("serve did not start within %v: it hangs", hangLimit)
	}
	return "", stop
}

// APIGet reads url with the test's API token, whatever the status: the
// caller checks it and closes the body.
func APIGet(t *testing.T, url string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+TestAPIToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return res
}

// APIDo calls the JSON API with the test's API token and decodes the answer
// into out, failing the test unless the status is want.
func APIDo(t *testing.T, base, method, path string, body any, want int, out any) {
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
	req.Header.Set("Authorization", "Bearer "+TestAPIToken)
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

// Clock is the part of the clock state the restart test reads.
type Clock struct {
	State     string `json:"state"`
	Remaining int    `json:"remaining_seconds"`
}

// SetUpRound creates a tournament with the players ("name/kana"), pairs
// round 1 and seats every table, through the API.
func SetUpRound(t *testing.T, base string, players ...string) int64 {
	t.Helper()
	var tour struct {
		ID int64 `json:"id"`
	}
	APIDo(t, base, "POST", "/api/v1/tournaments", map[string]any{"name": "土曜カタン大会", "rounds": 3}, 201, &tour)
	for _, p := range players {
		// The last slash: a name may hold one ("<i>鈴木</i>/すずき").
		i := strings.LastIndex(p, "/")
		APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID), map[string]any{"name": p[:i], "kana": p[i+1:]}, 201, nil)
	}
	var round struct {
		Tables []struct{} `json:"tables"`
	}
	APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), nil, 201, &round)
	for i := range round.Tables {
		APIDo(t, base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/%d/seating", tour.ID, i+1), map[string]any{"auto": true}, 200, nil)
	}
	return tour.ID
}

// HandClock is a clock a test moves by hand, safe for concurrent use.
type HandClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *HandClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *HandClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// NewHandClock is a HandClock that reads at until the test moves it.
func NewHandClock(at time.Time) *HandClock { return &HandClock{at: at} }
