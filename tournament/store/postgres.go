package store

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// maxConns bounds the connections one server opens to PostgreSQL. Its
// default max_connections is 100: three servers of one event stay well
// under it with room for psql and pg_dump. A request waits for a free
// connection (or its context) rather than failing.
const maxConns = 20

// openPostgres opens the PostgreSQL database of the URL dsn (pgx through
// database/sql). Times come back in UTC, as SQLite gives them.
func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("database URL %s: %w", Redact(dsn), err)
	}
	sqlDB := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(func(_ context.Context, c *pgx.Conn) error {
		c.TypeMap().RegisterType(&pgtype.Type{Name: "timestamptz", OID: pgtype.TimestamptzOID,
			Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC}})
		return nil
	}))
	sqlDB.SetMaxOpenConns(maxConns)
	sqlDB.SetMaxIdleConns(maxConns)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	db, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), gormConfig())
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open database %s: %w", Redact(dsn), err)
	}
	s := &Store{db: db, engine: enginePostgres, server: newServerID(), pgConfig: cfg}
	if err := registerFaults(db); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.checkPostgres(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open database %s: %w", Redact(dsn), err)
	}
	return s, nil
}

// checkPostgres reports a PostgreSQL server that does not answer, or the
// last write refused for lack of space.
func (s *Store) checkPostgres(ctx context.Context) error {
	if err := s.checkSpace(); err != nil {
		return err
	}
	var one int
	if err := s.db.WithContext(ctx).Raw("SELECT 1").Scan(&one).Error; err != nil {
		return fmt.Errorf("check database: %w", err)
	}
	return nil
}

// Redact is a database URL without its password, for messages and logs.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(a database URL that does not parse)"
	}
	return u.Redacted()
}

// byCodePoint is column in an ORDER BY that sorts by code point, as SQLite
// compares text, whatever collation the PostgreSQL database was created with.
func (e engine) byCodePoint(column string) string {
	if e == enginePostgres {
		return column + ` COLLATE "C"`
	}
	return column
}
