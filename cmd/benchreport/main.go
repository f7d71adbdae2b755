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
// entered move by move at a recorded table, the kiosk's fan-out to one
// phone alone and to 1,000, 3,000 and 5,000 (by running cmd/kioskbench),
// the kiosk's and a judge's page latency while anonymous clients hammer
// the public endpoints, a regional event of 500 players played in one hall
// with 5,000 screens (by running cmd/hallbench), and the Excel export of
// 10,000 players.
//
// Everything runs on loopback against temporary databases, with a fixed
// amount of work and a time limit; progress goes to stderr, the table to
// stdout. Latencies are nearest-rank percentiles of the samples counted in
// the size column; where there are fewer than 100 samples p99 is the worst.
//
// Usage:
//
//	go run ./cmd/benchreport [-kiosk=false] [-abuse=false] [-hall=false] [-saves] [-profile DIR] [-only kiosk|hall] [-timeout 25m]
//
// The save rows give each measure's CPU a save (this process's, the server's
// and its judges', over the measure: on a shared machine it bounds the saves
// a second at cores / CPU a save, which the wall clock cannot show) and how
// many writes shared a commit. -profile DIR writes the CPU, block and mutex
// profiles of the 50 judges' saves to DIR, one set for each engine
// (sqlite.cpu, sqlite.block, sqlite.mutex, postgresql.cpu, ...), for
// go tool pprof.
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
	profile  string // the folder of the save measures' profiles (-profile), or ""
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kiosk := fs.Bool("kiosk", true, "measure the kiosk fan-out to 1, 1,000, 3,000 and 5,000 clients (runs cmd/kioskbench, about 90 s)")
	hall := fs.Bool("hall", true, "simulate a regional event in one hall with 5,000 screens (runs cmd/hallbench, a few minutes)")
	only := fs.String("only", "", "run only this measure (kiosk or hall), for its rows alone")
	abuse := fs.Bool("abuse", true, "measure page latency while anonymous clients hammer the public endpoints (about 15 s)")
	goCmd := fs.String("go", "go", "the go command, to run cmd/kioskbench")
	savesOnly := fs.Bool("saves", false, "measure the score-sheet saves alone (with the disk's fsync probe)")
	profile := fs.String("profile", "", "write CPU, block and mutex profiles of the 50 judges' saves (each engine's) to this folder")
	limit := fs.Duration("timeout", 25*time.Minute, "give up after this long")
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
	e := &env{rulesets: rulesets, rs: rs, goCmd: *goCmd, progress: stderr, profile: *profile}
	measures := []func(context.Context) ([]row, error){e.boards, e.playouts, e.pairings, e.schedules, e.lateSwiss, e.standings, e.saves, e.record, e.crossServer}
	if *kiosk {
		measures = append(measures, e.kiosk)
	}
	if *abuse {
		measures = append(measures, e.abuse)
	}
	if *hall {
		measures = append(measures, e.hall)
	}
	measures = append(measures, e.export)
	switch {
	case *savesOnly:
		measures = []func(context.Context) ([]row, error){e.saves}
	case *only == "":
	case *only == "kiosk":
		measures = []func(context.Context) ([]row, error){e.kiosk}
	case *only == "hall":
		measures = []func(context.Context) ([]row, error){e.hall}
	default:
		return fmt.Errorf("-only %q: want kiosk or hall", *only)
	}
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
