package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/tournament"
)

// divisionsOf reads the divisions of event eventID, the main first and
// the others in the order they were added; none for 0 (an event of one
// division), without a query.
func divisionsOf(db *gorm.DB, eventID int64) ([]tournament.Division, error) {
	if eventID == 0 {
		return nil, nil
	}
	var rows []struct {
		ID       int64
		Division string
	}
	err := db.Model(&tournamentRow{}).Select("id, division").
		Where("id = ? OR event_id = ?", eventID, eventID).
		Order("CASE WHEN id = event_id THEN 0 ELSE 1 END, id").Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := make([]tournament.Division, len(rows))
	for i, r := range rows {
		out[i] = tournament.Division{Name: r.Division, TournamentID: r.ID}
	}
	return out, nil
}

// listDivisions gives each tournament of the list that is a division of
// an event the event's divisions, from the list itself (every tournament
// is on it), the main first and the others in the order they were added,
// as divisionsOf reads them.
func listDivisions(ts []tournament.Tournament) {
	events := map[int64][]tournament.Tournament{}
	for _, t := range ts {
		if t.EventID != 0 {
			events[t.EventID] = append(events[t.EventID], t)
		}
	}
	for i, t := range ts {
		members := events[t.EventID]
		if t.EventID == 0 || len(members) == 0 {
			continue
		}
		slices.SortFunc(members, func(a, b tournament.Tournament) int {
			return cmp.Or(cmp.Compare(b2i(a.ID != a.EventID), b2i(b.ID != b.EventID)), cmp.Compare(a.ID, b.ID))
		})
		for _, m := range members {
			ts[i].Divisions = append(ts[i].Divisions, tournament.Division{Name: m.Division, TournamentID: m.ID})
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// takenDivision refuses a division name another tournament of event
// eventID than except holds, read under the main's lock: two judges adding
// the same name at once get one division of it.
func takenDivision(tx *Tx, eventID, except int64, name string) error {
	var n int64
	err := tx.Model(&tournamentRow{}).
		Where("(id = ? OR event_id = ?) AND id <> ? AND division = ?", eventID, eventID, except, name).Count(&n).Error
	if err != nil {
		return err
	}
	if n > 0 {
		return tournament.Conflict("division-name-taken", fmt.Sprintf("the event has a division %q already", name),
			map[string]any{"Division": name})
	}
	return nil
}

// AddDivision implements tournament.Store.
func (s *Store) AddDivision(ctx context.Context, m tournament.Tournament, d *tournament.Tournament, c tournament.Change) error {
	d.ID, d.EventID = 0, m.ID
	if d.CreatedAt.IsZero() {
		d.CreatedAt = c.At
	}
	return s.tx(ctx, fmt.Sprintf("add division to tournament %d", m.ID), func(tx *Tx) error {
		if err := tx.lock(m.ID); err != nil {
			return err
		}
		var main tournamentRow
		if err := tx.Take(&main, m.ID).Error; err != nil {
			return err
		}
		if main.EventID != 0 && main.EventID != main.ID {
			return tournament.Conflict("division-of-division",
				fmt.Sprintf("tournament %d is a division of tournament %d: add the division there", main.ID, main.EventID),
				map[string]any{"Division": main.Division})
		}
		if err := takenDivision(tx, m.ID, 0, d.Division); err != nil {
			return err
		}
		if main.EventID == 0 {
			if err := tx.Model(&tournamentRow{}).Where("id = ?", m.ID).Update("event_id", m.ID).Error; err != nil {
				return err
			}
		}
		row, err := newTournamentRow(*d)
		if err != nil {
			return err
		}
		if err := insertTournament(tx, &row); err != nil {
			return err
		}
		d.ID, d.CreatedAt = row.ID, row.CreatedAt
		if err := bumpEvent(tx, m.ID); err != nil {
			return err
		}
		return tx.audit(m.ID, c)
	})
}

// NameDivision implements tournament.Store.
func (s *Store) NameDivision(ctx context.Context, t tournament.Tournament, name string, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("name the division of tournament %d", t.ID), func(tx *Tx) error {
		if err := tx.lock(t.ID); err != nil {
			return err
		}
		var row tournamentRow
		if err := tx.Take(&row, t.ID).Error; err != nil {
			return err
		}
		if row.EventID != 0 {
			if err := takenDivision(tx, row.EventID, t.ID, name); err != nil {
				return err
			}
		}
		if err := tx.Model(&tournamentRow{}).Where("id = ?", t.ID).Update("division", name).Error; err != nil {
			return err
		}
		if err := bumpEvent(tx, row.EventID); err != nil {
			return err
		}
		return tx.audit(t.ID, c)
	})
}

// deleteFromEvent refuses deleting tournament id while it is the main of
// an event with other divisions, and moves the versions of the event's
// other divisions when it is one of them, so that their pages stop
// showing it.
func deleteFromEvent(tx *Tx, id int64) error {
	var row tournamentRow
	if err := tx.Select("id, event_id").Take(&row, id).Error; err != nil {
		return err
	}
	if row.EventID == 0 {
		return nil
	}
	var others int64
	if row.EventID == id {
		if err := tx.Model(&tournamentRow{}).Where("event_id = ? AND id <> ?", id, id).Count(&others).Error; err != nil {
			return err
		}
		if others > 0 {
			return tournament.MainHasDivisions(id, int(others))
		}
	}
	return bumpEvent(tx, row.EventID)
}

// bumpEvent moves the version of every division of event eventID on with
// the write's, so that each one's pages show the event's divisions as
// they are now.
func bumpEvent(tx *Tx, eventID int64) error {
	if eventID == 0 {
		return nil
	}
	var ids []int64
	if err := tx.Model(&tournamentRow{}).Where("id = ? OR event_id = ?", eventID, eventID).Pluck("id", &ids).Error; err != nil {
		return err
	}
	tx.bumped = append(tx.bumped, ids...)
	return nil
}
