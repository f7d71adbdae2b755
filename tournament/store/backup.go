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

// Backup implements tournament.Store with VACUUM INTO: the copy is made in
// one read transaction, so it holds every save committed before it began
// and none after, whole, while the judges keep saving (WAL readers do not
// block writers). The copy is a compact database file that store.Open
// opens as it is.
//
// path must not exist: Backup never overwrites a file. The copy is created
// readable by its owner only, like the database, and synced to disk before
// Backup returns.
func (s *Store) Backup(ctx context.Context, path string) error {
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
