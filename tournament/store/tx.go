package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// Tx is one write transaction of the store (as wtf's sqlite.Tx is): the
// gorm transaction, embedded so that a statement reads tx.Where(...), the
// tournament whose lock it holds, and the audit entries written in it,
// which the store hands to the after-commit hook once it has committed. A
// Tx lives for one attempt: a transaction tried again starts a new one, so
// nothing a failed attempt wrote is published.
type Tx struct {
	*gorm.DB
	engine  engine
	locked  int64
	audited []tournament.AuditEntry
	// settings says the transaction changed a console setting or ended
	// a session, which the other servers must read again.
	settings bool
}

// lock takes the write lock of tournament tid until the transaction ends.
// Every change of a tournament takes it before it reads what it decides
// from (the versions, the progress, who sits where, whether the tournament
// is finished), so two changes of one tournament run one after the other
// and the second decides from what the first wrote, whichever servers they
// run on: the decisions made inside a write hold across servers as they
// hold in one.
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
	if tx.locked == tid {
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
		if err := checkOpen(tx.DB, tid); err != nil {
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
	if err := tx.Create(&row).Error; err != nil {
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

// tx runs fn in one write transaction and wraps its error with what. Every
// audit entry written in it is handed to the after-commit hook once the
// transaction has committed, and on PostgreSQL told to the other servers
// by the notices it sends as it commits (notify.go).
//
// On PostgreSQL a transaction the server aborted to break a deadlock or a
// serialization failure is run again, up to maxAttempts times: fn must
// start from its arguments each time, not from what an earlier attempt
// left in them.
func (s *Store) tx(ctx context.Context, what string, fn func(tx *Tx) error) error {
	if s.writer != nil {
		select {
		case s.writer <- struct{}{}:
			defer func() { <-s.writer }()
		case <-ctx.Done():
			return wrap(what, ctx.Err())
		}
	}
	var tx *Tx
	var err error
	for attempt := 1; ; attempt++ {
		tx = &Tx{engine: s.engine}
		err = s.db.WithContext(ctx).Transaction(func(db *gorm.DB) error {
			tx.DB = db
			if err := fn(tx); err != nil {
				return err
			}
			return tx.notify(s.server)
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
	if s.afterCommit != nil {
		for _, e := range tx.audited {
			s.afterCommit(e)
		}
	}
	return nil
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
