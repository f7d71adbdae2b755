package web

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/skip2/go-qrcode"

	"github.com/catanjudge/catanjudge/tournament"
)

// readCache shares one read of a tournament's state among the kiosks that
// ask for it. After each change a room full of phones fetch the same state
// within a second; reading the database once per change rather than once
// per phone keeps the updates within that second, and an anonymous client
// asking again and again costs no read at all. A read is kept until the
// broker publishes a newer change of its tournament (every change committed
// by this server is published, and no other process writes the database),
// and for maxAge at most; a maxAge of 0 shares nothing. Clocks are
// recomputed at each request, so the time left is never stale.
//
// Only reads that succeed are kept, and only of tournaments and rounds
// that exist, so the cache holds no more than the database does.
type readCache[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]*readEntry[V]
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

func newReadCache[K comparable, V any](maxAge time.Duration) *readCache[K, V] {
	return &readCache[K, V]{entries: map[K]*readEntry[V]{}, maxAge: maxAge}
}

// newLiveCache is the cache of the tournaments' live state, by ID.
func newLiveCache(maxAge time.Duration) *readCache[int64, tournament.Live] {
	return newReadCache[int64, tournament.Live](maxAge)
}

// get returns the value of key as of version, reading it with read unless
// a read as new is kept or under way.
func (c *readCache[K, V]) get(ctx context.Context, key K, version int64, read func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	e := c.entries[key]
	if e == nil || e.version != version || time.Since(e.at) > c.maxAge {
		e = &readEntry[V]{version: version, at: time.Now(), ready: make(chan struct{})}
		c.entries[key] = e
		c.mu.Unlock()
		// The read serves every waiting request: the first one leaving
		// must not cancel it.
		e.value, e.err = read(context.WithoutCancel(ctx))
		close(e.ready)
		if e.err != nil {
			c.mu.Lock()
			if c.entries[key] == e {
				delete(c.entries, key)
			}
			c.mu.Unlock()
		}
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

// publicRound returns round n of a tournament as the kiosk reads it,
// shared through the cache, with its clock as of now. The latest round is
// the live state's.
func (s *Server) publicRound(ctx context.Context, tid int64, n int) (tournament.RoundView, error) {
	l, err := s.live(ctx, tid)
	if err != nil {
		return tournament.RoundView{}, err
	}
	if l.Round != nil && l.Round.Round.Number == n {
		return *l.Round, nil
	}
	r, err := s.roundCache.get(ctx, roundKey{tid, n}, s.deps.Broker.Version(tid), func(ctx context.Context) (roundRead, error) {
		v, err := s.deps.Service.RoundView(ctx, tid, n)
		return roundRead{t: l.Tournament, v: v}, err
	})
	if err != nil {
		return tournament.RoundView{}, err
	}
	return r.v.At(r.t, s.deps.Service.Now()), nil
}

// kioskQR returns the PNG of the QR code of a tournament's kiosk, drawn
// once: its address changes only with the server's configuration.
func (s *Server) kioskQR(ctx context.Context, tid int64) ([]byte, error) {
	return s.qrCache.get(ctx, tid, 0, func(ctx context.Context) ([]byte, error) {
		if _, err := s.deps.Service.GetTournament(ctx, tid); err != nil {
			return nil, err
		}
		png, err := qrcode.Encode(s.kioskURL(tid), qrcode.Medium, 320)
		if err != nil {
			return nil, fmt.Errorf("qr code: %w", err)
		}
		return png, nil
	})
}
