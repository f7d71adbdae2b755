package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// The console's settings and the sessions logged out are not part of
// tournament.Store: the web layer asks for them through its own small
// interface (web.Settings), which Store satisfies. They live in the
// database so that every server of one event shares them; the keys that
// sign the session cookies never do (a backup would carry them).

// GetSetting returns a console setting, or an error wrapping
// tournament.ErrNotFound for a key never set.
func (s *Store) GetSetting(ctx context.Context, key string) (string, error) {
	var r settingRow
	if err := s.db.WithContext(ctx).Where("key = ?", key).Take(&r).Error; err != nil {
		return "", wrap("setting "+key, err)
	}
	return r.Value, nil
}

// SetSetting stores a console setting, replacing any earlier value, in one
// statement, so that two servers setting it at once do not collide.
// Settings are not audited: the password hash must not be copied into the
// log.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	if key == "" {
		return fmt.Errorf("set setting: %w: empty key", tournament.ErrInvalid)
	}
	return s.tx(ctx, "set setting "+key, func(tx *Tx) error {
		tx.settings = true
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&settingRow{Key: key, Value: value}).Error
	})
}

// AddSetting stores a console setting unless it is set already, and
// returns the value it has then: the one stored, or value. Servers
// starting at once on an empty database thus agree on one value.
func (s *Store) AddSetting(ctx context.Context, key, value string) (string, error) {
	if key == "" {
		return "", fmt.Errorf("add setting: %w: empty key", tournament.ErrInvalid)
	}
	var got string
	err := s.tx(ctx, "add setting "+key, func(tx *Tx) error {
		got = value
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&settingRow{Key: key, Value: value})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 1 {
			tx.settings = true
			return nil
		}
		var r settingRow
		if err := tx.Where("key = ?", key).Take(&r).Error; err != nil {
			return err
		}
		got = r.Value
		return nil
	})
	return got, err
}

// DeleteSetting removes a console setting; removing one never set is not
// an error.
func (s *Store) DeleteSetting(ctx context.Context, key string) error {
	return s.tx(ctx, "delete setting "+key, func(tx *Tx) error {
		res := tx.Where("key = ?", key).Delete(&settingRow{})
		tx.settings = res.RowsAffected > 0
		return res.Error
	})
}

// EndSession records that the judge session id was logged out; its cookie
// would expire at expires anyway. Sessions whose cookies have expired are
// forgotten at the same time: they are refused anyway.
func (s *Store) EndSession(ctx context.Context, id string, expires time.Time) error {
	if id == "" {
		return fmt.Errorf("end session: %w: empty id", tournament.ErrInvalid)
	}
	return s.tx(ctx, "end session", func(tx *Tx) error {
		tx.settings = true
		if err := tx.Where("expires < ?", time.Now().UTC()).Delete(&endedSessionRow{}).Error; err != nil {
			return err
		}
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&endedSessionRow{ID: id, Expires: expires.UTC()}).Error
	})
}

// EndedSessions returns the sessions logged out whose cookies have not
// expired at now, with when they expire.
func (s *Store) EndedSessions(ctx context.Context, now time.Time) (map[string]time.Time, error) {
	var rows []endedSessionRow
	if err := s.db.WithContext(ctx).Where("expires >= ?", now.UTC()).Find(&rows).Error; err != nil {
		return nil, wrap("ended sessions", err)
	}
	out := make(map[string]time.Time, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Expires
	}
	return out, nil
}
