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

// Progress is how far a tournament has gone, as far as a change of who
// plays which round, or of the game time, depends on it. A use case reads
// it with Store.Progress, decides, and hands it back to the Store method
// that writes the change, which refuses the change with ErrConflict when the
// tournament's progress differs in the transaction that writes it.
type Progress struct {
	Paired int // rounds paired
	// Started says the latest round has started: a table has a seating or a
	// result, or the round's clock has an event.
	Started bool
	// Clocked says some round's clock has an event, so the game time is in
	// use (§12): the clocks of the rounds are computed from it.
	Clocked bool
}

// OpenRound returns the first round a change of who plays can still
// affect: the latest paired round if it has not started, else the next one.
func (p Progress) OpenRound() int {
	if p.Started || p.Paired == 0 {
		return p.Paired + 1
	}
	return p.Paired
}

// TableFacts is what a change at one table decides from: the tournament
// (its ruleset, whether it is finished), the table's round with the table
// alone among its tables, the table's players, the penalties they were
// given in the round (which place its game) and the round's clock events
// (§12's time signal). The store reads it in one call (Store.Table); the
// write that follows checks again, in its transaction, what may have
// changed since.
type TableFacts struct {
	Tournament Tournament
	Round      Round
	Players    []Player // in the table's order, without their keep-apart requests
	Penalties  []Penalty
	Clock      []ClockEvent
}

// Store persists tournaments. Every method that writes several rows does so
// in one transaction, and checks there the state the change was decided
// from, so that a change made meanwhile is never silently undone. Methods
// return errors wrapping ErrNotFound for a missing row, ErrConflict for a
// change that collides with the stored state (a *ConflictError for a stale
// result, else a Conflict naming why by its code), and ErrInvalid for a
// write the schema refuses. A finished tournament (Tournament.Closed) takes
// no change but its reopening: every other change of it is refused, in the
// transaction that would write it, with the Conflict tournament-finished.
type Store interface {
	LeagueStore   // the reads and writes across events (leagues.go)
	TeamStore     // a team event's teams and line-ups (teams.go)
	LeagueStore   // the reads and writes across events (leagues.go)
	DivisionStore // the divisions of an event (divisions.go)

	// CreateTournament inserts t and sets t.ID and t.CreatedAt.
	CreateTournament(ctx context.Context, t *Tournament, c Change) error
	// UpdateTournament writes the settings (name, date, venue, rounds, game
	// minutes, self check-in and self report) that after changes from
	// before, the tournament as the use case read it, and no other: a
	// setting another judge changed meanwhile stays theirs. The ruleset
	// copied in at creation never changes. It is a conflict when the
	// tournament's progress is no longer from.
	UpdateTournament(ctx context.Context, before, after Tournament, from Progress, c Change) error
	// SetClosed closes a tournament (closed is its closure) or reopens it
	// (closed is nil). Closing is a conflict unless the tournament is open,
	// has a round paired and a result at every table paired; reopening is a
	// conflict unless it is closed.
	SetClosed(ctx context.Context, id int64, closed *Closure, c Change) error
	// SetArchived archives a tournament (archived is its archival) or
	// lists it again (archived is nil). A finished tournament takes it.
	SetArchived(ctx context.Context, id int64, archived *Archival, c Change) error
	// DeleteTournament deletes a tournament that has no round paired, with
	// its players and penalties, and the people of the registry no other
	// tournament's player is; it is a conflict once a round is paired.
	// Its audit entry c is written outside any tournament, so it outlives
	// the tournament's own log.
	DeleteTournament(ctx context.Context, id int64, c Change) error
	// Tournament returns a tournament with its copy of the ruleset, the
	// rounds paired and its closure.
	Tournament(ctx context.Context, id int64) (Tournament, error)
	// Tournaments lists every tournament, newest first.
	Tournaments(ctx context.Context) ([]Tournament, error)
	// Progress returns how far a tournament has gone.
	Progress(ctx context.Context, tournamentID int64) (Progress, error)

	// AddPlayer inserts p with its keep-apart requests and sets p.ID. It is
	// a conflict when the tournament's progress, which decides a late
	// entry, is no longer from. It writes p.Person as Player.Person says,
	// and sets p.PersonID (and p.Person.ID) for a new person; it is a
	// conflict when p's person is gone, plays the tournament already
	// (person-already-registered), or was changed meanwhile.
	AddPlayer(ctx context.Context, p *Player, from Progress, c Change) error
	// AddPlayers inserts every player of ps (an import) in one transaction
	// with the one audit entry c, and sets their IDs, as AddPlayer does.
	// Keep-apart requests are not written.
	AddPlayers(ctx context.Context, ps []*Player, from Progress, c Change) error
	// UpdatePlayer writes the fields in which after differs from before,
	// the player as the change was decided from, and nothing else, so that
	// two changes of different fields at once both hold. A changed field
	// whose stored value is neither before's nor after's is a conflict: the
	// change was decided from a state another change has replaced. Changed
	// keep-apart requests replace the player's (a request holds both ways,
	// so this changes the other players' lists too). When from is not nil,
	// the change depends on the tournament's progress (a drop's first
	// round), and it is a conflict when that is no longer *from. A changed
	// fixed table is a conflict when MaxFixedPerTable other players still in
	// the tournament are fixed to it now, so that two judges fixing players
	// at once cannot overfill it.
	UpdatePlayer(ctx context.Context, before, after Player, from *Progress, c Change) error
	// DeletePlayer removes a registration that has no game on record, with
	// its keep-apart requests, and its person of the registry when no
	// other player is theirs. It is a conflict when the player is in a
	// round's pairing (a table or a bye), in a pairing's amendment, or has
	// a penalty: their record stays, and they are dropped instead.
	DeletePlayer(ctx context.Context, id int64, c Change) error
	// Player returns a player with their keep-apart requests.
	Player(ctx context.Context, id int64) (Player, error)
	// Players lists a tournament's players, sorted by kana, then name, then
	// ID, as the database compares them (Service.Players sorts them by
	// CollationKey).
	Players(ctx context.Context, tournamentID int64) ([]Player, error)

	// AddRound inserts r with its tables and byes and sets the IDs in r.
	// A round with the same number is a conflict.
	AddRound(ctx context.Context, r *Round, c Change) error
	// ReplaceRound replaces the pairing of round r.Number (its tables, byes
	// and amendments) with r's, keeping the round's ID. It is a conflict once a
	// table of the round has a seating, a result or the round's clock has an
	// event, or when the round's tables and byes are no longer from's (the
	// pairing the change was decided from). It deletes the round's open
	// reports (OpenReportStatuses), which were made for the tables it
	// replaces; they must be the reports discard names, else it is a
	// conflict: a player reported after the judge looked.
	ReplaceRound(ctx context.Context, r *Round, from Round, discard []int64, c Change) error
	// RemakeFinal replaces from, the final's latest stage, with r (the same
	// number, a new cut and seating), keeping the round's ID: from's tables
	// go with everything recorded at them (seatings, boards, the clock,
	// recorded games, rulings, players' reports). It is a conflict when from
	// is no longer the tournament's latest round as read (round-changed), or
	// a table of it has a result (final-has-result).
	RemakeFinal(ctx context.Context, r *Round, from Round, c Change) error
	// Round returns round number of a tournament with its tables (seating,
	// board, latest result), byes and amendments.
	Round(ctx context.Context, tournamentID int64, number int) (Round, error)
	// Rounds returns every round of a tournament, as Round does, by number.
	Rounds(ctx context.Context, tournamentID int64) ([]Round, error)
	// UndoRound deletes round n of a tournament with everything recorded
	// of it (its tables, seatings, boards, byes, amendments, results,
	// reports, rulings, recorded games, clock and the penalties given in
	// it) in one transaction, keeping it all in the audit entry c as its
	// Before, and says what it deleted. check decides, in the transaction,
	// from the latest round's number and whether anything was recorded at
	// the round's tables; its error refuses the undo.
	UndoRound(ctx context.Context, tournamentID int64, n int, check func(latest int, recorded bool) error, c Change) (UndoneRound, error)
	// RestoreRound writes back round n as the latest audit entry of its
	// undo (ActionUndoRound) kept it, IDs included. It is a conflict
	// unless round n-1 is the latest, or when a row it names is gone.
	RestoreRound(ctx context.Context, tournamentID int64, n int, c Change) (UndoneRound, error)
	// AmendRound writes r, the pairing of round r.ID after the judge's
	// amendment a (pairing.Amend) of from, and records a. Only tables whose
	// players change are rewritten; it is a conflict when such a table has a
	// seating or a result, or when the round's tables and byes are no longer
	// from's: a change computed from a replaced pairing would undo another.
	// It deletes the open reports of the tables whose players change, which
	// must be the reports discard names, as ReplaceRound does.
	AmendRound(ctx context.Context, r *Round, from Round, a Amendment, discard []int64, c Change) error
	// Late entries, substitutes and no-shows (issue 30, late.go).
	//
	// SeatPlayers writes r, the round from with players added at its tables
	// (at the end of a table of from, or at a new table after them), with
	// its repeats and cost as its tables now make them (record.rescore),
	// and the players ps as changed (their late entry). It is a conflict when
	// the round's tables and byes are no longer from's (round-changed),
	// when a table a player joins has a seating, a result or a recorded
	// game, or, when wholeRound, when the round has started.
	SeatPlayers(ctx context.Context, r *Round, from Round, ps []Player, wholeRound bool, c Change) error
	// LeaveTable takes player p from table number of round r.Number,
	// writing p as changed (dropped, their no-show) and the round's repeats
	// and cost as r gives them (r is the round without p, rescored); the
	// table's seating, which named them, is cleared. It is a conflict when
	// the table has a result or a recorded game, or when p does not sit
	// there.
	LeaveTable(ctx context.Context, r Round, number int, p Player, c Change) error
	// SetSeating records a table's seating and sets s.Version, one more
	// than the table's. It is a conflict once the table has a result, or
	// when the seats are not the table's players (the table was amended
	// after the seating was decided). When expected is not nil, the seating
	// was decided on version *expected of the table's seating (0 for none),
	// and it is a *StaleError when the table's is another one now.
	SetSeating(ctx context.Context, tableID int64, s *Seating, expected *int, c Change) error
	// SetBoard records a table's board and sets b.Version, as SetSeating
	// does. It is a conflict once the table has a result. When from is not
	// nil, b was decided on the board from (a deal entered on it), and it is
	// a conflict when the table's board is no longer from's roll and seed
	// (another judge replaced it meanwhile). When expected is not nil, it
	// is a *StaleError when the table's board is no longer that version.
	SetBoard(ctx context.Context, tableID int64, b *BoardRecord, from *BoardRecord, expected *int, c Change) error
	// SaveResult adds revision expected+1 of a table's result, setting
	// r.TableID and r.Version, if and only if the latest revision is expected
	// (0 for none); otherwise it returns a *ConflictError holding the latest.
	// A revision from the table's recorded game (r.GameMoves > 0) is a
	// *StaleError (RecordGame) when the record no longer has that many
	// moves.
	SaveResult(ctx context.Context, tableID int64, expected int, r *Result, c Change) error
	// Revisions returns every revision of a table's result, oldest first.
	Revisions(ctx context.Context, tableID int64) ([]Result, error)

	// AddGameMove records m as the next move of a table's recorded game
	// when the record has m.Number-1 moves; otherwise it returns a
	// *StaleError (RecordGame) with the number it has and who entered its
	// last move when.
	AddGameMove(ctx context.Context, tableID int64, m *GameMove, c Change) error
	// UndoGameMove deletes move number of a table's recorded game when it
	// is the record's last; otherwise a *StaleError, as AddGameMove.
	UndoGameMove(ctx context.Context, tableID int64, number int, c Change) error
	// GameMoves lists the moves of a table's recorded game, first first.
	GameMoves(ctx context.Context, tableID int64) ([]GameMove, error)

	// AddRuling records a ruling at table r.TableID and sets r.ID.
	AddRuling(ctx context.Context, r *Ruling, c Change) error
	// Rulings lists the rulings recorded at a table, oldest first.
	Rulings(ctx context.Context, tableID int64) ([]Ruling, error)

	// AddPenalty inserts p and sets p.ID. When dropFrom > 0 it also drops the
	// player from round dropFrom on (a disqualification), unless they dropped
	// earlier. When from is not nil, dropFrom was decided from the
	// tournament's progress, and it is a conflict when that is no longer *from.
	AddPenalty(ctx context.Context, p *Penalty, dropFrom int, from *Progress, c Change) error
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

	// AddReport inserts a players' report of a table's result and sets
	// r.ID. It is a conflict when the table has a result (a judge's sheet
	// came first) or another report of it is open.
	AddReport(ctx context.Context, r *Report, c Change) error
	// UpdateReport writes a report's confirmations, dispute and status; it
	// is a conflict when those stored are no longer before's. Accepting a
	// report is SaveResult of a Result with its ReportID, which marks the
	// report accepted in the same transaction.
	UpdateReport(ctx context.Context, before, after Report, c Change) error
	// Report returns a report.
	Report(ctx context.Context, id int64) (Report, error)
	// Reports lists a tournament's reports, oldest first.
	Reports(ctx context.Context, tournamentID int64) ([]Report, error)
	// TableReports lists the reports of one table (by its ID), oldest
	// first: a read of the table's rows alone, whatever the event's size.
	TableReports(ctx context.Context, tableID int64) ([]Report, error)

	// MatchPeople lists the people of the registry whose name, folded as
	// FoldReading folds it, is one of names, whose reading so folded is
	// one of kanas, or whose member number is one of members, archived
	// ones too, by ID, with the tournaments each played.
	MatchPeople(ctx context.Context, names, kanas, members []string) ([]PersonEntry, error)
	// People lists the registry as q asks, by reading (folded), then name
	// and ID, with how many people q finds in all.
	People(ctx context.Context, q PeopleQuery) ([]PersonEntry, int, error)
	// Person returns a person of the registry with the tournaments they
	// played.
	Person(ctx context.Context, id int64) (PersonEntry, error)
	// PersonEvents lists the tournaments a person played, newest first,
	// at most limit from offset, with how many they played in all.
	PersonEvents(ctx context.Context, id int64, offset, limit int) ([]PersonEvent, int, error)
	// UpdatePerson writes a person's name, kana, member number and
	// archival as after has them; it is a conflict when the stored person
	// is no longer before (another judge's change came first). Its audit
	// entry is written outside any tournament.
	UpdatePerson(ctx context.Context, before, after Person, c Change) error
	// MergePeople makes the person gone one with keep: every player of
	// gone becomes keep's, keep is written as after has it, and gone is
	// removed, in one transaction with the audit entry c, outside any
	// tournament. It is a conflict when either is no longer as read (keep
	// and gone), and the Conflict people-share-tournament when both played
	// one tournament: one person is never two players of one event.
	MergePeople(ctx context.Context, keep, gone, after Person, c Change) error

	// LastAuditEntry returns a tournament's newest audit entry of action,
	// and false when it has none.
	LastAuditEntry(ctx context.Context, tournamentID int64, action string) (AuditEntry, bool, error)

	// AddStaff inserts a staff account and sets s.ID; an account whose
	// name has the same StaffKey is the Conflict staff-name-taken. Its
	// audit entry is written outside any tournament.
	AddStaff(ctx context.Context, s *Staff, c Change) error
	// UpdateStaff writes an account's role, activity, password hash and
	// SessionsFrom as after has them; it is a conflict when the stored
	// account is no longer before, and the Conflict last-head when no
	// active head would be left.
	UpdateStaff(ctx context.Context, before, after Staff, c Change) error
	// StaffMembers lists the staff accounts by ID.
	StaffMembers(ctx context.Context) ([]Staff, error)
	// StaffMember returns one staff account.
	StaffMember(ctx context.Context, id int64) (Staff, error)

	// ConfirmResult records conf on revision version of a table's result,
	// entered under the two-person rule, at at. It is the Conflict
	// stale-result when version is no longer the table's latest, and
	// result-confirmed when it waits for no confirmation.
	ConfirmResult(ctx context.Context, tableID int64, version int, conf Confirmation, at time.Time, c Change) error

	// AddCall records a judge call and sets call.ID.
	AddCall(ctx context.Context, call *Call, c Change) error
	// UpdateCall writes a call's status and who answered it as after has
	// them; it is the Conflict call-changed when the stored call is no
	// longer before (another judge answered it meanwhile).
	UpdateCall(ctx context.Context, before, after Call, c Change) error
	// Call returns a judge call.
	Call(ctx context.Context, id int64) (Call, error)
	// Calls lists a tournament's judge calls, oldest first.
	Calls(ctx context.Context, tournamentID int64) ([]Call, error)
	// DisputeReport writes a report's dispute as UpdateReport does, and
	// the judge call it makes, in one transaction: audited as c and cc.
	DisputeReport(ctx context.Context, before, after Report, call *Call, c, cc Change) error

	// AddDevice records a table device, found by its token's hash, and
	// sets d.ID.
	AddDevice(ctx context.Context, d *Device, hash []byte, c Change) error
	// RevokeDevices ends every device of a table not ended yet, at at; it
	// writes c only when it ended one.
	RevokeDevices(ctx context.Context, tournamentID int64, round, table int, at time.Time, c Change) error
	// Devices lists a table's devices, ended ones too, newest first.
	Devices(ctx context.Context, tournamentID int64, round, table int) ([]Device, error)

	// AuditLog lists a tournament's audit entries, newest first; for
	// tournament 0, the entries outside any tournament (a deleted
	// tournament's, the registry's).
	AuditLog(ctx context.Context, tournamentID int64) ([]AuditEntry, error)

	// Table reads what a change at table number of round n decides from
	// (TableFacts), at a cost that does not grow with the event.
	Table(ctx context.Context, tournamentID int64, n, number int) (TableFacts, error)
	// Event reads every recorded fact of a tournament in one consistent
	// read (a read transaction: no change commits half into it), with the
	// tournament's version it was read at: what a Snapshot is made from.
	Event(ctx context.Context, tournamentID int64) (EventRecord, error)
	// Version returns a tournament's version: one more with every
	// transaction that changed it. It reads one row.
	Version(ctx context.Context, tournamentID int64) (int64, error)
	// OnCommit has fn told, once each transaction has committed, of every
	// change it made: its audit entry, with Version the tournament's new
	// version (and for a change outside any tournament that changed some,
	// such as a merge of people, once for each of them, with its ID). The
	// functions run in the order they were given, on the committing
	// goroutine, before the call that made the change returns; they must
	// not block.
	OnCommit(fn func(AuditEntry))
	// CatchUp tells the OnCommit functions of the changes others than
	// this store committed to the database since it last looked (another
	// program writing the same SQLite file), at no cost when there are
	// none; the changes of the other servers on PostgreSQL come from their
	// notices instead (the server's listener).
	CatchUp(ctx context.Context) error

	// Check reports a database the judges' pages cannot be served from:
	// a damaged SQLite file, a PostgreSQL server that does not answer
	// (the web layer shows the server as unhealthy).
	Check(ctx context.Context) error

	// The record file (Service.Record, Service.ImportRecord).

	// Members returns the member numbers of a tournament's players'
	// people, by player ID; a player without one is left out.
	Members(ctx context.Context, tournamentID int64) (map[int64]string, error)
	// ImportRecord writes r as a new tournament, everything in it, in one
	// transaction with its audit entry c, and sets the new IDs in r: the
	// tournament's, the players', the rounds' and tables', the reports'
	// and the penalties'. Every reference to a player, a table or a
	// report is rewritten to the new IDs. Each player's Person is written
	// as AddPlayers writes it. A closed tournament is closed after its
	// audit entry, so that it takes no other change.
	ImportRecord(ctx context.Context, r *Record, c Change) error
}
