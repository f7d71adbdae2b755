package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"
)

// TableCopy is what CopyInto copied of one table.
type TableCopy struct {
	Table string
	Rows  int64 // rows in the source, and in the copy
}

// ErrNotEmpty is a database CopyInto refuses to copy into: it holds rows
// or tables already.
var ErrNotEmpty = errors.New("the target database is not empty")

// copyBatch is how many rows one read or one INSERT of CopyInto carries.
const copyBatch = 500

// CopyInto copies everything s holds, every row of every table (the
// tournaments, players, rounds, tables, result revisions and their scores,
// penalties, clock events, audit lines, the console's settings and the
// sessions logged out) with its ID, into the empty database dsn names (a
// PostgreSQL database, typically: catanjudge migrate), migrating its schema
// first. The copy is one transaction on the target: a failure leaves it
// empty. It then verifies the copy, table by table: the same number of
// rows and the same content, row by row in ID order, times to the
// microsecond (PostgreSQL keeps no finer time).
//
// The printable sheets of players' cards are not copied: they are sealed
// for 30 minutes with the servers' keys, and a judge prints them again.
//
// A target that holds rows, or tables this program did not make, is
// refused with ErrNotEmpty. s should not change meanwhile: stop the
// servers first (a change made during the copy fails the verification).
func (s *Store) CopyInto(ctx context.Context, dsn string) ([]TableCopy, error) {
	to, err := openEngine(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer to.Close()
	if err := to.checkNoOtherTables(ctx); err != nil {
		return nil, err
	}
	if err := to.migrate(ctx); err != nil {
		return nil, err
	}
	if err := to.checkEmpty(ctx); err != nil {
		return nil, err
	}
	var out []TableCopy
	err = to.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		out = nil
		for _, m := range copied() {
			n, err := s.copyTable(ctx, tx, m)
			if err != nil {
				return err
			}
			out = append(out, TableCopy{Table: tableName(m), Rows: n})
		}
		return to.engine.resetSequences(tx)
	})
	if err != nil {
		return nil, fmt.Errorf("copy: %w", err)
	}
	for _, m := range copied() {
		if err := verifyTable(ctx, s, to, m); err != nil {
			return out, fmt.Errorf("verify the copy: %w", err)
		}
	}
	return out, nil
}

// copied are the models CopyInto copies: all but the batches of players'
// cards. A batch is a print buffer of half an hour, sealed with a key
// derived from the session keys, which the servers on the new database do
// not share with the one the copy is made from (CATANJUDGE_SESSION_KEY
// against a data folder's own keys): a copy could never be printed, and
// would only carry players' codes, sealed, into one more database. A card
// lost meanwhile gets a new code.
func copied() []any {
	out := make([]any, 0, len(models))
	for _, m := range models {
		if _, cards := m.(*cardBatchRow); !cards {
			out = append(out, m)
		}
	}
	return out
}

// checkNoOtherTables refuses a database with tables this program did not
// make: it belongs to something else.
func (s *Store) checkNoOtherTables(ctx context.Context) error {
	tables, err := s.db.WithContext(ctx).Migrator().GetTables()
	if err != nil {
		return err
	}
	ours := map[string]bool{"schema_migrations": true}
	for _, m := range models {
		ours[tableName(m)] = true
	}
	var other []string
	for _, t := range tables {
		if !ours[t] && !strings.HasPrefix(t, "sqlite_") {
			other = append(other, t)
		}
	}
	if len(other) > 0 {
		slices.Sort(other)
		return fmt.Errorf("%w: it has tables Catan Judge did not make (%s); copy into a new, empty database", ErrNotEmpty, strings.Join(other, ", "))
	}
	return nil
}

// checkEmpty refuses a database whose tables hold a row.
func (s *Store) checkEmpty(ctx context.Context) error {
	var full []string
	for _, m := range models {
		var n int64
		if err := s.db.WithContext(ctx).Model(m).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			full = append(full, fmt.Sprintf("%s: %s", tableName(m), Rows(n)))
		}
	}
	if len(full) > 0 {
		return fmt.Errorf("%w: it holds %s; copy into a new, empty database, never over an event's data", ErrNotEmpty, strings.Join(full, ", "))
	}
	return nil
}

// copyTable copies the rows of model m from s into tx, in ID order and in
// batches, and returns how many it copied.
func (s *Store) copyTable(ctx context.Context, tx *gorm.DB, m any) (int64, error) {
	var n int64
	for offset := 0; ; offset += copyBatch {
		rows, err := readBatch(ctx, s.db, m, offset)
		if err != nil {
			return n, fmt.Errorf("read %s: %w", tableName(m), err)
		}
		if rows.Len() == 0 {
			return n, nil
		}
		for i := range rows.Len() {
			normalize(rows.Index(i))
		}
		ptr := reflect.New(rows.Type())
		ptr.Elem().Set(rows)
		if err := tx.Omit(clause.Associations).Create(ptr.Interface()).Error; err != nil {
			return n, fmt.Errorf("write %s: %w", tableName(m), err)
		}
		n += int64(rows.Len())
	}
}

// readBatch reads copyBatch rows of model m from offset on, in primary key
// order, as a slice of its row type.
func readBatch(ctx context.Context, db *gorm.DB, m any, offset int) (reflect.Value, error) {
	ptr := reflect.New(reflect.SliceOf(reflect.TypeOf(m).Elem()))
	err := db.WithContext(ctx).Model(m).Order(primaryKey(m)).Offset(offset).Limit(copyBatch).Find(ptr.Interface()).Error
	return ptr.Elem(), err
}

// verifyTable compares the rows of model m in from and to: the same count,
// and the same rows in primary key order.
func verifyTable(ctx context.Context, from, to *Store, m any) error {
	var nf, nt int64
	if err := from.db.WithContext(ctx).Model(m).Count(&nf).Error; err != nil {
		return err
	}
	if err := to.db.WithContext(ctx).Model(m).Count(&nt).Error; err != nil {
		return err
	}
	if nf != nt {
		return fmt.Errorf("%s: %d rows in the source, %d in the copy", tableName(m), nf, nt)
	}
	for offset := 0; int64(offset) < nf; offset += copyBatch {
		a, err := readBatch(ctx, from.db, m, offset)
		if err != nil {
			return err
		}
		b, err := readBatch(ctx, to.db, m, offset)
		if err != nil {
			return err
		}
		if a.Len() != b.Len() {
			return fmt.Errorf("%s: the source and the copy changed while they were compared", tableName(m))
		}
		for i := range a.Len() {
			ra, rb := a.Index(i), b.Index(i)
			normalize(ra)
			normalize(rb)
			if !reflect.DeepEqual(ra.Interface(), rb.Interface()) {
				return fmt.Errorf("%s: row %d differs: %s", tableName(m), offset+i+1, differences(ra, rb))
			}
		}
	}
	return nil
}

// normalize puts every time of the row v (a struct) in UTC, to the
// microsecond: what PostgreSQL keeps of a time.
func normalize(v reflect.Value) {
	timeType := reflect.TypeFor[time.Time]()
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Type() == timeType:
			f.Set(reflect.ValueOf(f.Interface().(time.Time).UTC().Truncate(time.Microsecond)))
		case f.Type() == reflect.PointerTo(timeType) && !f.IsNil():
			t := f.Elem().Interface().(time.Time).UTC().Truncate(time.Microsecond)
			f.Set(reflect.ValueOf(&t))
		}
	}
}

// differences names the fields in which the rows a and b differ, with
// their values in each.
func differences(a, b reflect.Value) string {
	var out []string
	for i := range a.NumField() {
		fa, fb := reflect.Indirect(a.Field(i)), reflect.Indirect(b.Field(i))
		if fa.IsValid() != fb.IsValid() || fa.IsValid() && !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
			out = append(out, fmt.Sprintf("%s %v in the source, %v in the copy", a.Type().Field(i).Name, value(fa), value(fb)))
		}
	}
	return strings.Join(out, "; ")
}

func value(v reflect.Value) any {
	if !v.IsValid() {
		return "NULL"
	}
	return v.Interface()
}

var schemas sync.Map

// parsed is model m's gorm schema.
func parsed(m any) *schema.Schema {
	sch, err := schema.Parse(m, &schemas, schema.NamingStrategy{})
	if err != nil {
		// The models are this package's own row types: they parse.
		panic(err)
	}
	return sch
}

func tableName(m any) string { return parsed(m).Table }

func primaryKey(m any) string { return parsed(m).PrioritizedPrimaryField.DBName }

// resetSequences moves the ID sequence of every table past the IDs copied
// in, so that the next row written gets a new one. SQLite's AUTOINCREMENT
// keeps track itself.
func (e engine) resetSequences(tx *gorm.DB) error {
	if e != enginePostgres {
		return nil
	}
	for _, m := range models {
		sch := parsed(m)
		pk := sch.PrioritizedPrimaryField
		if pk == nil || !pk.AutoIncrement {
			continue
		}
		err := tx.Exec(fmt.Sprintf("SELECT setval(pg_get_serial_sequence('%s', '%s'), COALESCE(MAX(%s), 0) + 1, false) FROM %s",
			sch.Table, pk.DBName, pk.DBName, sch.Table)).Error
		if err != nil {
			return fmt.Errorf("reset the IDs of %s: %w", sch.Table, err)
		}
	}
	return nil
}

// Rows says n rows: "1 row", "12 rows".
func Rows(n int64) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}
