package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// Players' cards are not part of tournament.Store either: a batch of
// cards is the console's print buffer of the codes just issued, kept until
// they are printed (and half an hour more, to print again) so that any
// server of the event can print them, sealed by the console with a key the
// database never holds (console.CardStore, which Store satisfies). It is
// no record of the event: not audited, not published, and not copied by
// CopyInto.

// cardBatchRow is a sealed batch of players' cards.
type cardBatchRow struct {
	Name         string         `gorm:"primaryKey"` // unguessable, chosen by the console
	TournamentID int64          `gorm:"not null;index"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Sealed       []byte         `gorm:"not null"`
	Expires      time.Time      `gorm:"not null;index"`
	Printed      bool           `gorm:"not null;default:false"`
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

// CardBatches returns the sealed batches of tournament tournamentID kept
// at now (the expired ones of every tournament are deleted first), the
// ones not printed first, each group by when it expires: a batch expires a
// fixed time after it is kept, or after it is printed, so that is the
// order they were.
func (s *Store) CardBatches(ctx context.Context, tournamentID int64, now time.Time) ([]tournament.CardBatch, error) {
	if err := s.tx(ctx, "forget expired cards", func(tx *Tx) error { return deleteExpiredCards(tx.DB, now) }); err != nil {
		return nil, err
	}
	var rows []cardBatchRow
	err := s.db.WithContext(ctx).Where("tournament_id = ?", tournamentID).Order("printed, expires, name").Find(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]tournament.CardBatch, len(rows))
	for i, r := range rows {
		out[i] = tournament.CardBatch{Name: r.Name, Sealed: r.Sealed, Printed: r.Printed}
	}
	return out, nil
}

// PrintCards marks the batches names of tournament tournamentID printed,
// to expire at expires; a batch printed before, expired or of another
// tournament is left as it is.
func (s *Store) PrintCards(ctx context.Context, tournamentID int64, names []string, expires, now time.Time) error {
	if len(names) == 0 {
		return nil
	}
	return s.tx(ctx, "print cards", func(tx *Tx) error {
		return tx.Model(&cardBatchRow{}).
			Where("tournament_id = ? AND name IN ? AND NOT printed AND expires > ?", tournamentID, names, now.UTC()).
			Updates(map[string]any{"printed": true, "expires": expires.UTC()}).Error
	})
}

func deleteExpiredCards(tx *gorm.DB, now time.Time) error {
	return tx.Where("expires <= ?", now.UTC()).Delete(&cardBatchRow{}).Error
}
