package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// reportRow is a players' report of a table's result (tournament.Report).
// Scores and confirmations are small JSON lists: they are read and
// written whole, with the report.
type reportRow struct {
	ID           int64          `gorm:"primaryKey"`
	TournamentID int64          `gorm:"not null;index"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	TableID      int64          `gorm:"not null;index"`
	Table        *tableRow      `gorm:"constraint:OnDelete:RESTRICT"`
	Round        int            `gorm:"not null"`
	Number       int            `gorm:"not null"`
	ReportedBy   int64          `gorm:"not null"`
	Scores       string         `gorm:"not null"` // JSON [{"PlayerID","VP"}]
	Declared     int64          `gorm:"not null"`
	Reason       string         `gorm:"not null"`
	LateReason   string         `gorm:"not null;default:''"`
	Confirmed    string         `gorm:"not null"` // JSON [player IDs], the reporter first
	DisputedBy   int64          `gorm:"not null;default:0"`
	Status       string         `gorm:"not null"`
	Version      int            `gorm:"not null;default:0"`  // the revision it became
	Side         string         `gorm:"not null;default:''"` // the version of it that did (tournament.SideReported, SideDisputed)
	At           time.Time      `gorm:"not null"`
	Dispute      string         `gorm:"not null;default:''"` // JSON tournament.Dispute, "" for none
}

func (reportRow) TableName() string { return "reports" }

func newReportRow(r tournament.Report) (reportRow, error) {
	scores, err := json.Marshal(r.Scores)
	if err != nil {
		return reportRow{}, err
	}
	confirmed, err := json.Marshal(r.Confirmed)
	if err != nil {
		return reportRow{}, err
	}
	dispute := ""
	if r.Dispute != nil {
		b, err := json.Marshal(r.Dispute)
		if err != nil {
			return reportRow{}, err
		}
		dispute = string(b)
	}
	return reportRow{
		ID: r.ID, TournamentID: r.TournamentID, TableID: r.TableID, Round: r.Round, Number: r.Table,
		ReportedBy: r.ReportedBy, Scores: string(scores), Declared: r.Declared, Reason: r.Reason, LateReason: r.LateReason,
		Confirmed: string(confirmed), DisputedBy: r.DisputedBy, Dispute: dispute, Status: r.Status, Version: r.Version, Side: r.Side, At: r.At.UTC(),
	}, nil
}

func (r reportRow) report() (tournament.Report, error) {
	out := tournament.Report{
		ID: r.ID, TournamentID: r.TournamentID, TableID: r.TableID, Round: r.Round, Table: r.Number,
		ReportedBy: r.ReportedBy, Declared: r.Declared, Reason: r.Reason, LateReason: r.LateReason, DisputedBy: r.DisputedBy,
		Status: r.Status, Version: r.Version, Side: r.Side, At: r.At,
	}
	if err := json.Unmarshal([]byte(r.Scores), &out.Scores); err != nil {
		return out, fmt.Errorf("report %d scores: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Confirmed), &out.Confirmed); err != nil {
		return out, fmt.Errorf("report %d confirmations: %w", r.ID, err)
	}
	if r.Dispute != "" {
		out.Dispute = &tournament.Dispute{}
		if err := json.Unmarshal([]byte(r.Dispute), out.Dispute); err != nil {
			return out, fmt.Errorf("report %d dispute: %w", r.ID, err)
		}
	}
	return out, nil
}

// AddReport implements tournament.Store.
func (s *Store) AddReport(ctx context.Context, r *tournament.Report, c tournament.Change) error {
	return s.tableTx(ctx, "add report", r.TableID, func(tx *Tx) error {
		tid, err := tx.lockTable(r.TableID)
		if err != nil {
			return err
		}
		if tid != r.TournamentID {
			return notFound("table", r.TableID)
		}
		// A judge's sheet, or another report still open, came first.
		if err := checkVersion(tx.DB, r.TableID, 0); err != nil {
			return tournament.Conflict("report-table-has-result", fmt.Sprintf("table %d of round %d has a judge's result", r.Table, r.Round),
				map[string]any{"Round": r.Round, "Table": r.Table})
		}
		var open int64
		if err := tx.Model(&reportRow{}).Where("table_id = ? AND status IN ?", r.TableID, tournament.OpenReportStatuses).Count(&open).Error; err != nil {
			return err
		}
		if open > 0 {
			return tournament.Conflict("report-open", fmt.Sprintf("table %d of round %d already has a report open", r.Table, r.Round),
				map[string]any{"Round": r.Round, "Table": r.Table})
		}
		row, err := newReportRow(*r)
		if err != nil {
			return err
		}
		row.ID = 0
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		r.ID = row.ID
		return tx.audit(r.TournamentID, c)
	})
}

// UpdateReport implements tournament.Store.
func (s *Store) UpdateReport(ctx context.Context, before, after tournament.Report, c tournament.Change) error {
	return s.tableTx(ctx, "update report", before.TableID, func(tx *Tx) error {
		// The report's table is its own for good; what else it holds is
		// read again under the table's lock.
		var cur reportRow
		if err := tx.Take(&cur, after.ID).Error; err != nil {
			return err
		}
		if _, err := tx.lockTable(cur.TableID); err != nil {
			return err
		}
		cur = reportRow{}
		if err := tx.Take(&cur, after.ID).Error; err != nil {
			return err
		}
		return writeReport(tx, cur, before, after, c)
	})
}

// acceptReport marks report id, of table tableID, accepted as revision
// version from its side (the version of it saved), in the transaction that saves it: it is a conflict unless the
// report waits for a judge (confirmed, or disputed: a judge's sheet opened
// from one of its versions).
func acceptReport(tx *gorm.DB, id, tableID int64, version int, side string) error {
	waiting := []string{tournament.ReportConfirmed, tournament.ReportDisputed}
	res := tx.Model(&reportRow{}).Where("id = ? AND table_id = ? AND status IN ?", id, tableID, waiting).
		Updates(map[string]any{"status": tournament.ReportAccepted, "version": version, "side": side})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return tournament.Conflict("report-changed", fmt.Sprintf("report %d is not waiting for a judge, or not of table %d", id, tableID), nil)
	}
	return nil
}

// Report implements tournament.Store.
func (s *Store) Report(ctx context.Context, id int64) (tournament.Report, error) {
	var row reportRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return tournament.Report{}, notFound("report", id)
		}
		return tournament.Report{}, err
	}
	return row.report()
}

// Reports implements tournament.Store.
func (s *Store) Reports(ctx context.Context, tournamentID int64) ([]tournament.Report, error) {
	return s.reports(ctx, "tournament_id = ?", tournamentID)
}

// TableReports implements tournament.Store, on the index of table_id.
func (s *Store) TableReports(ctx context.Context, tableID int64) ([]tournament.Report, error) {
	return s.reports(ctx, "table_id = ?", tableID)
}

// reports reads the reports where says, oldest first.
func (s *Store) reports(ctx context.Context, where string, id int64) ([]tournament.Report, error) {
	return reportsOf(s.db.WithContext(ctx), where, id)
}

func reportsOf(db *gorm.DB, where string, id int64) ([]tournament.Report, error) {
	var rows []reportRow
	if err := db.Where(where, id).Order("id").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]tournament.Report, 0, len(rows))
	for _, row := range rows {
		r, err := row.report()
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
