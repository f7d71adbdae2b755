package store

import (
	"context"
	"database/sql"
	"fmt"

	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// Event implements tournament.Store: the tournament, its players, rounds,
// penalties, clocks and reports, and its version, read in one read
// transaction, so that they are the facts of one moment of the database.
func (s *Store) Event(ctx context.Context, tournamentID int64) (tournament.EventRecord, error) {
	what := fmt.Sprintf("tournament %d", tournamentID)
	var rec tournament.EventRecord
	err := s.read(ctx, func(db *gorm.DB) error {
		rec = tournament.EventRecord{}
		var err error
		if rec.Version, err = versionOf(db, tournamentID); err != nil {
			return err
		}
		if rec.Tournament, err = tournamentOf(db, tournamentID); err != nil {
			return err
		}
		if rec.Players, err = playersOf(db, s.engine, tournamentID); err != nil {
			return err
		}
		var rows []roundRow
		if err := db.Where("tournament_id = ?", tournamentID).Order("number").Find(&rows).Error; err != nil {
			return err
		}
		if rec.Rounds, err = loadRounds(db, rows); err != nil {
			return err
		}
		if rec.Penalties, err = penaltiesOf(db, tournamentID); err != nil {
			return err
		}
		var events []clockEventRow
		err = db.Where("round_id IN (SELECT id FROM rounds WHERE tournament_id = ?)", tournamentID).Order("at, id").Find(&events).Error
		if err != nil {
			return err
		}
		rec.Clocks = map[int64][]tournament.ClockEvent{}
		for _, e := range events {
			rec.Clocks[e.RoundID] = append(rec.Clocks[e.RoundID], e.event())
		}
		rec.Reports, err = reportsOf(db, "tournament_id = ?", tournamentID)
		return err
	})
	return rec, wrap(what, err)
}

// Table implements tournament.Store: a fixed number of queries, each of
// the table's own rows (its round's row, its players, their penalties in
// the round, the round's clock, its reports), in one read transaction.
func (s *Store) Table(ctx context.Context, tournamentID int64, n, number int) (tournament.TableFacts, error) {
	what := fmt.Sprintf("round %d table %d", n, number)
	var f tournament.TableFacts
	err := s.read(ctx, func(db *gorm.DB) error {
		f = tournament.TableFacts{}
		var err error
		if f.Tournament, err = tournamentOf(db, tournamentID); err != nil {
			return err
		}
		var row roundRow
		if err := db.Where("tournament_id = ? AND number = ?", tournamentID, n).Take(&row).Error; err != nil {
			return err
		}
		rounds, err := loadRoundTables(db, []roundRow{row}, number)
		if err != nil {
			return err
		}
		if f.Round = rounds[0]; len(f.Round.Tables) != 1 {
			return notFound("table", number)
		}
		ids := f.Round.Tables[0].Players
		var players []playerRow
		if err := db.Where("id IN ?", ids).Find(&players).Error; err != nil {
			return err
		}
		var pairs []keepApartRow
		if err := db.Where("player_id IN ? OR other_id IN ?", ids, ids).Find(&pairs).Error; err != nil {
			return err
		}
		byID := map[int64]playerRow{}
		for _, p := range players {
			byID[p.ID] = p
		}
		for _, id := range ids {
			if p, ok := byID[id]; ok {
				f.Players = append(f.Players, p.player(keepApartOf(id, pairs)))
			}
		}
		var pens []penaltyRow
		if err := db.Where("player_id IN ? AND round = ?", ids, n).Order("id").Find(&pens).Error; err != nil {
			return err
		}
		for _, p := range pens {
			f.Penalties = append(f.Penalties, p.penalty())
		}
		var events []clockEventRow
		if err := db.Where("round_id = ?", row.ID).Order("at, id").Find(&events).Error; err != nil {
			return err
		}
		for _, e := range events {
			f.Clock = append(f.Clock, e.event())
		}
		f.Reports, err = reportsOf(db, "table_id = ?", f.Round.Tables[0].ID)
		return err
	})
	return f, wrap(what, err)
}

// Version implements tournament.Store.
func (s *Store) Version(ctx context.Context, tournamentID int64) (int64, error) {
	v, err := versionOf(s.db.WithContext(ctx), tournamentID)
	return v, wrap(fmt.Sprintf("version of tournament %d", tournamentID), err)
}

func versionOf(db *gorm.DB, tournamentID int64) (int64, error) {
	var row tournamentVersionRow
	if err := db.Take(&row, "tournament_id = ?", tournamentID).Error; err != nil {
		return 0, err
	}
	return row.Version, nil
}

// read runs fn in a read transaction, which sees the database as it was
// at one moment: on SQLite a DEFERRED transaction of the reader, a
// reader of the WAL that neither waits for the writer nor holds it up; on
// PostgreSQL REPEATABLE READ, READ ONLY.
func (s *Store) read(ctx context.Context, fn func(db *gorm.DB) error) error {
	if s.engine == enginePostgres {
		return s.db.WithContext(ctx).Transaction(fn, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	}
	return s.reader.WithContext(ctx).Transaction(fn)
}
