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
	t.ID = 0
	return s.tx(ctx, "create tournament", func(tx *Tx) error {
		row, err := newTournamentRow(*t)
		if err != nil {
			return err
		}
		if err := insertTournament(tx, &row); err != nil {
			return err
		}
		// Nobody else sees the row before the commit; the lock is the
		// audit line's proof that the change was decided under it.
		if err := tx.lock(row.ID); err != nil {
			return err
		}
		t.ID, t.CreatedAt = row.ID, row.CreatedAt
		return tx.audit(t.ID, c)
	})
}

// insertTournament inserts a new tournament's row and its version, which
// its snapshots are keyed by (tournament.Snapshot).
func insertTournament(tx *Tx, row *tournamentRow) error {
	if err := tx.Omit(clause.Associations).Create(row).Error; err != nil {
		return err
	}
	return tx.Omit(clause.Associations).Create(&tournamentVersionRow{TournamentID: row.ID}).Error
}

// UpdateTournament implements tournament.Store.
func (s *Store) UpdateTournament(ctx context.Context, before, after tournament.Tournament, from tournament.Progress, c tournament.Change) error {
	cols := map[string]any{}
	for _, f := range []struct {
		col           string
		before, after any
	}{
		{"name", before.Name, after.Name},
		{"date", before.Date, after.Date},
		{"venue", before.Venue, after.Venue},
		{"shop", before.Shop, after.Shop},
		{"rounds", before.Rounds, after.Rounds},
		{"game_minutes", before.GameMinutes, after.GameMinutes},
		{"self_check_in", before.SelfCheckIn, after.SelfCheckIn},
		{"self_report", before.SelfReport, after.SelfReport},
		{"confirm_results", before.ConfirmResults, after.ConfirmResults},
		{"team_event", before.Team, after.Team},
	} {
		if f.before != f.after {
			cols[f.col] = f.after
		}
	}
	return s.tx(ctx, "update tournament", func(tx *Tx) error {
		if err := tx.lock(after.ID); err != nil {
			return err
		}
		if err := checkProgress(tx.DB, after.ID, &from); err != nil {
			return err
		}
		var n int64
		if len(cols) == 0 {
			if err := tx.Model(&tournamentRow{}).Where("id = ?", after.ID).Count(&n).Error; err != nil {
				return err
			}
		} else {
			res := tx.Model(&tournamentRow{}).Where("id = ?", after.ID).Updates(cols)
			if res.Error != nil {
				return res.Error
			}
			n = res.RowsAffected
		}
		if n == 0 {
			return notFound("tournament", after.ID)
		}
		return tx.audit(after.ID, c)
	})
}

// Tournament implements tournament.Store.
func (s *Store) Tournament(ctx context.Context, id int64) (tournament.Tournament, error) {
	t, err := tournamentOf(s.db.WithContext(ctx), id)
	return t, wrap(fmt.Sprintf("tournament %d", id), err)
}

// tournamentOf reads tournament id with the number of its rounds paired.
func tournamentOf(db *gorm.DB, id int64) (tournament.Tournament, error) {
	var row tournamentRow
	if err := db.Take(&row, id).Error; err != nil {
		return tournament.Tournament{}, err
	}
	t, err := row.tournament()
	if err != nil {
		return tournament.Tournament{}, err
	}
	var paired int64
	if err := db.Model(&roundRow{}).Where("tournament_id = ?", id).Count(&paired).Error; err != nil {
		return tournament.Tournament{}, err
	}
	t.Paired = int(paired)
	if t.Divisions, err = divisionsOf(db, t.EventID); err != nil {
		return tournament.Tournament{}, err
	}
	return t, nil
}

// Tournaments implements tournament.Store.
func (s *Store) Tournaments(ctx context.Context) ([]tournament.Tournament, error) {
	db := s.db.WithContext(ctx)
	var rows []tournamentRow
	if err := db.Order("created_at DESC, id DESC").Find(&rows).Error; err != nil {
		return nil, wrap("tournaments", err)
	}
	var counts []struct {
		TournamentID int64
		N            int
	}
	if err := db.Model(&roundRow{}).Select("tournament_id, COUNT(*) AS n").Group("tournament_id").Scan(&counts).Error; err != nil {
		return nil, wrap("tournaments", err)
	}
	paired := make(map[int64]int, len(counts))
	for _, c := range counts {
		paired[c.TournamentID] = c.N
	}
	out := make([]tournament.Tournament, 0, len(rows))
	for _, r := range rows {
		t, err := r.tournament()
		if err != nil {
			return nil, err
		}
		t.Paired = paired[t.ID]
		out = append(out, t)
	}
	listDivisions(out)
	return out, nil
}

// SetClosed implements tournament.Store.
func (s *Store) SetClosed(ctx context.Context, id int64, closed *tournament.Closure, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("close tournament %d", id), func(tx *Tx) error {
		if err := tx.lock(id); err != nil {
			return err
		}
		var row tournamentRow
		if err := tx.Take(&row, id).Error; err != nil {
			return err
		}
		set := map[string]any{"closed_at": nil, "closed_by": ""}
		if closed == nil {
			if row.ClosedAt == nil {
				return tournament.Conflict("tournament-open", fmt.Sprintf("tournament %d is not closed", id), nil)
			}
		} else {
			if err := checkOpen(tx.DB, id); err != nil {
				return err
			}
			if err := checkAllResults(tx.DB, id); err != nil {
				return err
			}
			at := closed.At.UTC()
			set = map[string]any{"closed_at": &at, "closed_by": closed.Judge}
		}
		if err := tx.Model(&tournamentRow{}).Where("id = ?", id).Updates(set).Error; err != nil {
			return err
		}
		return tx.audit(id, c)
	})
}

// SetArchived implements tournament.Store.
func (s *Store) SetArchived(ctx context.Context, id int64, archived *tournament.Archival, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("archive tournament %d", id), func(tx *Tx) error {
		if err := tx.lock(id); err != nil {
			return err
		}
		set := map[string]any{"archived_at": nil, "archived_by": ""}
		if archived != nil {
			at := archived.At.UTC()
			set = map[string]any{"archived_at": &at, "archived_by": archived.Judge}
		}
		res := tx.Model(&tournamentRow{}).Where("id = ?", id).Updates(set)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return notFound("tournament", id)
		}
		return tx.audit(id, c)
	})
}

// DeleteTournament implements tournament.Store.
func (s *Store) DeleteTournament(ctx context.Context, id int64, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("delete tournament %d", id), func(tx *Tx) error {
		if err := tx.lock(id); err != nil {
			return err
		}
		var paired int64
		if err := tx.Model(&roundRow{}).Where("tournament_id = ?", id).Count(&paired).Error; err != nil {
			return err
		}
		if paired > 0 {
			return tournament.StartedConflict(id, int(paired))
		}
		if err := deleteFromEvent(tx, id); err != nil {
			return err
		}
		// A penalty holds its player (RESTRICT): it goes first, then the
		// tournament takes its players, keep-apart requests and audit
		// entries with it, and the registry the people only they were.
		if err := tx.Where("tournament_id = ?", id).Delete(&penaltyRow{}).Error; err != nil {
			return err
		}
		var people []*int64
		if err := tx.Model(&playerRow{}).Where("tournament_id = ? AND person_id IS NOT NULL", id).Order("person_id").Pluck("person_id", &people).Error; err != nil {
			return err
		}
		res := tx.Delete(&tournamentRow{}, id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return notFound("tournament", id)
		}
		for _, person := range people {
			if err := dropLonePerson(tx, person); err != nil {
				return err
			}
		}
		// Its version went with it: the snapshots kept of it are told of a
		// change whose version the store no longer has.
		tx.bump(id)
		return tx.audit(0, c)
	})
}

// checkAllResults reports a conflict unless tournament tid has a round
// paired and a result at every table paired.
func checkAllResults(tx *gorm.DB, tid int64) error {
	var paired int64
	if err := tx.Model(&roundRow{}).Where("tournament_id = ?", tid).Count(&paired).Error; err != nil {
		return err
	}
	if paired == 0 {
		return tournament.Conflict("tournament-not-started", fmt.Sprintf("tournament %d has no round paired", tid), nil)
	}
	var missing struct {
		Round, Table int
	}
	err := tx.Model(&tableRow{}).Select("rounds.number AS round, round_tables.number AS \"table\"").
		Joins("JOIN rounds ON rounds.id = round_tables.round_id").
		// A result waiting for a second account's confirmation (the
		// two-person rule) is no result yet.
		Where("rounds.tournament_id = ? AND NOT EXISTS (SELECT 1 FROM results WHERE results.table_id = round_tables.id "+
			"AND results.version = (SELECT MAX(r2.version) FROM results r2 WHERE r2.table_id = round_tables.id) "+
			"AND NOT (results.needs_confirm AND results.confirmed_by = ''))", tid).
		Order("rounds.number, round_tables.number").Limit(1).Scan(&missing).Error
	if err != nil {
		return err
	}
	if missing.Round != 0 {
		return tournament.Conflict("close-results-missing", fmt.Sprintf("round %d table %d has no result yet: the tournament closes once every table has one", missing.Round, missing.Table),
			map[string]any{"Round": missing.Round, "Table": missing.Table})
	}
	return nil
}
