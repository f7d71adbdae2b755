package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/catanjudge/catanjudge/tournament/store"
)

const backupUsage = "usage: catanjudge backup [--data DIR] [--config FILE] BACKUP-FILE"

// backup writes a consistent copy of the database in the data folder to a
// new file, while a server may be running on it and judges saving. A
// PostgreSQL database (--database, CATANJUDGE_DATABASE) is backed up with
// pg_dump instead: backup says so and does nothing.
func backup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fset := commandFlags("backup", backupUsage, stderr)
	data := fset.String("data", "", "data folder (env CATANJUDGE_DATA, default ./data)")
	file := fset.String("config", "", "a JSON config file (env CATANJUDGE_CONFIG)")
	database := fset.String("database", "", "the server's PostgreSQL URL, if it has one (env CATANJUDGE_DATABASE)")
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return errors.New(backupUsage)
	}
	out := fset.Arg(0)
	cfg, err := loadConfig(getenv, stderr, "--data", *data, "--config", *file, "--database", *database)
	if err != nil {
		return err
	}
	if cfg.Database != "" {
		return fmt.Errorf("the data is in the PostgreSQL database %s, which is backed up with pg_dump, not with catanjudge backup: %s",
			store.Redact(cfg.Database), store.PgDumpHint)
	}
	st, err := openDataFolder(ctx, cfg.DataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Backed up %s to %s\n", cfg.DataDir, out)
	return nil
}
