package tournamenttest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/store/pgtest"
)

// The tests of the store, the service and the scenarios run on both
// engines. NewStore opens SQLite, unless CATANJUDGE_TEST_DATABASE is
// "postgres": then each test gets a database of its own in one throwaway
// PostgreSQL cluster per test binary (pgtest), which Main stops after the
// tests. make test runs those packages once more that way.
//
// Without PostgreSQL installed, its tests are skipped, unless
// CATANJUDGE_REQUIRE_POSTGRES is 1 (CI sets it): then they fail.
const (
	envDatabase        = "CATANJUDGE_TEST_DATABASE"
	envRequirePostgres = "CATANJUDGE_REQUIRE_POSTGRES"
)

// OnPostgres reports whether NewStore opens PostgreSQL databases.
func OnPostgres() bool { return os.Getenv(envDatabase) == "postgres" }

var cluster struct {
	sync.Mutex
	main    bool // Main runs the tests: it stops the cluster after them
	c       *pgtest.Cluster
	err     error
	started bool
	n       atomic.Int64 // databases made
	// template is a database with the schema migrated, which every new
	// database copies: migrating each would cost a test a second.
	template string
}

// Main runs the tests of a package that uses PostgreSQL (NewStore on
// PostgreSQL, Postgres) and stops the cluster after them; such a
// package's TestMain is:
//
//	func TestMain(m *testing.M) { tournamenttest.Main(m) }
func Main(m *testing.M) {
	cluster.main = true
	if OnPostgres() {
		if _, err := pgtest.Find(); err != nil {
			if os.Getenv(envRequirePostgres) == "1" {
				fmt.Fprintf(os.Stderr, "%s=postgres and %s=1: %v\n", envDatabase, envRequirePostgres, err)
				os.Exit(1)
			}
			fmt.Printf("skipping the tests on PostgreSQL: %v\n", err)
			os.Exit(0)
		}
	}
	code := m.Run()
	cluster.Lock()
	if cluster.c != nil {
		if err := cluster.c.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop the PostgreSQL cluster:", err)
			code = max(code, 1)
		}
	}
	cluster.Unlock()
	os.Exit(code)
}

// Postgres returns the test binary's PostgreSQL cluster, starting it at
// the first call. It skips the test when PostgreSQL is not installed,
// unless CATANJUDGE_REQUIRE_POSTGRES is 1.
func Postgres(t testing.TB) *pgtest.Cluster {
	t.Helper()
	cluster.Lock()
	defer cluster.Unlock()
	if !cluster.main {
		t.Fatal("a test that uses PostgreSQL needs TestMain to call tournamenttest.Main, which stops the cluster")
	}
	if !cluster.started {
		cluster.started = true
		cluster.c, cluster.err = pgtest.Start(context.Background())
		if cluster.err == nil {
			cluster.template, cluster.err = migratedTemplate(cluster.c)
		}
	}
	switch {
	case errors.Is(cluster.err, pgtest.ErrMissing) && os.Getenv(envRequirePostgres) != "1":
		t.Skip(cluster.err)
	case cluster.err != nil:
		t.Fatal(cluster.err)
	}
	return cluster.c
}

// migratedTemplate makes the database every test's database copies.
func migratedTemplate(c *pgtest.Cluster) (string, error) {
	ctx := context.Background()
	const name = "catanjudge_template"
	dsn, err := c.CreateDatabase(ctx, name, "")
	if err != nil {
		return "", err
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return "", err
	}
	return name, st.Close()
}

// NewDSN returns the DSN of a new database on the tests' engine, with
// the schema migrated and no rows: an SQLite file in t.TempDir(), or a
// database of its own in the PostgreSQL cluster, dropped when the test
// ends. Both copy a database migrated once per test binary: migrating
// each costs a test 0.7 s under the race detector, copying the file 8 ms.
// A migration from nothing is still what every server's first start
// does (the browser and command tests) and what the store's migration
// tests open themselves.
func NewDSN(t testing.TB) string {
	t.Helper()
	if OnPostgres() {
		return NewPostgresDSN(t)
	}
	image, err := sqliteTemplate()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(store.DatabaseFile(dir), image, 0o600); err != nil {
		t.Fatal(err)
	}
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}

// sqliteTemplate returns the bytes of an SQLite database file with the
// schema migrated, made at the first call in a folder removed after.
var sqliteTemplate = sync.OnceValues(migratedSQLite)

func migratedSQLite() ([]byte, error) {
	dir, err := os.MkdirTemp("", "catanjudge-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	dsn, err := store.FileDSN(dir)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	// The last connection's close checkpoints the write-ahead log into
	// the file and removes it: a log left over holds schema the file's
	// copy would lack.
	path := store.DatabaseFile(dir)
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the migrated template %s kept its write-ahead log after closing (%v)", path, err)
	}
	return os.ReadFile(path)
}

// NewPostgresDSN returns the URL of a new database in the cluster
// (Postgres), with the schema migrated, dropped when the test ends.
func NewPostgresDSN(t testing.TB) string {
	t.Helper()
	c := Postgres(t)
	name := fmt.Sprintf("test_%d", cluster.n.Add(1))
	dsn, err := c.CreateDatabase(context.Background(), name, cluster.template)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.DropDatabase(context.Background(), name); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	return dsn
}

// OpenDSN opens a store on dsn, closed when the test ends. Two stores on
// one DSN are two servers on one database.
func OpenDSN(t testing.TB, dsn string, opts ...store.Option) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
