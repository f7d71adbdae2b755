package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/tournament"
)

// AddPlayer implements tournament.Store.
func (s *Store) AddPlayer(ctx context.Context, p *tournament.Player, from tournament.Progress, c tournament.Change) error {
	given := *p
	return s.tx(ctx, "add player", func(tx *Tx) error {
		*p = given // as given, on a try again
		row := newPlayerRow(*p)
		row.ID = 0
		if err := tx.lock(p.TournamentID); err != nil {
			return err
		}
		if err := checkProgress(tx.DB, p.TournamentID, &from); err != nil {
			return err
		}
		if err := joinPerson(tx, p, c.At); err != nil {
			return err
		}
		row.PersonID = nullID(p.PersonID)
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		p.ID = row.ID
		if err := writeKeepApart(tx.DB, *p); err != nil {
			return err
		}
		return tx.audit(p.TournamentID, c)
	})
}

// UpdatePlayer implements tournament.Store.
func (s *Store) UpdatePlayer(ctx context.Context, before, after tournament.Player, from *tournament.Progress, c tournament.Change) error {
	return s.tx(ctx, "update player", func(tx *Tx) error {
		if err := tx.lock(after.TournamentID); err != nil {
			return err
		}
		var cur playerRow
		if err := tx.Take(&cur, after.ID).Error; err != nil {
			return err
		}
		if cur.TournamentID != after.TournamentID || before.ID != after.ID {
			return fmt.Errorf("%w: player %d is not in tournament %d", tournament.ErrInvalid, after.ID, after.TournamentID)
		}
		if err := checkProgress(tx.DB, after.TournamentID, from); err != nil {
			return err
		}
		was, now := newPlayerRow(before), newPlayerRow(after)
		// Each column the change sets, with its value before the change,
		// its value after and its value stored now.
		cols := []struct {
			name             string
			was, now, stored any
		}{
			{"name", was.Name, now.Name, cur.Name},
			{"kana", was.Kana, now.Kana, cur.Kana},
			{"checked_in", was.CheckedIn, now.CheckedIn, cur.CheckedIn},
			{"late_entry_round", was.LateEntryRound, now.LateEntryRound, cur.LateEntryRound},
			{"dropped_round", was.DroppedRound, now.DroppedRound, cur.DroppedRound},
			{"fixed_table", was.FixedTable, now.FixedTable, cur.FixedTable},
			{"code_hash", was.CodeHash, now.CodeHash, cur.CodeHash},
			{"dq_effect", was.DQEffect, now.DQEffect, cur.DQEffect},
			{"dq_reason", was.DQReason, now.DQReason, cur.DQReason},
			{"late_join", was.LateJoin, now.LateJoin, cur.LateJoin},
			{"substitute", was.Substitute, now.Substitute, cur.Substitute},
			{"no_show_round", was.NoShowRound, now.NoShowRound, cur.NoShowRound},
		}
		set := map[string]any{}
		for _, col := range cols {
			switch {
			case col.was == col.now, col.stored == col.now:
				// Unchanged, or already as wanted.
			case col.stored != col.was:
				return stalePlayer(cur, col.name)
			default:
				set[col.name] = col.now
			}
		}
		if table, ok := set["fixed_table"].(int); ok && table != 0 {
			if err := checkFixedTable(tx.DB, after, table); err != nil {
				return err
			}
		}
		if len(set) > 0 {
			if err := tx.Model(&playerRow{}).Where("id = ?", after.ID).Updates(set).Error; err != nil {
				return err
			}
		}
		if !slices.Equal(sorted(before.KeepApart), sorted(after.KeepApart)) {
			var pairs []keepApartRow
			if err := tx.Where("player_id = ? OR other_id = ?", after.ID, after.ID).Find(&pairs).Error; err != nil {
				return err
			}
			if stored := keepApartOf(after.ID, pairs); !slices.Equal(stored, sorted(before.KeepApart)) && !slices.Equal(stored, sorted(after.KeepApart)) {
				return stalePlayer(cur, "keep_apart")
			}
			if err := writeKeepApart(tx.DB, after); err != nil {
				return err
			}
		}
		return tx.audit(after.TournamentID, c)
	})
}

// checkFixedTable refuses to fix p to table when MaxFixedPerTable other
// players still in the tournament are fixed to it now: the service checked
// the table before the write, but another judge may have fixed a player
// there since.
func checkFixedTable(tx *gorm.DB, p tournament.Player, table int) error {
	var there []string
	err := tx.Model(&playerRow{}).
		Where("tournament_id = ? AND fixed_table = ? AND dropped_round = 0 AND id <> ?", p.TournamentID, table, p.ID).
		Pluck("name", &there).Error
	if err != nil {
		return err
	}
	if len(there) < tournament.MaxFixedPerTable {
		return nil
	}
	slices.Sort(there)
	return tournament.Conflict("fixed-table-full",
		fmt.Sprintf("table %d has %d players fixed to it now (%s); player %d (%s) cannot be fixed there too",
			table, len(there), strings.Join(there, ", "), p.ID, p.Name),
		map[string]any{"Player": p.Name, "Table": table, "Players": there, "Max": tournament.MaxFixedPerTable})
}

// stalePlayer is the conflict of a player's field changed by another
// change since this one was decided.
func stalePlayer(cur playerRow, field string) error {
	return tournament.Conflict("player-changed",
		fmt.Sprintf("player %d (%s) was changed by another judge meanwhile (%s)", cur.ID, cur.Name, field),
		map[string]any{"Player": cur.Name})
}

// sorted returns ids sorted, without repeats.
func sorted(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// writeKeepApart replaces the keep-apart requests involving p with p.KeepApart.
func writeKeepApart(tx *gorm.DB, p tournament.Player) error {
	if err := tx.Where("player_id = ? OR other_id = ?", p.ID, p.ID).Delete(&keepApartRow{}).Error; err != nil {
		return err
	}
	others := slices.Clone(p.KeepApart)
	slices.Sort(others)
	others = slices.Compact(others)
	if len(others) == 0 {
		return nil
	}
	var n int64
	if err := tx.Model(&playerRow{}).Where("id IN ? AND tournament_id = ?", others, p.TournamentID).Count(&n).Error; err != nil {
		return err
	}
	if int(n) != len(others) {
		return fmt.Errorf("%w: keep-apart requests name players not in tournament %d", tournament.ErrInvalid, p.TournamentID)
	}
	rows := make([]keepApartRow, 0, len(others))
	for _, o := range others {
		if o == p.ID {
			return fmt.Errorf("%w: player %d cannot be kept apart from themselves", tournament.ErrInvalid, p.ID)
		}
		rows = append(rows, keepApartRow{TournamentID: p.TournamentID, PlayerID: min(p.ID, o), OtherID: max(p.ID, o)})
	}
	return tx.Omit(clause.Associations).Create(&rows).Error
}

// Player implements tournament.Store.
func (s *Store) Player(ctx context.Context, id int64) (tournament.Player, error) {
	var row playerRow
	if err := s.db.WithContext(ctx).Take(&row, id).Error; err != nil {
		return tournament.Player{}, wrap(fmt.Sprintf("player %d", id), err)
	}
	var pairs []keepApartRow
	if err := s.db.WithContext(ctx).Where("player_id = ? OR other_id = ?", id, id).Find(&pairs).Error; err != nil {
		return tournament.Player{}, wrap(fmt.Sprintf("player %d", id), err)
	}
	return row.player(keepApartOf(id, pairs)), nil
}

// Players implements tournament.Store.
func (s *Store) Players(ctx context.Context, tournamentID int64) ([]tournament.Player, error) {
	ps, err := playersOf(s.db.WithContext(ctx), s.engine, tournamentID)
	return ps, wrap(fmt.Sprintf("players of tournament %d", tournamentID), err)
}

// playersOf reads a tournament's players, as Store.Players orders them.
func playersOf(db *gorm.DB, e engine, tournamentID int64) ([]tournament.Player, error) {
	var rows []playerRow
	if err := db.Where("tournament_id = ?", tournamentID).Order(e.byCodePoint("kana") + ", " + e.byCodePoint("name") + ", id").Find(&rows).Error; err != nil {
		return nil, err
	}
	var pairs []keepApartRow
	if err := db.Where("tournament_id = ?", tournamentID).Find(&pairs).Error; err != nil {
		return nil, err
	}
	out := make([]tournament.Player, len(rows))
	for i, r := range rows {
		out[i] = r.player(keepApartOf(r.ID, pairs))
	}
	return out, nil
}

// keepApartOf returns the players kept apart from id, sorted, or nil.
func keepApartOf(id int64, pairs []keepApartRow) []int64 {
	var out []int64
	for _, p := range pairs {
		switch id {
		case p.PlayerID:
			out = append(out, p.OtherID)
		case p.OtherID:
			out = append(out, p.PlayerID)
		}
	}
	slices.Sort(out)
	return out
}

// DeletePlayer implements tournament.Store. What makes a player's record
// is checked in the transaction that deletes, so that a pairing or a
// penalty written meanwhile is never left pointing at nobody.
func (s *Store) DeletePlayer(ctx context.Context, id int64, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("delete player %d", id), func(tx *Tx) error {
		var row playerRow
		if err := lockTournamentOf(tx, &row, id); err != nil {
			return err
		}
		if err := checkNoRecord(tx.DB, row); err != nil {
			return err
		}
		if err := tx.Where("player_id = ? OR other_id = ?", id, id).Delete(&keepApartRow{}).Error; err != nil {
			return err
		}
		if err := tx.Delete(&playerRow{}, id).Error; err != nil {
			return err
		}
		if err := dropLonePerson(tx, row.PersonID); err != nil {
			return err
		}
		return tx.audit(row.TournamentID, c)
	})
}

// checkNoRecord reports a conflict when player row has anything on record
// that names them: a seat or a bye in a round, an amendment, a penalty.
func checkNoRecord(tx *gorm.DB, row playerRow) error {
	var round int
	err := tx.Model(&roundRow{}).Select("COALESCE(MIN(rounds.number), 0)").
		Where("rounds.id IN (?) OR rounds.id IN (?) OR rounds.id IN (?)",
			tx.Model(&tablePlayerRow{}).Select("round_id").Where("player_id = ?", row.ID),
			tx.Model(&byeRow{}).Select("round_id").Where("player_id = ?", row.ID),
			tx.Model(&amendmentRow{}).Select("round_id").Where("a_id = ? OR b_id = ?", row.ID, row.ID)).
		Scan(&round).Error
	if err != nil {
		return err
	}
	if round > 0 {
		return tournament.Conflict("player-in-pairing",
			fmt.Sprintf("player %d (%s) is in the pairing of round %d: drop them instead", row.ID, row.Name, round),
			map[string]any{"Player": row.Name, "Round": round})
	}
	var penalties int64
	if err := tx.Model(&penaltyRow{}).Where("player_id = ?", row.ID).Count(&penalties).Error; err != nil {
		return err
	}
	if penalties > 0 {
		return tournament.Conflict("player-has-penalty",
			fmt.Sprintf("player %d (%s) has %d penalties on record: drop them instead", row.ID, row.Name, penalties),
			map[string]any{"Player": row.Name, "Count": penalties})
	}
	return nil
}

// dropLonePerson removes person id (nil for none) from the registry when
// no player is theirs any more: the person a mistaken registration added.
func dropLonePerson(tx *Tx, id *int64) error {
	if id == nil {
		return nil
	}
	if _, err := lockPerson(tx, *id, true); err != nil {
		return err
	}
	var n int64
	if err := tx.Model(&playerRow{}).Where("person_id = ?", *id).Count(&n).Error; err != nil || n > 0 {
		return err
	}
	return tx.Delete(&personRow{}, *id).Error
}
