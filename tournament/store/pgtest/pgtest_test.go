package pgtest_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/catanjudge/catanjudge/tournament/store/pgtest"
)

// A cluster starts, takes a database, answers on it, and leaves nothing
// behind when stopped.
func TestCluster(t *testing.T) {
	ctx := context.Background()
	c, err := pgtest.Start(ctx)
	if errors.Is(err, pgtest.ErrMissing) && os.Getenv("CATANJUDGE_REQUIRE_POSTGRES") != "1" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	url, err := c.CreateDatabase(ctx, "one", "")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := conn.QueryRow(ctx, "SELECT current_database()").Scan(&got); err != nil || got != "one" {
		t.Errorf("current_database() = %q, %v; want one", got, err)
	}
	conn.Close(ctx)
	if err := c.DropDatabase(ctx, "one"); err != nil {
		t.Error(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.Connect(ctx, url); err == nil {
		t.Error("the cluster still answers after Stop")
	}
}
