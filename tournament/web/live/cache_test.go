package live

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// Many kiosks asking at once after a change share one read; a newer change,
// an old state or a failed read make the next request read again.
func TestLiveCache(t *testing.T) {
	c := NewCache[int64, tournament.Live](time.Hour)
	var reads atomic.Int64
	release := make(chan struct{})
	read := func(name string) func(context.Context) (tournament.Live, error) {
		return func(context.Context) (tournament.Live, error) {
			reads.Add(1)
			<-release
			return tournament.Live{Tournament: tournament.Tournament{Name: name}}, nil
		}
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			l, err := c.Get(t.Context(), 1, 7, read("v7"))
			if err != nil || l.Tournament.Name != "v7" {
				t.Errorf("get(version 7) = %q, %v; want v7", l.Tournament.Name, err)
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := reads.Load(); n != 1 {
		t.Errorf("50 requests at once read %d times, want 1", n)
	}
	if l, _ := c.Get(t.Context(), 1, 7, read("again")); l.Tournament.Name != "v7" || reads.Load() != 1 {
		t.Errorf("a later request for the same version read again (%d reads, %q)", reads.Load(), l.Tournament.Name)
	}
	if l, _ := c.Get(t.Context(), 1, 8, read("v8")); l.Tournament.Name != "v8" {
		t.Errorf("after a newer change: %q, want a new read", l.Tournament.Name)
	}
	if l, _ := c.Get(t.Context(), 2, 8, read("other")); l.Tournament.Name != "other" {
		t.Errorf("another tournament: %q, want its own read", l.Tournament.Name)
	}

	broken := errors.New("disk on fire")
	failing := func(context.Context) (tournament.Live, error) { return tournament.Live{}, broken }
	if _, err := c.Get(t.Context(), 3, 1, failing); !errors.Is(err, broken) {
		t.Fatalf("a failed read: error = %v", err)
	}
	if l, err := c.Get(t.Context(), 3, 1, read("recovered")); err != nil || l.Tournament.Name != "recovered" {
		t.Errorf("after a failed read: %q, %v; want a new read", l.Tournament.Name, err)
	}

	// maxAge bounds how long a state is kept; 0 keeps nothing.
	none := NewCache[int64, tournament.Live](0)
	none.Get(t.Context(), 1, 1, read("first"))
	if l, _ := none.Get(t.Context(), 1, 1, read("second")); l.Tournament.Name != "second" {
		t.Errorf("with maxAge 0 the state was kept: %q", l.Tournament.Name)
	}
}

// A request that gives up does not spoil the read for the others.
func TestLiveCacheCancelledWaiter(t *testing.T) {
	c := NewCache[int64, tournament.Live](time.Hour)
	release := make(chan struct{})
	done := make(chan tournament.Live)
	go func() {
		l, _ := c.Get(context.Background(), 1, 1, func(ctx context.Context) (tournament.Live, error) {
			<-release
			return tournament.Live{Tournament: tournament.Tournament{Name: "read"}}, ctx.Err()
		})
		done <- l
	}()
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Get(ctx, 1, 1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled waiter: error = %v, want context.Canceled", err)
	}
	close(release)
	if l := <-done; l.Tournament.Name != "read" {
		t.Errorf("the reader got %q, want its read", l.Tournament.Name)
	}
}

// While the database cannot be reached, a key read before answers its last
// value, and a key never read the error; any other failed read is the
// error, and once the database answers again its reads are kept again.
func TestCacheKeepsTheLastStateWhileTheDatabaseIsDown(t *testing.T) {
	c := NewCache[int64, string](time.Hour)
	ok := func(v string) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return v, nil }
	}
	fail := func(err error) func(context.Context) (string, error) {
		return func(context.Context) (string, error) { return "", err }
	}
	down := fmt.Errorf("read: %w: connection refused", tournament.ErrUnavailable)
	if v, err := c.Get(t.Context(), 1, 1, ok("round 1")); err != nil || v != "round 1" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if v, err := c.Get(t.Context(), 1, 2, fail(down)); err != nil || v != "round 1" {
		t.Errorf("Get(version 2) with the database down = %q, %v; want the last state, round 1", v, err)
	}
	if _, err := c.Get(t.Context(), 2, 2, fail(down)); !errors.Is(err, tournament.ErrUnavailable) {
		t.Errorf("Get(a key never read) with the database down = %v, want ErrUnavailable", err)
	}
	broken := errors.New("a bug")
	if _, err := c.Get(t.Context(), 1, 3, fail(broken)); !errors.Is(err, broken) {
		t.Errorf("Get(version 3) failing otherwise = %v, want that error", err)
	}
	if v, err := c.Get(t.Context(), 1, 4, ok("round 2")); err != nil || v != "round 2" {
		t.Errorf("Get(version 4) with the database back = %q, %v; want round 2", v, err)
	}
}
