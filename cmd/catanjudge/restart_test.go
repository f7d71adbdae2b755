package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// TestClockSurvivesRestart starts the round clock, stops the server and
// starts it again on the same data: the time left goes on from where the
// facts say, neither reset nor frozen; a pause stays a pause across it.
// The servers read a clock the test moves, so the time they count is
// exactly the time the test lets pass.
func TestClockSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	clk := sitetest.NewHandClock(time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC))
	addr, stop := sitetest.ServeAtClock(t, dir, "127.0.0.1:0", clk.Now)
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	clockPath := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tid)
	read := func(base string) sitetest.Clock {
		t.Helper()
		var c sitetest.Clock
		sitetest.APIDo(t, base, "GET", clockPath, nil, 200, &c)
		return c
	}
	exactly := func(what string, got sitetest.Clock, state string, left int) {
		t.Helper()
		if got.State != state || got.Remaining != left {
			t.Errorf("%s: %s with %d seconds left, want %s with %d", what, got.State, got.Remaining, state, left)
		}
	}

	sitetest.APIDo(t, base, "POST", clockPath, map[string]any{"action": "start"}, 200, nil)
	clk.Advance(12 * time.Second)
	before := read(base)
	exactly("before the restart", before, "running", 408)

	// The server is down for twenty seconds while the clock runs: the
	// players play on, and so does the clock.
	stop()
	clk.Advance(20 * time.Second)
	addr, stop = sitetest.ServeAtClock(t, dir, "127.0.0.1:0", clk.Now)
	base = "http://" + addr
	after := read(base)
	if after.State != "running" || after.Remaining >= before.Remaining || after.Remaining == 420 {
		t.Errorf("after the restart: %+v, want running with less than %d s left", after, before.Remaining)
	}
	exactly("after the restart", after, "running", 388)

	// Paused across a restart: no time lost, none added.
	clk.Advance(500 * time.Millisecond)
	sitetest.APIDo(t, base, "POST", clockPath, map[string]any{"action": "pause"}, 200, nil)
	paused := read(base)
	exactly("paused", paused, "paused", 388) // 387.5 s, shown rounded up
	stop()
	clk.Advance(15 * time.Second)
	addr, stop = sitetest.ServeAtClock(t, dir, "127.0.0.1:0", clk.Now)
	base = "http://" + addr
	if got := read(base); got.State != "paused" || got.Remaining != paused.Remaining {
		t.Errorf("paused across a restart: %+v, want paused with %d s left", got, paused.Remaining)
	}
	sitetest.APIDo(t, base, "POST", clockPath, map[string]any{"action": "resume"}, 200, nil)
	clk.Advance(11 * time.Second)
	exactly("after resuming", read(base), "running", 377) // 376.5 s
	stop()
}
