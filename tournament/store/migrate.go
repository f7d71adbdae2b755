package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// migration is one step of the schema. Open applies the steps a database
// has not had yet, in order, in one transaction, and records each in the
// table schema_migrations, on both engines.
//
// Step 1 creates the tables of the row types, or brings the tables an
// earlier version of the program made (before versions were recorded) up to
// them, adding the columns they lack. A later change of a row type adds a
// step, written so that it also holds on a database step 1 made after the
// change (AutoMigrate of the changed row type, or SQL that checks first):
// a new database runs every step.
type migration struct {
	version int
	name    string
	up      func(tx *gorm.DB) error
}

var migrations = []migration{
	{1, "the tables of the row types", func(tx *gorm.DB) error { return tx.AutoMigrate(models...) }},
	{2, "the cut of a final stage", func(tx *gorm.DB) error { return tx.AutoMigrate(&roundRow{}) }},
	// Players' codes and self check-in (issue 18): players registered
	// before have no code until a judge issues one; tournaments made
	// before do not let players check in.
	{3, "players' codes, self check-in and table reports", func(tx *gorm.DB) error {
		return tx.AutoMigrate(&playerRow{}, &tournamentRow{}, &resultRow{}, &reportRow{})
	}},
	// Issue 15: a score may carry the VP breakdown; the columns are
	// nullable, so the scores saved before have none.
	{4, "the VP breakdown of a score", func(tx *gorm.DB) error { return tx.AutoMigrate(&scoreRow{}) }},
	// Issue 15: the rulings judges record at a table.
	{5, "the rulings at a table", func(tx *gorm.DB) error { return tx.AutoMigrate(&rulingRow{}) }},
	{6, "the archiving of a tournament", func(tx *gorm.DB) error { return tx.AutoMigrate(&tournamentRow{}) }},
	// Issue 15: a table's recorded game, move by move, and the results
	// saved from one.
	{7, "the recorded games", func(tx *gorm.DB) error { return tx.AutoMigrate(&gameMoveRow{}, &resultRow{}) }},
}

// SchemaVersion is the schema version this program writes: the last
// migration's.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// migrationRow records one migration applied to the database.
type migrationRow struct {
	Version   int       `gorm:"primaryKey;autoIncrement:false"`
	Name      string    `gorm:"not null"`
	AppliedAt time.Time `gorm:"not null"`
}

func (migrationRow) TableName() string { return "schema_migrations" }

// migrationLock is the key of the PostgreSQL advisory lock that lets one
// server at a time migrate the database: two servers started together do
// not both create the tables.
const migrationLock = 0x43_61_74_61_6e // "Catan"

// migrate applies the migrations the database lacks. A database migrated
// by a newer program (a schema version this one does not know) is refused:
// this program would not write what that one expects.
func (s *Store) migrate(ctx context.Context) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if s.engine == enginePostgres {
			if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", migrationLock).Error; err != nil {
				return err
			}
		}
		if err := tx.AutoMigrate(&migrationRow{}); err != nil {
			return err
		}
		var done int
		if err := tx.Model(&migrationRow{}).Select("COALESCE(MAX(version), 0)").Scan(&done).Error; err != nil {
			return err
		}
		if done > SchemaVersion() {
			return fmt.Errorf("the database has schema version %d, written by a newer Catan Judge; this one knows up to %d: run the newer version", done, SchemaVersion())
		}
		for _, m := range migrations {
			if m.version <= done {
				continue
			}
			if err := m.up(tx); err != nil {
				return fmt.Errorf("step %d (%s): %w", m.version, m.name, err)
			}
			if err := tx.Create(&migrationRow{Version: m.version, Name: m.name, AppliedAt: time.Now().UTC()}).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("migrate database: %w", err)
	}
	return nil
}

// AppliedMigrations lists the schema versions recorded in the database,
// in order.
func (s *Store) AppliedMigrations(ctx context.Context) ([]int, error) {
	var out []int
	err := s.db.WithContext(ctx).Model(&migrationRow{}).Order("version").Pluck("version", &out).Error
	return out, err
}
