package store

import (
	"context"
	"fmt"

	"github.com/catanjudge/catanjudge/tournament"
)

// RemakeFinal implements tournament.Store.
func (s *Store) RemakeFinal(ctx context.Context, r *tournament.Round, from tournament.Round, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("remake round %d", r.Number), func(tx *Tx) error {
		if err := tx.lock(r.TournamentID); err != nil {
			return err
		}
		var row roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", r.TournamentID, from.Number).Take(&row).Error; err != nil {
			return err
		}
		var later int64
		if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number > ?", r.TournamentID, from.Number).Count(&later).Error; err != nil {
			return err
		}
		if row.ID != from.ID || later > 0 || r.Number != from.Number {
			return tournament.Conflict("round-changed", fmt.Sprintf("round %d changed meanwhile", from.Number), map[string]any{"Round": from.Number})
		}
		var tables []tableRow
		if err := tx.Where("round_id = ?", row.ID).Find(&tables).Error; err != nil {
			return err
		}
		ids := make([]int64, len(tables))
		for i, t := range tables {
			ids[i] = t.ID
		}
		var results int64
		if err := tx.Model(&resultRow{}).Where("table_id IN ?", ids).Count(&results).Error; err != nil {
			return err
		}
		if results > 0 {
			return tournament.Conflict("final-has-result", fmt.Sprintf("round %d has a result: the final is played", from.Number), map[string]any{"Round": from.Number})
		}
		// Everything recorded at the old tables goes with them.
		for _, m := range []any{&clockEventRow{}, &tablePlayerRow{}, &byeRow{}, &amendmentRow{}} {
			if err := tx.Where("round_id = ?", row.ID).Delete(m).Error; err != nil {
				return err
			}
		}
		for _, m := range []any{&reportRow{}, &gameMoveRow{}, &rulingRow{}} {
			if err := tx.Where("table_id IN ?", ids).Delete(m).Error; err != nil {
				return err
			}
		}
		if err := tx.Where("round_id = ?", row.ID).Delete(&tableRow{}).Error; err != nil {
			return err
		}
		cut, err := encodeCut(r.Cut)
		if err != nil {
			return err
		}
		err = tx.Model(&row).Updates(map[string]any{
			"mode": r.Mode, "seed": int64(r.Seed), "repeats": r.Repeats, "cut": cut,
			"paired_by": r.PairedBy, "paired_at": r.PairedAt.UTC(),
		}).Error
		if err != nil {
			return err
		}
		r.ID, r.Amendments = row.ID, nil
		if err := insertPairing(tx.DB, r, nil); err != nil {
			return err
		}
		return tx.audit(r.TournamentID, c)
	})
}
