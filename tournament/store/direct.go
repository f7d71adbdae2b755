package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"gorm.io/gorm"
)

// The statements every save runs (its table's lock, its version check,
// its rows and its audit line, and the read of its table's facts before
// it) go straight to the connection gorm holds, the transaction's or the
// pool's (with its statements prepared and kept, stmts), scanned into
// their variables by hand: profiled under 50 judges saving at once,
// gorm's building of each statement and its reflection over the rows cost
// more CPU than SQLite took to run them, and on SQLite the committer runs
// a batch's writes one after another. Their errors are translated as
// gorm translates its own (TranslateError: a unique index's refusal is
// gorm.ErrDuplicatedKey), so the callers read them alike.

// directQuery runs query (with ? for its arguments) on db's connection.
func directQuery(db *gorm.DB, query string, args ...any) (*sql.Rows, error) {
	rows, err := db.Statement.ConnPool.QueryContext(directCtx(db), bindVars(db, query), args...)
	return rows, translate(db, err)
}

// directScan runs query, a statement of one row, and scans it into dest.
// No row is gorm.ErrRecordNotFound, as gorm's Take says it.
func directScan(db *gorm.DB, query string, args []any, dest ...any) error {
	err := db.Statement.ConnPool.QueryRowContext(directCtx(db), bindVars(db, query), args...).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return gorm.ErrRecordNotFound
	}
	return translate(db, err)
}

// directExec runs query, a statement of no rows.
func directExec(db *gorm.DB, query string, args ...any) error {
	_, err := db.Statement.ConnPool.ExecContext(directCtx(db), bindVars(db, query), args...)
	return translate(db, err)
}

// directRows scans every row of rows with scan, then closes them.
func directRows(db *gorm.DB, rows *sql.Rows, scan func() error) error {
	defer rows.Close()
	for rows.Next() {
		if err := scan(); err != nil {
			return translate(db, err)
		}
	}
	return translate(db, rows.Err())
}

func directCtx(db *gorm.DB) context.Context {
	if ctx := db.Statement.Context; ctx != nil {
		return ctx
	}
	return context.Background()
}

// bindVars writes query's ? as PostgreSQL's $1, $2, ... on PostgreSQL.
// The queries it is given hold no ? but their arguments'.
func bindVars(db *gorm.DB, query string) string {
	if db.Dialector.Name() != "postgres" || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := range len(query) {
		if query[i] != '?' {
			b.WriteByte(query[i])
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// translate turns a driver's error into gorm's, as gorm does with
// TranslateError.
func translate(db *gorm.DB, err error) error {
	if err == nil {
		return nil
	}
	if t, ok := db.Dialector.(gorm.ErrorTranslator); ok {
		return t.Translate(err)
	}
	return err
}
