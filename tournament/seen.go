package tournament

import (
	"context"
	"maps"
	"sync"
)

// Seen is what one client has seen of the tournaments: for each, the
// highest version it was shown or made. A request carries it in its
// context (WithSeen): a snapshot read for it is at least that version
// (Service.Snapshot), and each snapshot served and each change committed
// for it raises it, so that a client that moves from one server to another
// (a judge saving on one, the redirect landing on the other) is never
// shown a tournament older than it has seen. The web layer keeps it with
// the client between requests.
type Seen struct {
	mu      sync.Mutex
	v       map[int64]int64
	changed bool
}

// NewSeen returns what a client has seen: versions by tournament ID.
func NewSeen(versions map[int64]int64) *Seen {
	return &Seen{v: maps.Clone(versions)}
}

type seenKey struct{}

// WithSeen returns ctx carrying what the client has seen.
func WithSeen(ctx context.Context, s *Seen) context.Context {
	return context.WithValue(ctx, seenKey{}, s)
}

// SeenFrom returns what the request of ctx has seen; nil when it carries
// none, whose methods see nothing and remember nothing.
func SeenFrom(ctx context.Context) *Seen {
	s, _ := ctx.Value(seenKey{}).(*Seen)
	return s
}

// Version returns the version of tournament tid seen, 0 for none.
func (s *Seen) Version(tid int64) int64 {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v[tid]
}

// Saw raises the version of tournament tid seen to v.
func (s *Seen) Saw(tid, v int64) {
	if s == nil || tid == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if v > s.v[tid] {
		if s.v == nil {
			s.v = map[int64]int64{}
		}
		s.v[tid] = v
		s.changed = true
	}
}

// Changed reports whether Saw raised a version, and Versions returns them:
// what the web layer gives the client to keep.
func (s *Seen) Changed() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// Versions returns the versions seen, by tournament ID.
func (s *Seen) Versions() map[int64]int64 {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.v)
}
