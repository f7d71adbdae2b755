package store

import (
	"context"
	"fmt"
	"slices"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// Late entries, substitutes and no-shows (issue 30): players seated at a
// round already paired, and a player taken from their table.

// SeatPlayers implements tournament.Store.
func (s *Store) SeatPlayers(ctx context.Context, r *tournament.Round, from tournament.Round, ps []tournament.Player, wholeRound bool, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("seat players in round %d", r.Number), func(tx *Tx) error {
		if err := tx.lock(r.TournamentID); err != nil {
			return err
		}
		var row roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", r.TournamentID, r.Number).Take(&row).Error; err != nil {
			return err
		}
		if err := checkPairing(tx.DB, row, from); err != nil {
			return err
		}
		if wholeRound {
			started, err := roundStarted(tx.DB, row.ID)
			if err != nil {
				return err
			}
			if started {
				return tournament.Conflict("round-started", fmt.Sprintf("round %d has started", r.Number), map[string]any{"Round": r.Number})
			}
		}
		var tables []tableRow
		if err := tx.Where("round_id = ?", row.ID).Order("number").Find(&tables).Error; err != nil {
			return err
		}
		r.ID = row.ID
		for i := range r.Tables {
			if err := seatAt(tx.DB, row, tables, &r.Tables[i]); err != nil {
				return err
			}
		}
		if err := writeScore(tx.DB, row, *r); err != nil {
			return err
		}
		for _, p := range ps {
			if err := writeLate(tx.DB, p); err != nil {
				return err
			}
		}
		return tx.audit(r.TournamentID, c)
	})
}

// seatAt writes table t of round row as SeatPlayers does: a table of the
// round gets its new players after those it has, once checked open; a
// table number the round lacks is a new table.
func seatAt(tx *gorm.DB, row roundRow, tables []tableRow, t *tournament.Table) error {
	i := slices.IndexFunc(tables, func(tr tableRow) bool { return tr.Number == t.Number })
	var have []int64
	if i < 0 {
		nt := tableRow{RoundID: row.ID, Number: t.Number}
		if err := tx.Omit(clause.Associations).Create(&nt).Error; err != nil {
			return err
		}
		t.ID = nt.ID
	} else {
		t.ID = tables[i].ID
		if err := tx.Model(&tablePlayerRow{}).Where("table_id = ?", t.ID).Order("position").Pluck("player_id", &have).Error; err != nil {
			return err
		}
		if len(have) == len(t.Players) {
			return nil
		}
		if !slices.Equal(have, t.Players[:min(len(have), len(t.Players))]) {
			return fmt.Errorf("%w: table %d's players %v are not kept at the start of %v", tournament.ErrInvalid, t.Number, have, t.Players)
		}
		if err := checkTableOpen(tx, row.Number, tables[i], true); err != nil {
			return err
		}
	}
	t.RoundID = row.ID
	for k := len(have); k < len(t.Players); k++ {
		tp := tablePlayerRow{RoundID: row.ID, TableID: t.ID, PlayerID: t.Players[k], Position: k}
		if err := tx.Omit(clause.Associations).Create(&tp).Error; err != nil {
			return err
		}
	}
	return nil
}

// writeLate writes the columns of p a late entry, a substitute's mark or
// a no-show change.
func writeLate(tx *gorm.DB, p tournament.Player) error {
	now := newPlayerRow(p)
	res := tx.Model(&playerRow{}).Where("id = ? AND tournament_id = ?", p.ID, p.TournamentID).Updates(map[string]any{
		"checked_in": now.CheckedIn, "late_entry_round": now.LateEntryRound, "late_join": now.LateJoin,
		"dropped_round": now.DroppedRound, "no_show_round": now.NoShowRound,
	})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("player %d of tournament %d: %w", p.ID, p.TournamentID, tournament.ErrNotFound)
	}
	return nil
}

// LeaveTable implements tournament.Store.
func (s *Store) LeaveTable(ctx context.Context, r tournament.Round, number int, p tournament.Player, c tournament.Change) error {
	tid, n := r.TournamentID, r.Number
	return s.tx(ctx, fmt.Sprintf("take player %d from round %d table %d", p.ID, n, number), func(tx *Tx) error {
		if err := tx.lock(tid); err != nil {
			return err
		}
		var t tableRow
		err := tx.Where("number = ? AND round_id = (SELECT id FROM rounds WHERE tournament_id = ? AND number = ?)", number, tid, n).Take(&t).Error
		if err != nil {
			return err
		}
		if err := checkTableOpen(tx.DB, n, t, false); err != nil {
			return err
		}
		res := tx.Where("table_id = ? AND player_id = ?", t.ID, p.ID).Delete(&tablePlayerRow{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return tournament.Conflict("round-changed", fmt.Sprintf("player %d no longer sits at round %d table %d", p.ID, n, number),
				map[string]any{"Round": n})
		}
		if err := tx.Model(&t).Update("seating", "").Error; err != nil {
			return err
		}
		if err := writeScore(tx.DB, roundRow{ID: t.RoundID}, r); err != nil {
			return err
		}
		if err := writeLate(tx.DB, p); err != nil {
			return err
		}
		return tx.audit(tid, c)
	})
}

// writeScore writes round row's repeats and pairing cost as r gives them.
func writeScore(tx *gorm.DB, row roundRow, r tournament.Round) error {
	return tx.Model(&roundRow{}).Where("id = ?", row.ID).Updates(map[string]any{
		"repeats": r.Repeats, "cost_meetings": r.Cost.Meetings,
		"cost_exposure": r.Cost.Exposure, "cost_standings": r.Cost.Standings,
	}).Error
}
