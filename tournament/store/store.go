// Package store keeps tournaments in SQLite or PostgreSQL through gorm,
// behind the tournament.Store interface. Row types live here and are mapped
// to the domain types explicitly; nothing above this package imports gorm.
//
// One Store serves both engines: the differences (opening, checking,
// backing up, locking, collation) are in sqlite.go and postgres.go, the
// schema's versions in migrate.go.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// Store is the implementation of tournament.Store on SQLite or PostgreSQL.
// It also keeps the console's settings and the sessions logged out (the
// web layer's Settings) and copies an SQLite database whole (Backup), which
// tournament.Store leaves out.
type Store struct {
	db          *gorm.DB
	engine      engine
	afterCommit func(tournament.AuditEntry)
	// onCommit are told of every change once committed, before
	// afterCommit (tournament.Store.OnCommit).
	onCommit []func(tournament.AuditEntry)
	// commits commits the writes in batches (commit.go): every write on
	// SQLite, the changes at tables on PostgreSQL.
	commits *committer
	// reader runs the reads that must see one moment of the database
	// (Event) on SQLite: its transactions begin DEFERRED, as readers of
	// the WAL that do not take the write lock. Nil on PostgreSQL.
	reader *gorm.DB
	// reads is the reader with its statements prepared and kept (stmts),
	// for the reads outside a transaction; nil on PostgreSQL.
	reads *gorm.DB
	// batches is the SQLite committer's own connection, whose statements
	// stay prepared from batch to batch: it begins and commits each batch
	// itself (commit.go). Nil on PostgreSQL.
	batches *gorm.DB
	// rulesets are the tournaments' copies of their rulesets, decoded,
	// by tournament ID: a copy never changes (Store.ruleset).
	rulesetsMu sync.Mutex
	rulesets   map[int64]referee.Ruleset
	// watcher catches up with the other writers of an SQLite file
	// (watch.go); nil on PostgreSQL.
	watcher *watcher
	// server names this store in the notices it sends other servers
	// (notify.go), and pgConfig is how the listener connects; both are
	// set on PostgreSQL only.
	server   string
	pgConfig *pgx.ConnConfig
	// path is the SQLite database's file, whose disk Check watches; full
	// says the last write was refused for lack of space (faults.go).
	path string
	full atomic.Bool
}

// engine is the database a Store runs on.
type engine int

const (
	engineSQLite engine = iota
	enginePostgres
)

func (e engine) String() string {
	if e == enginePostgres {
		return "PostgreSQL"
	}
	return "SQLite"
}

// Option configures a Store.
type Option func(*Store)

// WithAfterCommit has the store call fn with the audit entry of every change
// once its transaction has committed, and never for a change that did not:
// whoever fn tells (the live pages) hears of a change only once it is durable.
// fn runs on the writer's goroutine, so it must not block.
func WithAfterCommit(fn func(tournament.AuditEntry)) Option {
	return func(s *Store) { s.afterCommit = fn }
}

var _ tournament.Store = (*Store)(nil)

// models is the schema, migrated in this order: a table comes after the
// tables it refers to (Copy relies on it too).
var models = []any{
	&tournamentRow{},
	&personRow{},
	&playerRow{},
	&keepApartRow{},
	&roundRow{},
	&tableRow{},
	&tablePlayerRow{},
	&byeRow{},
	&amendmentRow{},
	&resultRow{},
	&scoreRow{},
	&penaltyRow{},
	&rulingRow{},
	&gameMoveRow{},
	&clockEventRow{},
	&auditRow{},
	&settingRow{},
	&endedSessionRow{},
	&reportRow{},
	&cardBatchRow{},
	&seasonRow{},
	&realNameRow{},
	&tournamentVersionRow{},
	&staffRow{},
	&callRow{},
	&deviceRow{},
	// Team events (schema version 22).
	&teamRow{},
	&teamMemberRow{},
	&lineupRow{},
}

// pgCommitters is how many batches of changes at tables one server
// commits at once on PostgreSQL.
const pgCommitters = 12

// IsPostgres reports whether dsn names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than an SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// gormConfig is the gorm configuration of both engines.
func gormConfig() *gorm.Config {
	return &gorm.Config{
		TranslateError: true,
		Logger:         logger.Discard,

		// PostgreSQL keeps microseconds: a time read back equals the one
		// written on either engine.
		NowFunc: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
	}
}

// Open opens the database dsn names and migrates its schema (migrate.go):
// a postgres:// URL opens that PostgreSQL database, anything else the
// SQLite file at that path or file: URI (created if needed, with the
// store's pragmas added). A damaged SQLite file is refused (ErrDamaged).
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	s, err := openEngine(ctx, dsn)
	if err != nil {
		return nil, err
	}
	for _, o := range opts {
		o(s)
	}
	// One committer on SQLite, its one writer; on PostgreSQL several, so
	// that a batch's statements run while another's commit is flushed.
	committers := 1
	if s.engine == enginePostgres {
		committers = pgCommitters
	}
	s.commits = newCommitter(s, committers)
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if s.engine == engineSQLite {
		if err := s.watch(ctx); err != nil {
			s.Close()
			return nil, fmt.Errorf("open database: %w", err)
		}
	}
	return s, nil
}

// openEngine opens the database dsn names on its engine, unmigrated.
func openEngine(ctx context.Context, dsn string) (*Store, error) {
	if IsPostgres(dsn) {
		return openPostgres(ctx, dsn)
	}
	return openSQLite(ctx, dsn)
}

// Engine names the database the store runs on: "SQLite" or "PostgreSQL".
func (s *Store) Engine() string { return s.engine.String() }

// OnCommit implements tournament.Store.
func (s *Store) OnCommit(fn func(tournament.AuditEntry)) { s.onCommit = append(s.onCommit, fn) }

// Close waits for the writes under way and closes the database.
func (s *Store) Close() error {
	if s.commits != nil {
		s.commits.close()
	}
	if s.watcher != nil {
		s.watcher.conn.Close()
	}
	if s.batches != nil {
		if st, ok := s.batches.Statement.ConnPool.(*stmts); ok {
			st.close()
			if conn, ok := st.on.(*sql.Conn); ok {
				conn.Close()
			}
		}
	}
	if s.reads != nil {
		if st, ok := s.reads.Statement.ConnPool.(*stmts); ok {
			st.close()
		}
	}
	if s.reader != nil {
		if sqlDB, err := s.reader.DB(); err == nil {
			sqlDB.Close()
		}
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Progress implements tournament.Store.
func (s *Store) Progress(ctx context.Context, tournamentID int64) (tournament.Progress, error) {
	p, err := progressOf(s.db.WithContext(ctx), tournamentID)
	return p, wrap(fmt.Sprintf("progress of tournament %d", tournamentID), err)
}

// progressOf reads a tournament's progress (tournament.Progress), inside a
// transaction when db is one.
func progressOf(db *gorm.DB, tournamentID int64) (tournament.Progress, error) {
	var p tournament.Progress
	var last []roundRow
	if err := db.Where("tournament_id = ?", tournamentID).Order("number DESC").Limit(1).Find(&last).Error; err != nil {
		return p, err
	}
	if len(last) == 0 {
		return p, nil
	}
	var n int64
	if err := db.Model(&roundRow{}).Where("tournament_id = ?", tournamentID).Count(&n).Error; err != nil {
		return p, err
	}
	p.Paired = int(n)
	started, err := roundStarted(db, last[0].ID)
	if err != nil {
		return p, err
	}
	p.Started = started
	err = db.Model(&clockEventRow{}).
		Where("round_id IN (SELECT id FROM rounds WHERE tournament_id = ?)", tournamentID).Count(&n).Error
	p.Clocked = n > 0
	return p, err
}

// roundStarted reports whether a table of the round has a seating or a
// result, or the round's clock an event.
func roundStarted(db *gorm.DB, roundID int64) (bool, error) {
	var n int64
	if err := db.Model(&tableRow{}).Where("round_id = ? AND seating <> ''", roundID).Count(&n).Error; err != nil || n > 0 {
		return n > 0, err
	}
	err := db.Model(&resultRow{}).Where("table_id IN (SELECT id FROM round_tables WHERE round_id = ?)", roundID).Count(&n).Error
	if err != nil || n > 0 {
		return n > 0, err
	}
	err = db.Model(&clockEventRow{}).Where("round_id = ?", roundID).Count(&n).Error
	return n > 0, err
}

// checkProgress refuses a change decided from the tournament's progress
// want (nil for a change that does not depend on it) when the tournament
// has moved on: a round was paired or started by another judge meanwhile.
func checkProgress(tx *gorm.DB, tournamentID int64, want *tournament.Progress) error {
	if want == nil {
		return nil
	}
	got, err := progressOf(tx, tournamentID)
	if err != nil {
		return err
	}
	if got != *want {
		return tournament.Conflict("tournament-progressed",
			fmt.Sprintf("the tournament moved on since the change was decided: %+v, not %+v", got, *want),
			map[string]any{"Paired": got.Paired})
	}
	return nil
}

// wrap translates a gorm error into the tournament errors, with context.
func wrap(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, tournament.ErrNotFound), errors.Is(err, tournament.ErrConflict), errors.Is(err, tournament.ErrInvalid):
		var ce *tournament.ConflictError
		if errors.As(err, &ce) {
			return err
		}
		return fmt.Errorf("%s: %w", what, err)
	case errors.Is(err, gorm.ErrRecordNotFound):
		return fmt.Errorf("%s: %w", what, tournament.ErrNotFound)
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return fmt.Errorf("%s: %w", what, tournament.Conflict("already-recorded", "already recorded", nil))
	case errors.Is(err, gorm.ErrForeignKeyViolated):
		return fmt.Errorf("%s: %w", what, tournament.Invalid("missing-reference", "refers to a missing row or is still referred to", nil))
	}
	return fmt.Errorf("%s: %w", what, err)
}

// checkOpen reports the Conflict tournament-finished when tournament tid
// is closed.
func checkOpen(tx *gorm.DB, tid int64) error {
	var row tournamentRow
	if err := tx.Select("id", "closed_at", "closed_by").Take(&row, tid).Error; err != nil {
		return err
	}
	return openErr(tid, row.ClosedAt, row.ClosedBy)
}

// openErr is the Conflict tournament-finished of tournament tid closed at
// closedAt by closedBy; nil while it is open (closedAt nil).
func openErr(tid int64, closedAt *time.Time, closedBy string) error {
	if closedAt != nil {
		return tournament.Conflict("tournament-finished",
			fmt.Sprintf("tournament %d was closed by %s at %s; reopen it to change anything", tid, closedBy, closedAt.Format(time.RFC3339)),
			map[string]any{"Judge": closedBy, "At": closedAt.Local().Format("15:04")})
	}
	return nil
}

// notFound is the error for a missing row of kind with id.
func notFound(kind string, id any) error {
	return fmt.Errorf("%s %v: %w", kind, id, tournament.ErrNotFound)
}

// AuditLog implements tournament.Store.
func (s *Store) AuditLog(ctx context.Context, tournamentID int64) ([]tournament.AuditEntry, error) {
	var rows []auditRow
	q := s.db.WithContext(ctx).Order("id DESC")
	if tournamentID == 0 {
		q = q.Where("tournament_id IS NULL")
	} else {
		q = q.Where("tournament_id = ?", tournamentID)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, wrap("audit log", err)
	}
	out := make([]tournament.AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = r.entry()
	}
	return out, nil
}

func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func idOf(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}
