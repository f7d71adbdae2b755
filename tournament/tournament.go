// Package tournament holds the judges' console use cases: the persisted
// tournament model (tournaments, players, rounds, tables, result revisions,
// penalties, the audit log), the Store interface that persists it, and the
// Service that validates each change with the referee before storing it.
//
// The types here carry no storage or wire tags: package store maps them to
// rows and the web layer to JSON. Derived facts (placings, standings, a
// penalty's effect) are computed from the recorded facts on every read and
// never stored.
package tournament

import (
	"fmt"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// Tournament is one event, with the ruleset it runs under copied in, so a
// later edit of the ruleset file does not change a running event.
type Tournament struct {
	ID          int64
	Name        string
	Date        string // civil date YYYY-MM-DD, or "" when not set
	Venue       string
	Shop        string // the shop that ran the event ("" for none named): a season may gather several shops'
	Imported    string // "" for an event run here, else what it was imported from (ImportedFromSheet, ImportedFromRecord)
	Ruleset     referee.Ruleset
	Rounds      int // rounds planned
	GameMinutes int // §12 game time, from the ruleset unless the organizer set it
	// SelfCheckIn lets players check themselves in with their code
	// (SelfCheckIn); judges check players in either way.
	SelfCheckIn bool
	// SelfReport says what players' reports of their table do: SelfReportOff
	// (none taken), SelfReportApprove (a judge accepts each) or
	// SelfReportAuto (saved once every player confirmed).
	SelfReport string
	// ConfirmResults is the two-person rule (issue 27): a result saved
	// (or a report accepted) is entered, and counts once another account
	// confirms it unchanged (Service.ConfirmResult).
	ConfirmResults bool
	// Team makes the tournament a team event (issue 30; docs/rules.md,
	// Team events): players play in registered teams, each round the
	// players a team named (Lineup), never at a table with a team-mate.
	Team      bool
	CreatedAt time.Time
	// Paired is the number of rounds paired so far, read with the
	// tournament (it is the rounds' count, not a stored counter).
	Paired int
	// Closed records the judge's closing of the tournament: its results
	// stand as final and no change is taken until it is reopened. Nil while
	// the tournament is open.
	Closed *Closure
	// Archived records a judge's archiving of the tournament: it is kept
	// whole but left off the lists of tournaments. Nil while it is listed.
	Archived *Archival
	// Divisions in one event (issue 30, divisions.go): EventID is the
	// event's main tournament on every division of an event of several
	// (the main's own ID on the main), 0 for an event of one; Division is
	// this tournament's division's name ("" while unnamed); Divisions are
	// the event's divisions, the main first, read with the tournament
	// when EventID is set.
	EventID   int64
	Division  string
	Divisions []Division
}

// Archival is a judge's archiving of a tournament.
type Archival struct {
	Judge string
	At    time.Time
}

// Closure is a judge's closing of a tournament.
type Closure struct {
	Judge string
	At    time.Time
}

// The states of a tournament.
const (
	StateSetup    = "setup"    // no round paired yet
	StateRunning  = "running"  // rounds paired, not closed
	StateFinished = "finished" // closed by a judge: the results are final
)

// checkOpen refuses a change of a finished tournament, as the store does in
// the transaction that would write it: checked first, a use case says so
// before any other rule the change might break.
func (t Tournament) checkOpen() error {
	if t.Closed == nil {
		return nil
	}
	return Conflict("tournament-finished",
		fmt.Sprintf("tournament %d was closed by %s at %s; reopen it to change anything", t.ID, t.Closed.Judge, t.Closed.At.Format(time.RFC3339)),
		map[string]any{"Judge": t.Closed.Judge, "At": t.Closed.At.Local().Format("15:04")})
}

// State returns the tournament's state: StateSetup, StateRunning or StateFinished.
func (t Tournament) State() string {
	switch {
	case t.Closed != nil:
		return StateFinished
	case t.Paired > 0:
		return StateRunning
	}
	return StateSetup
}

// Player is one entrant of a tournament.
type Player struct {
	ID           int64
	TournamentID int64
	Name         string
	Kana         string // reading in kana, for sorting and search
	CheckedIn    bool
	// LateEntryRound is the first round the player can play when they entered
	// after round 1 was paired; 0 means registered before round 1.
	LateEntryRound int
	// DroppedRound is the first round the player no longer plays; 0 means active.
	DroppedRound int
	FixedTable   int     // table number the player must sit at (accessibility); 0 means any
	KeepApart    []int64 // players this player must not be paired with, sorted by ID
	// CodeHash is the stored form of the player's code (see codes.go): ""
	// for a player registered before codes were issued. Code is the code
	// in clear, set only on the player returned by the call that issued it
	// (AddPlayer, ImportPlayers, IssueCode), for the card. Neither is ever
	// written to the audit log.
	CodeHash string `json:"-"`
	Code     string `json:"-"`
	// PersonID is the person of the registry the player is (Person); 0
	// only while a registration has not been linked yet.
	PersonID int64
	// Person is set by the use case that registers the player: the
	// registry's side of the registration, which the store writes with
	// the player. A new person (ID 0) is added and PersonID set to them;
	// an existing one (ID PersonID) is written when the registration
	// changed them: a member number they had none of, taken out of the
	// archive as they play again. Nil on a player read back.
	Person *Person `json:",omitempty"`
	// DQEffect is the effect of the player's disqualification on the games
	// they played (Disqualify), "" while they are not disqualified; DQReason
	// is the judge's reason.
	DQEffect referee.DQEffect `json:",omitempty"`
	DQReason string           `json:",omitempty"`
	// Team is the team the player plays for in a team event (Team), as
	// the tournament's snapshot reads it; nil for none.
	Team *PlayerTeam `json:",omitempty"`
}

// PlayerTeam names a player's team.
type PlayerTeam struct {
	ID   int64
	Name string
}

// Active reports whether the player plays round n.
func (p Player) Active(n int) bool {
	return (p.DroppedRound == 0 || n < p.DroppedRound) && n >= p.LateEntryRound
}

// Round is one pairing of the tournament with everything recorded at its tables.
type Round struct {
	ID           int64
	TournamentID int64
	Number       int
	Mode         string // the pairing method: ModeRandom, ModeSchedule, ModeSwiss or ModeFinal
	Seed         uint64 // the pairing's seed, so the pairing replays exactly
	Cost         pairing.Cost
	Repeats      int // pairs seated together who had met before
	PairedBy     string
	PairedAt     time.Time
	Tables       []Table     // by table number
	Byes         []int64     // players without a table this round, sorted by ID
	Amendments   []Amendment // the judges' changes since the draw, oldest first
	// Cut records how a final stage's players were chosen (Mode
	// ModeFinal); nil for every other round.
	Cut *Cut
}

// Table is one game of a round.
type Table struct {
	ID      int64
	RoundID int64
	Number  int
	Players []int64 // pairing order
	// Seating is the play order and colours from the capsule rolls (§3 オ, カ);
	// nil until the table is seated.
	Seating *Seating
	Board   *BoardRecord // nil until the board is set
	// Result is the latest revision of the score sheet; nil until one is
	// saved, and while the latest waits for a second account's
	// confirmation (Entered): until then the table counts nowhere.
	Result *Result
	// Entered is the latest revision when it waits for confirmation under
	// the two-person rule (Result.Pending); nil otherwise.
	Entered   *Result
	Revisions int // number of revisions saved
	// ResultAt is when the table's first result was saved: its game's end
	// as the round's clock knows it, which stops once every table of the
	// round has a result (ClockDone). Zero without a result.
	ResultAt time.Time
	// Moves counts the moves of the table's recorded game (GameMove): a
	// game recorded on the seating and the board locks them, as a result
	// does.
	Moves int
}

// Seating is a table's play order (§3 オ) and colours (§3 カ), with the
// capsule rolls that decided it.
type Seating struct {
	// Version counts the seatings recorded at the table: 1 for the first,
	// one more for each entered again. A form carries the version it shows,
	// so that a seating decided on an older one is refused (StaleError).
	Version int
	// Rolls holds the first roll of every player, then each round of re-rolls
	// of the groups still tied, as referee.SeatTable replays them.
	Rolls [][]Roll
	Seats []Seat // by play order
	Auto  bool   // the console rolled for the table, from Seed
	Seed  uint64
	Judge string
	At    time.Time
}

// Roll is one player's roll of the capsule dice for the play order.
type Roll struct {
	PlayerID int64
	referee.CapsuleRoll
}

// Seat is a player's place in the play order and the colour that goes with it.
type Seat struct {
	PlayerID int64
	Order    int // 1 plays first
	Color    referee.Color
}

// BoardRecord is the facts that make a table's board. Under the rulebook
// (referee.CapsuleBoard): the capsule roll that turned the inner piece and
// the sea frame (§3 イ) and the number chips (§3 ウ), either dealt by the
// console from Seed or entered by the judge as dealt by hand. Under the
// national rules (referee.SpiralBoard): the die that chose the spiral's
// corner and the seed of the terrain shuffle. The board itself is recomputed
// from these with referee.NewBoard or referee.NewSpiralBoard.
type BoardRecord struct {
	// Version counts the changes of the table's board: 1 for the first,
	// one more for each new roll or deal entered (see Seating.Version).
	Version  int
	Roll     referee.CapsuleRoll // CapsuleBoard; zero for a spiral board
	Corner   int                 // SpiralBoard: the corner die, 1..6; 0 for a capsule board
	RollAuto bool                // the console rolled the dice, from Seed
	Seed     uint64              // the seed of the console's roll and chip deal, or of the terrain shuffle
	// Deal is the judge-entered deal of a physical board; nil when the
	// console dealt the chips from Seed.
	Deal  []referee.Chip
	Judge string
	At    time.Time
}

// Result is one revision of a table's score sheet. A correction is a new
// revision; a revision is never changed or deleted.
type Result struct {
	TableID  int64
	Version  int // 1, 2, ... per table
	Scores   []Score
	Declared int64  // the player who declared victory (§11); 0 when nobody did
	EndedBy  string // EndedByDeclaration or EndedByTime
	Judge    string
	At       time.Time
	// Reason is the judge's reason: why a correction was made, or why a
	// game recorded as ended by time ended before its signal (EndedEarly).
	Reason string
	// LateReason is the judge's confirmation that a declaration recorded
	// after the table's time signal was made before it (§12); empty otherwise.
	LateReason string
	// EndedEarly says the game is recorded as ended by time before the
	// table's time signal, on the judge's word in Reason (docs/rules.md §12:
	// a game the judge ended, a disqualification).
	EndedEarly bool
	// ReportID is the players' report (Report) this revision was saved
	// from, 0 for a judge's sheet: its history says "reported by players".
	ReportID int64
	// ReportSide is the version of that report this revision is
	// (SideReported or SideDisputed), which the report records as the one
	// accepted; it is not kept with the revision.
	ReportSide string
	// GameMoves is the number of moves of the table's recorded game this
	// revision was saved from (SaveGameResult), 0 for a sheet: its history
	// says "from the game record".
	GameMoves int
	// NeedsConfirm says the revision was saved under the two-person rule
	// (Tournament.ConfirmResults): it counts once another account than
	// the one that entered it confirmed it (ConfirmedBy, ConfirmedAt); a
	// head may confirm their own with ConfirmReason.
	NeedsConfirm  bool
	ConfirmedBy   string
	ConfirmedAt   *time.Time
	ConfirmReason string
}

// Pending reports whether the revision waits for a second account's
// confirmation: it counts nowhere until then.
func (r Result) Pending() bool { return r.NeedsConfirm && r.ConfirmedBy == "" }

// Latest is the table's latest revision, counted or waiting for
// confirmation; nil when none is saved.
func (t Table) Latest() *Result {
	if t.Entered != nil {
		return t.Entered
	}
	return t.Result
}

// How a game ended (§11, §12).
const (
	EndedByDeclaration = "declaration"
	EndedByTime        = "time"
)

// Score is one player's recorded VP on a score sheet.
type Score struct {
	PlayerID int64
	// VP is the VP the sheet gives, before the cap (§11): the VP written,
	// or, with a breakdown, the breakdown's.
	VP int
	// Breakdown is the player's VP by where they come from, when the
	// sheet gives it; nil when it gives only the VP.
	Breakdown *referee.Breakdown
	// NoVP, on a sheet as entered (ResultInput), says the line gives only
	// the Breakdown: its VP is counted from it. It is not stored.
	NoVP bool
}

// Amendment is a judge's change to a round's pairing before it starts:
// players A and B trade places (either may hold a bye), or, when B is 0, A
// moves to table Table.
type Amendment struct {
	A, B   int64
	Table  int
	Reason string
	Judge  string
	At     time.Time
}

// Penalty is one sanction given by a judge. It is revoked, never deleted.
type Penalty struct {
	ID           int64
	TournamentID int64
	PlayerID     int64
	Round        int // round number; 0 when given outside a round
	Table        int // table number; 0 when not at a table
	Offence      string
	Level        referee.Level // after escalation
	Judge        string
	At           time.Time
	Note         string
	Revoked      *Revocation // nil while the penalty stands
}

// Revocation records why and by whom a penalty was revoked.
type Revocation struct {
	Judge  string
	At     time.Time
	Reason string
}

// ClockEvent is one recorded fact of a round's clock: its start, a pause, a
// resumption or an extension, for the whole round or one table; at a final
// table under the turn limit, a turn passed or the end the judge set. The
// clock's state is computed from these facts.
type ClockEvent struct {
	ID       int64
	RoundID  int64
	TableID  int64  // 0 for the whole round
	Kind     string // e.g. "start", "pause", "resume", "extend", "turn", "end"
	Seconds  int    // an extension's length; for "end", the running time to the end
	PlayerID int64  // for "turn", whose turn begins; 0 for the next in play order
	Reason   string // why an extension was given
	Judge    string
	At       time.Time
}

// AuditEntry is one line of the audit log: who changed what, when, and the
// state before and after as JSON text.
type AuditEntry struct {
	ID           int64
	TournamentID int64 // 0 for a change outside any tournament
	Judge        string
	At           time.Time
	Action       string // e.g. "player.add", "result.save"
	Subject      string // what was changed, for people: "player 12 (青木)"
	Before       string // JSON, empty for a creation
	After        string // JSON
	// Version is the tournament's version the change made, as the store
	// tells of a commit (Store.OnCommit); 0 in the log as read back.
	Version int64
}
