package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament/store"
)

const backupUsage = "usage: catanjudge backup [--data DIR] [--config FILE] BACKUP-FILE"

// backup writes a consistent copy of the database in the data folder to a
// new file, while a server may be running on it and judges saving. A
// PostgreSQL database (--database, CATANJUDGE_DATABASE) is backed up with
// pg_dump instead: backup says so and does nothing.
func backup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("catanjudge backup", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprintln(stderr, backupUsage)
		fset.PrintDefaults()
	}
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
	// Opening a folder without a database would create an empty one: a
	// mistyped folder must fail, not back up nothing.
	if _, err := os.Stat(store.DatabaseFile(cfg.DataDir)); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no database in data folder %s", cfg.DataDir)
	}
	dsn, err := store.FileDSN(cfg.DataDir)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, dsn)
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

// loadConfig loads the configuration as serve does (flags, environment,
// file), from the flag and value pairs given, leaving out the empty ones.
func loadConfig(getenv func(string) string, stderr io.Writer, flagValues ...string) (config.Config, error) {
	var args []string
	for i := 0; i+1 < len(flagValues); i += 2 {
		if flagValues[i+1] != "" {
			args = append(args, flagValues[i], flagValues[i+1])
		}
	}
	return config.Load(args, getenv, stderr)
}
