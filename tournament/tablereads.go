package tournament

import (
	"context"
	"sync"
)

// tableReads keeps, for each table, something a page shows of it beyond
// its tournament's snapshot (its result's revisions, its rulings): read
// from the store once per version of the tournament, by the first reader
// after a change, and shared by the readers after it, who must not change
// it. Only reads that succeed are kept, of tables that exist.
type tableReads[V any] struct {
	mu sync.Mutex
	m  map[int64]*tableRead[V]
}

// tableRead is one read of a table, in progress until done is closed.
type tableRead[V any] struct {
	version int64
	done    chan struct{}
	v       V
	err     error
}

// readTable returns reads' value of table number of round n as of the
// tournament's version, reading it with read (the event as of that version
// and the table) unless a read of that version is kept or under way.
func readTable[V any](ctx context.Context, s *Service, reads *tableReads[V], tournamentID int64, n, number int, read func(context.Context, record, Table) (V, error)) (V, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		var zero V
		return zero, err
	}
	_, t, err := snap.e.table(n, number)
	if err != nil {
		var zero V
		return zero, err
	}
	return reads.get(ctx, t.ID, snap.Version(), func(ctx context.Context) (V, error) {
		return read(ctx, snap.e, t)
	})
}

// get returns table tableID's value as of version, reading it with read
// unless a read of that version is kept or under way.
func (r *tableReads[V]) get(ctx context.Context, tableID, version int64, read func(context.Context) (V, error)) (V, error) {
	r.mu.Lock()
	if r.m == nil {
		r.m = map[int64]*tableRead[V]{}
	}
	e := r.m[tableID]
	if e == nil || e.version != version {
		e = &tableRead[V]{version: version, done: make(chan struct{})}
		r.m[tableID] = e
		r.mu.Unlock()
		// The read serves every reader waiting: the first one leaving
		// must not cancel it.
		e.v, e.err = read(context.WithoutCancel(ctx))
		close(e.done)
		if e.err != nil {
			r.mu.Lock()
			if r.m[tableID] == e {
				delete(r.m, tableID)
			}
			r.mu.Unlock()
		}
		return e.v, e.err
	}
	r.mu.Unlock()
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}
