package live

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// Cache shares one read of a tournament's state among the kiosks that
// ask for it. After each change a room full of phones fetch the same state
// within a second; reading the database once per change rather than once
// per phone keeps the updates within that second, and an anonymous client
// asking again and again costs no read at all. A read is kept until the
// broker publishes a newer change of its tournament (every change committed
// by this server is published, and on PostgreSQL every change the other
// servers commit, as they hear of it: Broker.Version), and for maxAge at
// most; a maxAge of 0 shares nothing. Clocks are
// recomputed at each request, so the time left is never stale.
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
	maxAge  time.Duration
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
	return &Cache[K, V]{entries: map[K]*readEntry[V]{}, last: map[K]V{}, maxAge: maxAge}
}

// Get returns the value of key as of version, reading it with read unless
// a read as new is kept or under way.
func (c *Cache[K, V]) Get(ctx context.Context, key K, version int64, read func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	e := c.entries[key]
	if e == nil || e.version != version || time.Since(e.at) > c.maxAge {
		e = &readEntry[V]{version: version, at: time.Now(), ready: make(chan struct{})}
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

// Live returns a tournament's live state, shared through the cache, with
// its clock as of now.
func (s *State) Live(ctx context.Context, tid int64) (tournament.Live, error) {
	l, err := s.lives.Get(ctx, tid, s.broker.Version(tid), func(ctx context.Context) (tournament.Live, error) {
		return s.svc.Live(ctx, tid)
	})
	if err != nil {
		return tournament.Live{}, err
	}
	return l.At(s.svc.Now()), nil
}

// roundKey names one round of one tournament.
type roundKey struct {
	tid int64
	n   int
}

// roundRead is a round as the kiosk reads it, with its tournament, whose
// game time its clock counts.
type roundRead struct {
	t tournament.Tournament
	v tournament.RoundView
}

// Round returns round n of a tournament as the kiosk reads it, shared
// through the cache, with its clock as of now. The latest round is the
// live state's.
func (s *State) Round(ctx context.Context, tid int64, n int) (tournament.RoundView, error) {
	l, err := s.Live(ctx, tid)
	if err != nil {
		return tournament.RoundView{}, err
	}
	if l.Round != nil && l.Round.Round.Number == n {
		return *l.Round, nil
	}
	r, err := s.rounds.Get(ctx, roundKey{tid, n}, s.broker.Version(tid), func(ctx context.Context) (roundRead, error) {
		v, err := s.svc.RoundView(ctx, tid, n)
		return roundRead{t: l.Tournament, v: v}, err
	})
	if err != nil {
		return tournament.RoundView{}, err
	}
	return r.v.At(r.t, s.svc.Now()), nil
}

// Results returns a tournament's whole record (tournament.EventResults),
// shared through the cache until the tournament or the registry changes.
func (s *State) Results(ctx context.Context, tid int64) (tournament.EventResults, error) {
	version := max(s.broker.Version(tid), s.broker.Version(0))
	return s.results.Get(ctx, tid, version, func(ctx context.Context) (tournament.EventResults, error) {
		return s.svc.EventResults(ctx, tid)
	})
}

// tableKey names one table of one round of one tournament.
type tableKey struct {
	tid      int64
	n, table int
}

// Game returns the game recorded at table number of round n, as the kiosk
// reads it, shared through the cache: played by the rules engine once per
// change of the tournament, however many screens follow it. The game is
// shared: its readers must not change it.
func (s *State) Game(ctx context.Context, tid int64, n, number int) (tournament.Game, error) {
	return s.games.Get(ctx, tableKey{tid, n, number}, s.broker.Version(tid), func(ctx context.Context) (tournament.Game, error) {
		return s.svc.Game(ctx, tid, n, number)
	})
}
