package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DatabaseFile returns the path of the database file in the data folder dir.
func DatabaseFile(dir string) string { return filepath.Join(dir, "catanjudge.db") }

// privateDatabase makes the database file at path readable by its owner
// only, whatever the umask: it holds the judge password hash and the
// session keys. A missing file is created empty (SQLite takes an empty file
// as an empty database); SQLite then creates the -wal and -shm files with
// the database file's mode. Files left with wider modes by an earlier
// version lose their group and other permissions.
func privateDatabase(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create database file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("create database file: %w", err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("database file mode: %w", err)
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			if err := os.Chmod(p, perm&^0o077); err != nil {
				return fmt.Errorf("database file mode: %w", err)
			}
		}
	}
	return nil
}
