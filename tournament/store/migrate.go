package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// migration is one step of the schema. Open applies the steps a database
// has not recorded, in order, in one transaction, and records each in the
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
	// Issue 18: the registry of people across events. Every player
	// registered before is given a person, matched across tournaments as
	// a registration is (linkPeople), so that their history shows at once.
	{8, "the registry of people across events", func(tx *gorm.DB) error {
		if err := tx.AutoMigrate(&personRow{}, &playerRow{}); err != nil {
			return err
		}
		return linkPeople(tx)
	}},
	// Issue 18: a report keeps the late declaration's reason and the
	// disputing player's version; players' cards are kept in the database,
	// sealed, so that any server of the event prints them.
	{9, "disputes with a version, and players' cards in the database", func(tx *gorm.DB) error {
		return tx.AutoMigrate(&reportRow{}, &cardBatchRow{})
	}},
	// Issue 24: an accepted report keeps which of its versions became the
	// result (reports accepted before say only the revision); players'
	// cards wait on the players page until printed.
	{11, "the version of an accepted report, and cards kept until printed", func(tx *gorm.DB) error {
		return tx.AutoMigrate(&reportRow{}, &cardBatchRow{})
	}},
	// Issue 29: the shop that ran an event, past events imported from
	// their results, and the seasons (leagues) that gather events.
	{13, "shops, imported events and seasons", func(tx *gorm.DB) error {
		return tx.AutoMigrate(&tournamentRow{}, &seasonRow{})
	}},
	// Issue 29: the real names a qualification records, for judges only.
	{14, "the qualification's real names", func(tx *gorm.DB) error { return tx.AutoMigrate(&realNameRow{}) }},
	// Issue 26: each tournament's version, which the snapshots of it are
	// keyed by; a tournament made before starts at 1.
	{15, "the tournaments' versions", func(tx *gorm.DB) error {
		if err := tx.AutoMigrate(&tournamentVersionRow{}); err != nil {
			return err
		}
		return tx.Exec("INSERT INTO tournament_versions (tournament_id, version) " +
			"SELECT id, 1 FROM tournaments WHERE id NOT IN (SELECT tournament_id FROM tournament_versions)").Error
	}},
	// Issue 27: staff accounts, each with its role and its own password.
	// The judge password of the versions before becomes the password of a
	// head account named "head", so that a database of an earlier version
	// keeps working with the password its judges know.
	{17, "staff accounts", func(tx *gorm.DB) error {
		if err := tx.AutoMigrate(&staffRow{}); err != nil {
			return err
		}
		return moveSharedPassword(tx)
	}},
	// Issue 27: the two-person rule (a tournament's setting, and each
	// revision's confirmation), judge calls and table devices.
	{18, "confirmations, judge calls and table devices", func(tx *gorm.DB) error {
		return tx.AutoMigrate(&tournamentRow{}, &resultRow{}, &callRow{}, &deviceRow{})
	}},
	// Issue 30: a disqualification's effect on the games played, and its
	// reason; players registered before are not disqualified.
	{20, "a disqualification's effect", func(tx *gorm.DB) error { return tx.AutoMigrate(&playerRow{}) }},
	// Issue 30: team events, their teams and each round's line-ups.
	{22, "team events", func(tx *gorm.DB) error {
		return tx.AutoMigrate(&tournamentRow{}, &teamRow{}, &teamMemberRow{}, &lineupRow{})
	}},
	// Issue 30: divisions in one event; a tournament made before is an
	// event of one division.
	{23, "divisions in one event", func(tx *gorm.DB) error { return tx.AutoMigrate(&tournamentRow{}) }},
}

// linkPeople gives every player without a person one, tournament by
// tournament in the order they were created, each player as a registration
// through the JSON API would be (tournament.PersonIndex.Register): the one
// person of the same name and reading who does not play that tournament
// already, else a new person (created with the tournament). Two players of
// one name and reading across events are thus one person, and anything
// less sure two, for a judge to merge.
func linkPeople(tx *gorm.DB) error {
	var people []personRow
	if err := tx.Find(&people).Error; err != nil {
		return err
	}
	entries, err := personEntries(tx, people)
	if err != nil {
		return err
	}
	x := tournament.NewPersonIndex(entries)
	var players []struct {
		ID, TournamentID int64
		Name, Kana       string
		CreatedAt        time.Time
	}
	err = tx.Model(&playerRow{}).Select("players.id, players.tournament_id, players.name, players.kana, tournaments.created_at").
		Joins("JOIN tournaments ON tournaments.id = players.tournament_id").Where("players.person_id IS NULL").
		Order("tournaments.created_at, tournaments.id, players.id").Scan(&players).Error
	if err != nil {
		return err
	}
	linked := map[int64][]int64{} // person → players
	var order []int64
	for _, p := range players {
		id, _, err := x.Register(p.TournamentID, p.Name, p.Kana, "", tournament.PersonChoice{})
		if err != nil {
			return fmt.Errorf("player %d: %w", p.ID, err)
		}
		if id == 0 {
			row := newPersonRow(tournament.Person{Name: p.Name, Kana: p.Kana, CreatedAt: p.CreatedAt})
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
			id = row.ID
			x.Add(tournament.PersonEntry{Person: row.person(), Tournaments: []int64{p.TournamentID}})
		}
		if len(linked[id]) == 0 {
			order = append(order, id)
		}
		linked[id] = append(linked[id], p.ID)
	}
	for _, person := range order {
		for batch := range slices.Chunk(linked[person], peopleBatch) {
			if err := tx.Model(&playerRow{}).Where("id IN ?", batch).Update("person_id", person).Error; err != nil {
				return err
			}
		}
	}
	return nil
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
		var applied []int
		if err := tx.Model(&migrationRow{}).Pluck("version", &applied).Error; err != nil {
			return err
		}
		done := make(map[int]bool, len(applied))
		for _, v := range applied {
			if v > SchemaVersion() {
				return fmt.Errorf("the database has schema version %d, written by a newer Catan Judge; this one knows up to %d: run the newer version", v, SchemaVersion())
			}
			done[v] = true
		}
		// Every step the database has not recorded runs, in order, not
		// only those above the highest: steps numbered ahead of their
		// landing (two changes made side by side) still run where a
		// later one already has.
		for _, m := range migrations {
			if done[m.version] {
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
