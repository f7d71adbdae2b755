package tournament

import (
	"context"
	"errors"
	"maps"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
)

// aboutFinal marks a refusal about a stage of the final (the round its
// Args["Round"] names) with Args["Final"], so that the pages name it 決勝
// (決勝卓 for its table) rather than by its number (issue 24). Any other
// error passes as it is.
func (s *Service) aboutFinal(ctx context.Context, tournamentID int64, err error) error {
	var v *referee.Violation
	if err == nil || !errors.As(err, &v) {
		return err
	}
	n, ok := v.Args["Round"].(int)
	if !ok || n < 1 {
		return err
	}
	if r, rerr := s.store.Round(ctx, tournamentID, n); rerr != nil || r.Mode != ModeFinal {
		return err
	}
	args := maps.Clone(v.Args)
	args["Final"] = true
	v.Args = args
	return err
}

// The use cases of a round's tables, whose refusals name the final as the
// final (aboutFinal); each is described at the function it calls.

// ClockAction records a judge's action on round n's clock (clockAction).
func (s *Service) ClockAction(ctx context.Context, judge string, tournamentID int64, n int, in ClockInput) (Clock, error) {
	c, err := s.clockAction(ctx, judge, tournamentID, n, in)
	return c, s.aboutFinal(ctx, tournamentID, err)
}

// SaveResult saves a table's score sheet (recordResult).
func (s *Service) SaveResult(ctx context.Context, judge string, tournamentID int64, n, number int, in ResultInput) (TableResult, error) {
	r, err := s.recordResult(ctx, judge, tournamentID, n, number, in)
	return r, s.aboutFinal(ctx, tournamentID, err)
}

// PreviewResult checks a score sheet as SaveResult would (previewResult).
func (s *Service) PreviewResult(ctx context.Context, tournamentID int64, n, number int, in ResultInput) (TableResult, error) {
	r, err := s.previewResult(ctx, tournamentID, n, number, in)
	return r, s.aboutFinal(ctx, tournamentID, err)
}

// CheckSheet reads a score sheet's lines as the service counts them
// (checkSheet).
func (s *Service) CheckSheet(ctx context.Context, tournamentID int64, n, number int, in ResultInput) ([]Score, error) {
	sc, err := s.checkSheet(ctx, tournamentID, n, number, in)
	return sc, s.aboutFinal(ctx, tournamentID, err)
}

// SetSeating records a table's play order and colours (setSeating).
func (s *Service) SetSeating(ctx context.Context, judge string, tournamentID int64, n, number int, in SeatingInput) (Table, error) {
	t, err := s.setSeating(ctx, judge, tournamentID, n, number, in)
	return t, s.aboutFinal(ctx, tournamentID, err)
}

// SetBoard records a table's board (setBoard).
func (s *Service) SetBoard(ctx context.Context, judge string, tournamentID int64, n, number int, in BoardInput) (Table, error) {
	t, err := s.setBoard(ctx, judge, tournamentID, n, number, in)
	return t, s.aboutFinal(ctx, tournamentID, err)
}

// SetDeal records a table's number chips dealt by hand (setDeal).
func (s *Service) SetDeal(ctx context.Context, judge string, tournamentID int64, n, number int, in DealInput) (Table, error) {
	t, err := s.setDeal(ctx, judge, tournamentID, n, number, in)
	return t, s.aboutFinal(ctx, tournamentID, err)
}

// Game returns the game recorded at a table (recordedGame).
func (s *Service) Game(ctx context.Context, tournamentID int64, n, number int) (Game, error) {
	g, err := s.recordedGame(ctx, tournamentID, n, number)
	return g, s.aboutFinal(ctx, tournamentID, err)
}

// AppendMove records a move of a table's game (appendMove).
func (s *Service) AppendMove(ctx context.Context, judge string, tournamentID int64, n, number int, in MoveInput) (Game, *game.Error, error) {
	g, ge, err := s.appendMove(ctx, judge, tournamentID, n, number, in)
	return g, ge, s.aboutFinal(ctx, tournamentID, err)
}

// UndoMove undoes the last move of a table's game (undoMove).
func (s *Service) UndoMove(ctx context.Context, judge string, tournamentID int64, n, number, last int) (Game, error) {
	g, err := s.undoMove(ctx, judge, tournamentID, n, number, last)
	return g, s.aboutFinal(ctx, tournamentID, err)
}

// SaveGameResult saves a table's result from its recorded game
// (saveGameResult).
func (s *Service) SaveGameResult(ctx context.Context, judge string, tournamentID int64, n, number int, in GameResultInput) (TableResult, error) {
	r, err := s.saveGameResult(ctx, judge, tournamentID, n, number, in)
	return r, s.aboutFinal(ctx, tournamentID, err)
}

// ReportResult takes a player's report of their table (reportResult).
func (s *Service) ReportResult(ctx context.Context, tournamentID int64, n, number int, player int64, code string, in ReportInput) (Report, error) {
	r, err := s.reportResult(ctx, tournamentID, n, number, player, code, in)
	return r, s.aboutFinal(ctx, tournamentID, err)
}

// RecordPenalty records a judge's penalty (recordPenalty).
func (s *Service) RecordPenalty(ctx context.Context, judge string, tournamentID int64, in PenaltyInput) (Penalty, error) {
	p, err := s.recordPenalty(ctx, judge, tournamentID, in)
	return p, s.aboutFinal(ctx, tournamentID, err)
}

// CloseTournament closes a tournament whose every table has its result
// (closeTournament).
func (s *Service) CloseTournament(ctx context.Context, judge string, id int64) (Tournament, error) {
	t, err := s.closeTournament(ctx, judge, id)
	return t, s.aboutFinal(ctx, id, err)
}

// RepairRound pairs the latest round again (repairRound); a final stage
// is refused, as the final.
func (s *Service) RepairRound(ctx context.Context, judge string, tournamentID int64, n int) (Round, error) {
	r, err := s.repairRound(ctx, judge, tournamentID, n)
	return r, s.aboutFinal(ctx, tournamentID, err)
}

// MakeFinal makes the next stage of a top-cut final (makeFinal).
func (s *Service) MakeFinal(ctx context.Context, judge string, tournamentID int64) (Round, error) {
	r, err := s.makeFinal(ctx, judge, tournamentID)
	return r, s.aboutFinal(ctx, tournamentID, err)
}
