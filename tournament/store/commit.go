package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"gorm.io/gorm"
)

// Group commit. A commit costs the disk one sync (SQLite's WAL with
// synchronous=FULL, PostgreSQL's WAL flush), and on a busy Saturday fifty
// judges save at once: syncing each save alone would make the disk's sync
// rate the most saves a second. The committer takes every write waiting
// when it is free and commits them in one transaction, with one sync:
// each write runs in a savepoint of its own, so that one refused (a stale
// version, a table changed meanwhile) is rolled back alone, and keeps its
// own checks and its own audit entry; the tournaments' versions are bumped
// once for the batch. No write is answered before the batch is durable:
// an error of the commit is every write's.
//
// On SQLite, which takes one writer at a time anyway, every write goes
// through one committer: it is the store's one writer, and a fair queue
// (SQLite's busy handler polls rather than queueing). On PostgreSQL the
// changes at tables (tableTx) go through committers of which several run
// at once, each its own transaction, so that one batch's statements run
// while another's commit is flushed; their writes take shared locks
// (Tx.lockTable), in the order of the tables' IDs, so batches never wait
// for each other in a circle. A change that takes a tournament's lock
// (Tx.lock) runs alone.

// maxBatch bounds the writes of one batch, so that one commit's wait stays
// short.
const maxBatch = 64

// job is one write waiting for its batch.
type job struct {
	ctx     context.Context
	what    string
	key     int64 // the table it changes, by whose ID a batch takes its locks; 0 for none
	fn      func(*Tx) error
	attempt int
	tx      *Tx
	err     error
	done    chan struct{}
}

// committer runs the batches of one store.
type committer struct {
	s    *Store
	jobs chan *job
	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
	// batches and writes count the batches committed and the writes they
	// held (CommitStats).
	batches, writes atomic.Int64
}

// CommitStats are the store's batches committed since it opened and the
// writes they held: writes / batches is how many writes shared a sync.
type CommitStats struct {
	Batches, Writes int64
}

// CommitStats says how the store has batched its writes so far.
func (s *Store) CommitStats() CommitStats {
	return CommitStats{Batches: s.commits.batches.Load(), Writes: s.commits.writes.Load()}
}

// newCommitter starts n goroutines that commit s's writes in batches.
func newCommitter(s *Store, n int) *committer {
	c := &committer{s: s, jobs: make(chan *job, 4*maxBatch), stop: make(chan struct{})}
	for range n {
		c.wg.Go(c.run)
	}
	return c
}

// errClosed is a write to a closed store.
var errClosed = errors.New("store: the database is closed")

// close stops the committers once the writes queued are done.
func (c *committer) close() {
	c.once.Do(func() {
		close(c.stop)
		c.wg.Wait()
	})
}

// do runs fn as one write of a batch and waits until its batch has
// committed (or fn refused); key is the table it changes, 0 for none.
func (c *committer) do(ctx context.Context, what string, key int64, fn func(*Tx) error) error {
	j := &job{ctx: ctx, what: what, key: key, fn: fn, attempt: 1, done: make(chan struct{})}
	select {
	case c.jobs <- j:
	case <-c.stop:
		return wrap(what, errClosed)
	case <-ctx.Done():
		return wrap(what, ctx.Err())
	}
	// Once queued, the write is answered when its batch is done: it may
	// commit even if the caller has gone, but never unanswered.
	<-j.done
	err := fault(j.err)
	c.s.wrote(err)
	if err != nil {
		return wrap(what, err)
	}
	c.s.committed(ctx, j.tx, j.tx.versions)
	return nil
}

func (c *committer) run() {
	for {
		var first *job
		select {
		case first = <-c.jobs:
		case <-c.stop:
			// Answer what is still queued.
			for {
				select {
				case j := <-c.jobs:
					j.err = errClosed
					close(j.done)
				default:
					return
				}
			}
		}
		batch := []*job{first}
	drain:
		for len(batch) < maxBatch {
			select {
			case j := <-c.jobs:
				batch = append(batch, j)
			default:
				break drain
			}
		}
		c.commit(batch)
	}
}

// commit runs one batch. A write the server aborted for another's sake
// (PostgreSQL: a deadlock broken) is tried again in a batch of its own;
// when the batch itself fails to commit, every write of it is tried again
// alone, so that one write's trouble is its own.
func (c *committer) commit(batch []*job) {
	s := c.s
	// The locks are taken in the order of the tables' IDs.
	slices.SortStableFunc(batch, func(a, b *job) int { return cmp.Compare(a.key, b.key) })
	var done, failed []*job
	err := s.batchTx(func(db *gorm.DB) error {
		done, failed = done[:0], failed[:0]
		for i, j := range batch {
			if err := j.ctx.Err(); err != nil {
				j.err = err
				failed = append(failed, j)
				continue
			}
			sp := "w" + strconv.Itoa(i)
			if err := db.SavePoint(sp).Error; err != nil {
				return err
			}
			tx := &Tx{DB: db, engine: s.engine}
			if err := j.fn(tx); err != nil {
				if rerr := db.RollbackTo(sp).Error; rerr != nil {
					return fmt.Errorf("%w (rolling back %s: %v)", err, j.what, rerr)
				}
				j.err = err
				failed = append(failed, j)
				continue
			}
			// The savepoint stays until the commit: releasing it would
			// cost a statement and change nothing.
			j.tx = tx
			done = append(done, j)
		}
		writes := make([]*Tx, len(done))
		for i, j := range done {
			writes[i] = j.tx
		}
		versions, err := bumpVersions(db, writes)
		if err != nil {
			return err
		}
		for _, j := range done {
			j.tx.versions = versions
		}
		if err := notify(db, s.server, writes, versions); err != nil {
			return err
		}
		s.watcher.ours(writes, false)
		return nil
	})
	if err != nil {
		writes := make([]*Tx, 0, len(done))
		for _, j := range done {
			if j.tx != nil {
				writes = append(writes, j.tx)
			}
		}
		s.watcher.ours(writes, true)
	} else if s.watcher.pending() > maxPending {
		// Pass this store's own entries, so that their record stays small
		// while nobody reads.
		_ = s.CatchUp(context.Background())
	}
	if err != nil {
		if len(batch) == 1 {
			j := batch[0]
			if retryable(err) && j.attempt < maxAttempts {
				c.again(j)
				return
			}
			j.err = err
			close(j.done)
			return
		}
		for _, j := range batch {
			j.err, j.tx = nil, nil
			c.alone(j)
		}
		return
	}
	for _, j := range failed {
		if retryable(j.err) && j.attempt < maxAttempts {
			j.err = nil
			c.again(j)
			continue
		}
		close(j.done)
	}
	if len(done) > 0 {
		c.batches.Add(1)
		c.writes.Add(int64(len(done)))
	}
	for _, j := range done {
		close(j.done)
	}
}

// batchTx runs fn in one write transaction: on SQLite on the committer's
// own connection, begun IMMEDIATE (the database's write lock, taken at
// once) and committed by hand, so that its statements stay prepared; on
// PostgreSQL in a transaction of the pool's.
func (s *Store) batchTx(fn func(db *gorm.DB) error) error {
	if s.batches == nil {
		return s.db.Transaction(fn)
	}
	db := s.batches
	if err := db.Exec("BEGIN IMMEDIATE").Error; err != nil {
		return err
	}
	if err := fn(db); err != nil {
		if rerr := db.Exec("ROLLBACK").Error; rerr != nil {
			return fmt.Errorf("%w (and rolling back: %v)", err, rerr)
		}
		return err
	}
	if err := db.Exec("COMMIT").Error; err != nil {
		// A commit that failed leaves the transaction open on SQLite.
		_ = db.Exec("ROLLBACK").Error
		return err
	}
	return nil
}

// again runs j once more, in a batch of its own.
func (c *committer) again(j *job) {
	j.attempt++
	c.alone(j)
}

// alone runs j in a batch of its own.
func (c *committer) alone(j *job) {
	c.commit([]*job{j})
}
