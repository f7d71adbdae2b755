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

// commandFlags returns the flags of the subcommand name, which print usage
// and the flags on -h.
func commandFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fset := flag.NewFlagSet("catanjudge "+name, flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fset.PrintDefaults()
	}
	return fset
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

// openDataFolder opens the SQLite database of the data folder dir, which
// must have one: opening a folder without one would create an empty
// database, and a mistyped folder must fail, not back up or copy nothing.
func openDataFolder(ctx context.Context, dir string) (*store.Store, error) {
	if _, err := os.Stat(store.DatabaseFile(dir)); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no database in data folder %s", dir)
	}
	dsn, err := store.FileDSN(dir)
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, dsn)
}
