package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// callRow is a judge call (schema version 18).
type callRow struct {
	ID           int64          `gorm:"primaryKey"`
	TournamentID int64          `gorm:"not null;index"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Round        int            `gorm:"not null"`
	TableNumber  int            `gorm:"not null"`
	PlayerID     int64          `gorm:"not null"`
	ReportID     int64          `gorm:"not null;default:0"`
	Note         string         `gorm:"not null;default:''"`
	Status       string         `gorm:"not null"`
	At           time.Time      `gorm:"not null"`
	ClaimedBy    string         `gorm:"not null;default:''"`
	ClaimedAt    *time.Time
	EscalatedBy  string `gorm:"not null;default:''"`
	EscalatedAt  *time.Time
	ResolvedBy   string `gorm:"not null;default:''"`
	ResolvedAt   *time.Time
	Resolution   string `gorm:"not null;default:''"`
}

func (callRow) TableName() string { return "calls" }

func (r callRow) tournamentOf() int64 { return r.TournamentID }

func newCallRow(c tournament.Call) callRow {
	return callRow{ID: c.ID, TournamentID: c.TournamentID, Round: c.Round, TableNumber: c.Table, PlayerID: c.PlayerID, ReportID: c.ReportID,
		Note: c.Note, Status: c.Status, At: c.At.UTC(), ClaimedBy: c.ClaimedBy, ClaimedAt: utcOf(c.ClaimedAt),
		EscalatedBy: c.EscalatedBy, EscalatedAt: utcOf(c.EscalatedAt), ResolvedBy: c.ResolvedBy, ResolvedAt: utcOf(c.ResolvedAt),
		Resolution: c.Resolution}
}

func (r callRow) call() tournament.Call {
	return tournament.Call{ID: r.ID, TournamentID: r.TournamentID, Round: r.Round, Table: r.TableNumber, PlayerID: r.PlayerID,
		ReportID: r.ReportID, Note: r.Note, Status: r.Status, At: r.At, ClaimedBy: r.ClaimedBy, ClaimedAt: r.ClaimedAt,
		EscalatedBy: r.EscalatedBy, EscalatedAt: r.EscalatedAt, ResolvedBy: r.ResolvedBy, ResolvedAt: r.ResolvedAt, Resolution: r.Resolution}
}

func utcOf(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// AddCall implements tournament.Store.
func (s *Store) AddCall(ctx context.Context, call *tournament.Call, c tournament.Change) error {
	return s.tx(ctx, "add call", func(tx *Tx) error {
		if err := tx.lock(call.TournamentID); err != nil {
			return err
		}
		return addCall(tx, call, c)
	})
}

func addCall(tx *Tx, call *tournament.Call, c tournament.Change) error {
	row := newCallRow(*call)
	row.ID = 0
	if err := tx.Omit("Tournament").Create(&row).Error; err != nil {
		return err
	}
	call.ID = row.ID
	return tx.audit(call.TournamentID, c)
}

// UpdateCall implements tournament.Store.
func (s *Store) UpdateCall(ctx context.Context, before, after tournament.Call, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("update call %d", after.ID), func(tx *Tx) error {
		var cur callRow
		if err := lockTournamentOf(tx, &cur, after.ID); err != nil {
			return err
		}
		if stored := cur.call(); stored.Status != before.Status || stored.ClaimedBy != before.ClaimedBy {
			return tournament.Conflict("call-changed", fmt.Sprintf("call %d was answered meanwhile by %s", after.ID, stored.ClaimedBy+stored.ResolvedBy),
				map[string]any{"Status": stored.Status})
		}
		row := newCallRow(after)
		if err := tx.Model(&callRow{}).Where("id = ?", after.ID).Updates(map[string]any{
			"status": row.Status, "claimed_by": row.ClaimedBy, "claimed_at": row.ClaimedAt, "escalated_by": row.EscalatedBy,
			"escalated_at": row.EscalatedAt, "resolved_by": row.ResolvedBy, "resolved_at": row.ResolvedAt, "resolution": row.Resolution,
		}).Error; err != nil {
			return err
		}
		return tx.audit(cur.TournamentID, c)
	})
}

// Call implements tournament.Store.
func (s *Store) Call(ctx context.Context, id int64) (tournament.Call, error) {
	var row callRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		return tournament.Call{}, wrap(fmt.Sprintf("call %d", id), err)
	}
	return row.call(), nil
}

// Calls implements tournament.Store.
func (s *Store) Calls(ctx context.Context, tournamentID int64) ([]tournament.Call, error) {
	var rows []callRow
	if err := s.db.WithContext(ctx).Where("tournament_id = ?", tournamentID).Order("id").Find(&rows).Error; err != nil {
		return nil, wrap("calls", err)
	}
	out := make([]tournament.Call, len(rows))
	for i, r := range rows {
		out[i] = r.call()
	}
	return out, nil
}

// DisputeReport implements tournament.Store.
func (s *Store) DisputeReport(ctx context.Context, before, after tournament.Report, call *tournament.Call, c, cc tournament.Change) error {
	return s.tx(ctx, "dispute report", func(tx *Tx) error {
		if err := updateReport(tx, before, after, c); err != nil {
			return err
		}
		return addCall(tx, call, cc)
	})
}

// updateReport writes a report's confirmations, dispute and status in tx,
// unless the stored ones are no longer before's.
func updateReport(tx *Tx, before, after tournament.Report, c tournament.Change) error {
	var cur reportRow
	if err := lockTournamentOf(tx, &cur, after.ID); err != nil {
		return err
	}
	return writeReport(tx, cur, before, after, c)
}

// writeReport writes a report's confirmations, dispute and status in tx,
// its table or tournament locked, unless cur, the stored report read under
// the lock, is no longer before.
func writeReport(tx *Tx, cur reportRow, before, after tournament.Report, c tournament.Change) error {
	stored, err := cur.report()
	if err != nil {
		return err
	}
	if stored.Status != before.Status || !slices.Equal(stored.Confirmed, before.Confirmed) || stored.DisputedBy != before.DisputedBy {
		return tournament.Conflict("report-changed", fmt.Sprintf("report %d changed meanwhile", after.ID), nil)
	}
	row, err := newReportRow(after)
	if err != nil {
		return err
	}
	if err := tx.Model(&reportRow{}).Where("id = ?", after.ID).Updates(map[string]any{
		"confirmed": row.Confirmed, "disputed_by": row.DisputedBy, "dispute": row.Dispute, "status": row.Status,
	}).Error; err != nil {
		return err
	}
	return tx.audit(cur.TournamentID, c)
}
