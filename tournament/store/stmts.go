package store

import (
	"context"
	"database/sql"
	"sync"
)

// stmts runs the statements of gorm on a pool or one connection of
// SQLite's with each statement prepared once and kept: the reader and the
// committer run the same few dozen statements over and over, and
// preparing one again each time cost SQLite as much as running it. (It is
// gorm's prepared statements without their expiry, whose goroutine would
// outlive the store.) A statement prepared on a pool is prepared again on
// each of its connections once, by database/sql.
type stmts struct {
	on interface {
		PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
	}
	db *sql.DB // the pool the statements run on, or the one of the connection
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxStmts bounds the statements kept: beyond it (reads of many IN lists
// of different lengths) they are all closed and prepared again as needed.
const maxStmts = 512

func newStmts(on interface {
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}, db *sql.DB) *stmts {
	return &stmts{on: on, db: db, m: map[string]*sql.Stmt{}}
}

func (s *stmts) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.m[query]; ok {
		return st, nil
	}
	if len(s.m) >= maxStmts {
		s.closeLocked()
	}
	st, err := s.on.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		return nil, err
	}
	s.m[query] = st
	return st, nil
}

func (s *stmts) closeLocked() {
	for q, st := range s.m {
		st.Close()
		delete(s.m, q)
	}
}

// close closes the statements kept.
func (s *stmts) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

// PrepareContext implements gorm.ConnPool.
func (s *stmts) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return s.on.PrepareContext(ctx, query)
}

// ExecContext implements gorm.ConnPool.
func (s *stmts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// QueryContext implements gorm.ConnPool.
func (s *stmts) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext implements gorm.ConnPool.
func (s *stmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := s.stmt(ctx, query)
	if err != nil {
		// A Row carries its error only from database/sql itself: run the
		// query unprepared, which reports it.
		return s.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// GetDBConn returns the pool, for gorm.DB.DB.
func (s *stmts) GetDBConn() (*sql.DB, error) { return s.db, nil }
