package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/store"
)

const (
	checkUsage  = "usage: catanjudge check RECORD-FILE"
	importUsage = "usage: catanjudge import-record [--data DIR] [--config FILE] [--database URL] [--judge NAME] RECORD-FILE"
)

// readRecord reads the record file at path ("-" for standard input).
func readRecord(path string, stdin io.Reader) (tournament.Record, []string, error) {
	in := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return tournament.Record{}, nil, err
		}
		defer f.Close()
		in = f
	}
	file, err := recordfile.Read(in)
	if err != nil {
		return tournament.Record{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	r, notes, err := file.Record()
	if err != nil {
		return tournament.Record{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, notes, nil
}

// checkRecord checks a record file (tournament.CheckRecord): it prints
// each disagreement with its round and table, what it could not check,
// and what it checked, and fails unless there is no disagreement.
func checkRecord(_ context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) error {
	fset := commandFlags("check", checkUsage, stderr)
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return errors.New(checkUsage)
	}
	path := fset.Arg(0)
	r, notes, err := readRecord(path, os.Stdin)
	if err != nil {
		return err
	}
	c := tournament.CheckRecord(r)
	printCheck(stdout, r, notes, c)
	if n := len(c.Disagreements); n > 0 {
		return fmt.Errorf("%s does not check: %d disagreement%s", path, n, plural(n))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// printCheck writes what the check found, for a person.
func printCheck(w io.Writer, r tournament.Record, notes []string, c tournament.RecordCheck) {
	t := r.Tournament
	fmt.Fprintf(w, "%s: %d players, %d rounds, ruleset %s %s\n", t.Name, len(r.Players), len(r.Rounds), t.Ruleset.Name, t.Ruleset.Version)
	for _, n := range notes {
		fmt.Fprintln(w, "note:", n)
	}
	if len(c.Disagreements) > 0 {
		fmt.Fprintf(w, "\n%d disagreement%s:\n", len(c.Disagreements), plural(len(c.Disagreements)))
		for _, f := range c.Disagreements {
			fmt.Fprintln(w, "  "+f.String())
		}
	}
	if len(c.Unchecked) > 0 {
		fmt.Fprintf(w, "\nnot checked (the record gives no facts to derive it from):\n")
		for _, f := range c.Unchecked {
			fmt.Fprintln(w, "  "+f.String())
		}
	}
	k := c.Checked
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "derived again\t%d rounds, %d tables: %d seatings, %d boards, %d results (%d revisions), %d placings, %d cuts\n",
		k.Rounds, k.Tables, k.Seatings, k.Boards, k.Results, k.Revisions, k.Placings, k.Cuts)
	fmt.Fprintf(tw, "standings\t%s\n", yesNo(k.Standings, fmt.Sprintf("compared, %d players", len(r.Standings)), "not compared"))
	fmt.Fprintf(tw, "final results\t%s\n", yesNo(k.Final, fmt.Sprintf("compared, %d players", len(r.Final)), "not compared"))
	if r.Tournament.Team {
		fmt.Fprintf(tw, "team standings\t%s\n", yesNo(k.TeamStandings, fmt.Sprintf("compared, %d teams", len(r.TeamStandings)), "not compared"))
	}
	var per []string
	for i, n := range c.RoundRepeats {
		per = append(per, fmt.Sprintf("round %d: %d", i+1, n))
	}
	fmt.Fprintf(tw, "repeats\t%d, the sum over pairs of (meetings − 1) (%s)\n", c.Repeats, strings.Join(per, ", "))
	fmt.Fprintf(tw, "3-player tables\t%s\n", spread(r.Players, c.Threes))
	fmt.Fprintf(tw, "byes\t%s\n", spread(r.Players, c.Byes))
	tw.Flush()
	if len(c.Disagreements) == 0 {
		fmt.Fprintln(w, "\nOK: every derived fact agrees with the record.")
	}
}

func yesNo(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}

// spread says how many players had how many: "9 players 0, 4 players 1".
func spread(players []tournament.Player, counts map[int64]int) string {
	by := map[int]int{}
	for _, p := range players {
		by[counts[p.ID]]++
	}
	var keys []int
	for k := range by {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d player%s %d", by[k], plural(by[k]), k))
	}
	return strings.Join(parts, ", ")
}

// importRecord restores a record file as a new tournament of the data
// folder's database (or --database's): the server may be running.
func importRecord(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fset := commandFlags("import-record", importUsage, stderr)
	data := fset.String("data", "", "data folder (env CATANJUDGE_DATA, default ./data)")
	file := fset.String("config", "", "a JSON config file (env CATANJUDGE_CONFIG)")
	database := fset.String("database", "", "the server's PostgreSQL URL, if it has one (env CATANJUDGE_DATABASE)")
	judge := fset.String("judge", "import-record", "the judge the audit log names for the import")
	if err := fset.Parse(args); err != nil {
		return err
	}
	if fset.NArg() != 1 {
		return errors.New(importUsage)
	}
	path := fset.Arg(0)
	r, _, err := readRecord(path, os.Stdin)
	if err != nil {
		return err
	}
	cfg, err := loadConfig(getenv, stderr, "--data", *data, "--config", *file, "--database", *database)
	if err != nil {
		return err
	}
	var st *store.Store
	where := cfg.DataDir
	if cfg.Database != "" {
		st, err = store.Open(ctx, cfg.Database)
		where = store.Redact(cfg.Database)
	} else {
		st, err = openDataFolder(ctx, cfg.DataDir)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	sets, err := config.LoadRulesets()
	if err != nil {
		return err
	}
	svc := tournament.NewService(st, sets, time.Now)
	t, err := svc.ImportRecord(ctx, *judge, filepath.Base(path), r)
	if err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	teams := ""
	if t.Team {
		teams = fmt.Sprintf(" in %d teams", len(r.Teams))
	}
	fmt.Fprintf(stdout, "Imported %s into %s as tournament %d: %d players%s, %d rounds, %s.\n", t.Name, where, t.ID, len(r.Players), teams, len(r.Rounds), t.State())
	return nil
}
