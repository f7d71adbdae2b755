package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
)

// seasonRow is a season (schema version 13). Its lists and its formula are
// JSON: a season is read whole, never searched by them.
type seasonRow struct {
	ID            int64     `gorm:"primaryKey"`
	Name          string    `gorm:"not null"`
	FromDate      string    `gorm:"not null"`
	ToDate        string    `gorm:"not null"`
	Shops         string    `gorm:"not null"` // JSON []string
	Events        string    `gorm:"not null"` // JSON []int64
	Formula       string    `gorm:"not null"` // JSON of formulaJSON
	Qualification string    `gorm:"not null"` // JSON of qualificationJSON, "" for none
	CreatedBy     string    `gorm:"not null"`
	CreatedAt     time.Time `gorm:"not null"`
}

func (seasonRow) TableName() string { return "seasons" }

// realNameRow is a person's real name for a qualification (schema version
// 14): the judges' eyes only. It goes with its person.
type realNameRow struct {
	PersonID   int64      `gorm:"primaryKey;autoIncrement:false"`
	Person     *personRow `gorm:"constraint:OnDelete:CASCADE"`
	Name       string     `gorm:"not null"`
	RecordedBy string     `gorm:"not null"`
	At         time.Time  `gorm:"not null"`
}

func (realNameRow) TableName() string { return "real_names" }

type formulaJSON struct {
	Kind   string `json:"kind"`
	Points []int  `json:"points,omitempty"`
	Uma4   []int  `json:"uma4,omitempty"`
	Uma3   []int  `json:"uma3,omitempty"`
	VP     int    `json:"vp,omitempty"`
	Best   int    `json:"best,omitempty"`
}

type qualificationJSON struct {
	Attempts int     `json:"attempts"`
	Rank     int     `json:"rank"`
	RealName bool    `json:"real_name"`
	Events   []int64 `json:"events,omitempty"`
}

func newSeasonRow(s tournament.Season) (seasonRow, error) {
	f := s.Formula
	row := seasonRow{ID: s.ID, Name: s.Name, FromDate: s.From, ToDate: s.To, CreatedBy: s.CreatedBy, CreatedAt: s.CreatedAt.UTC()}
	var err error
	for _, field := range []struct {
		to *string
		v  any
	}{
		{&row.Shops, nonNil(s.Shops)},
		{&row.Events, nonNil(s.Events)},
		{&row.Formula, formulaJSON{Kind: f.Kind, Points: f.Points, Uma4: f.Uma4, Uma3: f.Uma3, VP: f.VP, Best: f.Best}},
	} {
		var b []byte
		if b, err = json.Marshal(field.v); err != nil {
			return row, fmt.Errorf("encode season: %w", err)
		}
		*field.to = string(b)
	}
	if q := s.Qualification; q != nil {
		b, err := json.Marshal(qualificationJSON{Attempts: q.Attempts, Rank: q.Rank, RealName: q.RealName, Events: q.Events})
		if err != nil {
			return row, fmt.Errorf("encode season: %w", err)
		}
		row.Qualification = string(b)
	}
	return row, nil
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func (r seasonRow) season() (tournament.Season, error) {
	s := tournament.Season{ID: r.ID, Name: r.Name, From: r.FromDate, To: r.ToDate, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt}
	var f formulaJSON
	for _, field := range []struct {
		from string
		v    any
	}{{r.Shops, &s.Shops}, {r.Events, &s.Events}, {r.Formula, &f}} {
		if err := json.Unmarshal([]byte(field.from), field.v); err != nil {
			return s, fmt.Errorf("season %d: %w", r.ID, err)
		}
	}
	s.Formula = season.Formula{Kind: f.Kind, Points: f.Points, Uma4: f.Uma4, Uma3: f.Uma3, VP: f.VP, Best: f.Best}
	if r.Qualification != "" {
		var q qualificationJSON
		if err := json.Unmarshal([]byte(r.Qualification), &q); err != nil {
			return s, fmt.Errorf("season %d: %w", r.ID, err)
		}
		s.Qualification = &tournament.Qualification{Attempts: q.Attempts, Rank: q.Rank, RealName: q.RealName, Events: q.Events}
	}
	return s, nil
}

// EventStamps implements tournament.Store.
func (s *Store) EventStamps(ctx context.Context) ([]tournament.EventStamp, error) {
	var rows []tournamentRow
	err := s.db.WithContext(ctx).Select("id, name, date, shop, imported, created_at, closed_at").Order("id").Find(&rows).Error
	if err != nil {
		return nil, wrap("event stamps", err)
	}
	out := make([]tournament.EventStamp, len(rows))
	for i, r := range rows {
		out[i] = tournament.EventStamp{ID: r.ID, Name: r.Name, Date: r.Date, Shop: r.Shop, Imported: r.Imported, CreatedAt: r.CreatedAt, Closed: r.ClosedAt}
	}
	return out, nil
}

// MergeCount implements tournament.Store.
func (s *Store) MergeCount(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&auditRow{}).Where("tournament_id IS NULL AND action = ?", tournament.ActionPersonMerge).Count(&n).Error
	return n, wrap("merges", err)
}

// Entrants implements tournament.Store.
func (s *Store) Entrants(ctx context.Context, ids []int64) (map[int64][]int64, error) {
	out := map[int64][]int64{}
	db := s.db.WithContext(ctx)
	for batch := range slices.Chunk(ids, peopleBatch) {
		var rows []struct{ TournamentID, PersonID int64 }
		err := db.Model(&playerRow{}).Select("tournament_id, person_id").
			Where("tournament_id IN ? AND person_id IS NOT NULL", batch).
			Where("checked_in OR EXISTS (SELECT 1 FROM result_scores WHERE result_scores.player_id = players.id)").
			Order("tournament_id, person_id").Scan(&rows).Error
		if err != nil {
			return nil, wrap("entrants", err)
		}
		for _, r := range rows {
			out[r.TournamentID] = append(out[r.TournamentID], r.PersonID)
		}
	}
	return out, nil
}

// PeopleByID implements tournament.Store.
func (s *Store) PeopleByID(ctx context.Context, ids []int64) ([]tournament.Person, error) {
	var out []tournament.Person
	for batch := range slices.Chunk(ids, peopleBatch) {
		var rows []personRow
		if err := s.db.WithContext(ctx).Where("id IN ?", batch).Find(&rows).Error; err != nil {
			return nil, wrap("people", err)
		}
		for _, r := range rows {
			out = append(out, r.person())
		}
	}
	slices.SortFunc(out, func(a, b tournament.Person) int { return int(a.ID - b.ID) })
	return out, nil
}

// CreateSeason implements tournament.Store.
func (s *Store) CreateSeason(ctx context.Context, season *tournament.Season, c tournament.Change) error {
	row, err := newSeasonRow(*season)
	if err != nil {
		return err
	}
	return s.tx(ctx, "create season", func(tx *Tx) error {
		row.ID = 0
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		season.ID, season.CreatedAt = row.ID, row.CreatedAt
		return tx.audit(0, c)
	})
}

// Season implements tournament.Store.
func (s *Store) Season(ctx context.Context, id int64) (tournament.Season, error) {
	var row seasonRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		return tournament.Season{}, wrap(fmt.Sprintf("season %d", id), err)
	}
	return row.season()
}

// Seasons implements tournament.Store.
func (s *Store) Seasons(ctx context.Context) ([]tournament.Season, error) {
	var rows []seasonRow
	if err := s.db.WithContext(ctx).Order("to_date DESC, id DESC").Find(&rows).Error; err != nil {
		return nil, wrap("seasons", err)
	}
	out := make([]tournament.Season, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = r.season(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RealNames implements tournament.Store.
func (s *Store) RealNames(ctx context.Context, people []int64) (map[int64]tournament.RealName, error) {
	out := map[int64]tournament.RealName{}
	for batch := range slices.Chunk(people, peopleBatch) {
		var rows []realNameRow
		if err := s.db.WithContext(ctx).Where("person_id IN ?", batch).Find(&rows).Error; err != nil {
			return nil, wrap("real names", err)
		}
		for _, r := range rows {
			out[r.PersonID] = tournament.RealName{PersonID: r.PersonID, Name: r.Name, RecordedBy: r.RecordedBy, At: r.At}
		}
	}
	return out, nil
}

// SetRealName implements tournament.Store.
func (s *Store) SetRealName(ctx context.Context, r tournament.RealName, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("real name of person %d", r.PersonID), func(tx *Tx) error {
		if _, err := lockPerson(tx, r.PersonID, true); err != nil {
			return err
		}
		row := realNameRow{PersonID: r.PersonID, Name: r.Name, RecordedBy: r.RecordedBy, At: r.At.UTC()}
		err := tx.Omit(clause.Associations).Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "person_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"name", "recorded_by", "at"}),
		}).Create(&row).Error
		if err != nil {
			return err
		}
		return tx.audit(0, c)
	})
}

// moveRealName gives keep the real name recorded of gone when keep has
// none, inside a merge's transaction, before gone is removed.
func moveRealName(tx *gorm.DB, keep, gone int64) error {
	var n int64
	if err := tx.Model(&realNameRow{}).Where("person_id = ?", keep).Count(&n).Error; err != nil || n > 0 {
		return err
	}
	return tx.Model(&realNameRow{}).Where("person_id = ?", gone).Update("person_id", keep).Error
}
