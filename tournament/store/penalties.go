package store

import (
	"context"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// AddPenalty implements tournament.Store.
func (s *Store) AddPenalty(ctx context.Context, p *tournament.Penalty, dropFrom int, from *tournament.Progress, c tournament.Change) error {
	return s.tx(ctx, "add penalty", func(tx *Tx) error {
		if err := tx.lock(p.TournamentID); err != nil {
			return err
		}
		if err := checkProgress(tx.DB, p.TournamentID, from); err != nil {
			return err
		}
		var player playerRow
		if err := tx.Take(&player, p.PlayerID).Error; err != nil {
			return err
		}
		if player.TournamentID != p.TournamentID {
			return fmt.Errorf("%w: player %d is not in tournament %d", tournament.ErrInvalid, p.PlayerID, p.TournamentID)
		}
		row := penaltyRow{
			TournamentID: p.TournamentID,
			PlayerID:     p.PlayerID,
			Round:        p.Round,
			TableNumber:  p.Table,
			Offence:      p.Offence,
			Level:        string(p.Level),
			Judge:        p.Judge,
			At:           p.At.UTC(),
			Note:         p.Note,
		}
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		p.ID, p.Revoked = row.ID, nil
		if dropFrom > 0 && (player.DroppedRound == 0 || player.DroppedRound > dropFrom) {
			if err := tx.Model(&player).Update("dropped_round", dropFrom).Error; err != nil {
				return err
			}
		}
		return tx.audit(p.TournamentID, c)
	})
}

// RevokePenalty implements tournament.Store.
func (s *Store) RevokePenalty(ctx context.Context, id int64, r tournament.Revocation, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("revoke penalty %d", id), func(tx *Tx) error {
		var row penaltyRow
		if err := lockTournamentOf(tx, &row, id); err != nil {
			return err
		}
		if row.RevokedAt != nil {
			return tournament.Conflict("penalty-revoked", fmt.Sprintf("penalty %d was revoked by %s", id, row.RevokedBy),
				map[string]any{"Judge": row.RevokedBy})
		}
		at := r.At.UTC()
		res := tx.Model(&penaltyRow{}).Where("id = ? AND revoked_at IS NULL", id).Updates(map[string]any{
			"revoked_by": r.Judge, "revoked_at": &at, "revoke_reason": r.Reason,
		})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return tournament.Conflict("penalty-revoked", fmt.Sprintf("penalty %d is already revoked", id), map[string]any{"Judge": ""})
		}
		return tx.audit(row.TournamentID, c)
	})
}

// Penalty implements tournament.Store.
func (s *Store) Penalty(ctx context.Context, id int64) (tournament.Penalty, error) {
	var row penaltyRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		return tournament.Penalty{}, wrap(fmt.Sprintf("penalty %d", id), err)
	}
	return row.penalty(), nil
}

// Penalties implements tournament.Store.
func (s *Store) Penalties(ctx context.Context, tournamentID int64) ([]tournament.Penalty, error) {
	ps, err := penaltiesOf(s.db.WithContext(ctx), tournamentID)
	return ps, wrap(fmt.Sprintf("penalties of tournament %d", tournamentID), err)
}

// penaltiesOf reads a tournament's penalties, oldest first.
func penaltiesOf(db *gorm.DB, tournamentID int64) ([]tournament.Penalty, error) {
	var rows []penaltyRow
	if err := db.Where("tournament_id = ?", tournamentID).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]tournament.Penalty, len(rows))
	for i, r := range rows {
		out[i] = r.penalty()
	}
	return out, nil
}

// AddClockEvent implements tournament.Store.
func (s *Store) AddClockEvent(ctx context.Context, e *tournament.ClockEvent, c tournament.Change) error {
	return s.tx(ctx, "add clock event", func(tx *Tx) error {
		var round roundRow
		if err := lockTournamentOf(tx, &round, e.RoundID); err != nil {
			return err
		}
		if e.TableID != 0 {
			var n int64
			if err := tx.Model(&tableRow{}).Where("id = ? AND round_id = ?", e.TableID, e.RoundID).Count(&n).Error; err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("%w: table %d is not in round %d", tournament.ErrInvalid, e.TableID, round.Number)
			}
		}
		row := clockEventRow{
			RoundID: e.RoundID, TableID: nullID(e.TableID), Kind: e.Kind,
			Seconds: e.Seconds, PlayerID: e.PlayerID, Reason: e.Reason, Judge: e.Judge, At: e.At.UTC(),
		}
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		e.ID = row.ID
		return tx.audit(round.TournamentID, c)
	})
}

// ClockEvents implements tournament.Store.
func (s *Store) ClockEvents(ctx context.Context, roundID int64) ([]tournament.ClockEvent, error) {
	var rows []clockEventRow
	if err := s.db.WithContext(ctx).Where("round_id = ?", roundID).Order("at, id").Find(&rows).Error; err != nil {
		return nil, wrap(fmt.Sprintf("clock of round %d", roundID), err)
	}
	out := make([]tournament.ClockEvent, len(rows))
	for i, r := range rows {
		out[i] = r.event()
	}
	return out, nil
}
