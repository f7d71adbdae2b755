package live

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Changes that come faster than a read: while one read of a key is under
// way, the requests of newer versions wait for it and then share one read,
// so that reads of one key never pile up (each holds a slot of the read
// gate); each request still gets a read at least as new as its version.
func TestCacheReadsAKeyOnceAtATime(t *testing.T) {
	c := NewCache[string, int64](time.Hour)
	ctx := context.Background()
	release := make(chan struct{})
	var reads, under, most atomic.Int64
	read := func(v int64) func(context.Context) (int64, error) {
		return func(context.Context) (int64, error) {
			reads.Add(1)
			if n := under.Add(1); n > most.Load() {
				most.Store(n)
			}
			defer under.Add(-1)
			<-release
			return v, nil
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if got, _ := c.Get(ctx, "live", 1, read(1)); got != 1 {
			t.Errorf("version 1 read %d", got)
		}
	})
	for reads.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	var asking atomic.Int64
	for v := int64(2); v <= 21; v++ {
		wg.Go(func() {
			asking.Add(1)
			if got, _ := c.Get(ctx, "live", v, read(21)); got < v {
				t.Errorf("version %d got a read of %d, older", v, got)
			}
		})
	}
	// Every request is under way; give them the time to reach the wait.
	for asking.Load() < 20 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d reads of one key at once, want one", most.Load())
	}
	// The first read, then one for the twenty newer versions (the one
	// that wakes first reads for all), never one each: before, the first
	// to wake read for its own version only, and those newer than it
	// waited for another read (5 reads in a CI run).
	if n := reads.Load(); n > 2 {
		t.Errorf("20 newer versions asked during a read made %d reads, want a few", n)
	}
}
