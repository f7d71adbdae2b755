package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/referee"
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

// moveJSON is a recorded move as the store keeps it, in the record
// format's names (those of the JSON API), with only the fields the move
// sets: a list or a map given empty stays empty, and absent stays absent,
// as the rules engine reads them apart.
type moveJSON struct {
	Do         string          `json:"do"`
	Player     string          `json:"player,omitempty"`
	Settlement string          `json:"settlement,omitempty"`
	City       string          `json:"city,omitempty"`
	Road       *[]string       `json:"road,omitempty"`
	Roads      *[][]string     `json:"roads,omitempty"`
	Dice       *[]int          `json:"dice,omitempty"`
	Cards      *map[string]int `json:"cards,omitempty"`
	Give       *map[string]int `json:"give,omitempty"`
	Get        *map[string]int `json:"get,omitempty"`
	Take       *map[string]int `json:"take,omitempty"`
	Hex        *hexJSON        `json:"hex,omitempty"`
	Rob        string          `json:"rob,omitempty"`
	Took       string          `json:"took,omitempty"`
	With       string          `json:"with,omitempty"`
	Card       string          `json:"card,omitempty"`
	Dev        string          `json:"dev,omitempty"`
	Resource   string          `json:"resource,omitempty"`
}

type hexJSON struct {
	Q int `json:"q"`
	R int `json:"r"`
}

// given points at v when it is set (not nil), else is nil.
func given[T any](v T, set bool) *T {
	if !set {
		return nil
	}
	return &v
}

// valueOf is what p points at, or the zero value for nil.
func valueOf[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func encodeMove(m game.MoveSpec) (string, error) {
	b, err := json.Marshal(moveJSON{
		Do: m.Do, Player: m.Player, Settlement: m.Settlement, City: m.City,
		Road: given(m.Road, m.Road != nil), Roads: given(m.Roads, m.Roads != nil), Dice: given(m.Dice, m.Dice != nil),
		Cards: given(m.Cards, m.Cards != nil), Give: given(m.Give, m.Give != nil), Get: given(m.Get, m.Get != nil),
		Take: given(m.Take, m.Take != nil), Hex: hexOf(m.Hex), Rob: m.Rob, Took: m.Took, With: m.With, Card: m.Card, Dev: m.Dev,
		Resource: m.Resource,
	})
	return string(b), err
}

func decodeMove(text string) (game.MoveSpec, error) {
	var j moveJSON
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return game.MoveSpec{}, err
	}
	m := game.MoveSpec{
		Do: j.Do, Player: j.Player, Settlement: j.Settlement, City: j.City,
		Road: valueOf(j.Road), Roads: valueOf(j.Roads), Dice: valueOf(j.Dice), Cards: valueOf(j.Cards), Give: valueOf(j.Give),
		Get: valueOf(j.Get), Take: valueOf(j.Take), Rob: j.Rob, Took: j.Took, With: j.With, Card: j.Card,
		Dev: j.Dev, Resource: j.Resource,
	}
	if j.Hex != nil {
		m.Hex = &referee.Hex{Q: j.Hex.Q, R: j.Hex.R}
	}
	return m, nil
}

func hexOf(h *referee.Hex) *hexJSON {
	if h == nil {
		return nil
	}
	return &hexJSON{Q: h.Q, R: h.R}
}

// AddGameMove implements tournament.Store: the move and its audit entry in
// one transaction, after the record's moves are counted under the
// tournament's lock.
func (s *Store) AddGameMove(ctx context.Context, tableID int64, m *tournament.GameMove, c tournament.Change) error {
	text, err := encodeMove(m.Move)
	if err != nil {
		return err
	}
	return s.tx(ctx, fmt.Sprintf("add move %d at table %d", m.Number, tableID), func(tx *Tx) error {
		tid, err := tournamentOfTable(tx.DB, tableID)
		if err != nil {
			return err
		}
		if err := tx.lock(tid); err != nil {
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
	return s.tx(ctx, fmt.Sprintf("undo move %d at table %d", number, tableID), func(tx *Tx) error {
		tid, err := tournamentOfTable(tx.DB, tableID)
		if err != nil {
			return err
		}
		if err := tx.lock(tid); err != nil {
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
