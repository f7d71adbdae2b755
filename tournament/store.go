package tournament

import (
	"context"
	"time"
)

// Change describes one state change for the audit log. Every Store method
// that changes state takes one and writes its audit entry in the same
// transaction as the change, so there is never a change without its audit
// line, nor a line without its change.
type Change struct {
	Judge   string
	At      time.Time
	Action  string
	Subject string
	// Before and After are marshalled to JSON by the store when it writes the
	// entry. A method that creates a row sets the new ID on the value it was
	// given first, so an After pointing at that value records the ID.
	Before, After any
}

// Store persists tournaments. Every method that writes several rows does so
// in one transaction. Methods return errors wrapping ErrNotFound for a
// missing row, ErrConflict for a change that collides with the stored state
// (a *ConflictError for a stale result), and ErrInvalid for a write the
// schema refuses.
type Store interface {
	// CreateTournament inserts t and sets t.ID and t.CreatedAt.
	CreateTournament(ctx context.Context, t *Tournament, c Change) error
	// UpdateTournament writes t's name, date, venue, rounds and game minutes;
	// the ruleset copied in at creation never changes.
	UpdateTournament(ctx context.Context, t Tournament, c Change) error
	// Tournament returns a tournament with its copy of the ruleset.
	Tournament(ctx context.Context, id int64) (Tournament, error)
	// Tournaments lists every tournament, newest first.
	Tournaments(ctx context.Context) ([]Tournament, error)

	// AddPlayer inserts p with its keep-apart requests and sets p.ID.
	AddPlayer(ctx context.Context, p *Player, c Change) error
	// AddPlayers inserts every player of ps (an import) in one transaction
	// with the one audit entry c, and sets their IDs. Keep-apart requests
	// are not written.
	AddPlayers(ctx context.Context, ps []*Player, c Change) error
	// UpdatePlayer writes every field of p, replacing its keep-apart requests
	// (a request holds both ways, so this changes the other players' lists too).
	UpdatePlayer(ctx context.Context, p Player, c Change) error
	// Player returns a player with their keep-apart requests.
	Player(ctx context.Context, id int64) (Player, error)
	// Players lists a tournament's players, sorted by kana, then name, then ID.
	Players(ctx context.Context, tournamentID int64) ([]Player, error)

	// AddRound inserts r with its tables and byes and sets the IDs in r.
	// A round with the same number is a conflict.
	AddRound(ctx context.Context, r *Round, c Change) error
	// ReplaceRound replaces the pairing of round r.Number (its tables, byes
	// and amendments) with r's, keeping the round's ID. It is a conflict once a
	// table of the round has a seating, a board, a result or the round's clock
	// has an event.
	ReplaceRound(ctx context.Context, r *Round, c Change) error
	// Round returns round number of a tournament with its tables (seating,
	// board, latest result), byes and amendments.
	Round(ctx context.Context, tournamentID int64, number int) (Round, error)
	// Rounds returns every round of a tournament, as Round does, by number.
	Rounds(ctx context.Context, tournamentID int64) ([]Round, error)
	// AmendRound writes r, the pairing of round r.ID after the judge's
	// amendment a (pairing.Amend), and records a. Only tables whose players
	// change are rewritten; it is a conflict when such a table has a seating
	// or a result.
	AmendRound(ctx context.Context, r *Round, a Amendment, c Change) error
	// SetSeating records a table's seating. It is a conflict once the table has a result.
	SetSeating(ctx context.Context, tableID int64, s Seating, c Change) error
	// SetBoard records a table's board. It is a conflict once the table has a result.
	SetBoard(ctx context.Context, tableID int64, b BoardRecord, c Change) error
	// SaveResult adds revision expected+1 of a table's result, setting
	// r.TableID and r.Version, if and only if the latest revision is expected
	// (0 for none); otherwise it returns a *ConflictError holding the latest.
	SaveResult(ctx context.Context, tableID int64, expected int, r *Result, c Change) error
	// Revisions returns every revision of a table's result, oldest first.
	Revisions(ctx context.Context, tableID int64) ([]Result, error)

	// AddPenalty inserts p and sets p.ID. When dropFrom > 0 it also drops the
	// player from round dropFrom on (a disqualification), unless they dropped earlier.
	AddPenalty(ctx context.Context, p *Penalty, dropFrom int, c Change) error
	// RevokePenalty records r on a standing penalty; revoking twice is a conflict.
	RevokePenalty(ctx context.Context, id int64, r Revocation, c Change) error
	// Penalty returns a penalty, revoked or not.
	Penalty(ctx context.Context, id int64) (Penalty, error)
	// Penalties lists a tournament's penalties, revoked ones included, oldest first.
	Penalties(ctx context.Context, tournamentID int64) ([]Penalty, error)

	// AddClockEvent records e and sets e.ID.
	AddClockEvent(ctx context.Context, e *ClockEvent, c Change) error
	// ClockEvents lists a round's clock events, oldest first.
	ClockEvents(ctx context.Context, roundID int64) ([]ClockEvent, error)

	// AuditLog lists a tournament's audit entries, newest first.
	AuditLog(ctx context.Context, tournamentID int64) ([]AuditEntry, error)

	// Backup writes a consistent copy of the whole database to path, a file
	// that must not exist yet (ErrConflict when it does).
	Backup(ctx context.Context, path string) error

	// GetSetting returns a console setting (the judge password hash, the
	// session secret), or an error wrapping ErrNotFound.
	GetSetting(ctx context.Context, key string) (string, error)
	// SetSetting stores a console setting, replacing any earlier value. Settings
	// are not audited: the password hash must not be copied into the log.
	SetSetting(ctx context.Context, key, value string) error
}
