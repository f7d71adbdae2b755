package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
)

// The hall's screens: the players' phones, their friends', and the
// projectors, each on the tournament's live feed from an address of its
// own, fetching the kiosk's live parts after each change as kiosk.js does
// (a little spread out, one fetch at a time, the parts it has named by
// their ETag, gzipped).

// maxVersions bounds the changes the bench follows (audit entry IDs).
const maxVersions = 1 << 17

// coverage is when each change was on every screen: a screen that had
// the event of change V before it began a fetch has, once the fetch is
// done, a state at least as new as V (the server's reads are stamped
// before they are made: live.Broker.Version).
type coverage struct {
	screens int
	seen    [maxVersions]atomic.Int64 // when the last screen had the event, ns since start
	had     [maxVersions]atomic.Int64 // when the last screen had the state
	count   [maxVersions]atomic.Int32 // screens that have the state
	start   time.Time
	top     atomic.Int64 // the highest version any screen heard of
}

func newCoverage(screens int, start time.Time) *coverage {
	return &coverage{screens: screens, start: start}
}

// heard notes that a screen had the event of version v at t.
func (c *coverage) heard(v int64, t time.Time) {
	if v <= 0 || v >= maxVersions {
		return
	}
	atomicMax(&c.seen[v], int64(t.Sub(c.start)))
	atomicMax(&c.top, v)
}

// fetched notes that a screen whose state was as of from has, at t, a
// state as of to.
func (c *coverage) fetched(from, to int64, t time.Time) {
	at := int64(t.Sub(c.start))
	for v := max(from+1, 1); v <= to && v < maxVersions; v++ {
		atomicMax(&c.had[v], at)
		c.count[v].Add(1)
	}
}

// onEvery is when change v was on every screen, and whether it was.
func (c *coverage) onEvery(v int64) (event, state time.Time, ok bool) {
	if v <= 0 || v >= maxVersions || int(c.count[v].Load()) < c.screens {
		return time.Time{}, time.Time{}, false
	}
	return c.start.Add(time.Duration(c.seen[v].Load())), c.start.Add(time.Duration(c.had[v].Load())), true
}

func atomicMax(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}

// screen is one device following the kiosk.
type screen struct {
	client *http.Client
	path   string // the live parts it fetches
	heard  atomic.Int64
	wake   chan struct{}
	etag   string
	has    int64 // the version its state is as of (fetches alone)
}

// screens follows the tournament on n devices, from the first address on;
// the last projectors of them show the projector's view.
type screens struct {
	all      []*screen
	cov      *coverage
	refused  refusals
	fetches  atomic.Int64
	notModif atomic.Int64
	wg       sync.WaitGroup
}

// connect puts n screens on tournament tid's feed, a hundred at a time,
// and waits until every one is connected.
func connect(ctx context.Context, base string, tid int64, n, projectors int, devices func(int) *http.Transport, cov *coverage) (*screens, error) {
	s := &screens{cov: cov}
	connected := make(chan error, n)
	for i := range n {
		path := fmt.Sprintf("/kiosk/%d/live", tid)
		if i >= n-projectors {
			path += "?view=projector"
		}
		sc := &screen{client: &http.Client{Transport: devices(i)}, path: path, wake: make(chan struct{}, 1)}
		s.all = append(s.all, sc)
		s.wg.Go(func() { s.follow(ctx, base, tid, sc, connected) })
		s.wg.Go(func() { s.fetchLoop(ctx, base, sc) })
		if i%100 == 99 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	for range n {
		if err := <-connected; err != nil {
			return s, fmt.Errorf("a screen could not connect: %w", err)
		}
	}
	return s, nil
}

// follow reads a screen's feed: each change's version, and a fetch asked
// for after it; a feed refused or ended is opened again, as EventSource
// does.
func (s *screens) follow(ctx context.Context, base string, tid int64, sc *screen, connected chan<- error) {
	first := true
	for ctx.Err() == nil {
		res, err := bench.Feed(ctx, sc.client, base, tid)
		if err != nil {
			if first {
				connected <- err
				return
			}
			s.refused.count(err)
			sleep(ctx, 2*time.Second)
			continue
		}
		s.read(ctx, res.Body, sc, &first, connected)
		res.Body.Close()
	}
}

func (s *screens) read(ctx context.Context, body io.Reader, sc *screen, first *bool, connected chan<- error) {
	r := bufio.NewReader(body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch {
		case strings.HasPrefix(line, "retry:"):
			if *first {
				*first = false
				connected <- nil
			}
			// Connected (again): the page fetches its state afresh.
			s.ask(sc)
		case strings.HasPrefix(line, "data:"):
			var e struct {
				Kind    string `json:"kind"`
				Version int64  `json:"version"`
			}
			if json.Unmarshal([]byte(strings.TrimPrefix(line, "data:")), &e) != nil {
				continue
			}
			now := time.Now()
			if e.Version > 0 {
				s.cov.heard(e.Version, now)
				atomicMax(&sc.heard, e.Version)
			}
			if e.Kind != "game" {
				s.ask(sc)
			}
		}
	}
}

// ask asks for a fetch; one asked already covers this one.
func (s *screens) ask(sc *screen) {
	select {
	case sc.wake <- struct{}{}:
	default:
	}
}

// fetchLoop fetches the screen's live parts when asked, after up to
// 400 ms, as kiosk.js does, one fetch at a time.
func (s *screens) fetchLoop(ctx context.Context, base string, sc *screen) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-sc.wake:
		}
		sleep(ctx, time.Duration(rand.Int64N(int64(400*time.Millisecond))))
		s.fetch(ctx, base, sc)
	}
}

func (s *screens) fetch(ctx context.Context, base string, sc *screen) {
	from := sc.heard.Load()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+sc.path, nil)
	if err != nil {
		return
	}
	req.Header.Set("Accept-Encoding", "gzip")
	if sc.etag != "" {
		req.Header.Set("If-None-Match", sc.etag)
	}
	res, err := sc.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			s.refused.count(err)
		}
		return
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	switch res.StatusCode {
	case http.StatusOK:
		sc.etag = res.Header.Get("ETag")
	case http.StatusNotModified:
		s.notModif.Add(1)
	default:
		s.refused.count(&statusError{status: res.StatusCode})
		return
	}
	s.fetches.Add(1)
	if from > sc.has {
		s.cov.fetched(sc.has, from, time.Now())
		sc.has = from
	}
}

// catchUp has every screen fetch once more, for the last changes.
func (s *screens) catchUp() {
	for _, sc := range s.all {
		s.ask(sc)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// refusals counts the answers that were not the page: 503 (busy), 429 (too
// many at once from one address) and the rest.
type refusals struct {
	busy, tooMany, other atomic.Int64
}

func (r *refusals) count(err error) {
	var st *statusError
	switch {
	case asStatus(err, &st) && st.status == http.StatusServiceUnavailable:
		r.busy.Add(1)
	case asStatus(err, &st) && st.status == http.StatusTooManyRequests:
		r.tooMany.Add(1)
	default:
		r.other.Add(1)
	}
}

func (r *refusals) String() string {
	return fmt.Sprintf("%d busy (503), %d too many (429), %d other", r.busy.Load(), r.tooMany.Load(), r.other.Load())
}

// asStatus finds the answer's status in err: a statusError, or the
// status a feed refused with (bench.Feed says it).
func asStatus(err error, st **statusError) bool {
	if errors.As(err, st) {
		return true
	}
	var fs bench.Status
	if errors.As(err, &fs) {
		*st = &statusError{status: int(fs)}
		return true
	}
	return false
}
