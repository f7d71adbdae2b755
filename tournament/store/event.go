package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/catanjudge/catanjudge/referee"
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
		if rec.Reports, err = reportsOf(db, "tournament_id = ?", tournamentID); err != nil {
			return err
		}
		rec.Teams, err = teamsOf(db, tournamentID)
		return err
	})
	return rec, wrap(what, err)
}

// Table implements tournament.Store: a fixed number of queries, each of
// the table's own rows (its tournament's, round's and table's rows at
// once, its players, its latest result, their penalties in the round, the
// round's clock), whatever the event's size. They need not see one moment
// of the database: the write that follows checks again, in its
// transaction, what it decided from.
func (s *Store) Table(ctx context.Context, tournamentID int64, n, number int) (tournament.TableFacts, error) {
	what := fmt.Sprintf("round %d table %d", n, number)
	f, err := s.tableFacts(s.readDB().WithContext(ctx), tournamentID, n, number)
	return f, wrap(what, err)
}

// tableAt is a table's row with its round's and tournament's (but the
// tournament's ruleset, which Store.ruleset keeps), read in one query.
type tableAt struct {
	TournamentID int64
	Name         string
	Date         string
	Venue        string
	Rounds       int
	GameMinutes  int
	SelfCheckIn  bool
	SelfReport   string
	CreatedAt    time.Time
	ClosedAt     *time.Time
	ClosedBy     string
	ArchivedAt   *time.Time
	ArchivedBy   string
	Shop         string
	Imported     string
	// ConfirmResults is the two-person rule: a save at the table is
	// entered until another account confirms it (issue 27).
	ConfirmResults bool
	RoundID        int64
	RoundMode      string
	RoundSeed      int64
	RoundRepeats   int
	RoundPairedBy  string
	RoundPairedAt  time.Time
	RoundCut       string
	TableID        int64
	TableSeating   string
	TableBoard     string
	Moves          int
}

const tableAtQuery = `SELECT t.id AS tournament_id, t.name, t.date, t.venue, t.rounds, t.game_minutes, t.self_check_in,
 t.self_report, t.created_at, t.closed_at, t.closed_by, t.archived_at, t.archived_by, t.shop, t.imported, t.confirm_results,
 r.id AS round_id, r.mode AS round_mode, r.seed AS round_seed, r.repeats AS round_repeats, r.paired_by AS round_paired_by,
 r.paired_at AS round_paired_at, r.cut AS round_cut, rt.id AS table_id, rt.seating AS table_seating, rt.board AS table_board,
 (SELECT COUNT(*) FROM game_moves m WHERE m.table_id = rt.id) AS moves
FROM tournaments t JOIN rounds r ON r.tournament_id = t.id JOIN round_tables rt ON rt.round_id = r.id
WHERE t.id = ? AND r.number = ? AND rt.number = ?`

func (s *Store) tableFacts(db *gorm.DB, tournamentID int64, n, number int) (tournament.TableFacts, error) {
	var f tournament.TableFacts
	var a tableAt
	var created sql.NullTime // a column gorm's schema left nullable
	err := directScan(db, tableAtQuery, []any{tournamentID, n, number}, &a.TournamentID, &a.Name, &a.Date, &a.Venue, &a.Rounds,
		&a.GameMinutes, &a.SelfCheckIn, &a.SelfReport, &created, &a.ClosedAt, &a.ClosedBy, &a.ArchivedAt, &a.ArchivedBy, &a.Shop,
		&a.Imported, &a.ConfirmResults, &a.RoundID, &a.RoundMode, &a.RoundSeed, &a.RoundRepeats, &a.RoundPairedBy, &a.RoundPairedAt,
		&a.RoundCut, &a.TableID, &a.TableSeating, &a.TableBoard, &a.Moves)
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return f, err
	}
	a.CreatedAt = created.Time
	if a.TableID == 0 {
		// Say what is missing: the tournament, the round or the table.
		if err := db.Select("id").Take(&tournamentRow{}, tournamentID).Error; err != nil {
			return f, err
		}
		if err := db.Select("id").Where("tournament_id = ? AND number = ?", tournamentID, n).Take(&roundRow{}).Error; err != nil {
			return f, err
		}
		return f, notFound("table", number)
	}
	rs, err := s.ruleset(db, tournamentID)
	if err != nil {
		return f, err
	}
	trow := tournamentRow{ID: a.TournamentID, Name: a.Name, Date: a.Date, Venue: a.Venue, Rounds: a.Rounds, GameMinutes: a.GameMinutes,
		SelfCheckIn: a.SelfCheckIn, SelfReport: a.SelfReport, CreatedAt: a.CreatedAt, ClosedAt: a.ClosedAt, ClosedBy: a.ClosedBy,
		ArchivedAt: a.ArchivedAt, ArchivedBy: a.ArchivedBy, Shop: a.Shop, Imported: a.Imported, ConfirmResults: a.ConfirmResults}
	f.Tournament = trow.tournamentWith(rs)
	f.Round = tournament.Round{ID: a.RoundID, TournamentID: a.TournamentID, Number: n, Mode: a.RoundMode,
		Seed: uint64(a.RoundSeed), Repeats: a.RoundRepeats, PairedBy: a.RoundPairedBy, PairedAt: a.RoundPairedAt}
	if f.Round.Cut, err = decodeCut(a.RoundCut); err != nil {
		return f, err
	}
	tb, err := tableOf(db, tableRow{ID: a.TableID, RoundID: a.RoundID, Number: number, Seating: a.TableSeating, Board: a.TableBoard})
	if err != nil {
		return f, err
	}
	tb.Moves = a.Moves
	players, err := directPlayers(db, "JOIN table_players ON table_players.player_id = players.id WHERE table_players.table_id = ? ORDER BY table_players.position", a.TableID)
	if err != nil {
		return f, err
	}
	for _, p := range players {
		tb.Players = append(tb.Players, p.ID)
		f.Players = append(f.Players, p.player(nil))
	}
	f.Round.Tables = []tournament.Table{tb}
	if len(tb.Players) > 0 {
		pens, err := directPenalties(db, tb.Players, n)
		if err != nil {
			return f, err
		}
		for _, p := range pens {
			f.Penalties = append(f.Penalties, p.penalty())
		}
	}
	rows, err := directQuery(db, clockEventsSelect+`WHERE round_id = ? ORDER BY "at", id`, a.RoundID)
	if err != nil {
		return f, err
	}
	var e clockEventRow
	err = directRows(db, rows, func() error {
		e = clockEventRow{}
		err := rows.Scan(&e.ID, &e.RoundID, &e.TableID, &e.Kind, &e.Seconds, &e.PlayerID, &e.Reason, &e.Judge, &e.At)
		f.Clock = append(f.Clock, e.event())
		return err
	})
	return f, err
}

// ruleset returns tournament tid's copy of its ruleset, which never
// changes once made: read and decoded once, then kept.
func (s *Store) ruleset(db *gorm.DB, tid int64) (referee.Ruleset, error) {
	s.rulesetsMu.Lock()
	rs, ok := s.rulesets[tid]
	s.rulesetsMu.Unlock()
	if ok {
		return rs, nil
	}
	var text string
	if err := db.Model(&tournamentRow{}).Select("ruleset").Where("id = ?", tid).Scan(&text).Error; err != nil {
		return referee.Ruleset{}, err
	}
	rs, err := decodeRuleset(text)
	if err != nil {
		return referee.Ruleset{}, fmt.Errorf("tournament %d: decode ruleset: %w", tid, err)
	}
	s.rulesetsMu.Lock()
	defer s.rulesetsMu.Unlock()
	if s.rulesets == nil {
		s.rulesets = map[int64]referee.Ruleset{}
	}
	s.rulesets[tid] = rs
	return rs, nil
}

// tableOf reads a table's latest result besides its row.
func tableOf(db *gorm.DB, t tableRow) (tournament.Table, error) {
	seating, err := decodeSeating(t.Seating)
	if err != nil {
		return tournament.Table{}, fmt.Errorf("table %d: %w", t.ID, err)
	}
	board, err := decodeBoard(t.Board)
	if err != nil {
		return tournament.Table{}, fmt.Errorf("table %d: %w", t.ID, err)
	}
	out := tournament.Table{ID: t.ID, RoundID: t.RoundID, Number: t.Number, Seating: seating, Board: board}
	var r resultRow
	err = directScan(db, resultsSelect+`WHERE table_id = ? ORDER BY version DESC LIMIT 1`, []any{t.ID},
		&r.ID, &r.TableID, &r.Version, &r.DeclaredID, &r.EndedBy, &r.Judge, &r.At, &r.Reason, &r.LateReason, &r.EndedEarly, &r.ReportID,
		&r.GameMoves, &r.NeedsConfirm, &r.ConfirmedBy, &r.ConfirmedAt, &r.ConfirmReason)
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return tournament.Table{}, err
	}
	if err == nil {
		scores, err := directScores(db, r.ID)
		if err != nil {
			return tournament.Table{}, err
		}
		res := r.result(scores)
		// A revision waiting for a second account's confirmation (the
		// two-person rule) is the table's Entered, as the rounds read it.
		if res.Pending() {
			out.Entered = &res
		} else {
			out.Result = &res
		}
		out.Revisions = res.Version
	}
	return out, nil
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

// readDB is where the reads that need no read transaction run: on SQLite
// the reader's connections, which leave the writer's to the committer.
func (s *Store) readDB() *gorm.DB {
	if s.reads != nil {
		return s.reads
	}
	return s.db
}

// read runs fn in a read transaction, which sees the database as it was
// at one moment: on SQLite a DEFERRED transaction of the reader, a
// reader of the WAL that neither waits for the writer nor holds it up; on
// PostgreSQL REPEATABLE READ, READ ONLY.
func (s *Store) read(ctx context.Context, fn func(db *gorm.DB) error) error {
	// A transaction that cannot begin (the database out of reach) fails
	// outside any statement: its fault is read here (fault).
	if s.engine == enginePostgres {
		return fault(s.db.WithContext(ctx).Transaction(fn, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}))
	}
	return fault(s.reader.WithContext(ctx).Transaction(fn))
}
