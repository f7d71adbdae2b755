package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// roundSnapshot is everything recorded of one round, row by row: what an
// undone round's audit entry keeps (as its Before) so that RestoreRound
// can write it back as it was, IDs included.
type roundSnapshot struct {
	Round      roundRow
	Tables     []tableRow
	Seats      []tablePlayerRow
	Byes       []byeRow
	Amendments []amendmentRow
	Results    []resultRow
	Scores     []scoreRow
	Rulings    []rulingRow
	Clock      []clockEventRow
	Moves      []gameMoveRow
	Reports    []reportRow
	Penalties  []penaltyRow
}

// recorded says whether anything was recorded at the round's tables: a
// seating, a board, a result, a report, a ruling, a recorded move, a
// clock event or a penalty in its games.
func (s roundSnapshot) recorded() bool {
	for _, t := range s.Tables {
		if t.Seating != "" || t.Board != "" {
			return true
		}
	}
	return len(s.Results)+len(s.Reports)+len(s.Rulings)+len(s.Moves)+len(s.Clock)+len(s.Penalties) > 0
}

// counts says what the snapshot holds.
func (s roundSnapshot) counts() tournament.UndoneRound {
	return tournament.UndoneRound{Round: s.Round.Number, Tables: len(s.Tables), Results: len(s.Results), Reports: len(s.Reports),
		Penalties: len(s.Penalties), GameMoves: len(s.Moves), Rulings: len(s.Rulings)}
}

// readSnapshot reads round number n of a tournament, row by row.
func readSnapshot(tx *gorm.DB, tid int64, n int) (roundSnapshot, error) {
	var s roundSnapshot
	if err := tx.Where("tournament_id = ? AND number = ?", tid, n).Take(&s.Round).Error; err != nil {
		return s, err
	}
	rid := s.Round.ID
	tables := tx.Model(&tableRow{}).Select("id").Where("round_id = ?", rid)
	results := tx.Model(&resultRow{}).Select("id").Where("table_id IN (?)", tables)
	for _, q := range []struct {
		dst   any
		where string
		arg   any
	}{
		{&s.Tables, "round_id = ?", rid},
		{&s.Seats, "round_id = ?", rid},
		{&s.Byes, "round_id = ?", rid},
		{&s.Amendments, "round_id = ?", rid},
		{&s.Results, "table_id IN (?)", tables},
		{&s.Scores, "result_id IN (?)", results},
		{&s.Rulings, "table_id IN (?)", tables},
		{&s.Clock, "round_id = ?", rid},
		{&s.Moves, "table_id IN (?)", tables},
		{&s.Reports, "table_id IN (?)", tables},
	} {
		if err := tx.Where(q.where, q.arg).Order("id").Find(q.dst).Error; err != nil {
			return s, err
		}
	}
	err := tx.Where("tournament_id = ? AND round = ?", tid, n).Order("id").Find(&s.Penalties).Error
	return s, err
}

// UndoRound implements tournament.Store.
func (s *Store) UndoRound(ctx context.Context, tid int64, n int, check func(latest int, recorded bool) error, c tournament.Change) (tournament.UndoneRound, error) {
	var out tournament.UndoneRound
	err := s.tx(ctx, fmt.Sprintf("undo round %d", n), func(tx *Tx) error {
		if err := tx.lock(tid); err != nil {
			return err
		}
		latest, err := latestRound(tx.DB, tid)
		if err != nil {
			return err
		}
		if latest != n {
			return check(latest, false)
		}
		snap, err := readSnapshot(tx.DB, tid, n)
		if err != nil {
			return err
		}
		if err := check(latest, snap.recorded()); err != nil {
			return err
		}
		// Children first: the foreign keys restrict deleting a table
		// with results, a result with scores.
		del := []struct {
			model any
			ids   []int64
		}{
			{&scoreRow{}, ids(snap.Scores, func(r scoreRow) int64 { return r.ID })},
			{&resultRow{}, ids(snap.Results, func(r resultRow) int64 { return r.ID })},
			{&reportRow{}, ids(snap.Reports, func(r reportRow) int64 { return r.ID })},
			{&rulingRow{}, ids(snap.Rulings, func(r rulingRow) int64 { return r.ID })},
			{&gameMoveRow{}, ids(snap.Moves, func(r gameMoveRow) int64 { return r.ID })},
			{&clockEventRow{}, ids(snap.Clock, func(r clockEventRow) int64 { return r.ID })},
			{&penaltyRow{}, ids(snap.Penalties, func(r penaltyRow) int64 { return r.ID })},
			{&amendmentRow{}, ids(snap.Amendments, func(r amendmentRow) int64 { return r.ID })},
			{&byeRow{}, ids(snap.Byes, func(r byeRow) int64 { return r.ID })},
			{&tablePlayerRow{}, ids(snap.Seats, func(r tablePlayerRow) int64 { return r.ID })},
			{&tableRow{}, ids(snap.Tables, func(r tableRow) int64 { return r.ID })},
			{&roundRow{}, []int64{snap.Round.ID}},
		}
		for _, d := range del {
			if len(d.ids) == 0 {
				continue
			}
			if err := tx.Where("id IN ?", d.ids).Delete(d.model).Error; err != nil {
				return err
			}
		}
		out = snap.counts()
		if u, ok := c.After.(tournament.UndoneRound); ok {
			out.Reason = u.Reason
		}
		c.Before, c.After = snap, out
		return tx.audit(tid, c)
	})
	return out, err
}

// RestoreRound implements tournament.Store.
func (s *Store) RestoreRound(ctx context.Context, tid int64, n int, c tournament.Change) (tournament.UndoneRound, error) {
	var out tournament.UndoneRound
	err := s.tx(ctx, fmt.Sprintf("restore round %d", n), func(tx *Tx) error {
		if err := tx.lock(tid); err != nil {
			return err
		}
		latest, err := latestRound(tx.DB, tid)
		if err != nil {
			return err
		}
		if latest != n-1 {
			return tournament.Conflict("round-not-restorable", fmt.Sprintf("round %d cannot be restored after round %d", n, latest),
				map[string]any{"Round": n, "Latest": latest})
		}
		var entries []auditRow
		if err := tx.Where("tournament_id = ? AND action = ?", tid, tournament.ActionUndoRound).Order("id DESC").Find(&entries).Error; err != nil {
			return err
		}
		var snap roundSnapshot
		found := false
		for _, e := range entries {
			if err := json.Unmarshal([]byte(e.Before), &snap); err == nil && snap.Round.Number == n {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("undone round %d of tournament %d: %w", n, tid, tournament.ErrNotFound)
		}
		for _, rows := range []any{
			&snap.Round, snap.Tables, snap.Seats, snap.Byes, snap.Amendments, snap.Results, snap.Scores,
			snap.Rulings, snap.Clock, snap.Moves, snap.Reports, snap.Penalties,
		} {
			if empty(rows) {
				continue
			}
			if err := tx.Omit(clause.Associations).Create(rows).Error; err != nil {
				if errors.Is(err, gorm.ErrForeignKeyViolated) {
					return tournament.Conflict("round-not-restorable", fmt.Sprintf("round %d names a player or table no longer there", n),
						map[string]any{"Round": n, "Latest": latest})
				}
				return err
			}
		}
		out = snap.counts()
		c.After = out
		return tx.audit(tid, c)
	})
	return out, err
}

// ids lists the IDs of rows.
func ids[T any](rows []T, id func(T) int64) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = id(r)
	}
	return out
}

// empty says whether rows, a slice of rows, has none.
func empty(rows any) bool {
	v := reflect.ValueOf(rows)
	return v.Kind() == reflect.Slice && v.Len() == 0
}

// LastAuditEntry implements tournament.Store.
func (s *Store) LastAuditEntry(ctx context.Context, tid int64, action string) (tournament.AuditEntry, bool, error) {
	var rows []auditRow
	if err := s.db.WithContext(ctx).Where("tournament_id = ? AND action = ?", tid, action).Order("id DESC").Limit(1).Find(&rows).Error; err != nil {
		return tournament.AuditEntry{}, false, wrap("audit log", err)
	}
	if len(rows) == 0 {
		return tournament.AuditEntry{}, false, nil
	}
	return rows[0].entry(), true, nil
}

// latestRound is the number of a tournament's latest round, 0 for none.
func latestRound(tx *gorm.DB, tid int64) (int, error) {
	var n int
	err := tx.Model(&roundRow{}).Select("COALESCE(MAX(number), 0)").Where("tournament_id = ?", tid).Scan(&n).Error
	return n, err
}
