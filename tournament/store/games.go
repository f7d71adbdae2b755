package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament"
)

// gameMoveRow is one move of a table's recorded game (schema version 7).
// The unique index on (table_id, number) is what lets only one of two
// moves entered at once on the same record be stored.
type gameMoveRow struct {
	ID      int64     `gorm:"primaryKey"`
	TableID int64     `gorm:"not null;uniqueIndex:idx_game_move,priority:1"`
	Table   *tableRow `gorm:"constraint:OnDelete:CASCADE"`
	Number  int       `gorm:"not null;uniqueIndex:idx_game_move,priority:2"`
	Move    string    `gorm:"not null"` // JSON of moveJSON
	Judge   string    `gorm:"not null"`
	At      time.Time `gorm:"not null"`
}

func (gameMoveRow) TableName() string { return "game_moves" }

func encodeMove(m game.MoveSpec) (string, error) {
	b, err := json.Marshal(m)
	return string(b), err
}

func decodeMove(text string) (game.MoveSpec, error) {
	var m game.MoveSpec
	err := json.Unmarshal([]byte(text), &m)
	return m, err
}

// AddGameMove implements tournament.Store: the move and its audit entry in
// one transaction, after the record's moves are counted under the
// tournament's lock.
func (s *Store) AddGameMove(ctx context.Context, tableID int64, m *tournament.GameMove, c tournament.Change) error {
	text, err := encodeMove(m.Move)
	if err != nil {
		return err
	}
	return s.tableTx(ctx, fmt.Sprintf("add move %d at table %d", m.Number, tableID), tableID, func(tx *Tx) error {
		tid, err := tx.lockTable(tableID)
		if err != nil {
			return err
		}
		if err := checkGameOpen(tx.DB, tableID); err != nil {
			return err
		}
		if err := checkMoves(tx.DB, tableID, m.Number-1); err != nil {
			return err
		}
		row := gameMoveRow{TableID: tableID, Number: m.Number, Move: text, Judge: m.Judge, At: m.At.UTC()}
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		return tx.audit(tid, c)
	})
}

// UndoGameMove implements tournament.Store.
func (s *Store) UndoGameMove(ctx context.Context, tableID int64, number int, c tournament.Change) error {
	return s.tableTx(ctx, fmt.Sprintf("undo move %d at table %d", number, tableID), tableID, func(tx *Tx) error {
		tid, err := tx.lockTable(tableID)
		if err != nil {
			return err
		}
		if err := checkGameOpen(tx.DB, tableID); err != nil {
			return err
		}
		if err := checkMoves(tx.DB, tableID, number); err != nil {
			return err
		}
		if err := tx.Where("table_id = ? AND number = ?", tableID, number).Delete(&gameMoveRow{}).Error; err != nil {
			return err
		}
		return tx.audit(tid, c)
	})
}

// checkGameOpen refuses a change of a table's recorded game once the
// table has a result: the result may have been saved from the record, and
// the record would no longer be what it was saved from.
func checkGameOpen(db *gorm.DB, tableID int64) error {
	var count int64
	if err := db.Model(&resultRow{}).Where("table_id = ?", tableID).Count(&count).Error; err != nil || count == 0 {
		return err
	}
	var at struct{ Round, Table int }
	err := db.Model(&tableRow{}).Select("rounds.number AS round, round_tables.number AS \"table\"").
		Joins("JOIN rounds ON rounds.id = round_tables.round_id").Where("round_tables.id = ?", tableID).Scan(&at).Error
	if err != nil {
		return err
	}
	return tournament.Conflict("game-has-result", fmt.Sprintf("round %d table %d has a result: its recorded game cannot change", at.Round, at.Table),
		map[string]any{"Round": at.Round, "Table": at.Table})
}

// checkMoves returns a *tournament.StaleError unless the table's recorded
// game has expected moves.
func checkMoves(db *gorm.DB, tableID int64, expected int) error {
	var last []gameMoveRow
	if err := db.Where("table_id = ?", tableID).Order("number DESC").Limit(1).Find(&last).Error; err != nil {
		return err
	}
	se := &tournament.StaleError{Record: tournament.RecordGame, Expected: expected}
	if len(last) > 0 {
		// Numbers run 1, 2, ... without gaps: the last is the count.
		se.Current, se.Judge, se.At = last[0].Number, last[0].Judge, last[0].At
	}
	if se.Current == expected {
		return nil
	}
	return se
}

// GameMoves implements tournament.Store.
func (s *Store) GameMoves(ctx context.Context, tableID int64) ([]tournament.GameMove, error) {
	what := fmt.Sprintf("moves at table %d", tableID)
	var rows []gameMoveRow
	if err := s.db.WithContext(ctx).Where("table_id = ?", tableID).Order("number").Find(&rows).Error; err != nil {
		return nil, wrap(what, err)
	}
	out := make([]tournament.GameMove, len(rows))
	for i, row := range rows {
		m, err := decodeMove(row.Move)
		if err != nil {
			return nil, wrap(what, fmt.Errorf("move %d: %w", row.Number, err))
		}
		out[i] = tournament.GameMove{Number: row.Number, Move: m, Judge: row.Judge, At: row.At}
	}
	return out, nil
}

// gameMoveCounts returns the number of moves of each table's recorded
// game that has one.
func gameMoveCounts(db *gorm.DB, tableIDs []int64) (map[int64]int, error) {
	out := map[int64]int{}
	if len(tableIDs) == 0 {
		return out, nil
	}
	var counts []struct {
		TableID int64
		N       int
	}
	err := db.Model(&gameMoveRow{}).Select("table_id, COUNT(*) AS n").Where("table_id IN ?", tableIDs).Group("table_id").Scan(&counts).Error
	for _, c := range counts {
		out[c.TableID] = c.N
	}
	return out, err
}
