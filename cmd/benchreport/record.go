package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// The record measure: a scorekeeper entering a whole game, move by move.
const (
	recordSeed     = 3
	recordMaxTurns = 400
)

// record enters a whole random game at a table of a SQLite store with the
// served durability (a sync per commit), one Service.AppendMove per move as
// the record page does, and times each: every move replays the record so
// far with the rules engine before it is written, so the last moves of a
// long game cost more than the first. Then it times reading the game as the
// kiosk's board does (uncached).
func (e *env) record(ctx context.Context) ([]row, error) {
	dir, err := os.MkdirTemp("", "benchreport-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(ctx, store.DatabaseFile(dir))
	if err != nil {
		return nil, err
	}
	defer st.Close()
	svc := tournament.NewService(st, e.rulesets, time.Now)
	t, err := svc.CreateTournament(ctx, "bench", tournament.TournamentInput{Name: "対戦記録のベンチマーク", Rounds: 1})
	if err != nil {
		return nil, err
	}
	rows := make([]tournament.ImportRow, 4)
	for i := range rows {
		rows[i] = tournament.ImportRow{Line: i + 2, Name: fmt.Sprintf("選手%d", i+1), Kana: fmt.Sprintf("せんしゅ%d", i+1)}
	}
	if _, err := svc.ImportPlayersCheckedIn(ctx, "bench", t.ID, rows); err != nil {
		return nil, err
	}
	if _, err := svc.PairNextRound(ctx, "bench", t.ID); err != nil {
		return nil, err
	}
	if _, err := svc.SetSeating(ctx, "bench", t.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		return nil, err
	}
	if _, err := svc.SetBoard(ctx, "bench", t.ID, 1, 1, tournament.BoardInput{Auto: true}); err != nil {
		return nil, err
	}
	g, err := svc.Game(ctx, t.ID, 1, 1)
	if err != nil {
		return nil, err
	}
	moves, err := randomGame(e, g)
	if err != nil {
		return nil, err
	}
	e.say("entering a recorded game of %d moves", len(moves))
	times := make([]time.Duration, 0, len(moves))
	for i, m := range moves {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		began := time.Now()
		if _, _, err := svc.AppendMove(ctx, "bench", t.ID, 1, 1, tournament.MoveInput{Move: m, Expected: i}); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		times = append(times, time.Since(began))
	}
	var reads []time.Duration
	for range 20 {
		began := time.Now()
		if _, err := svc.Game(ctx, t.ID, 1, 1); err != nil {
			return nil, err
		}
		reads = append(reads, time.Since(began))
	}
	first, last := times[:min(100, len(times))], times[max(0, len(times)-100):]
	size := func(from, to int) string { return fmt.Sprintf("moves %d–%d of %d", from, to, len(moves)) }
	return []row{
		{"recorded game: enter a move (Service, SQLite)", size(1, len(first)), bench.Duration(bench.Percentile(first, 50)), bench.Duration(bench.Percentile(first, 99)),
			"replays the record, then one commit with its audit line (a sync per commit)"},
		{"recorded game: enter a move (Service, SQLite)", size(len(moves)-len(last)+1, len(moves)), bench.Duration(bench.Percentile(last, 50)), bench.Duration(bench.Percentile(last, 99)),
			fmt.Sprintf("%s the first moves", bench.Ratio(bench.Percentile(last, 50), bench.Percentile(first, 50)))},
		{"recorded game: read for the kiosk's board", fmt.Sprintf("%d moves", len(moves)), bench.Duration(bench.Percentile(reads, 50)), bench.Duration(bench.Percentile(reads, 99)),
			"played and evaluated once per change, then shared by every screen"},
	}, nil
}

// randomGame plays a whole game on the table of g by the rules engine's
// random player, until a player declares victory (§11), and returns its
// moves as a record writes them.
func randomGame(e *env, g tournament.Game) ([]game.MoveSpec, error) {
	names := make([]string, len(g.Players))
	for i, id := range g.Players {
		names[i] = strconv.FormatInt(id, 10)
	}
	s, err := game.New(e.rs, g.Board, names)
	if err != nil {
		return nil, err
	}
	r := game.NewRandom(rand.New(rand.NewPCG(recordSeed, 7)))
	var moves []game.MoveSpec
	for s.Phase() != game.Over {
		if s.Turn() > recordMaxTurns {
			return nil, fmt.Errorf("no declaration in %d turns", recordMaxTurns)
		}
		m := r.Next(s)
		moves = append(moves, s.Spec(m))
		// A card played with no effect (§8 エ, §9) stands: it is a move.
		var ge *game.Error
		if err := s.Apply(m); err != nil && !(errors.As(err, &ge) && ge.Void) {
			return nil, fmt.Errorf("move %d refused: %w", len(moves), err)
		}
	}
	return moves, nil
}
