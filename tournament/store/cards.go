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

// Players' cards are not part of tournament.Store either: a batch of
// cards is the console's print buffer of the codes just issued, kept for
// half an hour so that any server of the event can print it, sealed by the
// console with a key the database never holds (console.CardStore, which
// Store satisfies). It is no record of the event: not audited, not
// published, and not copied by CopyInto.

// cardBatchRow is a sealed batch of players' cards.
type cardBatchRow struct {
	Name         string         `gorm:"primaryKey"` // unguessable, chosen by the console
	TournamentID int64          `gorm:"not null;index"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Sealed       []byte         `gorm:"not null"`
	Expires      time.Time      `gorm:"not null;index"`
}

func (cardBatchRow) TableName() string { return "card_batches" }

// KeepCards stores a sealed batch of cards of a tournament under name
// until expires, and deletes the batches expired at now. A name taken is
// a conflict.
func (s *Store) KeepCards(ctx context.Context, name string, tournamentID int64, sealed []byte, expires, now time.Time) error {
	if name == "" || len(sealed) == 0 {
		return fmt.Errorf("keep cards: %w: a batch needs a name and its cards", tournament.ErrInvalid)
	}
	return s.tx(ctx, "keep cards", func(tx *Tx) error {
		if err := deleteExpiredCards(tx.DB, now); err != nil {
			return err
		}
		row := cardBatchRow{Name: name, TournamentID: tournamentID, Sealed: sealed, Expires: expires.UTC()}
		return tx.Omit(clause.Associations).Create(&row).Error
	})
}

// Cards returns the sealed batch name of tournament tournamentID, unless it
// expired at now (the expired batches are deleted first), or an error
// wrapping tournament.ErrNotFound.
func (s *Store) Cards(ctx context.Context, name string, tournamentID int64, now time.Time) ([]byte, error) {
	if err := s.tx(ctx, "forget expired cards", func(tx *Tx) error { return deleteExpiredCards(tx.DB, now) }); err != nil {
		return nil, err
	}
	var row cardBatchRow
	err := s.db.WithContext(ctx).Where("name = ? AND tournament_id = ?", name, tournamentID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, notFound("card batch", name)
	}
	if err != nil {
		return nil, err
	}
	return row.Sealed, nil
}

func deleteExpiredCards(tx *gorm.DB, now time.Time) error {
	return tx.Where("expires <= ?", now.UTC()).Delete(&cardBatchRow{}).Error
}
