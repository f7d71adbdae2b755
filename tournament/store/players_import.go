package store

import (
	"context"
	"fmt"

	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// importBatch is how many players one INSERT carries: SQLite allows 32766
// bound values per statement, and a player row has 8 columns.
const importBatch = 500

// AddPlayers implements tournament.Store.
func (s *Store) AddPlayers(ctx context.Context, ps []*tournament.Player, from tournament.Progress, c tournament.Change) error {
	if len(ps) == 0 {
		return nil
	}
	tid := ps[0].TournamentID
	for _, p := range ps {
		if p.TournamentID != tid {
			return fmt.Errorf("add players: %w: players of tournaments %d and %d in one import", tournament.ErrInvalid, tid, p.TournamentID)
		}
	}
	return s.tx(ctx, "add players", func(tx *Tx) error {
		rows := make([]playerRow, len(ps))
		for i, p := range ps {
			rows[i] = newPlayerRow(*p)
			rows[i].ID = 0
		}
		if err := tx.lock(tid); err != nil {
			return err
		}
		if err := checkProgress(tx.DB, tid, &from); err != nil {
			return err
		}
		if err := tx.Omit(clause.Associations).CreateInBatches(&rows, importBatch).Error; err != nil {
			return err
		}
		for i := range rows {
			ps[i].ID = rows[i].ID
		}
		return tx.audit(tid, c)
	})
}
