package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/catanjudge/catanjudge/referee/pairing"
	"github.com/catanjudge/catanjudge/tournament"
)

// AddRound implements tournament.Store.
func (s *Store) AddRound(ctx context.Context, r *tournament.Round, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("add round %d", r.Number), func(tx *Tx) error {
		if err := tx.lock(r.TournamentID); err != nil {
			return err
		}
		cut, err := encodeCut(r.Cut)
		if err != nil {
			return err
		}
		row := roundRow{
			Cut:           cut,
			TournamentID:  r.TournamentID,
			Number:        r.Number,
			Mode:          r.Mode,
			Seed:          int64(r.Seed),
			CostMeetings:  r.Cost.Meetings,
			CostExposure:  r.Cost.Exposure,
			CostStandings: r.Cost.Standings,
			Repeats:       r.Repeats,
			PairedBy:      r.PairedBy,
			PairedAt:      r.PairedAt.UTC(),
		}
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		r.ID = row.ID
		if err := insertPairing(tx.DB, r, nil); err != nil {
			return err
		}
		return tx.audit(r.TournamentID, c)
	})
}

// ReplaceRound implements tournament.Store.
func (s *Store) ReplaceRound(ctx context.Context, r *tournament.Round, from tournament.Round, discard []int64, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("replace round %d", r.Number), func(tx *Tx) error {
		if err := tx.lock(r.TournamentID); err != nil {
			return err
		}
		var row roundRow
		if err := tx.Where("tournament_id = ? AND number = ?", r.TournamentID, r.Number).Take(&row).Error; err != nil {
			return err
		}
		started, err := roundStarted(tx.DB, row.ID)
		if err != nil {
			return err
		}
		if started {
			return tournament.Conflict("round-started", fmt.Sprintf("round %d has started", r.Number), map[string]any{"Round": r.Number})
		}
		if err := checkPairing(tx.DB, row, from); err != nil {
			return err
		}
		var tables []tableRow
		if err := tx.Where("round_id = ?", row.ID).Find(&tables).Error; err != nil {
			return err
		}
		boards := map[int]string{}
		ids := make([]int64, len(tables))
		for i, t := range tables {
			boards[t.Number], ids[i] = t.Board, t.ID
		}
		if err := discardReports(tx.DB, r.Number, ids, discard); err != nil {
			return err
		}
		for _, m := range []any{&tablePlayerRow{}, &byeRow{}, &amendmentRow{}, &tableRow{}} {
			if err := tx.Where("round_id = ?", row.ID).Delete(m).Error; err != nil {
				return err
			}
		}
		err = tx.Model(&row).Updates(map[string]any{
			"mode": r.Mode, "seed": int64(r.Seed), "repeats": r.Repeats, "cost_meetings": r.Cost.Meetings,
			"cost_exposure": r.Cost.Exposure, "cost_standings": r.Cost.Standings,
			"paired_by": r.PairedBy, "paired_at": r.PairedAt.UTC(),
		}).Error
		if err != nil {
			return err
		}
		r.ID = row.ID
		r.Amendments = nil
		if err := insertPairing(tx.DB, r, boards); err != nil {
			return err
		}
		return tx.audit(r.TournamentID, c)
	})
}

// insertPairing writes r's tables and byes, keeping a board already set up
// for a table number (the board does not depend on who sits there), and
// sets the IDs in r.
func insertPairing(tx *gorm.DB, r *tournament.Round, boards map[int]string) error {
	for i := range r.Tables {
		t := &r.Tables[i]
		row := tableRow{RoundID: r.ID, Number: t.Number, Board: boards[t.Number]}
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return err
		}
		t.ID, t.RoundID = row.ID, r.ID
		b, err := decodeBoard(row.Board)
		if err != nil {
			return err
		}
		t.Board, t.Seating, t.Result, t.Revisions = b, nil, nil, 0
		if len(t.Players) == 0 {
			return fmt.Errorf("%w: table %d has no players", tournament.ErrInvalid, t.Number)
		}
		players := make([]tablePlayerRow, len(t.Players))
		for k, p := range t.Players {
			players[k] = tablePlayerRow{RoundID: r.ID, TableID: row.ID, PlayerID: p, Position: k}
		}
		if err := tx.Omit(clause.Associations).Create(&players).Error; err != nil {
			return err
		}
	}
	if len(r.Byes) == 0 {
		return nil
	}
	byes := make([]byeRow, len(r.Byes))
	for i, p := range r.Byes {
		byes[i] = byeRow{RoundID: r.ID, PlayerID: p}
	}
	return tx.Omit(clause.Associations).Create(&byes).Error
}

// Round implements tournament.Store.
func (s *Store) Round(ctx context.Context, tournamentID int64, number int) (tournament.Round, error) {
	what := fmt.Sprintf("round %d", number)
	var row roundRow
	if err := s.db.WithContext(ctx).Where("tournament_id = ? AND number = ?", tournamentID, number).Take(&row).Error; err != nil {
		return tournament.Round{}, wrap(what, err)
	}
	rounds, err := loadRounds(s.db.WithContext(ctx), []roundRow{row})
	if err != nil {
		return tournament.Round{}, wrap(what, err)
	}
	return rounds[0], nil
}

// Rounds implements tournament.Store.
func (s *Store) Rounds(ctx context.Context, tournamentID int64) ([]tournament.Round, error) {
	what := fmt.Sprintf("rounds of tournament %d", tournamentID)
	var rows []roundRow
	if err := s.db.WithContext(ctx).Where("tournament_id = ?", tournamentID).Order("number").Find(&rows).Error; err != nil {
		return nil, wrap(what, err)
	}
	rounds, err := loadRounds(s.db.WithContext(ctx), rows)
	return rounds, wrap(what, err)
}

// loadRounds reads everything recorded for the given rounds in a fixed
// number of queries, whatever the number of tables.
func loadRounds(db *gorm.DB, rows []roundRow) ([]tournament.Round, error) {
	return loadRoundTables(db, rows, 0)
}

// loadRoundTables is loadRounds with the tables of number table alone
// (every table for 0): a read of one table's rows, whatever the event's size.
func loadRoundTables(db *gorm.DB, rows []roundRow, table int) ([]tournament.Round, error) {
	out := make([]tournament.Round, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	rids := make([]int64, len(rows))
	at := map[int64]int{}
	for i, r := range rows {
		rids[i] = r.ID
		at[r.ID] = i
		cut, err := decodeCut(r.Cut)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r.Number, err)
		}
		out[i] = tournament.Round{
			Cut: cut,
			ID:  r.ID, TournamentID: r.TournamentID, Number: r.Number, Mode: r.Mode,
			Seed: uint64(r.Seed), Repeats: r.Repeats,
			Cost:     pairing.Cost{Meetings: r.CostMeetings, Exposure: r.CostExposure, Standings: r.CostStandings},
			PairedBy: r.PairedBy, PairedAt: r.PairedAt,
		}
	}
	var tables []tableRow
	q := db.Where("round_id IN ?", rids)
	if table != 0 {
		q = q.Where("number = ?", table)
	}
	if err := q.Order("round_id, number").Find(&tables).Error; err != nil {
		return nil, err
	}
	tids := make([]int64, len(tables))
	for i, t := range tables {
		tids[i] = t.ID
	}
	var seats []tablePlayerRow
	q = db.Where("round_id IN ?", rids)
	if table != 0 {
		q = db.Where("table_id IN ?", tids)
	}
	if err := q.Order("table_id, position").Find(&seats).Error; err != nil {
		return nil, err
	}
	var byes []byeRow
	if err := db.Where("round_id IN ?", rids).Order("round_id, player_id").Find(&byes).Error; err != nil {
		return nil, err
	}
	var amendments []amendmentRow
	if err := db.Where("round_id IN ?", rids).Order("id").Find(&amendments).Error; err != nil {
		return nil, err
	}
	latest, err := latestResults(db, tids)
	if err != nil {
		return nil, err
	}
	// A table's first revision is its latest but where it was corrected:
	// only those tables' first revisions are read again, for their time.
	var corrected []int64
	for _, id := range tids {
		if res, ok := latest[id]; ok && res.Version > 1 {
			corrected = append(corrected, id)
		}
	}
	firsts, err := firstResultTimes(db, corrected)
	if err != nil {
		return nil, err
	}
	moves, err := gameMoveCounts(db, tids)
	if err != nil {
		return nil, err
	}
	players := map[int64][]int64{}
	for _, s := range seats {
		players[s.TableID] = append(players[s.TableID], s.PlayerID)
	}
	for _, t := range tables {
		r := &out[at[t.RoundID]]
		seating, err := decodeSeating(t.Seating)
		if err != nil {
			return nil, fmt.Errorf("table %d: %w", t.ID, err)
		}
		board, err := decodeBoard(t.Board)
		if err != nil {
			return nil, fmt.Errorf("table %d: %w", t.ID, err)
		}
		table := tournament.Table{
			ID: t.ID, RoundID: t.RoundID, Number: t.Number, Players: players[t.ID],
			Seating: seating, Board: board, Moves: moves[t.ID],
		}
		if res, ok := latest[t.ID]; ok {
			// A revision that waits for a second account's confirmation
			// (the two-person rule) counts nowhere yet: it is the table's
			// Entered, not its Result.
			if res.Pending() {
				table.Entered = &res
			} else {
				table.Result = &res
			}
			// Versions run 1, 2, ... without gaps, so the latest is the count.
			table.Revisions = res.Version
			table.ResultAt = res.At.UTC()
			if at, ok := firsts[t.ID]; ok {
				table.ResultAt = at.UTC()
			}
		}
		r.Tables = append(r.Tables, table)
	}
	for _, b := range byes {
		r := &out[at[b.RoundID]]
		r.Byes = append(r.Byes, b.PlayerID)
	}
	for _, a := range amendments {
		r := &out[at[a.RoundID]]
		r.Amendments = append(r.Amendments, tournament.Amendment{
			A: a.AID, B: idOf(a.BID), Table: a.TableNumber, Reason: a.Reason, Judge: a.Judge, At: a.At,
		})
	}
	return out, nil
}

// AmendRound implements tournament.Store.
func (s *Store) AmendRound(ctx context.Context, r *tournament.Round, from tournament.Round, a tournament.Amendment, discard []int64, c tournament.Change) error {
	return s.tx(ctx, fmt.Sprintf("amend round %d", r.Number), func(tx *Tx) error {
		var row roundRow
		if err := lockTournamentOf(tx, &row, r.ID); err != nil {
			return err
		}
		if row.TournamentID != r.TournamentID || row.Number != r.Number {
			return fmt.Errorf("%w: round %d is not round %d of tournament %d", tournament.ErrInvalid, r.ID, r.Number, r.TournamentID)
		}
		if err := checkPairing(tx.DB, row, from); err != nil {
			return err
		}
		var tables []tableRow
		if err := tx.Where("round_id = ?", row.ID).Order("number").Find(&tables).Error; err != nil {
			return err
		}
		if len(tables) != len(r.Tables) {
			return fmt.Errorf("%w: the amended round has %d tables, want %d", tournament.ErrInvalid, len(r.Tables), len(tables))
		}
		var seats []tablePlayerRow
		if err := tx.Where("round_id = ?", row.ID).Order("table_id, position").Find(&seats).Error; err != nil {
			return err
		}
		now := map[int64][]int64{}
		for _, st := range seats {
			now[st.TableID] = append(now[st.TableID], st.PlayerID)
		}
		var changed []tableRow
		var moved []int64 // the tables whose players change
		for i, t := range tables {
			nt := &r.Tables[i]
			if nt.Number != t.Number {
				return fmt.Errorf("%w: the amended round has table %d where table %d is", tournament.ErrInvalid, nt.Number, t.Number)
			}
			nt.ID, nt.RoundID = t.ID, row.ID
			if slices.Equal(now[t.ID], nt.Players) {
				continue
			}
			if !sameMembers(now[t.ID], nt.Players) {
				if err := checkTableOpen(tx.DB, row.Number, t, true); err != nil {
					return err
				}
				moved = append(moved, t.ID)
			}
			changed = append(changed, t)
		}
		if err := discardReports(tx.DB, row.Number, moved, discard); err != nil {
			return err
		}
		// Delete every changed table's players before inserting any, so a
		// player moving between tables never sits at two at once.
		for _, t := range changed {
			if err := tx.Where("table_id = ?", t.ID).Delete(&tablePlayerRow{}).Error; err != nil {
				return err
			}
		}
		if err := tx.Where("round_id = ?", row.ID).Delete(&byeRow{}).Error; err != nil {
			return err
		}
		for _, t := range changed {
			nt := r.Tables[slices.IndexFunc(r.Tables, func(x tournament.Table) bool { return x.ID == t.ID })]
			rows := make([]tablePlayerRow, len(nt.Players))
			for k, p := range nt.Players {
				rows[k] = tablePlayerRow{RoundID: row.ID, TableID: t.ID, PlayerID: p, Position: k}
			}
			if err := tx.Omit(clause.Associations).Create(&rows).Error; err != nil {
				return err
			}
		}
		if len(r.Byes) > 0 {
			byes := make([]byeRow, len(r.Byes))
			for i, p := range r.Byes {
				byes[i] = byeRow{RoundID: row.ID, PlayerID: p}
			}
			if err := tx.Omit(clause.Associations).Create(&byes).Error; err != nil {
				return err
			}
		}
		err := tx.Model(&row).Updates(map[string]any{
			"repeats": r.Repeats, "cost_meetings": r.Cost.Meetings,
			"cost_exposure": r.Cost.Exposure, "cost_standings": r.Cost.Standings,
		}).Error
		if err != nil {
			return err
		}
		am := amendmentRow{
			RoundID: row.ID, AID: a.A, BID: nullID(a.B), TableNumber: a.Table,
			Reason: a.Reason, Judge: a.Judge, At: a.At.UTC(),
		}
		if err := tx.Omit(clause.Associations).Create(&am).Error; err != nil {
			return err
		}
		return tx.audit(row.TournamentID, c)
	})
}

// discardReports deletes the open reports of the tables of round n with
// the given IDs: the players named in them no longer play there together.
// They must be the reports want names, the ones the judge's change was
// decided with; another is a conflict.
func discardReports(tx *gorm.DB, n int, tableIDs, want []int64) error {
	var ids []int64
	if len(tableIDs) > 0 {
		err := tx.Model(&reportRow{}).Where("table_id IN ? AND status IN ?", tableIDs, tournament.OpenReportStatuses).
			Order("id").Pluck("id", &ids).Error
		if err != nil {
			return err
		}
	}
	if !slices.Equal(ids, sorted(want)) {
		return tournament.Conflict("round-reports-changed", fmt.Sprintf("the open reports of round %d changed since it was read", n),
			map[string]any{"Round": n})
	}
	if len(ids) == 0 {
		return nil
	}
	return tx.Where("id IN ?", ids).Delete(&reportRow{}).Error
}

// sameMembers reports whether a and b hold the same players in any order.
func sameMembers(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// checkPairing refuses a change computed from the pairing from when round
// row's tables and byes are no longer from's: another judge's amendment or
// repair came first, and writing this one would undo it.
func checkPairing(tx *gorm.DB, row roundRow, from tournament.Round) error {
	rounds, err := loadRounds(tx, []roundRow{row})
	if err != nil {
		return err
	}
	cur := rounds[0]
	same := len(cur.Tables) == len(from.Tables) && slices.Equal(sorted(cur.Byes), sorted(from.Byes))
	for i := 0; same && i < len(cur.Tables); i++ {
		same = cur.Tables[i].Number == from.Tables[i].Number && slices.Equal(cur.Tables[i].Players, from.Tables[i].Players)
	}
	if !same {
		return tournament.Conflict("round-changed", fmt.Sprintf("round %d was changed by another judge since it was read", row.Number),
			map[string]any{"Round": row.Number})
	}
	return nil
}

// checkTableOpen reports a conflict when table t of round n already has a
// result or a recorded game, or (when seatingToo) a seating: the facts
// recorded there would no longer fit.
func checkTableOpen(tx *gorm.DB, n int, t tableRow, seatingToo bool) error {
	args := map[string]any{"Round": n, "Table": t.Number}
	if seatingToo && t.Seating != "" {
		return tournament.Conflict("table-seated", fmt.Sprintf("round %d table %d is already seated", n, t.Number), args)
	}
	var count int64
	if err := tx.Model(&resultRow{}).Where("table_id = ?", t.ID).Count(&count).Error; err != nil {
		return err
	}
	if count > 0 {
		return tournament.Conflict("table-has-result", fmt.Sprintf("round %d table %d already has a result", n, t.Number), args)
	}
	if err := tx.Model(&gameMoveRow{}).Where("table_id = ?", t.ID).Count(&count).Error; err != nil {
		return err
	}
	if count > 0 {
		return tournament.Conflict("table-has-game", fmt.Sprintf("round %d table %d has %d moves of its game recorded", n, t.Number, count),
			map[string]any{"Round": n, "Table": t.Number, "Moves": int(count)})
	}
	return nil
}

// SetSeating implements tournament.Store.
func (s *Store) SetSeating(ctx context.Context, tableID int64, seating *tournament.Seating, expected *int, c tournament.Change) error {
	seats := make([]int64, len(seating.Seats))
	for i, st := range seating.Seats {
		seats[i] = st.PlayerID
	}
	return s.setTable(ctx, "set seating", tableID, c, func(tx *gorm.DB, n int, t tableRow) (string, string, error) {
		cur, err := decodeSeating(t.Seating)
		if err != nil {
			return "", "", err
		}
		version, judge, at := 0, "", time.Time{}
		if cur != nil {
			version, judge, at = cur.Version, cur.Judge, cur.At
		}
		if err := checkStale(tournament.RecordSeating, expected, version, judge, at); err != nil {
			return "", "", err
		}
		var players []int64
		if err := tx.Model(&tablePlayerRow{}).Where("table_id = ?", t.ID).Pluck("player_id", &players).Error; err != nil {
			return "", "", err
		}
		if !slices.Equal(sorted(players), sorted(seats)) || len(seats) != len(players) {
			return "", "", tournament.Conflict("table-players-changed",
				fmt.Sprintf("round %d table %d seats %v now, not the %v the change was decided for", n, t.Number, sorted(players), seats),
				map[string]any{"Round": n, "Table": t.Number})
		}
		seating.Version = version + 1
		text, err := encodeSeating(*seating)
		return "seating", text, err
	})
}

// SetBoard implements tournament.Store.
func (s *Store) SetBoard(ctx context.Context, tableID int64, b *tournament.BoardRecord, from *tournament.BoardRecord, expected *int, c tournament.Change) error {
	return s.setTable(ctx, "set board", tableID, c, func(tx *gorm.DB, n int, t tableRow) (string, string, error) {
		cur, err := decodeBoard(t.Board)
		if err != nil {
			return "", "", err
		}
		version, judge, at := 0, "", time.Time{}
		if cur != nil {
			version, judge, at = cur.Version, cur.Judge, cur.At
		}
		if err := checkStale(tournament.RecordBoard, expected, version, judge, at); err != nil {
			return "", "", err
		}
		if from != nil && (cur == nil || cur.Roll != from.Roll || cur.Corner != from.Corner || cur.Seed != from.Seed) {
			return "", "", tournament.Conflict("board-changed",
				fmt.Sprintf("round %d table %d has another board now than the one the change was decided on", n, t.Number),
				map[string]any{"Round": n, "Table": t.Number})
		}
		b.Version = version + 1
		text, err := encodeBoard(*b)
		return "board", text, err
	})
}

// checkStale returns a *tournament.StaleError when a change decided on
// version *expected of a table's record meets version now, recorded by
// judge at at; a nil expected takes whatever is recorded.
func checkStale(record string, expected *int, now int, judge string, at time.Time) error {
	if expected == nil || *expected == now {
		return nil
	}
	return &tournament.StaleError{Record: record, Expected: *expected, Current: now, Judge: judge, At: at}
}

// setTable writes one column of a table that has no result yet, the one
// write decides from the table, in round n, as it is now: the column and
// its new value, or why the change is refused.
func (s *Store) setTable(ctx context.Context, what string, tableID int64, c tournament.Change,
	write func(tx *gorm.DB, n int, t tableRow) (column, value string, err error)) error {
	return s.tableTx(ctx, what, tableID, func(tx *Tx) error {
		if _, err := tx.lockTable(tableID); err != nil {
			return err
		}
		var t tableRow
		if err := tx.Take(&t, tableID).Error; err != nil {
			return err
		}
		var round roundRow
		if err := tx.Take(&round, t.RoundID).Error; err != nil {
			return err
		}
		if err := checkTableOpen(tx.DB, round.Number, t, false); err != nil {
			return err
		}
		column, value, err := write(tx.DB, round.Number, t)
		if err != nil {
			return err
		}
		if err := tx.Model(&tableRow{ID: tableID}).Update(column, value).Error; err != nil {
			return err
		}
		return tx.audit(round.TournamentID, c)
	})
}
