// Command benchreport measures Catan Judge on this machine and prints one
// table: board set-ups per second, random game playouts and whole-record
// checks of the rules engine, pairing time and repeats by event size
// (Swiss rounds, the late rounds of 2,000 players against round 2, and
// schedules drawn at once with their lower bound and status),
// standings time for 1,000 players and the read their players' pages share,
// score-sheet save latency with 50
// judges saving at once (on SQLite, and on PostgreSQL when its server
// programs are installed: a throwaway cluster), a save's event reaching
// 1,000 kiosk streams split over two servers on PostgreSQL, a whole game
// entered move by move at a recorded table, the kiosk's fan-out to
// 1,000 live clients (by running cmd/kioskbench), the kiosk's and a judge's
// page latency while anonymous clients hammer the public endpoints, and the
// Excel export of 10,000 players.
//
// Everything runs on loopback against temporary databases, with a fixed
// amount of work and a time limit; progress goes to stderr, the table to
// stdout. Latencies are nearest-rank percentiles of the samples counted in
// the size column; where there are fewer than 100 samples p99 is the worst.
//
// Usage:
//
//	go run ./cmd/benchreport [-kiosk=false] [-abuse=false] [-timeout 4m]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"text/tabwriter"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// row is one line of the report.
type row struct {
	measure, size string
	p50, p99      string
	note          string
}

// env is what the measures share.
type env struct {
	rulesets *config.Rulesets
	rs       referee.Ruleset // the built-in preset
	goCmd    string          // the go command, to run cmd/kioskbench
	progress io.Writer
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kiosk := fs.Bool("kiosk", true, "measure the kiosk fan-out (runs cmd/kioskbench, about 20 s)")
	abuse := fs.Bool("abuse", true, "measure page latency while anonymous clients hammer the public endpoints (about 15 s)")
	goCmd := fs.String("go", "go", "the go command, to run cmd/kioskbench")
	limit := fs.Duration("timeout", 4*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	rulesets, err := config.LoadRulesets()
	if err != nil {
		return err
	}
	rs, ok := rulesets.Get(config.DefaultRuleset)
	if !ok {
		return fmt.Errorf("no ruleset %s", config.DefaultRuleset)
	}
	e := &env{rulesets: rulesets, rs: rs, goCmd: *goCmd, progress: stderr}
	measures := []func(context.Context) ([]row, error){e.boards, e.playouts, e.pairings, e.schedules, e.lateSwiss, e.standings, e.saves, e.record, e.crossServer}
	if *kiosk {
		measures = append(measures, e.kiosk)
	}
	if *abuse {
		measures = append(measures, e.abuse)
	}
	measures = append(measures, e.export)
	began := time.Now()
	var rows []row
	for _, m := range measures {
		rs, err := m(ctx)
		if err != nil {
			return err
		}
		rows = append(rows, rs...)
		// Each measure starts from a quiet heap, not the last one's garbage.
		runtime.GC()
	}
	fmt.Fprintf(stdout, "Catan Judge benchmarks, %s: %s\n", time.Now().Format(time.DateOnly), bench.Machine())
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "measure\tsize\tp50\tp99\tnotes")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.measure, r.size, r.p50, r.p99, r.note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "(measured in %s; reproduce with: go run ./cmd/benchreport)\n", time.Since(began).Round(time.Second))
	return nil
}

func (e *env) say(format string, args ...any) {
	fmt.Fprintf(e.progress, "benchreport: "+format+"\n", args...)
}
