package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// SaveResult implements tournament.Store. The version check runs inside the
// write transaction (BEGIN IMMEDIATE, so no other writer slips in between),
// and the unique (table_id, version) index backs it: of two saves of the
// same version exactly one wins, and the other gets a *ConflictError.
func (s *Store) SaveResult(ctx context.Context, tableID int64, expected int, r *tournament.Result, c tournament.Change) error {
	what := fmt.Sprintf("save result of table %d", tableID)
	err := s.tableTx(ctx, what, tableID, func(tx *Tx) error {
		tid, err := tx.lockTable(tableID)
		if err != nil {
			return err
		}
		if err := checkVersion(tx.DB, tableID, expected); err != nil {
			return err
		}
		if err := checkScorePlayers(tx.DB, tableID, r.Scores, c.Subject); err != nil {
			return err
		}
		row := resultRow{
			TableID:    tableID,
			Version:    expected + 1,
			DeclaredID: nullID(r.Declared),
			EndedBy:    r.EndedBy,
			Judge:      r.Judge,
			At:         r.At.UTC(),
			Reason:     r.Reason,
			LateReason: r.LateReason,
			EndedEarly: r.EndedEarly,
			ReportID:   r.ReportID,
			GameMoves:  r.GameMoves,
			// Saved under the two-person rule: it waits for another account.
			NeedsConfirm: r.NeedsConfirm,
		}
		if r.GameMoves > 0 {
			// Saved from the record as it was: not from one a judge has
			// added to or undone since.
			if err := checkMoves(tx.DB, tableID, r.GameMoves); err != nil {
				return err
			}
		}
		if r.ReportID != 0 {
			// The players' report becomes this revision in the same
			// transaction: accepted once, never beside a judge's sheet.
			if err := acceptReport(tx.DB, r.ReportID, tableID, expected+1, r.ReportSide); err != nil {
				return err
			}
		}
		if err := insertResult(tx.DB, &row, r.Scores); err != nil {
			return err
		}
		r.TableID, r.Version = tableID, row.Version
		return tx.audit(tid, c)
	})
	if errors.Is(err, tournament.ErrConflict) {
		var ce *tournament.ConflictError
		if !errors.As(err, &ce) {
			// The unique index refused a version another save took first.
			if cerr := checkVersion(s.db.WithContext(ctx), tableID, expected); cerr != nil {
				return cerr
			}
		}
	}
	return err
}

// insertResult inserts row, setting its ID, and its scores (direct.go).
func insertResult(db *gorm.DB, row *resultRow, scores []tournament.Score) error {
	err := directScan(db, resultsInsert,
		[]any{row.TableID, row.Version, row.DeclaredID, row.EndedBy, row.Judge, row.At, row.Reason, row.LateReason, row.EndedEarly,
			row.ReportID, row.GameMoves, row.NeedsConfirm, row.ConfirmedBy, row.ConfirmedAt, row.ConfirmReason}, &row.ID)
	if err != nil || len(scores) == 0 {
		return err
	}
	var q strings.Builder
	q.WriteString(scoresInsert)
	args := make([]any, 0, 9*len(scores))
	for i, sc := range scores {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
		s := newScoreRow(row.ID, i, sc)
		args = append(args, s.ResultID, s.PlayerID, s.Position, s.VP, s.Settlements, s.Cities, s.LongestRoad, s.LargestArmy, s.PointCards)
	}
	return directExec(db, q.String(), args...)
}

// checkScorePlayers reports scores that do not name each of the table's
// players once: the table changed since the judge read it.
func checkScorePlayers(tx *gorm.DB, tableID int64, scores []tournament.Score, subject string) error {
	var seated []int64
	rows, err := directQuery(tx, "SELECT player_id FROM table_players WHERE table_id = ? ORDER BY player_id", tableID)
	if err != nil {
		return err
	}
	var id int64
	if err := directRows(tx, rows, func() error {
		err := rows.Scan(&id)
		seated = append(seated, id)
		return err
	}); err != nil {
		return err
	}
	named := make([]int64, len(scores))
	for i, s := range scores {
		named[i] = s.PlayerID
	}
	slices.Sort(named)
	if !slices.Equal(seated, named) {
		var t tableRow
		var round roundRow
		if err := tx.Take(&t, tableID).Error; err != nil {
			return err
		}
		if err := tx.Take(&round, t.RoundID).Error; err != nil {
			return err
		}
		return tournament.Invalid("scores-not-the-table",
			fmt.Sprintf("%s: the scores name players %v, but the table seats %v", subject, named, seated),
			map[string]any{"Round": round.Number, "Table": t.Number})
	}
	return nil
}

// checkVersion returns a *ConflictError unless the latest revision of the
// table is expected (0 for none).
func checkVersion(db *gorm.DB, tableID int64, expected int) error {
	var v int
	if err := directScan(db, "SELECT COALESCE(MAX(version), 0) FROM results WHERE table_id = ?", []any{tableID}, &v); err != nil {
		return err
	}
	if v == expected {
		return nil
	}
	latest, err := latestResults(db, []int64{tableID})
	if err != nil {
		return err
	}
	cur, ok := latest[tableID]
	if ok && cur.Version == expected || !ok && expected == 0 {
		return nil
	}
	if !ok {
		return tournament.Conflict("result-version-missing",
			fmt.Sprintf("result version %d does not exist; the table has no result yet", expected), map[string]any{"Version": expected})
	}
	ce := &tournament.ConflictError{Expected: expected, Current: cur}
	if expected > 0 && expected < cur.Version {
		base, err := revision(db, tableID, expected)
		if err != nil {
			return err
		}
		ce.Base = &base
	}
	return ce
}

// latestResults returns the latest revision of each table that has one.
func latestResults(db *gorm.DB, tableIDs []int64) (map[int64]tournament.Result, error) {
	out := map[int64]tournament.Result{}
	if len(tableIDs) == 0 {
		return out, nil
	}
	var rows []resultRow
	err := db.Where("table_id IN ? AND version = (SELECT MAX(r2.version) FROM results r2 WHERE r2.table_id = results.table_id)", tableIDs).
		Find(&rows).Error
	if err != nil {
		return nil, err
	}
	scores, err := scoresOf(db, rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.TableID] = r.result(scores[r.ID])
	}
	return out, nil
}

// firstResultTimes returns when the first revision of each table that has
// one was saved.
func firstResultTimes(db *gorm.DB, tableIDs []int64) (map[int64]time.Time, error) {
	out := map[int64]time.Time{}
	if len(tableIDs) == 0 {
		return out, nil
	}
	var rows []resultRow
	if err := db.Select("table_id", "at").Where("table_id IN ? AND version = 1", tableIDs).Find(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.TableID] = r.At
	}
	return out, nil
}

func revision(db *gorm.DB, tableID int64, version int) (tournament.Result, error) {
	var row resultRow
	if err := db.Where("table_id = ? AND version = ?", tableID, version).Take(&row).Error; err != nil {
		return tournament.Result{}, err
	}
	scores, err := scoresOf(db, []resultRow{row})
	if err != nil {
		return tournament.Result{}, err
	}
	return row.result(scores[row.ID]), nil
}

// scoresOf returns the scores of each result row, in score sheet order.
func scoresOf(db *gorm.DB, rows []resultRow) (map[int64][]scoreRow, error) {
	out := map[int64][]scoreRow{}
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var scores []scoreRow
	if err := db.Where("result_id IN ?", ids).Order("result_id, position").Find(&scores).Error; err != nil {
		return nil, err
	}
	for _, s := range scores {
		out[s.ResultID] = append(out[s.ResultID], s)
	}
	return out, nil
}

// Revisions implements tournament.Store.
func (s *Store) Revisions(ctx context.Context, tableID int64) ([]tournament.Result, error) {
	what := fmt.Sprintf("revisions of table %d", tableID)
	db := s.db.WithContext(ctx)
	var n int64
	if err := db.Model(&tableRow{}).Where("id = ?", tableID).Count(&n).Error; err != nil {
		return nil, wrap(what, err)
	}
	if n == 0 {
		return nil, wrap(what, notFound("table", tableID))
	}
	var rows []resultRow
	if err := db.Where("table_id = ?", tableID).Order("version").Find(&rows).Error; err != nil {
		return nil, wrap(what, err)
	}
	scores, err := scoresOf(db, rows)
	if err != nil {
		return nil, wrap(what, err)
	}
	out := make([]tournament.Result, len(rows))
	for i, r := range rows {
		out[i] = r.result(scores[r.ID])
	}
	return out, nil
}
