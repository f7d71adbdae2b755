package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// The Swiss table's events: sizes and rounds.
var (
	swissSizes  = []int{9, 12, 13, 16, 20, 24, 32, 33, 40, 50, 64, 100, 128, 150, 200, 1000}
	swissRounds = 6
	swissRuns   = 3
)

// The schedule table's rows: every size of tables of 4 at its limit of
// ⌊(N−1)/3⌋ rounds from 16 to 64 players (20 at 5 rounds, and 6 where zero
// is impossible), every size past 64 the project builds, some with 3-player
// tables, and past the limit.
var schedules = []struct {
	players, rounds int
	priority        referee.SchedulePriority
}{
	{16, 5, spread}, {20, 5, spread}, {20, 6, spread}, {24, 7, spread}, {28, 9, spread}, {32, 10, spread},
	{36, 11, spread}, {40, 13, spread}, {44, 14, spread}, {48, 15, spread}, {52, 17, spread}, {56, 18, spread},
	{60, 19, spread}, {64, 21, spread}, {72, 23, spread}, {76, 25, spread}, {84, 27, spread}, {88, 29, spread},
	{96, 31, spread}, {100, 33, spread}, {108, 35, spread}, {112, 37, spread},
	{13, 4, spread}, {13, 4, repeats}, {23, 7, spread}, {22, 7, spread}, {22, 7, repeats}, {16, 8, spread},
}

const (
	spread  = referee.SpreadFirst
	repeats = referee.RepeatsFirst
)

const scheduleRuns = 5

// swissTable prints, for each event size, the most repeats any run had in
// each round and the median time to pair it.
func swissTable(w io.Writer) error {
	fmt.Fprintf(w, "Swiss events: round 1 random, then Swiss on standings from random results.\n")
	fmt.Fprintf(w, "Each cell: most repeats in %d runs / median time to pair the round.\n\n", swissRuns)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "players\t")
	for r := range swissRounds {
		fmt.Fprintf(tw, "round %d\t", r+1)
	}
	fmt.Fprintln(tw)
	for _, n := range swissSizes {
		repeats := make([]int, swissRounds)
		times := make([][]time.Duration, swissRounds)
		for run := range swissRuns {
			e := bench.NewSwissEvent(n, uint64(1000*run+n))
			for r := range swissRounds {
				req := e.Request(uint64(run*100 + r))
				pair := pairing.Swiss
				if r == 0 {
					pair = pairing.Random
				}
				start := time.Now()
				round, err := pair(req)
				times[r] = append(times[r], time.Since(start))
				if err != nil {
					return fmt.Errorf("%d players, round %d: %w", n, r+1, err)
				}
				repeats[r] = max(repeats[r], round.Repeats)
				e.Play(round.Tables, round.Byes)
			}
		}
		fmt.Fprintf(tw, "%d\t", n)
		for r := range swissRounds {
			fmt.Fprintf(tw, "%d / %s\t", repeats[r], ms(bench.Median(times[r])))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// scheduleTable prints the repeats, lower bound, status and median time of
// whole schedules, the engine's next to the greedy baseline's.
func scheduleTable(w io.Writer) error {
	fmt.Fprintf(w, "Schedules drawn at once (no Swiss). Repeats: meetings beyond a pair's first; times: median of %d runs (seeds 1-%d).\n\n", scheduleRuns, scheduleRuns)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "players x rounds\tfirst\tengine repeats\tlower bound\tstatus\tengine time\tgreedy+swaps repeats\tgreedy+swaps time\t")
	for _, s := range schedules {
		var engine, greedy []time.Duration
		var engineRepeats, greedyRepeats []int
		var last pairing.Schedule
		for run := range scheduleRuns {
			req := pairing.Request{Seed: uint64(run + 1), Priority: s.priority}
			for i := range s.players {
				req.Players = append(req.Players, pairing.Player{ID: bench.PlayerID(i)})
			}
			start := time.Now()
			sched, err := pairing.DrawSchedule(req, s.rounds)
			engine = append(engine, time.Since(start))
			if err != nil {
				return err
			}
			engineRepeats = append(engineRepeats, sched.Repeats)
			last = sched
			start = time.Now()
			rounds, err := greedySchedule(s.players, s.rounds, rand.New(rand.NewPCG(uint64(run+1), 0)))
			greedy = append(greedy, time.Since(start))
			if err != nil {
				return err
			}
			greedyRepeats = append(greedyRepeats, meetingsBeyondFirst(rounds))
		}
		fmt.Fprintf(tw, "%d x %d\t%s\t%s\t%d %s\t%s\t%s\t%s\t%s\t\n", s.players, s.rounds, s.priority, spreadOf(engineRepeats),
			last.LowerBound.Repeats, last.LowerBound.By, last.Status, ms(bench.Median(engine)), spreadOf(greedyRepeats), ms(bench.Median(greedy)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nRepeats: median (worst) over the runs. Tables of 4 up to the limit, and sizes 1 to 3 below one\n"+
		"(the empty seats at points of a design that never meet), are built from designs (referee/pairing/design),\n"+
		"whatever the seed; other sizes start from a random draw and search.\n")
	return nil
}

// spreadOf prints the median and worst of xs.
func spreadOf(xs []int) string {
	return fmt.Sprintf("%d (%d)", bench.Median(xs), slices.Max(xs))
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000)
}
