// Command schedules regenerates the table of best-known schedules drawn at
// once (pairing.DrawSchedule) for 9 to 100 players over 2 to 8 rounds,
// under both priorities (3-player tables spread evenly first, or the
// fewest repeats first): for each, the fewest repeats of the seeds it
// tries, the lower bound, the status, and the seed and budget that draw
// it again. It writes docs/schedules.md, for people, and
// referee/pairing/bestknown_data.go, which the pairing reads to say when
// a schedule is the best known and to report the other priority's figure.
//
// Usage:
//
//	go run ./cmd/schedules [-seeds 3] [-j 1] [-players 9-100] [-rounds 2-8]
//
// A size whose first seed reaches its lower bound takes no other seed.
// The whole table takes about a minute of CPU.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "schedules:", err)
		os.Exit(1)
	}
}

// cell is one size of the table, under one priority.
type cell struct {
	players, rounds int
	priority        referee.SchedulePriority
	best            pairing.Schedule
	seed            uint64
}

func run(args []string, progress io.Writer) error {
	fs := flag.NewFlagSet("schedules", flag.ContinueOnError)
	seeds := fs.Int("seeds", 3, "seeds to try per size")
	jobs := fs.Int("j", max(1, runtime.NumCPU()/2), "sizes drawn at once")
	playersFlag := fs.String("players", "9-100", "the players' range")
	roundsFlag := fs.String("rounds", "2-8", "the rounds' range")
	docs := fs.String("docs", "docs/schedules.md", "the table for people")
	data := fs.String("data", "referee/pairing/bestknown_data.go", "the table for the pairing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var pLo, pHi, rLo, rHi int
	if _, err := fmt.Sscanf(*playersFlag, "%d-%d", &pLo, &pHi); err != nil {
		return fmt.Errorf("-players %q: %w", *playersFlag, err)
	}
	if _, err := fmt.Sscanf(*roundsFlag, "%d-%d", &rLo, &rHi); err != nil {
		return fmt.Errorf("-rounds %q: %w", *roundsFlag, err)
	}
	var cells []*cell
	for n := pLo; n <= pHi; n++ {
		for r := rLo; r <= rHi; r++ {
			for _, pr := range []referee.SchedulePriority{referee.SpreadFirst, referee.RepeatsFirst} {
				cells = append(cells, &cell{players: n, rounds: r, priority: pr})
			}
		}
	}
	work := make(chan *cell)
	errs := make(chan error, len(cells))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range *jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				if err := c.draw(*seeds); err != nil {
					errs <- err
					continue
				}
				mu.Lock()
				done++
				fmt.Fprintf(progress, "schedules: %d/%d: %d players x %d rounds, %s first: %d repeats (bound %d), seed %d\n",
					done, len(cells), c.players, c.rounds, c.priority, c.best.Repeats, c.best.LowerBound.Repeats, c.seed)
				mu.Unlock()
			}
		}()
	}
	for _, c := range cells {
		work <- c
	}
	close(work)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	if err := os.WriteFile(*docs, []byte(markdown(cells)), 0o644); err != nil {
		return err
	}
	return os.WriteFile(*data, []byte(goData(cells)), 0o644)
}

// Budget is the search budget of every draw: the package's own (MaxEvals 0).
const Budget = 0

// draw tries seeds 1.. until one reaches the lower bound.
func (c *cell) draw(seeds int) error {
	var ids []pairing.Player
	for i := range c.players {
		ids = append(ids, pairing.Player{ID: fmt.Sprintf("p%03d", i)})
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		s, err := pairing.DrawSchedule(pairing.Request{Players: ids, Seed: seed, Priority: c.priority, MaxEvals: Budget}, c.rounds)
		if err != nil {
			return fmt.Errorf("%d players x %d rounds: %w", c.players, c.rounds, err)
		}
		if seed == 1 || s.Repeats < c.best.Repeats {
			c.best, c.seed = s, seed
		}
		if s.Repeats <= s.LowerBound.Repeats {
			break
		}
	}
	return nil
}

// status is the cell's status in the table: optimal at the bound,
// otherwise best-known (the table is what "best known" means).
func (c *cell) status() pairing.Status {
	if c.best.Repeats <= c.best.LowerBound.Repeats {
		return pairing.Optimal
	}
	return pairing.BestKnown
}

func markdown(cells []*cell) string {
	var b strings.Builder
	b.WriteString(`# Best-known schedules

Schedules drawn at once (` + "`POST /api/v1/referee/pairings`" + ` mode ` + "`schedule`" + `, and a ruleset's leading
` + "`schedule`" + ` rounds) for 9 to 100 players over 2 to 8 rounds: the fewest repeats found (a pair meeting a
second time counts one, a third time two, ...), what no schedule can beat (the lower bound), and the seed and
budget (swap evaluations) that draw that schedule again with ` + "`pairing.DrawSchedule`" + ` and players ` + "`p000`" + `,
` + "`p001`" + `, .... Under **spread first** 3-player tables (and byes) are spread evenly over the rounds before the
repeats count; under **repeats first** the fewest repeats come first (a ruleset's ` + "`event.schedule_priority`" + `).

A bound is *counting* (more pairs seated than are left to meet, or a player meeting more opponents than there
are, with the 3-player tables spread evenly under spread first), *impossible-at-zero* (no resolvable design
reaches those rounds) or *exhaustive*. *optimal* means the schedule meets its bound; *best-known* that nothing
better has been found. Sizes of tables of 4 up to ⌊(N−1)/3⌋ rounds, and many with 3-player tables, are built
from designs (referee/pairing/design), whatever the seed.

Regenerate with ` + "`go run ./cmd/schedules`" + ` (about a minute of CPU, with -j 2 two cores); ` + "`TestBestKnownTable`" + ` draws a sample of
rows again and compares.

| players | rounds | spread first: repeats | bound | status | seed | repeats first: repeats | bound | status | seed | budget |
|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|
`)
	for i := 0; i < len(cells); i += 2 {
		sp, rp := cells[i], cells[i+1]
		fmt.Fprintf(&b, "| %d | %d | %d | %d %s | %s | %d | %d | %d %s | %s | %d | %s |\n",
			sp.players, sp.rounds,
			sp.best.Repeats, sp.best.LowerBound.Repeats, sp.best.LowerBound.By, sp.status(), sp.seed,
			rp.best.Repeats, rp.best.LowerBound.Repeats, rp.best.LowerBound.By, rp.status(), rp.seed,
			budget())
	}
	return b.String()
}

// budget prints Budget as the package's evaluations.
func budget() string {
	if Budget == 0 {
		return "default"
	}
	return fmt.Sprint(Budget)
}

func goData(cells []*cell) string {
	var b strings.Builder
	b.WriteString("// Code generated by go run ./cmd/schedules; DO NOT EDIT.\n\npackage pairing\n\nimport \"github.com/catanjudge/catanjudge/referee\"\n\n")
	b.WriteString("// bestKnown is the table of best-known schedules (docs/schedules.md), by\n// players, rounds and priority.\nvar bestKnown = []known{\n")
	// One line a size of players, so that the file stays short.
	for i, c := range cells {
		if i > 0 && cells[i-1].players == c.players {
			b.WriteString(" ")
		} else {
			fmt.Fprintf(&b, "\t// %d players.\n\t", c.players)
		}
		fmt.Fprintf(&b, "{%d, %d, referee.%s, %d, Bound{%d, %q}, %d, %d},", c.players, c.rounds, priorityName(c.priority),
			c.best.Repeats, c.best.LowerBound.Repeats, c.best.LowerBound.By, c.seed, Budget)
		if i+1 == len(cells) || cells[i+1].players != c.players {
			b.WriteString("\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

func priorityName(p referee.SchedulePriority) string {
	if p == referee.RepeatsFirst {
		return "RepeatsFirst"
	}
	return "SpreadFirst"
}
