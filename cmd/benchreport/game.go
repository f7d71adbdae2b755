package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
)

// The playout measure: random 4-player games on boards set up by §3, each
// cut by the time signal after playoutTurns turns (none reaches it).
const (
	playoutGames = 20000
	playoutTurns = 1000
	recordGames  = 200
)

// playouts plays random games to their end on one goroutine (one core),
// and checks whole records of such games the way POST /api/v1/referee/game
// does, from their written moves.
func (e *env) playouts(ctx context.Context) ([]row, error) {
	e.say("playing %d random games (referee/game)", playoutGames)
	// One board for each capsule roll, 36 in all.
	players := []string{"a", "b", "c", "d"}
	boards := make([]referee.Board, 36)
	starts := make([]*game.State, len(boards))
	for i := range starts {
		var err error
		if boards[i], err = referee.NewBoard(e.rs, referee.CapsuleRoll{White: 1 + i%6, Blue: 1 + i/6}, uint64(i)); err != nil {
			return nil, err
		}
		if starts[i], err = game.New(e.rs, boards[i], players); err != nil {
			return nil, err
		}
	}
	r := game.NewRandom(rand.New(rand.NewPCG(1, 2)))
	times := make([]time.Duration, 0, playoutGames)
	moves, declared := 0, 0
	began := time.Now()
	for i := range playoutGames {
		if i%1000 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s := *starts[i%len(starts)]
		t := time.Now()
		n, err := game.Playout(&s, r, playoutTurns)
		times = append(times, time.Since(t))
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
		moves += n
		if s.EndedBy() == game.ByDeclaration {
			declared++
		}
	}
	took := time.Since(began).Seconds()
	rows := []row{{"random playouts (referee/game)", bench.Count(playoutGames) + " games of 4", bench.Duration(bench.Percentile(times, 50)), bench.Duration(bench.Percentile(times, 99)),
		fmt.Sprintf("%s moves/s, %s games/s on one core; %d moves a game; %d%% declared (policy: game.Random)",
			bench.Count(int(float64(moves)/took)), bench.Count(int(playoutGames/took)), moves/playoutGames, 100*declared/playoutGames)}}

	e.say("checking %d whole game records (game.Check)", recordGames)
	times = times[:0]
	moves = 0
	for i := range recordGames {
		s := *starts[i%len(starts)]
		var record []game.MoveSpec
		for s.Phase() != game.Over {
			m := r.Next(&s)
			if s.Turn() > playoutTurns {
				m = game.NewMove(game.TimeUp)
			}
			record = append(record, s.Spec(m))
			if err := s.Apply(m); err != nil {
				return nil, err
			}
		}
		t := time.Now()
		rep, err := game.Check(e.rs, boards[i%len(boards)], players, record)
		times = append(times, time.Since(t))
		if err != nil || rep.Err != nil {
			return nil, fmt.Errorf("record %d: %v %v", i, err, rep.Err)
		}
		moves += len(record)
	}
	var total time.Duration
	for _, t := range times {
		total += t
	}
	rows = append(rows, row{"game record check (game.Check)", bench.Count(recordGames) + " records", bench.Duration(bench.Percentile(times, 50)), bench.Duration(bench.Percentile(times, 99)),
		fmt.Sprintf("%s moves/s decoded from their names and checked; %d moves a record", bench.Count(int(float64(moves)/total.Seconds())), moves/recordGames)})
	return rows, nil
}
