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
// new file, while a server may be running on it and judges saving.
func backup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("catanjudge backup", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprintln(stderr, backupUsage)
		fset.PrintDefaults()
	}
	data := fset.String("data", "", "data folder (env CATANJUDGE_DATA, default ./data)")
	file := fset.String("config", "", "a JSON config file (env CATANJUDGE_CONFIG)")
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return errors.New(backupUsage)
	}
	out := fset.Arg(0)
	// The data folder is found as serve finds it: flags, environment, file.
	var load []string
	if *data != "" {
		load = append(load, "--data", *data)
	}
	if *file != "" {
		load = append(load, "--config", *file)
	}
	cfg, err := config.Load(load, getenv, stderr)
	if err != nil {
		return err
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
