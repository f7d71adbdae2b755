package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// The faults of the database that are no request's doing (issue 24): a
// full disk, and a database that cannot be reached. Every statement's
// error is read as it happens (registerFaults) and reported as
// tournament.ErrNoSpace or tournament.ErrUnavailable, with the driver's
// error kept beside for the log, so that a page says which in the judge's
// language instead of a bare server error; and the store remembers a write
// refused for lack of space until one goes through, for /healthz (Check).

// fault reports err as the fault it is, if it is one.
func fault(err error) error {
	switch {
	case err == nil, errors.Is(err, tournament.ErrNoSpace), errors.Is(err, tournament.ErrUnavailable):
		return err
	case noSpace(err):
		return fmt.Errorf("%w: %w", tournament.ErrNoSpace, err)
	case unreachable(err):
		return fmt.Errorf("%w: %w", tournament.ErrUnavailable, err)
	}
	return err
}

// noSpace reports an error that says the disk is full: SQLite's
// SQLITE_FULL or a write that failed with ENOSPC, PostgreSQL's disk_full.
func noSpace(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrFull || se.SystemErrno == syscall.ENOSPC
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "53100"
	}
	return errors.Is(err, syscall.ENOSPC)
}

// unreachable reports an error that says the database cannot be reached:
// no connection to PostgreSQL (refused, closed, shutting down, or one of
// its connection exceptions, class 08), or an SQLite file that cannot be
// opened.
func unreachable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrCantOpen
	}
	var ce *pgconn.ConnectError
	var oe *net.OpError
	return errors.As(err, &ce) || errors.As(err, &oe) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || pgconn.Timeout(err)
}

// registerFaults has every statement of db report its error as a fault
// when it is one.
func registerFaults(db *gorm.DB) error {
	read := func(tx *gorm.DB) {
		if tx.Error != nil {
			tx.Error = fault(tx.Error)
		}
	}
	cb := db.Callback()
	for _, r := range []interface {
		Register(name string, fn func(*gorm.DB)) error
	}{cb.Create(), cb.Query(), cb.Update(), cb.Delete(), cb.Row(), cb.Raw()} {
		if err := r.Register("catanjudge:fault", read); err != nil {
			return err
		}
	}
	return nil
}

// wrote records the outcome of a write transaction: a write refused for
// lack of space is remembered until a write goes through.
func (s *Store) wrote(err error) {
	switch {
	case err == nil:
		s.full.Store(false)
	case errors.Is(err, tournament.ErrNoSpace):
		s.full.Store(true)
	}
}

// lowSpace is the free space under which the disk of an SQLite database
// counts as full: a commit needs little, but SQLite's checkpoints grow the
// file, and the next saves would fail.
const lowSpace = 8 << 20

// checkSpace reports tournament.ErrNoSpace when the last write was refused
// for lack of space (on either engine), or when the disk of an SQLite
// database has less than lowSpace free.
func (s *Store) checkSpace() error {
	if s.full.Load() {
		return fmt.Errorf("%w: the last write was refused for lack of space", tournament.ErrNoSpace)
	}
	if s.path == "" {
		return nil
	}
	if free, ok := freeSpace(s.path); ok && free < lowSpace {
		return fmt.Errorf("%w: %d bytes free beside %s", tournament.ErrNoSpace, free, s.path)
	}
	return nil
}
