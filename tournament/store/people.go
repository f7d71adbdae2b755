package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// peopleBatch is how many keys one query of the registry carries.
const peopleBatch = 500

// MatchPeople implements tournament.Store.
func (s *Store) MatchPeople(ctx context.Context, names, kanas, members []string) ([]tournament.PersonEntry, error) {
	db := s.db.WithContext(ctx)
	found := map[int64]personRow{}
	for _, by := range []struct {
		column string
		keys   []string
	}{{"name_key", names}, {"kana_key", kanas}, {"member", members}} {
		keys := slices.Clone(by.keys)
		slices.Sort(keys)
		keys = slices.Compact(keys)
		for batch := range slices.Chunk(keys, peopleBatch) {
			var rows []personRow
			if err := db.Where(by.column+" IN ?", batch).Find(&rows).Error; err != nil {
				return nil, wrap("match people", err)
			}
			for _, r := range rows {
				found[r.ID] = r
			}
		}
	}
	rows := make([]personRow, 0, len(found))
	for _, r := range found {
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b personRow) int { return int(a.ID - b.ID) })
	out, err := personEntries(db, rows)
	return out, wrap("match people", err)
}

// People implements tournament.Store.
func (s *Store) People(ctx context.Context, q tournament.PeopleQuery) ([]tournament.PersonEntry, int, error) {
	db := s.db.WithContext(ctx)
	where := db.Model(&personRow{}).Where("archived_at IS NULL")
	if q.Archived {
		where = db.Model(&personRow{}).Where("archived_at IS NOT NULL")
	}
	if q.Q != "" {
		like := "%" + escapeLike(q.Q) + "%"
		where = where.Where(`name_key LIKE ? ESCAPE '\' OR kana_key LIKE ? ESCAPE '\'`, like, like)
	}
	var total int64
	if err := where.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, wrap("people", err)
	}
	var rows []personRow
	// By reading, as tournament.CollationKey orders players: the name of
	// someone without a reading stands for it.
	order := s.engine.byCodePoint("(CASE WHEN kana_key = '' THEN name_key ELSE kana_key END)") + ", " + s.engine.byCodePoint("name") + ", id"
	if err := where.Session(&gorm.Session{}).Order(order).Offset(q.Offset).Limit(q.Limit).Find(&rows).Error; err != nil {
		return nil, 0, wrap("people", err)
	}
	out, err := personEntries(db, rows)
	return out, int(total), wrap("people", err)
}

// escapeLike escapes the wildcards of a LIKE pattern, with \ as the escape.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Person implements tournament.Store.
func (s *Store) Person(ctx context.Context, id int64) (tournament.PersonEntry, error) {
	what := fmt.Sprintf("person %d", id)
	db := s.db.WithContext(ctx)
	var row personRow
	if err := db.Take(&row, id).Error; err != nil {
		return tournament.PersonEntry{}, wrap(what, err)
	}
	out, err := personEntries(db, []personRow{row})
	if err != nil {
		return tournament.PersonEntry{}, wrap(what, err)
	}
	return out[0], nil
}

// PersonEvents implements tournament.Store.
func (s *Store) PersonEvents(ctx context.Context, id int64, offset, limit int) ([]tournament.PersonEvent, int, error) {
	what := fmt.Sprintf("events of person %d", id)
	db := s.db.WithContext(ctx)
	var total int64
	if err := db.Model(&playerRow{}).Where("person_id = ?", id).Count(&total).Error; err != nil {
		return nil, 0, wrap(what, err)
	}
	var rows []eventRow
	if err := eventsOf(db, []int64{id}).Offset(offset).Limit(limit).Scan(&rows).Error; err != nil {
		return nil, 0, wrap(what, err)
	}
	out := make([]tournament.PersonEvent, len(rows))
	for i, r := range rows {
		out[i] = r.event()
	}
	return out, int(total), nil
}

// eventRow is a tournament a person played, as eventsOf reads it.
type eventRow struct {
	PersonID     int64
	PlayerID     int64
	TournamentID int64
	Name         string
	Date         string
	CreatedAt    time.Time
	ClosedAt     *time.Time
}

func (r eventRow) event() tournament.PersonEvent {
	return tournament.PersonEvent{TournamentID: r.TournamentID, Name: r.Name, Date: r.Date, CreatedAt: r.CreatedAt,
		PlayerID: r.PlayerID, Closed: r.ClosedAt != nil}
}

// eventsOf is the query of the tournaments the people ids played, newest
// first: by date, then by creation.
func eventsOf(db *gorm.DB, ids []int64) *gorm.DB {
	return db.Model(&playerRow{}).
		Select("players.person_id, players.id AS player_id, tournaments.id AS tournament_id, tournaments.name, tournaments.date, tournaments.created_at, tournaments.closed_at").
		Joins("JOIN tournaments ON tournaments.id = players.tournament_id").
		Where("players.person_id IN ?", ids).
		Order("tournaments.date DESC, tournaments.created_at DESC, tournaments.id DESC")
}

// personEntries reads the tournaments each person of rows played.
func personEntries(db *gorm.DB, rows []personRow) ([]tournament.PersonEntry, error) {
	out := make([]tournament.PersonEntry, len(rows))
	at := make(map[int64]int, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = tournament.PersonEntry{Person: r.person()}
		at[r.ID], ids[i] = i, r.ID
	}
	for batch := range slices.Chunk(ids, peopleBatch) {
		var events []eventRow
		if err := eventsOf(db, batch).Scan(&events).Error; err != nil {
			return nil, err
		}
		for _, e := range events {
			p := &out[at[e.PersonID]]
			if len(p.Tournaments) == 0 {
				p.Last = e.event()
			}
			p.Tournaments = append(p.Tournaments, e.TournamentID)
		}
	}
	return out, nil
}

// lockPerson reads person id under its row's lock, until the transaction
// ends: for update when the transaction changes the person, else shared
// (a registration linking a player to them), so that a merge never removes
// a person whom a registration links meanwhile, and never misses the
// player it adds. On SQLite the transaction holds the database's write
// lock already.
func lockPerson(tx *Tx, id int64, update bool) (personRow, error) {
	var row personRow
	db := tx.DB
	if tx.engine == enginePostgres {
		strength := clause.LockingStrengthShare
		if update {
			strength = clause.LockingStrengthUpdate
		}
		db = db.Clauses(clause.Locking{Strength: strength})
	}
	err := db.Take(&row, id).Error
	return row, err
}

// personLocked, when a test sets it, is called with the person a
// registration links once it holds the person's lock.
var personLocked func(id int64)

// personChanged is the conflict of a person changed by another change
// since this one was decided.
func personChanged(p tournament.Person) error {
	return tournament.Conflict("person-changed",
		fmt.Sprintf("person %d (%s) was changed by another judge meanwhile", p.ID, p.Name),
		map[string]any{"Person": p.Name})
}

// samePerson reports whether the stored row holds p as it was read.
func samePerson(row personRow, p tournament.Person) bool {
	s := row.person()
	return s.Name == p.Name && s.Kana == p.Kana && s.Member == p.Member && (s.Archived == nil) == (p.Archived == nil)
}

// UpdatePerson implements tournament.Store.
func (s *Store) UpdatePerson(ctx context.Context, before, after tournament.Person, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("update person %d", after.ID), func(tx *Tx) error {
		row, err := lockPerson(tx, after.ID, true)
		if err != nil {
			return err
		}
		if !samePerson(row, before) {
			return personChanged(row.person())
		}
		if err := writePerson(tx.DB, after); err != nil {
			return err
		}
		return tx.audit(0, c)
	})
}

// writePerson writes p's name, kana, member number and archival.
func writePerson(db *gorm.DB, p tournament.Person) error {
	row := newPersonRow(p)
	return db.Model(&personRow{}).Where("id = ?", p.ID).Updates(map[string]any{
		"name": row.Name, "kana": row.Kana, "name_key": row.NameKey, "kana_key": row.KanaKey, "member": row.Member,
		"archived_at": row.ArchivedAt, "archived_by": row.ArchivedBy,
	}).Error
}

// MergePeople implements tournament.Store.
func (s *Store) MergePeople(ctx context.Context, keep, gone, after tournament.Person, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("merge person %d into %d", gone.ID, keep.ID), func(tx *Tx) error {
		// Locked in ID order, as every merge takes them: two merges of
		// the same people never wait on each other the other way round.
		for _, p := range sortedPeople(keep, gone) {
			row, err := lockPerson(tx, p.ID, true)
			if err != nil {
				return err
			}
			if !samePerson(row, p) {
				return personChanged(row.person())
			}
		}
		var shared []struct {
			ID   int64
			Name string
		}
		err := tx.Model(&playerRow{}).Select("tournaments.id, tournaments.name").
			Joins("JOIN tournaments ON tournaments.id = players.tournament_id").
			Where("players.person_id = ? AND players.tournament_id IN (?)", keep.ID,
				tx.Model(&playerRow{}).Select("tournament_id").Where("person_id = ?", gone.ID)).
			Order("tournaments.id").Limit(1).Scan(&shared).Error
		if err != nil {
			return err
		}
		if len(shared) > 0 {
			return tournament.SharedTournamentConflict(keep, gone, shared[0].ID, shared[0].Name)
		}
		if err := tx.Model(&playerRow{}).Where("person_id = ?", gone.ID).Update("person_id", keep.ID).Error; err != nil {
			return err
		}
		if err := moveRealName(tx.DB, keep.ID, gone.ID); err != nil {
			return err
		}
		// Gone first, so that keep may take its member number.
		if err := tx.Delete(&personRow{}, gone.ID).Error; err != nil {
			return err
		}
		if err := writePerson(tx.DB, after); err != nil {
			return err
		}
		return tx.audit(0, c)
	})
}

// sortedPeople returns a and b by ID.
func sortedPeople(a, b tournament.Person) []tournament.Person {
	if a.ID > b.ID {
		return []tournament.Person{b, a}
	}
	return []tournament.Person{a, b}
}

// joinPerson writes the registry's side of registering p, inside tx,
// under the lock of p's tournament: a new person (p.Person with ID 0) is
// added and p.PersonID set to them, at c's time; an existing one is read
// under its lock (lockPerson), must not play the tournament already, and
// takes the member number and the archival p.Person gives.
func joinPerson(tx *Tx, p *tournament.Player, at time.Time) error {
	if p.Person != nil && p.Person.ID == 0 {
		row := newPersonRow(*p.Person)
		if row.CreatedAt.IsZero() {
			row.CreatedAt = at.UTC()
		}
		if err := tx.Create(&row).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return tournament.Conflict("member-taken-meanwhile", fmt.Sprintf("member number %s was given to another person meanwhile", p.Person.Member),
					map[string]any{"Member": p.Person.Member})
			}
			return err
		}
		person := *p.Person
		person.ID, person.CreatedAt = row.ID, row.CreatedAt
		p.Person, p.PersonID = &person, row.ID
		return nil
	}
	if p.PersonID == 0 {
		return nil
	}
	row, err := lockPerson(tx, p.PersonID, p.Person != nil)
	if err == nil && personLocked != nil {
		personLocked(p.PersonID)
	}
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return tournament.Conflict("person-gone", fmt.Sprintf("person %d was merged or removed meanwhile", p.PersonID),
			map[string]any{"ID": p.PersonID})
	}
	if err != nil {
		return err
	}
	var n int64
	if err := tx.Model(&playerRow{}).Where("tournament_id = ? AND person_id = ?", p.TournamentID, p.PersonID).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return tournament.Conflict("person-already-registered", fmt.Sprintf("person %d (%s) is a player of tournament %d already", row.ID, row.Name, p.TournamentID),
			map[string]any{"Person": row.Name})
	}
	if p.Person == nil {
		return nil
	}
	// The registration gives a member number to someone without one, or
	// brings them back from the archive: from what was read, nothing else.
	stored := row.person()
	if stored.Member != "" && stored.Member != p.Person.Member {
		return personChanged(stored)
	}
	stored.Member, stored.Archived = p.Person.Member, p.Person.Archived
	return writePerson(tx.DB, stored)
}
