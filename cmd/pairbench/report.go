package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"text/tabwriter"
	"time"

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
// is impossible), some with 3-player tables, and past the limit.
var schedules = []struct {
	players, rounds int
	priority        referee.SchedulePriority
}{
	{16, 5, spread}, {20, 5, spread}, {20, 6, spread}, {24, 7, spread}, {28, 9, spread}, {32, 10, spread},
	{36, 11, spread}, {40, 13, spread}, {44, 14, spread}, {48, 15, spread}, {52, 17, spread}, {56, 18, spread},
	{60, 19, spread}, {64, 21, spread}, {72, 23, spread}, {76, 25, spread}, {112, 37, spread},
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
			e := newEvent(n, uint64(1000*run+n))
			for r := range swissRounds {
				req := e.request(uint64(run*100 + r))
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
				e.play(round.Tables, round.Byes)
			}
		}
		fmt.Fprintf(tw, "%d\t", n)
		for r := range swissRounds {
			fmt.Fprintf(tw, "%d / %s\t", repeats[r], ms(median(times[r])))
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
				req.Players = append(req.Players, pairing.Player{ID: playerID(i)})
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
			last.LowerBound.Repeats, last.LowerBound.By, last.Status, ms(median(engine)), spreadOf(greedyRepeats), ms(median(greedy)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nRepeats: median (worst) over the runs. Tables of 4 up to the limit, and sizes 1 to 3 below one\n"+
		"(the empty seats at points of a design that never meet), are built from designs (referee/pairing/design),\n"+
		"whatever the seed; other sizes start from a random draw and search.\n")
	return nil
}

// lateSwiss prints, for an event of lateSwissPlayers over lateSwissRounds,
// the median time of each Swiss round against round 2's, timed side by
// side.
func lateSwiss(w io.Writer) error {
	e := newEvent(lateSwissPlayers, 2026)
	reqs := make([]pairing.Request, lateSwissRounds+1)
	for r := 1; r <= lateSwissRounds; r++ {
		reqs[r] = e.request(uint64(r))
		pair := pairing.Swiss
		if r == 1 {
			pair = pairing.Random
		}
		round, err := pair(reqs[r])
		if err != nil {
			return err
		}
		e.play(round.Tables, round.Byes)
	}
	times := make([][]time.Duration, lateSwissRounds+1)
	for range swissRuns {
		for r := 2; r <= lateSwissRounds; r++ {
			start := time.Now()
			if _, err := pairing.Swiss(reqs[r]); err != nil {
				return err
			}
			times[r] = append(times[r], time.Since(start))
		}
	}
	fmt.Fprintf(w, "Swiss rounds of one event of %d players: median of %d runs, and the ratio to round 2's.\n\n", lateSwissPlayers, swissRuns)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\ttime\tx round 2\t")
	for r := 2; r <= lateSwissRounds; r++ {
		fmt.Fprintf(tw, "%d\t%s\t%.2f\t\n", r, ms(median(times[r])), float64(median(times[r]))/float64(median(times[2])))
	}
	return tw.Flush()
}

const (
	lateSwissPlayers = 2000
	lateSwissRounds  = 8
)

func median[T int | time.Duration](xs []T) T {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// spreadOf prints the median and worst of xs.
func spreadOf(xs []int) string {
	return fmt.Sprintf("%d (%d)", median(xs), slices.Max(xs))
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000)
}

func playerID(i int) string { return fmt.Sprintf("p%04d", i) }

// event is a simulated Swiss event: results drawn at random, 4, 3, 2, 1
// points by place and 2 for a bye, standings by points (ties share a rank).
type event struct {
	ids     []string
	history [][]string
	points  map[string]int
	rng     *rand.Rand
}

func newEvent(n int, seed uint64) *event {
	e := &event{points: map[string]int{}, rng: rand.New(rand.NewPCG(seed, 7))}
	for i := range n {
		e.ids = append(e.ids, playerID(i))
	}
	return e
}

func (e *event) request(seed uint64) pairing.Request {
	req := pairing.Request{History: slices.Clone(e.history), Seed: seed}
	byPoints := slices.Clone(e.ids)
	slices.SortStableFunc(byPoints, func(a, b string) int { return e.points[b] - e.points[a] })
	for i, id := range byPoints {
		rank := i + 1
		if i > 0 && e.points[byPoints[i-1]] == e.points[id] {
			rank = req.Players[i-1].Standing
		}
		if len(e.history) == 0 {
			rank = 0
		}
		req.Players = append(req.Players, pairing.Player{ID: id, Standing: rank})
	}
	return req
}

func (e *event) play(tables [][]string, byes []string) {
	for _, t := range tables {
		e.history = append(e.history, t)
		for place, k := range e.rng.Perm(len(t)) {
			e.points[t[k]] += 4 - place
		}
	}
	for _, b := range byes {
		e.history = append(e.history, []string{b})
		e.points[b] += 2
	}
}
