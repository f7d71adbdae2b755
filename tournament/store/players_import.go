package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// importBatch is how many players one INSERT carries: SQLite allows 32766
// bound values per statement, and a player row has 8 columns.
const importBatch = 500

// AddPlayers implements tournament.Store.
func (s *Store) AddPlayers(ctx context.Context, ps []*tournament.Player, from tournament.Progress, c tournament.Change) error {
	if len(ps) == 0 {
		return nil
	}
	tid := ps[0].TournamentID
	for _, p := range ps {
		if p.TournamentID != tid {
			return fmt.Errorf("add players: %w: players of tournaments %d and %d in one import", tournament.ErrInvalid, tid, p.TournamentID)
		}
	}
	given := make([]tournament.Player, len(ps))
	for i, p := range ps {
		given[i] = *p
	}
	return s.tx(ctx, "add players", func(tx *Tx) error {
		for i, p := range ps {
			*p = given[i]
		}
		if err := tx.lock(tid); err != nil {
			return err
		}
		if err := checkProgress(tx.DB, tid, &from); err != nil {
			return err
		}
		if err := joinPeople(tx, ps, c.At); err != nil {
			return err
		}
		rows := make([]playerRow, len(ps))
		for i, p := range ps {
			rows[i] = newPlayerRow(*p)
			rows[i].ID = 0
		}
		if err := tx.Omit(clause.Associations).CreateInBatches(&rows, importBatch).Error; err != nil {
			return err
		}
		for i := range rows {
			ps[i].ID = rows[i].ID
		}
		return tx.audit(tid, c)
	})
}

// joinPeople writes the registry's side of an import, as joinPerson does
// for one player: the new people in batches, then each returning person
// under their lock. It sets the new people on ps as it adds them: the
// caller gives ps back as they were before a try again (Store.tx).
func joinPeople(tx *Tx, ps []*tournament.Player, at time.Time) error {
	var fresh []personRow
	var who []*tournament.Player
	for _, p := range ps {
		if p.Person == nil || p.Person.ID != 0 {
			if err := joinPerson(tx, p, at); err != nil {
				return err
			}
			continue
		}
		row := newPersonRow(*p.Person)
		if row.CreatedAt.IsZero() {
			row.CreatedAt = at.UTC()
		}
		fresh, who = append(fresh, row), append(who, p)
	}
	if len(fresh) == 0 {
		return nil
	}
	if err := tx.CreateInBatches(&fresh, importBatch).Error; err != nil {
		return err
	}
	for i, p := range who {
		person := *p.Person
		person.ID, person.CreatedAt = fresh[i].ID, fresh[i].CreatedAt
		p.Person, p.PersonID = &person, person.ID
	}
	return nil
}
