package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// boardSeeds is how many boards are set up, one seed each.
const boardSeeds = 20000

// boards sets up boards from every capsule roll over many seeds.
func (e *env) boards(ctx context.Context) ([]row, error) {
	e.say("setting up %d boards", boardSeeds)
	times := make([]time.Duration, 0, boardSeeds)
	began := time.Now()
	for i := range boardSeeds {
		if i%1000 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		roll := referee.CapsuleRoll{White: 1 + i%6, Blue: 1 + i/6%6}
		t := time.Now()
		if _, err := referee.NewBoard(e.rs, roll, uint64(i)); err != nil {
			return nil, fmt.Errorf("board %v seed %d: %w", roll, i, err)
		}
		times = append(times, time.Since(t))
	}
	rate := float64(boardSeeds) / time.Since(began).Seconds()
	return []row{{"board set-up (referee.NewBoard)", bench.Count(boardSeeds) + " seeds", bench.Duration(bench.Percentile(times, 50)), bench.Duration(bench.Percentile(times, 99)),
		fmt.Sprintf("%s boards/s on one core", bench.Count(int(rate)))}}, nil
}

// The pairing measures: event sizes, and runs of each (a 1,000-player
// event takes a while to simulate, so it runs fewer times).
var pairingSizes = []struct{ players, runs int }{{16, 9}, {32, 9}, {100, 9}, {1000, 3}}

// pairings simulates Swiss events (round 1 random, then Swiss on the
// standings from random results) and times the pairing of rounds 2 and 3.
func (e *env) pairings(ctx context.Context) ([]row, error) {
	var rows []row
	p50At100 := map[int]time.Duration{}
	for _, size := range pairingSizes {
		e.say("pairing Swiss events of %d players, %d runs", size.players, size.runs)
		times := map[int][]time.Duration{}
		repeats := map[int]int{}
		for run := range size.runs {
			ev := bench.NewSwissEvent(size.players, uint64(1000*run+size.players))
			for r := 1; r <= 3; r++ {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				pair := pairing.Swiss
				if r == 1 {
					pair = pairing.Random
				}
				t := time.Now()
				round, err := pair(ev.Request(uint64(100*run + r)))
				took := time.Since(t)
				if err != nil {
					return nil, fmt.Errorf("%d players, round %d: %w", size.players, r, err)
				}
				times[r] = append(times[r], took)
				repeats[r] = max(repeats[r], round.Repeats)
				ev.Play(round.Tables, round.Byes)
			}
		}
		for r := 2; r <= 3; r++ {
			p50 := bench.Percentile(times[r], 50)
			note := fmt.Sprintf("repeats %d (worst of %d runs)", repeats[r], size.runs)
			switch size.players {
			case 100:
				p50At100[r] = p50
			case 1000:
				note += "; " + bench.Ratio(p50, p50At100[r]) + " the time at 100 players"
			}
			rows = append(rows, row{fmt.Sprintf("pair round %d (Swiss)", r), bench.Count(size.players) + " players", bench.Duration(p50), bench.Duration(bench.Percentile(times[r], 99)), note})
		}
	}
	return rows, nil
}

// The standings measures: a 1,000-player open over 8 rounds at tables of 4.
const (
	standingsPlayers = 1000
	standingsRounds  = 8
	standingsRuns    = 30
)

// standings ranks the open with the referee alone, then through the
// service over SQLite, which reads every round and result to do the same.
func (e *env) standings(ctx context.Context) ([]row, error) {
	e.say("standings of %d players over %d rounds", standingsPlayers, standingsRounds)
	rng := rand.New(rand.NewPCG(7, 8))
	players := make([]string, standingsPlayers)
	for i := range players {
		players[i] = fmt.Sprintf("p%04d", i)
	}
	var games []referee.Game
	for range standingsRounds {
		order := slices.Clone(players)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for t := 0; t < len(order); t += 4 {
			scores := make([]referee.Score, 4)
			for i, p := range order[t : t+4] {
				scores[i] = referee.Score{Player: p, VP: rng.IntN(9)}
			}
			declared := ""
			if rng.IntN(3) > 0 {
				i := rng.IntN(4)
				scores[i].VP = 10
				declared = scores[i].Player
			}
			placings, err := referee.Place(e.rs, scores, declared)
			if err != nil {
				return nil, err
			}
			games = append(games, referee.Game{Placings: placings})
		}
	}
	var times []time.Duration
	for range standingsRuns {
		t := time.Now()
		if _, err := referee.Standings(e.rs, games, nil, players); err != nil {
			return nil, err
		}
		times = append(times, time.Since(t))
	}
	pure := bench.Percentile(times, 50)
	rows := []row{{"standings (referee.Standings)", fmt.Sprintf("%s players x %d rounds", bench.Count(standingsPlayers), standingsRounds),
		bench.Duration(pure), bench.Duration(bench.Percentile(times, 99)), fmt.Sprintf("%s games, %d runs", bench.Count(len(games)), standingsRuns)}}
	served, err := e.serviceStandings(ctx, pure)
	if err != nil {
		return nil, err
	}
	return append(rows, served...), nil
}
