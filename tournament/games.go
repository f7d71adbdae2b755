package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
)

// A table's recorded game: for the tables that are streamed or disputed, a
// scorekeeper enters the game move by move as it is played. The rules
// engine (referee/game) plays each move after the ones recorded, on the
// table's board with its players in play order under the tournament's
// ruleset: a move it refuses is never stored. Two judges entering moves at
// once never interleave them: each move is entered on the number of moves
// the judge saw, and one entered on a record that has changed since is
// refused (a StaleError). When the game has ended, its result can be saved
// from the record as a score sheet is saved; the record never changes a
// result by itself.

// The audit actions of a table's recorded game.
const (
	ActionGameMove = "game.move"
	ActionGameUndo = "game.undo"
)

// GameMove is one move of a table's recorded game: its number in the
// record (1 for the first), the move as the rules engine reads it (the
// players named by their ids), and who entered it when.
type GameMove struct {
	Number int
	Move   game.MoveSpec
	Judge  string
	At     time.Time
}

// Game is a table's recorded game as the rules engine plays it.
type Game struct {
	TableID int64
	Round   int           // the round's number
	Table   int           // the table's number
	Players []int64       // in play order (§3 オ); the moves name them by id
	Board   referee.Board // the table's board (§3)
	Moves   []GameMove
	// Played is the engine's play of the moves: the game they reach, the
	// development cards that stood without effect, the position built.
	Played game.Game
	// Evaluation is the position the moves built, evaluated: each
	// player's longest trail, and who holds each 2-point card and why.
	Evaluation *game.Evaluation
	Result     *Result // the table's latest result; nil before one is saved
}

// State is the game after the moves recorded.
func (g Game) State() *game.State { return g.Played.State }

// Over says the game has ended: by a declaration (§11) or the judge's time
// signal (§12).
func (g Game) Over() bool { return g.Played.State.Phase() == game.Over }

// MoveInput is a move a judge enters into a table's recorded game.
type MoveInput struct {
	Move game.MoveSpec
	// Expected is the number of moves of the record the judge entered the
	// move on: a record another judge changed since refuses it.
	Expected int
}

// GameResultInput is a judge's request to save a table's result from its
// recorded game.
type GameResultInput struct {
	// Moves is the number of moves of the record the judge saves from: a
	// record changed since refuses it.
	Moves int
	// Version, Reason and LateReason are a score sheet's (ResultInput):
	// the revision corrected (0 for the first result), the reason of a
	// correction or of a game ended by time before its signal, the
	// confirmation of a declaration recorded after the signal (§12).
	Version    int
	Reason     string
	LateReason string
}

// recordedGame returns the game recorded at table number of round n, played by
// the rules engine. A table without its play order (§3 オ) or its board
// (§3) carries no record: a Conflict names what it lacks. The game is read
// and played once per version of the tournament, however many screens
// follow it, and shared: its readers must not change it.
func (s *Service) recordedGame(ctx context.Context, tournamentID int64, n, number int) (Game, error) {
	return readTable(ctx, s, &s.games, tournamentID, n, number, func(ctx context.Context, e record, tab Table) (Game, error) {
		rs := e.t.Ruleset
		g, specs, err := s.gameAt(ctx, rs, n, tab)
		if err != nil {
			return Game{}, err
		}
		if err := g.play(rs, specs); err != nil {
			return Game{}, err
		}
		return g, nil
	})
}

// appendMove adds a move to the game recorded at table number of round n
// once the rules engine has played it after the moves recorded. A move the
// rules refuse is a *game.Error naming the rule and its section, and
// nothing is stored; a record changed since the judge saw it (in.Expected)
// is a *StaleError. A development card the rules let stand with no effect
// (§8 エ, §9) is recorded, and returned as voided. It returns the game
// with the move.
func (s *Service) appendMove(ctx context.Context, judge string, tournamentID int64, n, number int, in MoveInput) (Game, *game.Error, error) {
	e, t, err := s.openTable(ctx, judge, tournamentID, n, number)
	if err != nil {
		return Game{}, nil, err
	}
	if err := t.checkGameOpen(n); err != nil {
		return Game{}, nil, err
	}
	g, specs, err := s.gameAt(ctx, e.t.Ruleset, n, t)
	if err != nil {
		return Game{}, nil, err
	}
	if err := g.checkStale(in.Expected); err != nil {
		return Game{}, nil, err
	}
	k := len(g.Moves)
	err = g.play(e.t.Ruleset, append(specs, in.Move))
	var refused *game.Error
	if errors.As(err, &refused) && refused.Index == k {
		// The move entered, not the record: said without its place.
		refused.Index = -1
	}
	if err != nil {
		return Game{}, nil, fmt.Errorf("%s: %w", tableSubject(n, number), e.named(err))
	}
	var voided *game.Error
	if v := g.Played.Voided; len(v) > 0 && v[len(v)-1].Index == k {
		voided = v[len(v)-1]
		_ = e.named(voided)
	}
	m := GameMove{Number: k + 1, Move: in.Move, Judge: judge, At: s.now().UTC()}
	if err := s.store.AddGameMove(ctx, t.ID, &m, s.change(judge, ActionGameMove, tableSubject(n, number), nil, &m)); err != nil {
		return Game{}, nil, err
	}
	g.Moves = append(g.Moves, m)
	return g, voided, nil
}

// undoMove takes the last move off the game recorded at table number of
// round n: a move entered by mistake. last is the number of the move the
// judge undoes, the last of the record as the judge saw it; a record
// changed since is a *StaleError. It returns the game without the move.
func (s *Service) undoMove(ctx context.Context, judge string, tournamentID int64, n, number, last int) (Game, error) {
	e, t, err := s.openTable(ctx, judge, tournamentID, n, number)
	if err != nil {
		return Game{}, err
	}
	if err := t.checkGameOpen(n); err != nil {
		return Game{}, err
	}
	g, specs, err := s.gameAt(ctx, e.t.Ruleset, n, t)
	if err != nil {
		return Game{}, err
	}
	if last < 1 {
		return Game{}, invalid("game-no-move", tableSubject(n, number)+": the record has no move to undo",
			map[string]any{"Round": n, "Table": number})
	}
	if err := g.checkStale(last); err != nil {
		return Game{}, err
	}
	gone := g.Moves[last-1]
	if err := s.store.UndoGameMove(ctx, t.ID, last, s.change(judge, ActionGameUndo, tableSubject(n, number), &gone, nil)); err != nil {
		return Game{}, err
	}
	g.Moves = g.Moves[:last-1]
	if err := g.play(e.t.Ruleset, specs[:last-1]); err != nil {
		return Game{}, err
	}
	return g, nil
}

// checkGameOpen refuses a change of the game recorded at table t of round
// n once the table has a result, of any revision: a result saved from the
// record must stay what the record says, and a correction is the score
// sheet's. The store checks it again in the transaction that writes the
// move.
func (t Table) checkGameOpen(n int) error {
	if t.Latest() != nil {
		return Conflict("game-has-result", fmt.Sprintf("%s has a result: its recorded game cannot change", tableSubject(n, t.Number)),
			map[string]any{"Round": n, "Table": t.Number})
	}
	return nil
}

// Sheet is the score sheet a finished recorded game gives: each player's
// VP with its breakdown as the rules engine counts them (§11, one-point
// cards included), and the player who declared victory, or none when the
// time signal ended the game (§12). A game not over yet has none.
func (g Game) Sheet() (ResultInput, error) {
	if !g.Over() {
		return ResultInput{}, invalid("game-not-over", tableSubject(g.Round, g.Table)+": the recorded game has not ended",
			map[string]any{"Round": g.Round, "Table": g.Table})
	}
	st := g.State()
	var in ResultInput
	for i, id := range g.Players {
		vp := st.VP(i)
		b := vp.Breakdown()
		in.Scores = append(in.Scores, Score{PlayerID: id, VP: vp.Total(), Breakdown: &b})
	}
	if w := st.Winner(); w >= 0 {
		in.Declared = g.Players[w]
	}
	return in, nil
}

// saveGameResult saves the result of table number of round n from its
// recorded game, once it has ended: the sheet the record gives (Sheet),
// checked and saved as SaveResult saves a judge's, with the same rules (a
// correction needs its reason, a stale version is a conflict), as a
// revision that says it came from the record. A record changed since the
// judge saw it (in.Moves) is a *StaleError.
func (s *Service) saveGameResult(ctx context.Context, judge string, tournamentID int64, n, number int, in GameResultInput) (TableResult, error) {
	e, t, err := s.openTable(ctx, judge, tournamentID, n, number)
	if err != nil {
		return TableResult{}, err
	}
	g, specs, err := s.gameAt(ctx, e.t.Ruleset, n, t)
	if err != nil {
		return TableResult{}, err
	}
	if err := g.checkStale(in.Moves); err != nil {
		return TableResult{}, err
	}
	if err := g.play(e.t.Ruleset, specs); err != nil {
		return TableResult{}, err
	}
	sheet, err := g.Sheet()
	if err != nil {
		return TableResult{}, err
	}
	sheet.Version, sheet.Reason, sheet.LateReason = in.Version, in.Reason, in.LateReason
	return s.saveResult(ctx, e, judge, n, number, sheet, len(g.Moves))
}

// gameAt reads the game recorded at table t of round n, not yet played,
// and its moves as the engine reads them.
func (s *Service) gameAt(ctx context.Context, rs referee.Ruleset, n int, t Table) (Game, []game.MoveSpec, error) {
	args := map[string]any{"Round": n, "Table": t.Number}
	switch {
	case t.Seating == nil:
		return Game{}, nil, Conflict("game-not-seated", tableSubject(n, t.Number)+": a game is recorded once the play order is decided", args)
	case t.Board == nil:
		return Game{}, nil, Conflict("game-no-board", tableSubject(n, t.Number)+": a game is recorded on the table's board, not set up yet", args)
	}
	board, err := boardOf(rs, *t.Board)
	if err != nil {
		return Game{}, nil, fmt.Errorf("%s: %w", tableSubject(n, t.Number), err)
	}
	moves, err := s.store.GameMoves(ctx, t.ID)
	if err != nil {
		return Game{}, nil, err
	}
	specs := make([]game.MoveSpec, len(moves))
	for i, m := range moves {
		specs[i] = m.Move
	}
	g := Game{TableID: t.ID, Round: n, Table: t.Number, Players: playOrder(t), Board: board, Moves: moves, Result: t.Result}
	return g, specs, nil
}

// play plays the moves specs through the rules engine into g. The moves
// recorded were each played when entered: a refusal of one of them is an
// error of the record, not of the request. A refusal of a move beyond
// them (the one being entered) is that move's *game.Error, with its place.
func (g *Game) play(rs referee.Ruleset, specs []game.MoveSpec) error {
	played, err := game.Play(rs, g.Board, pids(g.Players), specs)
	if err != nil {
		return err
	}
	if e := played.Err; e != nil {
		if e.Index < len(g.Moves) {
			return fmt.Errorf("%s: the recorded game does not replay at move %d: %v", tableSubject(g.Round, g.Table), e.Index+1, e)
		}
		return e
	}
	g.Played = played
	g.Evaluation, err = played.Evaluate(rs)
	return err
}

// checkStale refuses a change decided on a record of expected moves when
// the record has another number of moves now.
func (g Game) checkStale(expected int) error {
	if expected == len(g.Moves) {
		return nil
	}
	se := &StaleError{Record: RecordGame, Expected: expected, Current: len(g.Moves)}
	if k := len(g.Moves); k > 0 {
		se.Judge, se.At = g.Moves[k-1].Judge, g.Moves[k-1].At
	}
	return se
}
