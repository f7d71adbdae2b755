package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server"
	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/store"
)

const simulateUsage = "usage: catanjudge simulate --players N --rounds R --seed S [--ruleset NAME|FILE] [--out FILE]"

// simulate plays a whole random event through the service, over a
// throwaway database, and writes its record file: check-ins on time and
// late, a late entry, keep-apart pairs and a fixed table, swaps, seatings
// rolled by the console and by hand, boards with the console's and a
// judge's deal, players' reports, corrections, penalties and a revoked
// one, drops, a top-cut final when the ruleset has one, the closing. The
// same flags write the same record: every seed, every choice and the
// clock come from --seed.
func simulate(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
	fset := commandFlags("simulate", simulateUsage, stderr)
	players := fset.Int("players", 0, "how many players enter (3 to 2000)")
	rounds := fset.Int("rounds", 0, "qualifying rounds (1 to 30)")
	seed := fset.Uint64("seed", 1, "the seed of every draw and choice")
	ruleset := fset.String("ruleset", config.DefaultRuleset, "a built-in ruleset's name, or a ruleset file")
	out := fset.String("out", "", "the record file to write (default: standard output)")
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() != 0 || *players < 3 || *players > 2000 || *rounds < 1 || *rounds > 30 {
		return errors.New(simulateUsage)
	}
	rs, err := simulationRuleset(*ruleset)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "catanjudge-simulate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	dsn, err := store.FileDSN(dir)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	rec, err := playEvent(ctx, st, rs, *players, *rounds, *seed)
	if err != nil {
		return fmt.Errorf("simulate %d players, %d rounds, seed %d: %w", *players, *rounds, *seed, err)
	}
	f, err := recordfile.FromRecord(rec, recordfile.Generator(server.Version))
	if err != nil {
		return err
	}
	if *out == "" {
		return recordfile.Write(stdout, f)
	}
	w, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := recordfile.Write(w, f); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "Wrote the record of %s to %s: check it with catanjudge check %s\n", rec.Tournament.Name, *out, *out)
	return nil
}

// simulationRuleset is the built-in ruleset named, or the ruleset of the
// file at path.
func simulationRuleset(name string) (referee.Ruleset, error) {
	var extra []string
	if _, err := os.Stat(name); err == nil {
		extra = append(extra, name)
	}
	sets, err := config.LoadRulesets(extra...)
	if err != nil {
		return referee.Ruleset{}, err
	}
	if len(extra) > 0 {
		f, err := os.Open(name)
		if err != nil {
			return referee.Ruleset{}, err
		}
		defer f.Close()
		return config.ParseRuleset(f)
	}
	rs, ok := sets.Get(filepath.Base(name))
	if !ok {
		return referee.Ruleset{}, fmt.Errorf("no ruleset %q: give a built-in ruleset's name or a ruleset file", name)
	}
	return rs, nil
}

// rulesetsOf is a RulesetSource of one ruleset, for the simulation's
// service.
type rulesetsOf referee.Ruleset

func (r rulesetsOf) Get(name string) (referee.Ruleset, bool) {
	return referee.Ruleset(r), name == r.Name
}
