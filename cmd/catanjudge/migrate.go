package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/catanjudge/catanjudge/tournament/store"
)

const migrateUsage = "usage: catanjudge migrate [--data DIR] [--config FILE] --to postgres://USER:PASSWORD@HOST:5432/DATABASE"

// migrate copies the SQLite database of the data folder, everything in it,
// into an empty PostgreSQL database and verifies the copy, for an event
// that outgrows one laptop: the servers then start with --database on it.
// The servers on the data folder must be stopped first.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fset := commandFlags("migrate", migrateUsage, stderr)
	data := fset.String("data", "", "the data folder whose database is copied (env CATANJUDGE_DATA, default ./data)")
	file := fset.String("config", "", "a JSON config file (env CATANJUDGE_CONFIG)")
	to := fset.String("to", "", "the PostgreSQL database to copy into, empty (createdb makes one)")
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() != 0 || *to == "" {
		return errors.New(migrateUsage)
	}
	if !store.IsPostgres(*to) {
		return fmt.Errorf("--to must be a PostgreSQL URL: %s", migrateUsage)
	}
	cfg, err := loadConfig(getenv, stderr, "--data", *data, "--config", *file)
	if err != nil {
		return err
	}
	st, err := openDataFolder(ctx, cfg.DataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	target := store.Redact(*to)
	copied, err := st.CopyInto(ctx, *to)
	if err != nil {
		return fmt.Errorf("migrate %s to %s: %w", cfg.DataDir, target, err)
	}
	fmt.Fprintf(stdout, "Copied %s into %s and verified the copy, table by table:\n", store.DatabaseFile(cfg.DataDir), target)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, c := range copied {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Table, store.Rows(c.Rows))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Start every server with --database (or CATANJUDGE_DATABASE) set to that URL. The judge password is the same; %s stays as it was.\n", cfg.DataDir)
	return nil
}
