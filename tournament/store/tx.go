package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// Tx is one write of the store (as wtf's sqlite.Tx is): the gorm
// transaction, embedded so that a statement reads tx.Where(...), the
// tournament whose lock it holds, and the audit entries written in it,
// which the store hands to the after-commit hooks once it has committed.
// Several writes may share one database transaction (group commit,
// commit.go): each is a Tx of its own, in a savepoint of the transaction,
// so that a write refused leaves the others whole. A Tx lives for one
// attempt: a write tried again starts a new one, so nothing a failed
// attempt wrote is published.
type Tx struct {
	*gorm.DB
	engine engine
	// locked is the tournament whose lock the write holds, and shared
	// says it shares it with the other writes at tables (lockTable).
	locked  int64
	shared  bool
	audited []tournament.AuditEntry
	// bumped are the tournaments the write changed without an audit
	// entry of theirs (a merge of people changes players of several),
	// whose versions move too.
	bumped []int64
	// settings says the transaction changed a console setting or ended
	// a session, which the other servers must read again.
	settings bool
	// versions are the tournaments' versions once committed.
	versions map[int64]int64
	// checked says open is whether the locked tournament takes changes,
	// read under its lock (lockTable): the audit need not read it again.
	checked bool
	open    error
}

// lock takes the write lock of tournament tid until the transaction ends.
// Every change of a tournament but those at one table (lockTable) takes it
// before it reads what it decides from (the versions, the progress, who
// sits where, whether the tournament is finished), so two changes of one
// tournament run one after the other and the second decides from what the
// first wrote, whichever servers they run on: the decisions made inside a
// write hold across servers as they hold in one.
//
// On PostgreSQL the lock is the tournament's row, taken FOR NO KEY UPDATE:
// writers of the same tournament queue on it in order, while the inserts
// that refer to the row (their foreign key checks take KEY SHARE) and the
// other tournaments' writers go on. Transactions run READ COMMITTED, so
// each statement after the lock sees every change committed before it was
// granted. On SQLite, BEGIN IMMEDIATE has taken the whole database's write
// lock already. A missing tournament takes no lock: the write that needs
// it fails on its foreign key, on both engines alike.
func (tx *Tx) lock(tid int64) error {
	if tx.locked == tid && !tx.shared {
		return nil
	}
	if tx.locked != 0 {
		return fmt.Errorf("store: one transaction locks tournament %d, not %d too", tx.locked, tid)
	}
	if tx.engine == enginePostgres {
		var ids []int64
		if err := tx.Raw("SELECT id FROM tournaments WHERE id = ? FOR NO KEY UPDATE", tid).Scan(&ids).Error; err != nil {
			return err
		}
	}
	tx.locked = tid
	return nil
}

// lockTable takes what a change at one table must hold, and returns the
// table's tournament: on PostgreSQL the tournament's row FOR SHARE, which
// the changes at the other tables share and every other change of the
// tournament (lock) waits for, and the table's row FOR NO KEY UPDATE, on
// which the changes of this table queue. What such a change decides from
// is the table's own (its players, its results, its reports, its recorded
// game) and whether the tournament is finished, which no change holding
// the tournament's shared lock can alter: so the changes at different
// tables of one tournament commit side by side, on one server or several,
// and only their version's bump (bumpVersions) is taken one at a time. On
// SQLite the database's write lock is the transaction's already.
func (tx *Tx) lockTable(tableID int64) (int64, error) {
	var at struct {
		TournamentID int64
		ClosedAt     *time.Time
		ClosedBy     string
	}
	// The tournament is found, whether it is finished read and, on
	// PostgreSQL, both rows locked, in one statement: on SQLite under the
	// database's lock, on PostgreSQL under the tournament's shared lock,
	// which no closing can take from under the write. (The rows of a
	// table, its round and its tournament never change which they
	// belong to.)
	query := "SELECT rounds.tournament_id, tournaments.closed_at, tournaments.closed_by FROM round_tables " +
		"JOIN rounds ON rounds.id = round_tables.round_id JOIN tournaments ON tournaments.id = rounds.tournament_id " +
		"WHERE round_tables.id = ?"
	if tx.engine == enginePostgres {
		query += " FOR NO KEY UPDATE OF round_tables FOR SHARE OF tournaments"
	}
	err := directScan(tx.DB, query, []any{tableID}, &at.TournamentID, &at.ClosedAt, &at.ClosedBy)
	if errors.Is(err, gorm.ErrRecordNotFound) {
		err = notFound("table", tableID)
	}
	if err != nil {
		return 0, err
	}
	tid := at.TournamentID
	if tx.locked != 0 {
		return 0, fmt.Errorf("store: one transaction locks tournament %d, not %d too", tx.locked, tid)
	}
	tx.locked, tx.shared = tid, true
	tx.open, tx.checked = openErr(tid, at.ClosedAt, at.ClosedBy), true
	return tid, nil
}

// bump says the write changed tournament tid besides what it audits, so
// that its version moves too.
func (tx *Tx) bump(tid int64) {
	if !slices.Contains(tx.bumped, tid) {
		tx.bumped = append(tx.bumped, tid)
	}
}

// changed returns the tournaments the write changed, by ID.
func (tx *Tx) changed() []int64 {
	var out []int64
	for _, e := range tx.audited {
		if e.TournamentID != 0 {
			out = append(out, e.TournamentID)
		}
	}
	out = append(out, tx.bumped...)
	slices.Sort(out)
	return slices.Compact(out)
}

// bumpVersions moves the version of every tournament the writes changed
// on by one, in the order of their IDs (so that two transactions bumping
// the same ones never wait for each other in a circle), and returns the
// new versions; 0 for a tournament that is gone. On PostgreSQL each bump
// holds the version's row until the commit: it is the one thing the
// changes of a tournament do one at a time once they have decided, which
// keeps the versions in the order of the commits.
func bumpVersions(db *gorm.DB, writes []*Tx) (map[int64]int64, error) {
	var tids []int64
	for _, w := range writes {
		tids = append(tids, w.changed()...)
	}
	slices.Sort(tids)
	tids = slices.Compact(tids)
	out := make(map[int64]int64, len(tids))
	for _, tid := range tids {
		var v []int64
		if err := db.Raw("UPDATE tournament_versions SET version = version + 1 WHERE tournament_id = ? RETURNING version", tid).Scan(&v).Error; err != nil {
			return nil, err
		}
		if len(v) > 0 {
			out[tid] = v[0]
		}
	}
	return out, nil
}

// audit writes c as an audit entry of tournament tid inside tx. Every
// change of a tournament passes here in the transaction that writes it, so
// this is where a finished tournament refuses every change but its closing
// and reopening (tournament.Store), and where a change that did not take
// the tournament's lock first is caught.
func (tx *Tx) audit(tid int64, c tournament.Change) error {
	if c.Judge == "" || c.Action == "" {
		return fmt.Errorf("%w: a change needs a judge and an action", tournament.ErrInvalid)
	}
	if tid != 0 && tx.locked != tid {
		return fmt.Errorf("store: a change of tournament %d was decided without its lock", tid)
	}
	if tid != 0 && !finishedTakes(c.Action) {
		if tx.checked {
			if tx.open != nil {
				return tx.open
			}
		} else if err := checkOpen(tx.DB, tid); err != nil {
			return err
		}
	}
	before, err := marshalAudit(c.Before)
	if err != nil {
		return err
	}
	after, err := marshalAudit(c.After)
	if err != nil {
		return err
	}
	at := c.At
	if at.IsZero() {
		at = time.Now()
	}
	row := auditRow{
		TournamentID: nullID(tid),
		Judge:        c.Judge,
		At:           at.UTC(),
		Action:       c.Action,
		Subject:      c.Subject,
		Before:       before,
		After:        after,
	}
	err = directScan(tx.DB, auditInsert,
		[]any{row.TournamentID, row.Judge, row.At, row.Action, row.Subject, row.Before, row.After}, &row.ID)
	if err != nil {
		return err
	}
	tx.audited = append(tx.audited, row.entry())
	return nil
}

func marshalAudit(v any) (string, error) {
	if v == nil {
		return "", nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("audit: %w", err)
	}
	return string(b), nil
}

// tx runs fn as one write and wraps its error with what. Every audit entry
// written in it is handed to the after-commit hooks once the write has
// committed, and on PostgreSQL told to the other servers by the notices it
// sends as it commits (notify.go).
//
// On SQLite every write goes to the group committer (commit.go), which
// commits the writes waiting together. On PostgreSQL a write that takes a
// tournament's lock (Tx.lock) runs in a transaction of its own; one at a
// table goes to the group committer (tableTx).
//
// On PostgreSQL a transaction the server aborted to break a deadlock or a
// serialization failure is run again, up to maxAttempts times: fn must
// start from its arguments each time, not from what an earlier attempt
// left in them.
func (s *Store) tx(ctx context.Context, what string, fn func(tx *Tx) error) error {
	if s.engine == engineSQLite {
		return s.commits.do(ctx, what, 0, fn)
	}
	return s.alone(ctx, what, fn)
}

// tableTx runs fn, a change at table tableID that takes Tx.lockTable, as
// one write: on either engine through the group committer, which commits
// the changes of many tables in one transaction.
func (s *Store) tableTx(ctx context.Context, what string, tableID int64, fn func(tx *Tx) error) error {
	return s.commits.do(ctx, what, tableID, fn)
}

// alone runs fn in a write transaction of its own (PostgreSQL), tried
// again when the server aborted it for another's sake.
func (s *Store) alone(ctx context.Context, what string, fn func(tx *Tx) error) error {
	var tx *Tx
	var versions map[int64]int64
	var err error
	for attempt := 1; ; attempt++ {
		tx = &Tx{engine: s.engine}
		err = s.db.WithContext(ctx).Transaction(func(db *gorm.DB) error {
			tx.DB = db
			if err := fn(tx); err != nil {
				return err
			}
			if versions, err = bumpVersions(db, []*Tx{tx}); err != nil {
				return err
			}
			return notify(db, s.server, []*Tx{tx}, versions)
		})
		if err == nil || !retryable(err) || attempt == maxAttempts {
			break
		}
		// A short random pause keeps the transactions that collided from
		// colliding again at once.
		select {
		case <-time.After(time.Duration(attempt) * time.Duration(1+rand.IntN(5)) * time.Millisecond):
		case <-ctx.Done():
			return wrap(what, ctx.Err())
		}
	}
	err = fault(err)
	s.wrote(err)
	if err != nil {
		return wrap(what, err)
	}
	s.committed(ctx, tx, versions)
	return nil
}

// tell tells the commit hooks of one change committed.
func (s *Store) tell(e tournament.AuditEntry) {
	for _, fn := range s.onCommit {
		fn(e)
	}
	if s.afterCommit != nil {
		s.afterCommit(e)
	}
}

// committed tells the hooks of a write committed with the tournaments'
// new versions, and raises what the request's client has seen to them.
func (s *Store) committed(ctx context.Context, tx *Tx, versions map[int64]int64) {
	seen := tournament.SeenFrom(ctx)
	told := map[int64]bool{}
	tell := s.tell
	for _, e := range tx.audited {
		if e.TournamentID != 0 {
			e.Version = versions[e.TournamentID]
			told[e.TournamentID] = true
			seen.Saw(e.TournamentID, e.Version)
		}
		tell(e)
	}
	for _, tid := range tx.bumped {
		if told[tid] {
			continue
		}
		told[tid] = true
		e := tournament.AuditEntry{TournamentID: tid, Version: versions[tid]}
		if len(tx.audited) > 0 {
			last := tx.audited[len(tx.audited)-1]
			e.ID, e.Judge, e.At, e.Action, e.Subject = last.ID, last.Judge, last.At, last.Action, last.Subject
		}
		seen.Saw(tid, e.Version)
		tell(e)
	}
}

// maxAttempts bounds the tries of one write transaction on PostgreSQL.
const maxAttempts = 5

// retryable reports an error of PostgreSQL's that says the transaction was
// aborted for another's sake and would succeed run again: a serialization
// failure (40001) or a deadlock broken (40P01).
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// owned is a row of one tournament's, which it never leaves.
type owned interface{ tournamentOf() int64 }

func (r playerRow) tournamentOf() int64  { return r.TournamentID }
func (r roundRow) tournamentOf() int64   { return r.TournamentID }
func (r penaltyRow) tournamentOf() int64 { return r.TournamentID }
func (r reportRow) tournamentOf() int64  { return r.TournamentID }

// lockTournamentOf reads row id into row, takes the lock of the tournament
// it belongs to, and reads it again: what row holds on return was read
// under the lock. (On SQLite the transaction held the lock from its start.)
func lockTournamentOf[R any, P interface {
	*R
	owned
}](tx *Tx, row P, id int64) error {
	if err := tx.Take(row, id).Error; err != nil {
		return err
	}
	if err := tx.lock(row.tournamentOf()); err != nil || tx.engine == engineSQLite {
		return err
	}
	*row = *new(R)
	return tx.Take(row, id).Error
}

// finishedTakes says whether a finished tournament takes the change of
// action: its closing and reopening, and its archiving.
func finishedTakes(action string) bool {
	switch action {
	case tournament.ActionClose, tournament.ActionReopen, tournament.ActionArchive, tournament.ActionUnarchive:
		return true
	}
	return false
}
