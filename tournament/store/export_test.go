package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Pragma returns the value of a pragma on one of s's connections.
func Pragma(s *Store, name string) (string, error) {
	var v string
	err := s.db.WithContext(context.Background()).Raw("PRAGMA " + name).Scan(&v).Error
	return v, err
}

// SetRulesetCopy overwrites tournament id's stored copy of its ruleset, as
// an older version of the program wrote it.
func SetRulesetCopy(s *Store, id int64, text string) error {
	return s.db.WithContext(context.Background()).Model(&tournamentRow{}).Where("id = ?", id).Update("ruleset", text).Error
}

// RecordMigration records migration version as applied, as a newer
// program would.
func RecordMigration(s *Store, version int, name string) error {
	return s.db.Create(&migrationRow{Version: version, Name: name, AppliedAt: time.Now()}).Error
}

// Exec runs one statement on s's database.
func Exec(s *Store, sql string) error { return s.db.Exec(sql).Error }

// SetListenTimings sets how long the listener waits on a quiet connection
// and the first pause before it connects again, until the test ends.
func SetListenTimings(t interface{ Cleanup(func()) }, idle, first time.Duration) {
	oldIdle, oldFirst := listenIdle, reconnectFirst
	listenIdle, reconnectFirst = idle, first
	t.Cleanup(func() { listenIdle, reconnectFirst = oldIdle, oldFirst })
}

// MigrationVersions lists the versions of the migration steps, in order.
func MigrationVersions() []int {
	out := make([]int, len(migrations))
	for i, m := range migrations {
		out[i] = m.version
	}
	return out
}

// Count counts the rows of a table.
func Count(s *Store, table string) (int64, error) {
	var n int64
	err := s.db.Table(table).Count(&n).Error
	return n, err
}

// LinkPeople gives every player without a person one, as migration step 8
// does.
func LinkPeople(s *Store) error {
	return s.db.Transaction(func(tx *gorm.DB) error { return linkPeople(tx) })
}

// OnPersonLocked has fn called, until the test ends, whenever a
// registration holds the lock of the person it links.
func OnPersonLocked(t interface{ Cleanup(func()) }, fn func(id int64)) {
	personLocked = fn
	t.Cleanup(func() { personLocked = nil })
}

// Waiting counts the locks PostgreSQL's transactions wait for.
func Waiting(s *Store) (int, error) {
	var n int
	err := s.db.Raw("SELECT COUNT(*) FROM pg_locks WHERE NOT granted").Scan(&n).Error
	return n, err
}

// WithTrace has the store call fn after each statement it runs, on every
// connection (the writer's, the committer's and the reader's), with its
// SQL and the rows it read or wrote.
func WithTrace(fn func(sql string, rows int64)) Option {
	return func(s *Store) {
		l := tracer(fn)
		for _, db := range []*gorm.DB{s.db, s.reader, s.reads, s.batches} {
			if db != nil {
				db.Config.Logger = l
			}
		}
	}
}

// tracer is a gorm logger that reports each statement's SQL and rows.
type tracer func(sql string, rows int64)

func (t tracer) LogMode(logger.LogLevel) logger.Interface      { return t }
func (t tracer) Info(context.Context, string, ...interface{})  {}
func (t tracer) Warn(context.Context, string, ...interface{})  {}
func (t tracer) Error(context.Context, string, ...interface{}) {}
func (t tracer) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	t(fc())
}

// RowCount counts the rows of a table of s's database.
func RowCount(s *Store, table string) (int64, error) {
	var n int64
	err := s.db.WithContext(context.Background()).Table(table).Count(&n).Error
	return n, err
}

// Queued is the number of writes waiting for a batch of s's committers.
func Queued(s *Store) int { return len(s.commits.jobs) }
