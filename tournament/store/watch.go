package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"

	"github.com/catanjudge/catanjudge/tournament"
)

// Other writers of an SQLite file. One server serves an SQLite database,
// but another program may write the same file meanwhile (a second store
// over the data folder, as the tests that set an event up behind the
// server's back open). The snapshots kept of a tournament must not miss
// such a change: CatchUp, which they ask before each read, says whether
// any connection but the store's own has committed since it last looked
// (SQLite's data_version, which costs no read of the file), and if so
// tells the commit hooks of those changes, from their audit entries: every
// change writes one, in the order of its commit.

// watcher is what an SQLite store keeps to catch up with other writers.
type watcher struct {
	mu    sync.Mutex
	conn  *sql.Conn
	data  int64          // data_version as last read on conn
	last  int64          // the last audit entry told of
	ownMu sync.Mutex     // guards own
	own   map[int64]bool // audit entries this store committed, not yet passed
}

// watch opens the watcher's connection on the reader's pool and reads
// where the database stands.
func (s *Store) watch(ctx context.Context) error {
	sqlDB, err := s.reader.DB()
	if err != nil {
		return err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return err
	}
	w := &watcher{conn: conn, own: map[int64]bool{}}
	if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&w.data); err != nil {
		conn.Close()
		return err
	}
	if err := conn.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM audit_entries").Scan(&w.last); err != nil {
		conn.Close()
		return err
	}
	s.watcher = w
	return nil
}

// ours records the audit entries of a batch about to commit, which
// CatchUp must not tell of again; forget undoes it for a batch that did
// not commit.
func (w *watcher) ours(writes []*Tx, forget bool) {
	if w == nil {
		return
	}
	w.ownMu.Lock()
	defer w.ownMu.Unlock()
	for _, tx := range writes {
		for _, e := range tx.audited {
			if forget {
				delete(w.own, e.ID)
			} else {
				w.own[e.ID] = true
			}
		}
	}
}

// maxPending bounds the audit entries of its own an SQLite store keeps
// for CatchUp before it passes them itself.
const maxPending = 1024

func (w *watcher) pending() int {
	if w == nil {
		return 0
	}
	w.ownMu.Lock()
	defer w.ownMu.Unlock()
	return len(w.own)
}

// CatchUp implements tournament.Store: on SQLite it tells the commit
// hooks of the changes other connections committed since it last looked;
// on PostgreSQL, whose servers hear each other's notices (Listen), it does
// nothing.
func (s *Store) CatchUp(ctx context.Context) error {
	w := s.watcher
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var data int64
	if err := w.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&data); err != nil {
		return fmt.Errorf("catch up: %w", err)
	}
	if data == w.data {
		return nil
	}
	rows, err := w.conn.QueryContext(ctx, "SELECT id, COALESCE(tournament_id, 0), action FROM audit_entries WHERE id > ? ORDER BY id", w.last)
	if err != nil {
		return fmt.Errorf("catch up: %w", err)
	}
	defer rows.Close()
	var theirs []tournament.AuditEntry
	for rows.Next() {
		var e tournament.AuditEntry
		if err := rows.Scan(&e.ID, &e.TournamentID, &e.Action); err != nil {
			return fmt.Errorf("catch up: %w", err)
		}
		w.last = max(w.last, e.ID)
		w.ownMu.Lock()
		mine := w.own[e.ID]
		delete(w.own, e.ID)
		w.ownMu.Unlock()
		if !mine {
			theirs = append(theirs, e)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("catch up: %w", err)
	}
	w.data = data
	// Another writer's change, whose version is not known here: the
	// snapshots check the store's (Snapshots.Committed).
	for _, e := range theirs {
		s.tell(e)
	}
	return nil
}
