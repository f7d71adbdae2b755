package store

import (
	"context"
	"fmt"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// deviceRow is a table device (schema version 18): the hash of its token,
// which it is found by, and the token sealed by the web layer.
type deviceRow struct {
	ID           int64          `gorm:"primaryKey"`
	TournamentID int64          `gorm:"not null;index:idx_device_table,priority:1"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Round        int            `gorm:"not null;index:idx_device_table,priority:2"`
	TableNumber  int            `gorm:"not null;index:idx_device_table,priority:3"`
	Hash         []byte         `gorm:"not null;uniqueIndex"`
	Sealed       []byte         `gorm:"not null"`
	Record       bool           `gorm:"not null"`
	OpenedBy     string         `gorm:"not null"`
	At           time.Time      `gorm:"not null"`
	Expires      time.Time      `gorm:"not null"`
	RevokedAt    *time.Time
}

func (deviceRow) TableName() string { return "table_devices" }

func (r deviceRow) device() tournament.Device {
	return tournament.Device{ID: r.ID, TournamentID: r.TournamentID, Round: r.Round, Table: r.TableNumber, Record: r.Record,
		OpenedBy: r.OpenedBy, At: r.At, Expires: r.Expires, Revoked: r.RevokedAt, Sealed: r.Sealed}
}

// AddDevice implements tournament.Store.
func (s *Store) AddDevice(ctx context.Context, d *tournament.Device, hash []byte, c tournament.Change) error {
	return s.tx(ctx, "add table device", func(tx *Tx) error {
		if err := tx.lock(d.TournamentID); err != nil {
			return err
		}
		row := deviceRow{TournamentID: d.TournamentID, Round: d.Round, TableNumber: d.Table, Hash: hash, Sealed: d.Sealed, Record: d.Record,
			OpenedBy: d.OpenedBy, At: d.At.UTC(), Expires: d.Expires.UTC()}
		if err := tx.Omit("Tournament").Create(&row).Error; err != nil {
			return err
		}
		d.ID = row.ID
		return tx.audit(d.TournamentID, c)
	})
}

// RevokeDevices implements tournament.Store.
func (s *Store) RevokeDevices(ctx context.Context, tournamentID int64, round, table int, at time.Time, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("revoke the devices of round %d table %d", round, table), func(tx *Tx) error {
		if err := tx.lock(tournamentID); err != nil {
			return err
		}
		stamp := at.UTC()
		res := tx.Model(&deviceRow{}).Where("tournament_id = ? AND round = ? AND table_number = ? AND revoked_at IS NULL", tournamentID, round, table).
			Update("revoked_at", &stamp)
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		return tx.audit(tournamentID, c)
	})
}

// Devices implements tournament.Store.
func (s *Store) Devices(ctx context.Context, tournamentID int64, round, table int) ([]tournament.Device, error) {
	var rows []deviceRow
	if err := s.db.WithContext(ctx).Where("tournament_id = ? AND round = ? AND table_number = ?", tournamentID, round, table).
		Order("id DESC").Find(&rows).Error; err != nil {
		return nil, wrap("table devices", err)
	}
	out := make([]tournament.Device, len(rows))
	for i, r := range rows {
		out[i] = r.device()
	}
	return out, nil
}

// Device returns the table device whose token has the hash hash (the web
// layer reads it on every request of a device, so that a revocation holds
// on every server at once).
func (s *Store) Device(ctx context.Context, hash []byte) (tournament.Device, error) {
	var row deviceRow
	if err := s.db.WithContext(ctx).Where("hash = ?", hash).Take(&row).Error; err != nil {
		return tournament.Device{}, wrap("table device", err)
	}
	return row.device(), nil
}
