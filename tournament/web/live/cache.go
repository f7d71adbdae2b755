package live

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// Cache shares one read of something derived from a tournament's state
// (a recorded game played by the rules engine, a QR code) among the
// readers that ask for it, keyed by a version: the tournament's snapshot's
// (tournament.Snapshot.Version), so that a read is kept until the next
// change. After each change a room full of phones fetch the same state
// within a second; computing it once per change rather than once per
// phone keeps the updates within that second, and an anonymous client
// asking again and again costs nothing. A read is kept for maxAge at most;
// a maxAge of 0 shares nothing.
//
// Only reads that succeed are kept, and only of tournaments and rounds
// that exist, so the cache holds no more than the database does. While the
// database cannot be reached (tournament.ErrUnavailable), a key read
// before answers the last value read (issue 24: the kiosk keeps showing
// the room the last state it had, not an error).
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]*readEntry[V]
	last    map[K]V // the last value read of each key
	// asked is the newest version of each key asked for while its read
	// was under way: the next read, begun after every one of them, serves
	// them all.
	asked  map[K]int64
	maxAge time.Duration
}

// readEntry is one read, in progress until ready is closed.
type readEntry[V any] struct {
	version int64 // the broker's version before the read began
	at      time.Time
	ready   chan struct{}
	value   V
	err     error
}

// NewCache keeps each read for maxAge at most; 0 shares nothing.
func NewCache[K comparable, V any](maxAge time.Duration) *Cache[K, V] {
	return &Cache[K, V]{entries: map[K]*readEntry[V]{}, last: map[K]V{}, asked: map[K]int64{}, maxAge: maxAge}
}

// Get returns the value of key as of version, reading it with read unless
// a read as new is kept or under way.
func (c *Cache[K, V]) Get(ctx context.Context, key K, version int64, read func(context.Context) (V, error)) (V, error) {
	return c.GetFresh(ctx, key, version, nil, read)
}

// GetFresh is Get for values that also go stale with time: a value kept
// is read again once fresh says it is no longer current (a page whose
// clock reached a zero, say); nil keeps it until the next version.
//
// One read of a key is under way at a time. A read begun for a version
// serves every request of that version or an older one (it reads a state
// at least as new); a request of a newer version waits for the read under
// way to end, then reads once for everyone waiting with it. When changes
// come faster than a page renders, a page is rendered once per rendering's
// time, not once per change: the renderings never queue up behind each
// other (the read gate's slots, auth.Work).
func (c *Cache[K, V]) GetFresh(ctx context.Context, key K, version int64, fresh func(V) bool, read func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	e := c.entries[key]
	for c.maxAge > 0 && e != nil && e.version < version && !e.finished() {
		c.asked[key] = max(c.asked[key], version)
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
		c.mu.Lock()
		e = c.entries[key]
	}
	if e == nil || e.version < version || time.Since(e.at) > c.maxAge || (fresh != nil && e.stale(fresh)) {
		// A read begun now reads a state at least as new as every version
		// asked for until now: it serves the requests waiting with this
		// one, whichever of them wakes first.
		e = &readEntry[V]{version: max(version, c.asked[key]), at: time.Now(), ready: make(chan struct{})}
		delete(c.asked, key)
		c.entries[key] = e
		c.mu.Unlock()
		// The read serves every waiting request: the first one leaving
		// must not cancel it.
		value, err := read(context.WithoutCancel(ctx))
		c.mu.Lock()
		switch last, ok := c.last[key]; {
		case err == nil:
			c.last[key] = value
		case ok && errors.Is(err, tournament.ErrUnavailable):
			value, err = last, nil
		}
		if err != nil && c.entries[key] == e {
			delete(c.entries, key)
		}
		c.mu.Unlock()
		e.value, e.err = value, err
		close(e.ready)
		return e.value, e.err
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.value, e.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// finished says the read is over.
func (e *readEntry[V]) finished() bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// stale says a finished read is no longer current by fresh; a read under
// way is waited for.
func (e *readEntry[V]) stale(fresh func(V) bool) bool {
	select {
	case <-e.ready:
		return e.err == nil && !fresh(e.value)
	default:
		return false
	}
}

// Live returns a tournament's live state as of now, from its snapshot
// (tournament.Service.Snapshot): read once per change and shared by every
// reader, at least as new as what the request's client has seen.
func (s *State) Live(ctx context.Context, tid int64) (tournament.Live, error) {
	snap, err := s.svc.Snapshot(ctx, tid)
	if err != nil {
		return tournament.Live{}, err
	}
	return snap.Live(s.svc.Now())
}

// Round returns round n of a tournament as the kiosk reads it, from its
// snapshot, with its clock as of now.
func (s *State) Round(ctx context.Context, tid int64, n int) (tournament.RoundView, error) {
	snap, err := s.svc.Snapshot(ctx, tid)
	if err != nil {
		return tournament.RoundView{}, err
	}
	return snap.RoundView(n, s.svc.Now())
}

// Results returns a tournament's whole record (tournament.EventResults),
// from its snapshot.
func (s *State) Results(ctx context.Context, tid int64) (tournament.EventResults, error) {
	snap, err := s.svc.Snapshot(ctx, tid)
	if err != nil {
		return tournament.EventResults{}, err
	}
	return snap.Results()
}

// Game returns the game recorded at table number of round n, as the kiosk
// reads it: played by the rules engine once per version of the tournament,
// however many screens follow it (tournament.Service.Game). The game is
// shared: its readers must not change it.
func (s *State) Game(ctx context.Context, tid int64, n, number int) (tournament.Game, error) {
	return s.svc.Game(ctx, tid, n, number)
}
