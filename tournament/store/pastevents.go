package store

import (
	"context"
	"fmt"

	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// ImportPastEvent implements tournament.Store. The tournament is written
// open, its players (and their people), rounds, tables and results (each
// table's one revision) added, the audit entry written, and the tournament
// closed last: in one transaction, so that nobody sees half an event, and
// an event that fails anywhere leaves nothing behind.
func (s *Store) ImportPastEvent(ctx context.Context, w *tournament.PastEventWrite, c tournament.Change) error {
	given := make([]tournament.Player, len(w.Players))
	for i, p := range w.Players {
		given[i] = *p
	}
	t := *w.Tournament
	return s.tx(ctx, "import past event", func(tx *Tx) error {
		for i, p := range w.Players {
			*p = given[i]
		}
		row, err := newTournamentRow(t)
		if err != nil {
			return err
		}
		row.ID = 0
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		if err := tx.lock(row.ID); err != nil {
			return err
		}
		for _, p := range w.Players {
			p.TournamentID = row.ID
		}
		if err := joinPeople(tx, w.Players, w.At); err != nil {
			return err
		}
		players := make([]playerRow, len(w.Players))
		for i, p := range w.Players {
			players[i] = newPlayerRow(*p)
			players[i].ID = 0
		}
		if err := tx.Omit(clause.Associations).CreateInBatches(&players, importBatch).Error; err != nil {
			return err
		}
		for i := range players {
			w.Players[i].ID = players[i].ID
		}
		for _, r := range w.Rounds {
			if err := insertPastRound(tx, row.ID, r, players, w); err != nil {
				return err
			}
		}
		if err := tx.audit(row.ID, c); err != nil {
			return err
		}
		at := w.At.UTC()
		if err := tx.Model(&tournamentRow{}).Where("id = ?", row.ID).Updates(map[string]any{"closed_at": &at, "closed_by": w.Judge}).Error; err != nil {
			return err
		}
		w.Tournament.ID, w.Tournament.CreatedAt = row.ID, row.CreatedAt
		w.Tournament.Closed = &tournament.Closure{Judge: w.Judge, At: at}
		return nil
	})
}

// insertPastRound writes one round of a past event: its row, its tables
// with their players, and each table's result as revision 1.
func insertPastRound(tx *Tx, tid int64, r tournament.PastRound, players []playerRow, w *tournament.PastEventWrite) error {
	round := tournament.Round{TournamentID: tid, Number: r.Number, Mode: tournament.ModeImported, PairedBy: w.Judge, PairedAt: w.At}
	row := roundRow{TournamentID: tid, Number: r.Number, Mode: round.Mode, PairedBy: w.Judge, PairedAt: w.At.UTC()}
	if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
		return err
	}
	round.ID = row.ID
	for _, t := range r.Tables {
		table := tournament.Table{Number: t.Number}
		for _, i := range t.Players {
			table.Players = append(table.Players, players[i].ID)
		}
		round.Tables = append(round.Tables, table)
	}
	if err := insertPairing(tx.DB, &round, nil); err != nil {
		return err
	}
	for k, t := range r.Tables {
		res := resultRow{TableID: round.Tables[k].ID, Version: 1, EndedBy: tournament.EndedByTime, Judge: w.Judge, At: w.At.UTC(),
			Reason: "imported: " + w.Tournament.Imported}
		if t.Declared >= 0 {
			id := players[t.Players[t.Declared]].ID
			res.DeclaredID, res.EndedBy = &id, tournament.EndedByDeclaration
		}
		if err := tx.Omit(clause.Associations).Create(&res).Error; err != nil {
			return err
		}
		scores := make([]scoreRow, len(t.Players))
		for j, i := range t.Players {
			scores[j] = newScoreRow(res.ID, j, tournament.Score{PlayerID: players[i].ID, VP: t.VP[j]})
		}
		if err := tx.Omit(clause.Associations).Create(&scores).Error; err != nil {
			return fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
		}
	}
	return nil
}
