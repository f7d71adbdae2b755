package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/mattn/go-sqlite3"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

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

// openSQLite opens the SQLite database at dsn, a file path or file: URI,
// with the store's pragmas added, refusing a damaged file.
func openSQLite(ctx context.Context, dsn string) (*Store, error) {
	db, err := gorm.Open(sqlite.Open(withPragmas(dsn)), gormConfig())
	if err != nil {
		if damaged(err) {
			err = fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		return nil, fmt.Errorf("open database %s: %w", databasePath(dsn), err)
	}
	s := &Store{db: db, engine: engineSQLite, writer: make(chan struct{}, 1), path: databasePath(dsn)}
	if err := registerFaults(db); err != nil {
		s.Close()
		return nil, err
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
	return s, nil
}

// ErrDamaged is a database file SQLite cannot read whole: not a database,
// or with pages that do not hold what they should.
var ErrDamaged = errors.New("the database is damaged or is not a Catan Judge database; stop the server and put the latest backup in its place (README, Backups)")

// Check implements tournament.Store. On SQLite it runs quick_check, which
// reads every page of the file and checks its structure (not the indexes
// against the tables): an error wraps ErrDamaged and says what SQLite
// found. On PostgreSQL, whose server keeps its files sound itself, it
// checks that the database answers. On both it reports a disk full
// (tournament.ErrNoSpace): the last write refused for lack of space, or
// on SQLite too little space left beside the file (checkSpace).
func (s *Store) Check(ctx context.Context) error {
	if s.engine == enginePostgres {
		return s.checkPostgres(ctx)
	}
	if err := s.checkSpace(); err != nil {
		return err
	}
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
