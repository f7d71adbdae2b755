package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// staffRow is a staff account (schema version 17). NameKey is the name as
// tournament.StaffKey folds it: one account per key, found by it at the
// login.
type staffRow struct {
	ID           int64     `gorm:"primaryKey"`
	Name         string    `gorm:"not null"`
	NameKey      string    `gorm:"not null;uniqueIndex"`
	Role         string    `gorm:"not null"`
	Active       bool      `gorm:"not null;default:true"`
	PasswordHash string    `gorm:"not null"`
	SessionsFrom time.Time `gorm:"not null"`
	CreatedAt    time.Time `gorm:"not null"`
}

func (staffRow) TableName() string { return "staff" }

func newStaffRow(s tournament.Staff) staffRow {
	return staffRow{ID: s.ID, Name: s.Name, NameKey: tournament.StaffKey(s.Name), Role: string(s.Role), Active: s.Active,
		PasswordHash: s.PasswordHash, SessionsFrom: s.SessionsFrom.UTC(), CreatedAt: s.CreatedAt.UTC()}
}

func (r staffRow) staff() tournament.Staff {
	return tournament.Staff{ID: r.ID, Name: r.Name, Role: tournament.Role(r.Role), Active: r.Active, PasswordHash: r.PasswordHash,
		SessionsFrom: r.SessionsFrom, CreatedAt: r.CreatedAt}
}

// staffLock is the key of the PostgreSQL advisory lock that staff changes
// take, so that two heads changing accounts at once decide one after the
// other (the last active head stays). SQLite's BEGIN IMMEDIATE holds the
// whole database already.
const staffLock = 0x53_74_61_66_66 // "Staff"

func (tx *Tx) lockStaff() error {
	if tx.engine != enginePostgres {
		return nil
	}
	return tx.Exec("SELECT pg_advisory_xact_lock(?)", staffLock).Error
}

// AddStaff implements tournament.Store.
func (s *Store) AddStaff(ctx context.Context, st *tournament.Staff, c tournament.Change) error {
	return s.tx(ctx, "add staff "+st.Name, func(tx *Tx) error {
		if err := tx.lockStaff(); err != nil {
			return err
		}
		row := newStaffRow(*st)
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return tournament.Conflict("staff-name-taken", fmt.Sprintf("an account is named %q already", st.Name), map[string]any{"Name": st.Name})
		}
		st.ID = row.ID
		// Every server reads the accounts afresh.
		tx.settings = true
		return tx.audit(0, c)
	})
}

// UpdateStaff implements tournament.Store.
func (s *Store) UpdateStaff(ctx context.Context, before, after tournament.Staff, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("update staff %d", after.ID), func(tx *Tx) error {
		if err := tx.lockStaff(); err != nil {
			return err
		}
		var row staffRow
		if err := tx.Take(&row, after.ID).Error; err != nil {
			return err
		}
		if !sameStaff(row.staff(), before) {
			return tournament.Conflict("staff-changed", fmt.Sprintf("account %q was changed meanwhile", row.Name), map[string]any{"Name": row.Name})
		}
		r := newStaffRow(after)
		if err := tx.Model(&staffRow{}).Where("id = ?", after.ID).Updates(map[string]any{
			"role": r.Role, "active": r.Active, "password_hash": r.PasswordHash, "sessions_from": r.SessionsFrom,
		}).Error; err != nil {
			return err
		}
		var heads int64
		if err := tx.Model(&staffRow{}).Where("role = ? AND active", string(tournament.RoleHead)).Count(&heads).Error; err != nil {
			return err
		}
		if heads == 0 {
			return tournament.Conflict("last-head", fmt.Sprintf("%q is the last active head", row.Name), map[string]any{"Name": row.Name})
		}
		tx.settings = true
		return tx.audit(0, c)
	})
}

// sameStaff reports an account stored as it was read.
func sameStaff(a, b tournament.Staff) bool {
	return a.Role == b.Role && a.Active == b.Active && a.PasswordHash == b.PasswordHash && a.SessionsFrom.Equal(b.SessionsFrom)
}

// StaffMembers implements tournament.Store.
func (s *Store) StaffMembers(ctx context.Context) ([]tournament.Staff, error) {
	var rows []staffRow
	if err := s.db.WithContext(ctx).Order("id").Find(&rows).Error; err != nil {
		return nil, wrap("staff", err)
	}
	out := make([]tournament.Staff, len(rows))
	for i, r := range rows {
		out[i] = r.staff()
	}
	return out, nil
}

// StaffMember implements tournament.Store; the web layer reads the
// account of every request with it (its role, and whether its sessions
// still hold).
func (s *Store) StaffMember(ctx context.Context, id int64) (tournament.Staff, error) {
	var row staffRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		return tournament.Staff{}, wrap(fmt.Sprintf("staff %d", id), err)
	}
	return row.staff(), nil
}

// StaffByName returns the account named name, as tournament.StaffKey
// folds it: the login's.
func (s *Store) StaffByName(ctx context.Context, name string) (tournament.Staff, error) {
	var row staffRow
	if err := s.db.WithContext(ctx).Where("name_key = ?", tournament.StaffKey(name)).Take(&row).Error; err != nil {
		return tournament.Staff{}, wrap("staff "+name, err)
	}
	return row.staff(), nil
}

// AddFirstHead makes the head account named name with the password hash
// hash when there is no account at all, and reports whether it did:
// servers starting at once on an empty database make one, the first.
func (s *Store) AddFirstHead(ctx context.Context, name, hash string, now time.Time) (bool, error) {
	made := false
	err := s.tx(ctx, "add the first head", func(tx *Tx) error {
		made = false
		if err := tx.lockStaff(); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&staffRow{}).Count(&n).Error; err != nil || n > 0 {
			return err
		}
		row := newStaffRow(tournament.Staff{Name: name, Role: tournament.RoleHead, Active: true, PasswordHash: hash, SessionsFrom: now, CreatedAt: now})
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
		if res.Error != nil {
			return res.Error
		}
		made = res.RowsAffected == 1
		return tx.audit(0, tournament.Change{Judge: tournament.StartupActor, At: now, Action: "staff.add", Subject: "staff " + name,
			After: map[string]any{"id": row.ID, "name": name, "role": tournament.RoleHead, "active": true}})
	})
	return made, err
}

// SetFirstHeadPassword gives the first head account (the lowest ID) the
// password hash hash, and ends its sessions when it differs: the password
// the server was started with (CATANJUDGE_JUDGE_PASSWORD). It reports the
// account; ErrNotFound when there is none.
func (s *Store) SetFirstHeadPassword(ctx context.Context, hash string, same func(hash string) bool, now time.Time) (tournament.Staff, error) {
	var out tournament.Staff
	err := s.tx(ctx, "set the first head's password", func(tx *Tx) error {
		if err := tx.lockStaff(); err != nil {
			return err
		}
		var row staffRow
		err := tx.Where("role = ?", string(tournament.RoleHead)).Order("id").Take(&row).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return notFound("head account", "")
		}
		if err != nil {
			return err
		}
		out = row.staff()
		if same(row.PasswordHash) {
			return nil
		}
		out.PasswordHash, out.SessionsFrom = hash, now.UTC()
		if err := tx.Model(&staffRow{}).Where("id = ?", row.ID).
			Updates(map[string]any{"password_hash": hash, "sessions_from": now.UTC()}).Error; err != nil {
			return err
		}
		tx.settings = true
		return tx.audit(0, tournament.Change{Judge: tournament.StartupActor, At: now, Action: "staff.password", Subject: "staff " + row.Name,
			After: map[string]any{"id": row.ID, "name": row.Name, "role": row.Role, "active": row.Active}})
	})
	return out, wrap("first head's password", err)
}

// moveSharedPassword makes the judge password of the versions before staff
// accounts (one shared password, in the settings) the password of a head
// account named tournament.FirstHead, and forgets the setting: a database
// of an earlier version keeps working with the password its judges know.
func moveSharedPassword(tx *gorm.DB) error {
	var setting settingRow
	err := tx.Where("key = ?", "judge_password_hash").Take(&setting).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var n int64
	if err := tx.Model(&staffRow{}).Count(&n).Error; err != nil {
		return err
	}
	if n == 0 {
		now := time.Now().UTC()
		row := newStaffRow(tournament.Staff{Name: tournament.FirstHead, Role: tournament.RoleHead, Active: true,
			PasswordHash: setting.Value, SessionsFrom: now, CreatedAt: now})
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
	}
	return tx.Where("key = ?", "judge_password_hash").Delete(&settingRow{}).Error
}
