package store

import (
	"context"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// CreateTournament implements tournament.Store.
func (s *Store) CreateTournament(ctx context.Context, t *tournament.Tournament, c tournament.Change) error {
	if t.CreatedAt.IsZero() {
		t.CreatedAt = c.At
	}
	row, err := newTournamentRow(*t)
	if err != nil {
		return err
	}
	return s.tx(ctx, "create tournament", func(tx *gorm.DB) error {
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		t.ID, t.CreatedAt = row.ID, row.CreatedAt
		return audit(tx, t.ID, c)
	})
}

// UpdateTournament implements tournament.Store.
func (s *Store) UpdateTournament(ctx context.Context, t tournament.Tournament, from tournament.Progress, c tournament.Change) error {
	return s.tx(ctx, "update tournament", func(tx *gorm.DB) error {
		if err := checkProgress(tx, t.ID, &from); err != nil {
			return err
		}
		res := tx.Model(&tournamentRow{}).Where("id = ?", t.ID).Updates(map[string]any{
			"name":         t.Name,
			"date":         t.Date,
			"venue":        t.Venue,
			"rounds":       t.Rounds,
			"game_minutes": t.GameMinutes,
		})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return notFound("tournament", t.ID)
		}
		return audit(tx, t.ID, c)
	})
}

// Tournament implements tournament.Store.
func (s *Store) Tournament(ctx context.Context, id int64) (tournament.Tournament, error) {
	var row tournamentRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		return tournament.Tournament{}, wrap(fmt.Sprintf("tournament %d", id), err)
	}
	return row.tournament()
}

// Tournaments implements tournament.Store.
func (s *Store) Tournaments(ctx context.Context) ([]tournament.Tournament, error) {
	var rows []tournamentRow
	if err := s.db.WithContext(ctx).Order("created_at DESC, id DESC").Find(&rows).Error; err != nil {
		return nil, wrap("tournaments", err)
	}
	out := make([]tournament.Tournament, 0, len(rows))
	for _, r := range rows {
		t, err := r.tournament()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
