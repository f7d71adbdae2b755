package main

import (
	"context"
	"fmt"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// The schedule measures: the sizes of the issue that asked for designs
// (tables of 4 up to ⌊(N−1)/3⌋ rounds, built, and 56 x 18, searched;
// 20 x 6, where zero is impossible; 13 x 4 under both priorities), each
// drawn from several seeds.
var scheduleSizes = []struct {
	players, rounds int
	priority        referee.SchedulePriority
}{
	{16, 5, referee.SpreadFirst}, {24, 7, referee.SpreadFirst}, {28, 9, referee.SpreadFirst},
	{32, 10, referee.SpreadFirst}, {40, 13, referee.SpreadFirst}, {52, 17, referee.SpreadFirst},
	{44, 14, referee.SpreadFirst}, {56, 18, referee.SpreadFirst}, {64, 21, referee.SpreadFirst}, {20, 6, referee.SpreadFirst},
	{13, 4, referee.SpreadFirst}, {13, 4, referee.RepeatsFirst},
}

const scheduleSeeds = 5

// schedules draws each size from seeds 1.. with the package's budget and
// reports the time, the most repeats of any seed, the lower bound and the
// status.
func (e *env) schedules(ctx context.Context) ([]row, error) {
	var rows []row
	for _, sz := range scheduleSizes {
		e.say("drawing schedules of %d players over %d rounds, %s first", sz.players, sz.rounds, sz.priority)
		var ids []pairing.Player
		for i := range sz.players {
			ids = append(ids, pairing.Player{ID: fmt.Sprintf("p%04d", i)})
		}
		var times []time.Duration
		worst := -1
		var last pairing.Schedule
		for seed := uint64(1); seed <= scheduleSeeds; seed++ {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			t := time.Now()
			s, err := pairing.DrawSchedule(pairing.Request{Players: ids, Seed: seed, Priority: sz.priority}, sz.rounds)
			times = append(times, time.Since(t))
			if err != nil {
				return nil, fmt.Errorf("%d x %d: %w", sz.players, sz.rounds, err)
			}
			if s.Repeats > worst {
				worst, last = s.Repeats, s
			}
		}
		rows = append(rows, row{"draw a schedule (" + string(sz.priority) + " first)", fmt.Sprintf("%d players x %d rounds", sz.players, sz.rounds),
			bench.Duration(bench.Percentile(times, 50)), bench.Duration(bench.Percentile(times, 99)),
			fmt.Sprintf("repeats %d (worst of seeds 1-%d), lower bound %d (%s), %s", worst, scheduleSeeds, last.LowerBound.Repeats, last.LowerBound.By, last.Status)})
	}
	return rows, nil
}

// The late Swiss rounds of a big event: 2,000 players over 8 rounds.
const (
	lateSwissPlayers = 2000
	lateSwissRounds  = 8
	lateSwissRuns    = 3
)

// lateSwiss simulates one event of lateSwissPlayers and times each of its
// rounds 2..8 lateSwissRuns times, side by side, against round 2.
func (e *env) lateSwiss(ctx context.Context) ([]row, error) {
	e.say("pairing a Swiss event of %d players over %d rounds", lateSwissPlayers, lateSwissRounds)
	ev := bench.NewSwissEvent(lateSwissPlayers, 2026)
	reqs := make([]pairing.Request, lateSwissRounds+1)
	repeats := make([]int, lateSwissRounds+1)
	for r := 1; r <= lateSwissRounds; r++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		reqs[r] = ev.Request(uint64(r))
		pair := pairing.Swiss
		if r == 1 {
			pair = pairing.Random
		}
		round, err := pair(reqs[r])
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		repeats[r] = round.Repeats
		ev.Play(round.Tables, round.Byes)
	}
	times := make([][]time.Duration, lateSwissRounds+1)
	for range lateSwissRuns {
		for r := 2; r <= lateSwissRounds; r++ {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			t := time.Now()
			if _, err := pairing.Swiss(reqs[r]); err != nil {
				return nil, err
			}
			times[r] = append(times[r], time.Since(t))
		}
	}
	var rows []row
	for r := 2; r <= lateSwissRounds; r++ {
		rows = append(rows, row{fmt.Sprintf("pair round %d (Swiss)", r), bench.Count(lateSwissPlayers) + " players", bench.Duration(bench.Percentile(times[r], 50)), bench.Duration(bench.Percentile(times[r], 99)),
			fmt.Sprintf("repeats %d; %s round 2's time (median of %d, side by side)", repeats[r], bench.Ratio(bench.Percentile(times[r], 50), bench.Percentile(times[2], 50)), lateSwissRuns)})
	}
	return rows, nil
}
