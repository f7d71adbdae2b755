package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/catanjudge/catanjudge/tournament"
)

// Backup implements tournament.Backuper. On SQLite it runs VACUUM INTO: the copy is made in
// one read transaction, so it holds every save committed before it began
// and none after, whole, while the judges keep saving (WAL readers do not
// block writers). The copy is a compact database file that store.Open
// opens as it is.
//
// path must not exist: Backup never overwrites a file. The copy is created
// readable by its owner only, like the database, and synced to disk before
// Backup returns.
//
// A PostgreSQL database is backed up by its server's own tool, pg_dump,
// which copies it as consistently while the judges save: Backup refuses,
// with the violation backup-with-pg-dump, which says so in the judge's
// language, and writes nothing.
func (s *Store) Backup(ctx context.Context, path string) error {
	if s.engine == enginePostgres {
		return fmt.Errorf("backup to %s: %w", path, backupWithPgDump())
	}
	// An absolute path keeps SQLite from reading a name like "file:x" as a URI.
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	// SQLite writes VACUUM INTO over an empty file, keeping its mode: creating
	// it here with O_EXCL both refuses an existing file and sets 0600.
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("backup to %s: %w: the file already exists", path, tournament.ErrConflict)
	}
	if err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	if err := s.db.WithContext(ctx).Exec("VACUUM INTO ?", abs).Error; err != nil {
		os.Remove(abs)
		return wrap("backup to "+path, err)
	}
	if err := syncFile(abs); err != nil {
		os.Remove(abs)
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}

// syncFile flushes a file and its directory entry to disk: VACUUM INTO
// leaves syncing the copy to the operating system.
func syncFile(path string) error {
	for _, p := range []string{path, filepath.Dir(path)} {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// PgDumpHint is how to back up the PostgreSQL database of a server, as
// README's Backups section shows it.
const PgDumpHint = "pg_dump --format=custom --file catanjudge.dump \"$CATANJUDGE_DATABASE\" (README, Backups)"

// backupWithPgDump is the error of a backup asked of a PostgreSQL
// database: a violation wrapping tournament.ErrInvalid, which the web
// layer says in the judge's language, telling what to do instead.
func backupWithPgDump() error {
	return tournament.Invalid("backup-with-pg-dump",
		"this server keeps its data in PostgreSQL, which is backed up with pg_dump: "+PgDumpHint, nil)
}
