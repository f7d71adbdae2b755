package store

import (
	"context"
	"encoding/json"
	"fmt"

	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// AddRuling implements tournament.Store: the ruling and its audit entry in
// one transaction.
func (s *Store) AddRuling(ctx context.Context, r *tournament.Ruling, c tournament.Change) error {
	return s.tableTx(ctx, fmt.Sprintf("add ruling at table %d", r.TableID), r.TableID, func(tx *Tx) error {
		tid, err := tx.lockTable(r.TableID)
		if err != nil {
			return err
		}
		steps, answer, err := tournament.EncodeRulingParts(*r)
		if err != nil {
			return err
		}
		players, err := json.Marshal(r.Players)
		if err != nil {
			return err
		}
		row := rulingRow{TableID: r.TableID, Players: string(players), Steps: steps, Answer: answer, Note: r.Note, Judge: r.Judge, At: r.At.UTC()}
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		r.ID = row.ID
		return tx.audit(tid, c)
	})
}

// Rulings implements tournament.Store.
func (s *Store) Rulings(ctx context.Context, tableID int64) ([]tournament.Ruling, error) {
	what := fmt.Sprintf("rulings at table %d", tableID)
	var rows []rulingRow
	if err := s.db.WithContext(ctx).Where("table_id = ?", tableID).Order("id").Find(&rows).Error; err != nil {
		return nil, wrap(what, err)
	}
	out := make([]tournament.Ruling, len(rows))
	for i, row := range rows {
		r := tournament.Ruling{ID: row.ID, TableID: row.TableID, Note: row.Note, Judge: row.Judge, At: row.At}
		if err := json.Unmarshal([]byte(row.Players), &r.Players); err != nil {
			return nil, wrap(what, err)
		}
		if err := tournament.DecodeRulingParts(row.Steps, row.Answer, &r); err != nil {
			return nil, wrap(what, err)
		}
		out[i] = r
	}
	return out, nil
}
