package tournament

import (
	"context"
	"errors"
	"sync"
)

// Snapshots keeps the latest Snapshot of each tournament a reader asked
// for, and reads a new one once per change: the first reader after a
// change reads the store (Store.Event) and every reader meanwhile waits
// for that one read. It learns of changes from the store as they commit
// (Store.OnCommit, which tells it each change's new version), and of the
// other servers' changes on a PostgreSQL database from their notices
// (Committed, told by the server's listener). A snapshot is served while
// no change newer than it is known, so a page read after a change reads
// the store once, however many readers ask.
//
// Read-your-writes across servers: a client that saw version v of a
// tournament (it made the change, or a page showed it) asks for at least v
// (WithSeen). When this server knows of no version that high yet (the
// other server's notice is on its way), it asks the store for the
// tournament's version (Store.Version, one row) and reads the snapshot
// again if the store has moved past what it holds: a client is never
// served a tournament older than it has seen. A version higher than the
// store's, which no server gave, costs that one small read and is served
// the newest there is.
//
// While the other servers go unheard (Lost, until Resync), no snapshot is
// known to be current: every reader asks the store for the version, and a
// snapshot is read again only when the version moved.
type Snapshots struct {
	store Store
	mu    sync.Mutex
	byID  map[int64]*snapEntry
	// deaf says other servers' changes go unheard (Lost); epoch counts the
	// times everything kept may have gone stale unheard (Resync, a change
	// outside any tournament), so that each entry checks the store's
	// version once after.
	deaf  bool
	epoch int64
}

// snapEntry is what Snapshots keeps of one tournament.
type snapEntry struct {
	snap  *Snapshot
	known int64 // the highest version known committed
	// unknown counts the changes told without their version; checked is
	// the epoch and unknown count as of the last check of known against
	// the store's version.
	unknown int64
	checked [2]int64
	read    *snapRead
}

// snapRead is one read of a tournament's snapshot under way.
type snapRead struct {
	done chan struct{}
	snap *Snapshot
	err  error
}

// NewSnapshots returns the snapshots of the tournaments in store.
func NewSnapshots(store Store) *Snapshots {
	x := &Snapshots{store: store, byID: map[int64]*snapEntry{}}
	store.OnCommit(x.Committed)
	return x
}

// Committed tells of a change committed to the store, by this server or,
// through its listener, another one: the snapshots of e's tournament older
// than e.Version are out of date. A change outside any tournament (the
// registry's, a tournament's deletion) may touch any tournament: every
// snapshot is checked against the store's version once before it is served
// again.
func (x *Snapshots) Committed(e AuditEntry) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if e.TournamentID == 0 {
		x.epoch++
		return
	}
	en := x.byID[e.TournamentID]
	if en == nil {
		return // nobody asked for it yet: the first reader reads it
	}
	if e.Version == 0 {
		// A change whose version is not known: check the store.
		en.unknown++
		return
	}
	en.known = max(en.known, e.Version)
}

// Lost says the other servers' changes go unheard until Resync.
func (x *Snapshots) Lost() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.deaf = true
}

// Resync says the other servers' changes are heard again: anything may
// have changed unheard, so every snapshot is checked once against the
// store's version.
func (x *Snapshots) Resync() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.deaf = false
	x.epoch++
}

// Get returns the snapshot of a tournament, as new as every change known
// committed and at least version want (0 for any).
func (x *Snapshots) Get(ctx context.Context, tid int64, want int64) (*Snapshot, error) {
	if err := x.store.CatchUp(ctx); err != nil {
		return nil, err
	}
	x.mu.Lock()
	en := x.byID[tid]
	if en == nil {
		en = &snapEntry{checked: [2]int64{x.epoch, 0}}
		x.byID[tid] = en
	}
	// A tournament not read yet is read fresh, as new as the store: it
	// needs no check.
	check := en.snap != nil && (x.deaf || en.checked != [2]int64{x.epoch, en.unknown} || want > en.known)
	x.mu.Unlock()
	if check {
		v, err := x.check(ctx, tid, en)
		if err != nil {
			return nil, err
		}
		// A version above the store's no server gave: the newest there
		// is serves it.
		want = min(want, v)
	}
	return x.atLeast(ctx, tid, en, want)
}

// current returns the snapshot of a tournament as new as the store's
// version of it now, for a use case that decides from the whole event.
func (x *Snapshots) current(ctx context.Context, tid int64) (*Snapshot, error) {
	x.mu.Lock()
	en := x.byID[tid]
	if en == nil {
		en = &snapEntry{checked: [2]int64{x.epoch, 0}}
		x.byID[tid] = en
	}
	x.mu.Unlock()
	v, err := x.check(ctx, tid, en)
	if err != nil {
		return nil, err
	}
	return x.atLeast(ctx, tid, en, v)
}

// check reads the store's version of a tournament into en.known and
// returns it.
func (x *Snapshots) check(ctx context.Context, tid int64, en *snapEntry) (int64, error) {
	x.mu.Lock()
	checking := [2]int64{x.epoch, en.unknown}
	x.mu.Unlock()
	v, err := x.store.Version(ctx, tid)
	if err != nil {
		x.forget(tid, err)
		return 0, err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	en.known = max(en.known, v)
	// What went stale while the version was read is checked next time.
	en.checked = checking
	return v, nil
}

// atLeast returns en's snapshot once it is as new as en.known and want,
// reading it when it is not, or waiting for the read under way.
func (x *Snapshots) atLeast(ctx context.Context, tid int64, en *snapEntry, want int64) (*Snapshot, error) {
	for {
		x.mu.Lock()
		need := max(en.known, want)
		if en.snap != nil && en.snap.version >= need {
			s := en.snap
			x.mu.Unlock()
			return s, nil
		}
		r := en.read
		if r == nil {
			r = &snapRead{done: make(chan struct{})}
			en.read = r
			x.mu.Unlock()
			// The read serves every reader waiting: the first one leaving
			// must not cancel it, and it holds no reader's place to work
			// (Pause).
			resume := Pause(ctx)
			rec, err := x.store.Event(context.WithoutCancel(ctx), tid)
			resume()
			if err == nil {
				r.snap = NewSnapshot(rec)
			}
			r.err = err
			x.mu.Lock()
			en.read = nil
			if err == nil {
				if en.snap == nil || r.snap.version > en.snap.version {
					en.snap = r.snap
				}
				en.known = max(en.known, r.snap.version)
			}
			x.mu.Unlock()
			close(r.done)
			if err != nil {
				x.forget(tid, err)
				return nil, err
			}
			// A read begun after the request came holds every change the
			// request may ask for: a version beyond it no server gave.
			return r.snap, nil
		}
		x.mu.Unlock()
		resume := Pause(ctx)
		var err error
		select {
		case <-r.done:
			err = r.err
		case <-ctx.Done():
			err = ctx.Err()
		}
		resume()
		if err != nil {
			return nil, err
		}
	}
}

// forget drops what is kept of a tournament the store no longer has (or
// never had), so that the snapshots hold no more than the database does.
func (x *Snapshots) forget(tid int64, err error) {
	if !errors.Is(err, ErrNotFound) {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if en := x.byID[tid]; en != nil && en.read == nil {
		delete(x.byID, tid)
	}
}
