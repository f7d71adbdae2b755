package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"gorm.io/gorm"
)

// The statements every save runs (its table's lock, its version check,
// its rows and its audit line, and the read of its table's facts before
// it) go straight to the connection gorm holds, the transaction's or the
// pool's (with its statements prepared and kept, stmts), scanned into
// their variables by hand: profiled under 50 judges saving at once,
// gorm's building of each statement and its reflection over the rows cost
// more CPU than SQLite took to run them, and on SQLite the committer runs
// a batch's writes one after another. Their errors are translated as
// gorm translates its own (TranslateError: a unique index's refusal is
// gorm.ErrDuplicatedKey), so the callers read them alike.

// directQuery runs query (with ? for its arguments) on db's connection.
func directQuery(db *gorm.DB, query string, args ...any) (*sql.Rows, error) {
	rows, err := db.Statement.ConnPool.QueryContext(directCtx(db), bindVars(db, query), args...)
	return rows, translate(db, err)
}

// directScan runs query, a statement of one row, and scans it into dest.
// No row is gorm.ErrRecordNotFound, as gorm's Take says it.
func directScan(db *gorm.DB, query string, args []any, dest ...any) error {
	err := db.Statement.ConnPool.QueryRowContext(directCtx(db), bindVars(db, query), args...).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return gorm.ErrRecordNotFound
	}
	return translate(db, err)
}

// directExec runs query, a statement of no rows.
func directExec(db *gorm.DB, query string, args ...any) error {
	_, err := db.Statement.ConnPool.ExecContext(directCtx(db), bindVars(db, query), args...)
	return translate(db, err)
}

// directRows scans every row of rows with scan, then closes them.
func directRows(db *gorm.DB, rows *sql.Rows, scan func() error) error {
	defer rows.Close()
	for rows.Next() {
		if err := scan(); err != nil {
			return translate(db, err)
		}
	}
	return translate(db, rows.Err())
}

func directCtx(db *gorm.DB) context.Context {
	if ctx := db.Statement.Context; ctx != nil {
		return ctx
	}
	return context.Background()
}

// bindVars writes query's ? as PostgreSQL's $1, $2, ... on PostgreSQL.
// The queries it is given hold no ? but their arguments'.
func bindVars(db *gorm.DB, query string) string {
	if db.Dialector.Name() != "postgres" || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := range len(query) {
		if query[i] != '?' {
			b.WriteByte(query[i])
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// translate turns a driver's error into gorm's, as gorm does with
// TranslateError.
func translate(db *gorm.DB, err error) error {
	if err == nil {
		return nil
	}
	if t, ok := db.Dialector.(gorm.ErrorTranslator); ok {
		return t.Translate(err)
	}
	return err
}

// The statements written out by hand, each naming every column of its
// row type in the order its scan or its arguments take them (a column
// added to a row type and not here fails TestDirectStatementsNameEveryColumn).
const (
	playersSelect = "SELECT players.id, players.tournament_id, players.name, players.kana, players.checked_in, players.late_entry_round, " +
		"players.dropped_round, players.fixed_table, players.code_hash, players.person_id, players.dq_effect, players.dq_reason, players.late_join, " +
		"players.substitute, players.no_show_round FROM players "
	penaltiesSelect = `SELECT id, tournament_id, player_id, round, table_number, offence, level, judge, "at", note, revoked_by, revoked_at,
 revoke_reason FROM penalties `
	scoresSelect      = "SELECT id, result_id, player_id, position, vp, settlements, cities, longest_road, largest_army, point_cards FROM result_scores "
	clockEventsSelect = `SELECT id, round_id, table_id, kind, seconds, player_id, reason, judge, "at" FROM clock_events `
	resultsSelect     = `SELECT id, table_id, version, declared_id, ended_by, judge, "at", reason, late_reason, ended_early, report_id,
 game_moves, needs_confirm, confirmed_by, confirmed_at, confirm_reason FROM results `
	resultsInsert = `INSERT INTO results (table_id, version, declared_id, ended_by, judge, "at", reason, late_reason, ended_early,
 report_id, game_moves, needs_confirm, confirmed_by, confirmed_at, confirm_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	scoresInsert = "INSERT INTO result_scores (result_id, player_id, position, vp, settlements, cities, longest_road, largest_army, point_cards) VALUES "
	auditInsert  = `INSERT INTO audit_entries (tournament_id, judge, "at", action, subject, "before", "after") VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`
)

// directPlayers reads the players rows a clause after FROM players
// selects (a join, a WHERE and an ORDER BY).
func directPlayers(db *gorm.DB, clause string, args ...any) ([]playerRow, error) {
	rows, err := directQuery(db, playersSelect+clause, args...)
	if err != nil {
		return nil, err
	}
	var out []playerRow
	err = directRows(db, rows, func() error {
		var p playerRow
		err := rows.Scan(&p.ID, &p.TournamentID, &p.Name, &p.Kana, &p.CheckedIn, &p.LateEntryRound, &p.DroppedRound, &p.FixedTable,
			&p.CodeHash, &p.PersonID, &p.DQEffect, &p.DQReason, &p.LateJoin, &p.Substitute, &p.NoShowRound)
		out = append(out, p)
		return err
	})
	return out, err
}

// directPenalties reads the penalties of players in round n, in order.
func directPenalties(db *gorm.DB, players []int64, n int) ([]penaltyRow, error) {
	args := make([]any, 0, len(players)+1)
	for _, id := range players {
		args = append(args, id)
	}
	args = append(args, n)
	rows, err := directQuery(db, penaltiesSelect+`WHERE player_id IN (?`+strings.Repeat(", ?", len(players)-1)+`) AND round = ? ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	var out []penaltyRow
	err = directRows(db, rows, func() error {
		var p penaltyRow
		err := rows.Scan(&p.ID, &p.TournamentID, &p.PlayerID, &p.Round, &p.TableNumber, &p.Offence, &p.Level, &p.Judge, &p.At, &p.Note,
			&p.RevokedBy, &p.RevokedAt, &p.RevokeReason)
		out = append(out, p)
		return err
	})
	return out, err
}

// directScores reads the scores of result id, in score sheet order.
func directScores(db *gorm.DB, id int64) ([]scoreRow, error) {
	rows, err := directQuery(db, scoresSelect+"WHERE result_id = ? ORDER BY position", id)
	if err != nil {
		return nil, err
	}
	var out []scoreRow
	err = directRows(db, rows, func() error {
		var s scoreRow
		err := rows.Scan(&s.ID, &s.ResultID, &s.PlayerID, &s.Position, &s.VP, &s.Settlements, &s.Cities, &s.LongestRoad, &s.LargestArmy, &s.PointCards)
		out = append(out, s)
		return err
	})
	return out, err
}
