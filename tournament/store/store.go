// Package store keeps tournaments in SQLite through gorm, behind the
// tournament.Store interface. Row types live here and are mapped to the
// domain types explicitly; nothing above this package imports gorm.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/catanjudge/catanjudge/tournament"
)

// Store is the SQLite implementation of tournament.Store.
type Store struct {
	db          *gorm.DB
	afterCommit func(tournament.AuditEntry)
	// writer admits one write transaction of this process at a time. SQLite
	// allows one writer anyway, and its busy handler retries by polling
	// rather than queueing, so under load one judge's saves could starve
	// another's into a timeout; a Go queue is fair. The busy timeout still
	// covers other processes (a backup command).
	writer chan struct{}
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

// pragmas are the connection settings every connection gets (the mattn
// driver applies them per connection, which matters for foreign_keys).
var pragmas = [][2]string{
	{"_foreign_keys", "on"},
	{"_journal_mode", "WAL"},
	// Writers wait for each other instead of failing at once.
	{"_busy_timeout", "5000"},
	// FULL syncs the WAL on every commit: a power cut at the venue must not
	// lose a result the judge saw saved; NORMAL may lose the last commits.
	{"_synchronous", "FULL"},
	// BEGIN IMMEDIATE takes the write lock when a transaction starts, so a
	// read-then-write transaction (the result version check) waits for a
	// concurrent writer rather than failing with SQLITE_BUSY mid-way.
	{"_txlock", "immediate"},
}

// models is the schema, migrated in this order.
var models = []any{
	&tournamentRow{},
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
	&clockEventRow{},
	&auditRow{},
	&settingRow{},
	&endedSessionRow{},
}

// FileDSN returns the DSN of the database file catanjudge.db in dir, creating
// dir and the file readable by their owner only (they hold the judge
// password hash).
func FileDSN(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create data folder: %w", err)
	}
	path := DatabaseFile(dir)
	if err := privateDatabase(path); err != nil {
		return "", err
	}
	return withPragmas(path), nil
}

// withPragmas adds the pragmas the DSN does not set itself.
func withPragmas(dsn string) string {
	path, query, _ := strings.Cut(dsn, "?")
	params, err := url.ParseQuery(query)
	if err != nil {
		params = url.Values{}
	}
	for _, p := range pragmas {
		if !params.Has(p[0]) {
			params.Set(p[0], p[1])
		}
	}
	return path + "?" + params.Encode()
}

// Open opens (creating if needed) the SQLite database at dsn, a file path or
// file: URI, with the store's pragmas added, and migrates the schema.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	db, err := gorm.Open(sqlite.Open(withPragmas(dsn)), &gorm.Config{
		TranslateError: true,
		Logger:         logger.Discard,
		NowFunc:        func() time.Time { return time.Now().UTC() },
	})
	if err != nil {
		if damaged(err) {
			err = fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		return nil, fmt.Errorf("open database %s: %w", databasePath(dsn), err)
	}
	s := &Store{db: db, writer: make(chan struct{}, 1)}
	for _, o := range opts {
		o(s)
	}
	// A damaged file is refused here, with what to do about it, rather
	// than found page by page by the judges.
	if err := s.Check(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open database %s: %w", databasePath(dsn), err)
	}
	var fk int
	if err := db.WithContext(ctx).Raw("PRAGMA foreign_keys").Scan(&fk).Error; err != nil {
		s.Close()
		return nil, fmt.Errorf("open database: %w", err)
	}
	if fk != 1 {
		s.Close()
		return nil, errors.New("open database: foreign keys are off; do not set _foreign_keys in the DSN")
	}
	if err := db.WithContext(ctx).AutoMigrate(models...); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrate database: %w", err)
	}
	return s, nil
}

// ErrDamaged is a database file SQLite cannot read whole: not a database,
// or with pages that do not hold what they should.
var ErrDamaged = errors.New("the database is damaged or is not a Catan Judge database; stop the server and put the latest backup in its place (README, Backups)")

// Check implements tournament.Store with SQLite's quick_check, which reads
// every page of the file and checks its structure (not the indexes against
// the tables): an error wraps ErrDamaged and says what SQLite found.
func (s *Store) Check(ctx context.Context) error {
	var rows []string
	err := s.db.WithContext(ctx).Raw("PRAGMA quick_check(5)").Scan(&rows).Error
	switch {
	case err != nil && damaged(err):
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	case err != nil:
		return fmt.Errorf("check database: %w", err)
	case len(rows) != 1 || rows[0] != "ok":
		return fmt.Errorf("%w: %s", ErrDamaged, strings.Join(rows, "; "))
	}
	return nil
}

// damaged reports an error of SQLite's that says the file is not a sound
// database.
func damaged(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}

// databasePath is the file a DSN names, for messages.
func databasePath(dsn string) string {
	path, _, _ := strings.Cut(dsn, "?")
	return strings.TrimPrefix(path, "file:")
}

// Close closes the database.
func (s *Store) Close() error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// tx runs fn in one transaction and wraps its error with what.
// Every audit entry written in it is handed to the after-commit hook once
// the transaction has committed.
func (s *Store) tx(ctx context.Context, what string, fn func(tx *gorm.DB) error) error {
	select {
	case s.writer <- struct{}{}:
		defer func() { <-s.writer }()
	case <-ctx.Done():
		return wrap(what, ctx.Err())
	}
	var audited []tournament.AuditEntry
	ctx = context.WithValue(ctx, auditedKey{}, &audited)
	if err := s.db.WithContext(ctx).Transaction(fn); err != nil {
		return wrap(what, err)
	}
	if s.afterCommit != nil {
		for _, e := range audited {
			s.afterCommit(e)
		}
	}
	return nil
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

// auditedKey keys, in a transaction's context, the audit entries it wrote.
type auditedKey struct{}

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
	if row.ClosedAt != nil {
		return tournament.Conflict("tournament-finished",
			fmt.Sprintf("tournament %d was closed by %s at %s; reopen it to change anything", tid, row.ClosedBy, row.ClosedAt.Format(time.RFC3339)),
			map[string]any{"Judge": row.ClosedBy, "At": row.ClosedAt.Local().Format("15:04")})
	}
	return nil
}

// notFound is the error for a missing row of kind with id.
func notFound(kind string, id any) error {
	return fmt.Errorf("%s %v: %w", kind, id, tournament.ErrNotFound)
}

// audit writes c as an audit entry of tournament tid inside tx. Every
// change of a tournament passes here in the transaction that writes it, so
// this is where a finished tournament refuses every change but its closing
// and reopening (tournament.Store).
func audit(tx *gorm.DB, tid int64, c tournament.Change) error {
	if c.Judge == "" || c.Action == "" {
		return fmt.Errorf("%w: a change needs a judge and an action", tournament.ErrInvalid)
	}
	if tid != 0 && c.Action != tournament.ActionClose && c.Action != tournament.ActionReopen {
		if err := checkOpen(tx, tid); err != nil {
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
	if audited, ok := tx.Statement.Context.Value(auditedKey{}).(*[]tournament.AuditEntry); ok {
		*audited = append(*audited, row.entry())
	}
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

// GetSetting implements tournament.Store.
func (s *Store) GetSetting(ctx context.Context, key string) (string, error) {
	var r settingRow
	if err := s.db.WithContext(ctx).Where("key = ?", key).Take(&r).Error; err != nil {
		return "", wrap("setting "+key, err)
	}
	return r.Value, nil
}

// SetSetting implements tournament.Store.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	if key == "" {
		return fmt.Errorf("set setting: %w: empty key", tournament.ErrInvalid)
	}
	return wrap("set setting "+key, s.db.WithContext(ctx).Save(&settingRow{Key: key, Value: value}).Error)
}

// DeleteSetting implements tournament.Store.
func (s *Store) DeleteSetting(ctx context.Context, key string) error {
	return wrap("delete setting "+key, s.db.WithContext(ctx).Where("key = ?", key).Delete(&settingRow{}).Error)
}

// EndSession implements tournament.Store. Sessions whose cookies have
// expired are forgotten at the same time: they are refused anyway.
func (s *Store) EndSession(ctx context.Context, id string, expires time.Time) error {
	if id == "" {
		return fmt.Errorf("end session: %w: empty id", tournament.ErrInvalid)
	}
	return s.tx(ctx, "end session", func(tx *gorm.DB) error {
		if err := tx.Where("expires < ?", time.Now().UTC()).Delete(&endedSessionRow{}).Error; err != nil {
			return err
		}
		return tx.Save(&endedSessionRow{ID: id, Expires: expires.UTC()}).Error
	})
}

// EndedSessions implements tournament.Store.
func (s *Store) EndedSessions(ctx context.Context, now time.Time) (map[string]time.Time, error) {
	var rows []endedSessionRow
	if err := s.db.WithContext(ctx).Where("expires >= ?", now.UTC()).Find(&rows).Error; err != nil {
		return nil, wrap("ended sessions", err)
	}
	out := make(map[string]time.Time, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Expires
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
