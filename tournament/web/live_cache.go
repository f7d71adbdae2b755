package web

import (
	"context"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// liveCache shares one read of a tournament's live state among the kiosks
// that ask for it. After each change a room full of phones fetch the same
// state within a second; reading the database once per change rather than
// once per phone keeps the updates within that second. A state is kept
// until the broker publishes a newer change (every change committed by this
// server is published), and for maxAge at most, for a change made by
// another process on the same database; a maxAge of 0 shares nothing. The
// clock is recomputed at each request, so the time left is never stale.
type liveCache struct {
	mu      sync.Mutex
	entries map[int64]*liveEntry // by tournament ID
	maxAge  time.Duration
}

// liveEntry is one read, in progress until ready is closed.
type liveEntry struct {
	version int64 // the broker's version before the read began
	at      time.Time
	ready   chan struct{}
	live    tournament.Live
	err     error
}

func newLiveCache(maxAge time.Duration) *liveCache {
	return &liveCache{entries: map[int64]*liveEntry{}, maxAge: maxAge}
}

// get returns the live state of tournament tid as of version, reading it
// with read unless a read as new is kept or under way.
func (c *liveCache) get(ctx context.Context, tid, version int64, read func(context.Context) (tournament.Live, error)) (tournament.Live, error) {
	c.mu.Lock()
	e := c.entries[tid]
	if e == nil || e.version != version || time.Since(e.at) > c.maxAge {
		e = &liveEntry{version: version, at: time.Now(), ready: make(chan struct{})}
		c.entries[tid] = e
		c.mu.Unlock()
		// The read serves every waiting request: the first one leaving
		// must not cancel it.
		e.live, e.err = read(context.WithoutCancel(ctx))
		close(e.ready)
		if e.err != nil {
			c.mu.Lock()
			if c.entries[tid] == e {
				delete(c.entries, tid)
			}
			c.mu.Unlock()
		}
		return e.live, e.err
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.live, e.err
	case <-ctx.Done():
		return tournament.Live{}, ctx.Err()
	}
}

// live returns a tournament's live state, shared through the cache, with
// its clock as of now.
func (s *Server) live(ctx context.Context, tid int64) (tournament.Live, error) {
	l, err := s.liveCache.get(ctx, tid, s.deps.Broker.Version(tid), func(ctx context.Context) (tournament.Live, error) {
		return s.deps.Service.Live(ctx, tid)
	})
	if err != nil {
		return tournament.Live{}, err
	}
	return l.At(s.deps.Service.Now()), nil
}
