package live

import (
	"context"
	"sync"
)

// Pushes makes the event of each change once for every feed of the same
// view (its key, K), carrying the view's parts (Frame): after a change,
// the thousands of feeds of a room's phones each ask for the event they
// are to send, and one of them makes it while the others wait. The events
// of the last few changes of each view are kept, so that a feed still
// sending one change's event while the next comes shares both.
//
// An event is made after its change was published, so the parts it
// carries are at least as new as the change, whichever feed made it; a
// change is named by its event whole (kind, action, version), not by its
// version alone, since the changes of other servers arrive in commit
// order, not in the order of their IDs.
type Pushes[K comparable] struct {
	mu   sync.Mutex
	made map[K][]*push
}

// push is one change's event for one view, being made until ready is
// closed.
type push struct {
	e     Event
	ready chan struct{}
	data  []byte
	err   error
}

// keptPushes is how many changes' events of each view are kept.
const keptPushes = 4

// NewPushes returns an empty set of events.
func NewPushes[K comparable]() *Pushes[K] {
	return &Pushes[K]{made: map[K][]*push{}}
}

// Get returns the event of change e for view key, making it with makeEvent
// unless it is made or being made. An error is not kept: the next change
// tries again.
func (p *Pushes[K]) Get(ctx context.Context, key K, e Event, makeEvent func(context.Context) ([]byte, error)) ([]byte, error) {
	p.mu.Lock()
	for _, x := range p.made[key] {
		if x.e == e {
			p.mu.Unlock()
			select {
			case <-x.ready:
				return x.data, x.err
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	x := &push{e: e, ready: make(chan struct{})}
	kept := append(p.made[key], x)
	if len(kept) > keptPushes {
		kept = kept[1:]
	}
	p.made[key] = kept
	p.mu.Unlock()
	// The event serves every feed waiting for it: the first one leaving
	// must not cancel it.
	x.data, x.err = makeEvent(context.WithoutCancel(ctx))
	if x.err != nil {
		p.mu.Lock()
		kept := p.made[key][:0]
		for _, y := range p.made[key] {
			if y != x {
				kept = append(kept, y)
			}
		}
		p.made[key] = kept
		p.mu.Unlock()
	}
	close(x.ready)
	return x.data, x.err
}
