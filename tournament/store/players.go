package store

import (
	"context"
	"fmt"
	"slices"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// AddPlayer implements tournament.Store.
func (s *Store) AddPlayer(ctx context.Context, p *tournament.Player, c tournament.Change) error {
	row := newPlayerRow(*p)
	row.ID = 0
	return s.tx(ctx, "add player", func(tx *gorm.DB) error {
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		p.ID = row.ID
		if err := writeKeepApart(tx, *p); err != nil {
			return err
		}
		return audit(tx, p.TournamentID, c)
	})
}

// UpdatePlayer implements tournament.Store.
func (s *Store) UpdatePlayer(ctx context.Context, p tournament.Player, c tournament.Change) error {
	return s.tx(ctx, "update player", func(tx *gorm.DB) error {
		var old playerRow
		if err := tx.Take(&old, p.ID).Error; err != nil {
			return err
		}
		if old.TournamentID != p.TournamentID {
			return fmt.Errorf("%w: player %d is not in tournament %d", tournament.ErrInvalid, p.ID, p.TournamentID)
		}
		row := newPlayerRow(p)
		if err := tx.Omit(clause.Associations).Select("*").Updates(&row).Error; err != nil {
			return err
		}
		if err := writeKeepApart(tx, p); err != nil {
			return err
		}
		return audit(tx, p.TournamentID, c)
	})
}

// writeKeepApart replaces the keep-apart requests involving p with p.KeepApart.
func writeKeepApart(tx *gorm.DB, p tournament.Player) error {
	if err := tx.Where("player_id = ? OR other_id = ?", p.ID, p.ID).Delete(&keepApartRow{}).Error; err != nil {
		return err
	}
	others := slices.Clone(p.KeepApart)
	slices.Sort(others)
	others = slices.Compact(others)
	if len(others) == 0 {
		return nil
	}
	var n int64
	if err := tx.Model(&playerRow{}).Where("id IN ? AND tournament_id = ?", others, p.TournamentID).Count(&n).Error; err != nil {
		return err
	}
	if int(n) != len(others) {
		return fmt.Errorf("%w: keep-apart requests name players not in tournament %d", tournament.ErrInvalid, p.TournamentID)
	}
	rows := make([]keepApartRow, 0, len(others))
	for _, o := range others {
		if o == p.ID {
			return fmt.Errorf("%w: player %d cannot be kept apart from themselves", tournament.ErrInvalid, p.ID)
		}
		rows = append(rows, keepApartRow{TournamentID: p.TournamentID, PlayerID: min(p.ID, o), OtherID: max(p.ID, o)})
	}
	return tx.Omit(clause.Associations).Create(&rows).Error
}

// Player implements tournament.Store.
func (s *Store) Player(ctx context.Context, id int64) (tournament.Player, error) {
	var row playerRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		return tournament.Player{}, wrap(fmt.Sprintf("player %d", id), err)
	}
	var pairs []keepApartRow
	if err := s.db.WithContext(ctx).Where("player_id = ? OR other_id = ?", id, id).Find(&pairs).Error; err != nil {
		return tournament.Player{}, wrap(fmt.Sprintf("player %d", id), err)
	}
	return row.player(keepApartOf(id, pairs)), nil
}

// Players implements tournament.Store.
func (s *Store) Players(ctx context.Context, tournamentID int64) ([]tournament.Player, error) {
	what := fmt.Sprintf("players of tournament %d", tournamentID)
	var rows []playerRow
	if err := s.db.WithContext(ctx).Where("tournament_id = ?", tournamentID).Order("kana, name, id").Find(&rows).Error; err != nil {
		return nil, wrap(what, err)
	}
	var pairs []keepApartRow
	if err := s.db.WithContext(ctx).Where("tournament_id = ?", tournamentID).Find(&pairs).Error; err != nil {
		return nil, wrap(what, err)
	}
	out := make([]tournament.Player, len(rows))
	for i, r := range rows {
		out[i] = r.player(keepApartOf(r.ID, pairs))
	}
	return out, nil
}

// keepApartOf returns the players kept apart from id, sorted, or nil.
func keepApartOf(id int64, pairs []keepApartRow) []int64 {
	var out []int64
	for _, p := range pairs {
		switch id {
		case p.PlayerID:
			out = append(out, p.OtherID)
		case p.OtherID:
			out = append(out, p.PlayerID)
		}
	}
	slices.Sort(out)
	return out
}
