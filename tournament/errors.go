package tournament

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// The errors every use case and Store method wraps, so that the web layer can
// map them to a status in one place: ErrNotFound to 404, ErrConflict to 409,
// ErrInvalid (and referee.ErrInvalid) to 422.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
	ErrInvalid  = errors.New("invalid")
)

// The faults of the database that are no request's doing, which the Store
// reports so that a page can say what happened (issue 24): the disk the
// database writes to is full (nothing is saved until space is freed; what
// was saved stays), or the database cannot be reached at all (a
// PostgreSQL server stopped or out of the network's reach).
var (
	ErrNoSpace     = errors.New("the database's disk is full")
	ErrUnavailable = errors.New("the database cannot be reached")
)

// ConflictError reports a result saved over a newer revision: the judge
// edited version Expected, but Current is now the latest. It matches
// ErrConflict with errors.Is, and its message says what changed since the
// version the judge edited.
type ConflictError struct {
	Expected int     // the version the refused save edited
	Base     *Result // the revision the judge edited; nil when Expected is 0
	Current  Result  // the latest revision, saved by someone else
	// Names labels players in the message; player IDs are used when a name is missing.
	Names map[int64]string
}

func (e *ConflictError) Error() string {
	c := e.Current
	msg := fmt.Sprintf("result version %d is out of date: version %d was saved by %s at %s",
		e.Expected, c.Version, c.Judge, c.At.Format("15:04:05 MST"))
	if c.Reason != "" {
		msg += fmt.Sprintf(" (%s)", c.Reason)
	}
	if changes := e.Changes(); len(changes) > 0 {
		msg += ": " + strings.Join(changes, ", ")
	}
	return msg
}

// Is makes errors.Is(err, ErrConflict) hold.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// StaleError reports a change decided on version Expected of a record of
// a table (its seating or its board) that another judge has changed since:
// Current is its version now, recorded by Judge at At. Nothing was written;
// the judge sees what is recorded now and decides again. It matches
// ErrConflict with errors.Is. (A score sheet has its own, ConflictError,
// which also says what changed.)
type StaleError struct {
	Record   string // RecordSeating, RecordBoard or RecordGame
	Expected int    // the version the refused change was decided on; 0 for none
	Current  int
	Judge    string
	At       time.Time
}

// The records a StaleError names.
const (
	RecordSeating = "seating"
	RecordBoard   = "board"
	// RecordGame is a table's recorded game: its version is the number of
	// its moves.
	RecordGame = "game"
)

func (e *StaleError) Error() string {
	return fmt.Sprintf("%s version %d is out of date: version %d was recorded by %s at %s",
		e.Record, e.Expected, e.Current, e.Judge, e.At.Format("15:04:05 MST"))
}

// Is makes errors.Is(err, ErrConflict) hold.
func (e *StaleError) Is(target error) bool { return target == ErrConflict }

// The fields of a score sheet a ResultChange reports.
const (
	ChangeDeclared = "declared" // who declared victory
	ChangeEndedBy  = "ended_by" // how the game ended
	ChangeVP       = "vp"       // a player's VP
)

// TieError is capsule rolls that leave players tied for places (§3 オ):
// they re-roll among themselves. Groups lists the tied players by ID, group
// by group, in play order of the places they contest. It wraps ErrInvalid,
// and the referee's *referee.TieError, which names them as the rules do.
type TieError struct {
	Groups [][]int64
	rule   *referee.TieError
}

func (e *TieError) Error() string { return ErrInvalid.Error() + ": " + e.rule.Error() }

// Unwrap makes errors.Is(err, ErrInvalid) hold, and errors.As find the
// referee's error.
func (e *TieError) Unwrap() []error { return []error{ErrInvalid, e.rule} }

// tieError is the referee's tie in the players' IDs.
func tieError(rule *referee.TieError) *TieError {
	e := &TieError{rule: rule}
	for _, g := range rule.Groups {
		e.Groups = append(e.Groups, fromPIDs(g))
	}
	return e
}

// ResultChange is one difference between the revision a judge edited and
// the latest one, as values, so that each language can word it.
type ResultChange struct {
	Field string // ChangeDeclared, ChangeEndedBy or ChangeVP
	// WinnerFrom and WinnerTo are the declared winners (ChangeDeclared),
	// 0 for nobody.
	WinnerFrom, WinnerTo int64
	// EndedFrom and EndedTo are how the game ended (ChangeEndedBy):
	// EndedByDeclaration, EndedByTime, or "" when not recorded.
	EndedFrom, EndedTo string
	// Player's VP went from VPFrom to VPTo (ChangeVP); Had and Has say
	// whether the player was on the edited and the latest sheet at all.
	Player       int64
	VPFrom, VPTo int
	Had, Has     bool
}

// Diff lists what the current revision changed from the one the judge
// edited: the declared winner, how the game ended, then each player's VP
// by player ID, so the judge can redo the edit knowingly.
func (e *ConflictError) Diff() []ResultChange {
	var base Result
	if e.Base != nil {
		base = *e.Base
	}
	return DiffResults(base, e.Current)
}

// DiffResults lists what current changed from base, two revisions of a
// table's score sheet: the declared winner, how the game ended, then each
// player's VP by player ID.
func DiffResults(base, current Result) []ResultChange {
	var out []ResultChange
	if base.Declared != current.Declared {
		out = append(out, ResultChange{Field: ChangeDeclared, WinnerFrom: base.Declared, WinnerTo: current.Declared})
	}
	if base.EndedBy != current.EndedBy {
		out = append(out, ResultChange{Field: ChangeEndedBy, EndedFrom: base.EndedBy, EndedTo: current.EndedBy})
	}
	old := map[int64]int{}
	for _, s := range base.Scores {
		old[s.PlayerID] = s.VP
	}
	ids := make([]int64, 0, len(current.Scores))
	cur := map[int64]int{}
	for _, s := range current.Scores {
		ids = append(ids, s.PlayerID)
		cur[s.PlayerID] = s.VP
	}
	for _, s := range base.Scores {
		if _, ok := cur[s.PlayerID]; !ok {
			ids = append(ids, s.PlayerID)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		o, had := old[id]
		n, has := cur[id]
		if !had || !has || o != n {
			out = append(out, ResultChange{Field: ChangeVP, Player: id, VPFrom: o, VPTo: n, Had: had, Has: has})
		}
	}
	return out
}

// Changes words Diff in English, one line per difference, for the log.
func (e *ConflictError) Changes() []string {
	var out []string
	for _, d := range e.Diff() {
		switch {
		case d.Field == ChangeDeclared:
			out = append(out, fmt.Sprintf("declared %s → %s", e.name(d.WinnerFrom), e.name(d.WinnerTo)))
		case d.Field == ChangeEndedBy:
			out = append(out, fmt.Sprintf("ended by %s → %s", orNone(d.EndedFrom), orNone(d.EndedTo)))
		case !d.Had:
			out = append(out, fmt.Sprintf("%s %d VP", e.name(d.Player), d.VPTo))
		case !d.Has:
			out = append(out, fmt.Sprintf("%s removed", e.name(d.Player)))
		default:
			out = append(out, fmt.Sprintf("%s %d → %d VP", e.name(d.Player), d.VPFrom, d.VPTo))
		}
	}
	return out
}

func (e *ConflictError) name(id int64) string {
	if id == 0 {
		return "none"
	}
	if n, ok := e.Names[id]; ok && n != "" {
		return n
	}
	return fmt.Sprintf("player %d", id)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// invalid returns an error wrapping ErrInvalid and a *referee.Violation of
// the rule code, with the lower-case English message msg and the values it
// names, so that the web layer can say it in the user's language.
func invalid(code, msg string, args map[string]any) error {
	return fmt.Errorf("%w: %w", ErrInvalid, referee.NewViolation(code, msg, args))
}

// Invalid is invalid for the Store: a write the stored state refuses,
// reported by code so that the web layer can say it in the user's language
// ("rule.<code>" messages) rather than show the English message of the log.
func Invalid(code, msg string, args map[string]any) error { return invalid(code, msg, args) }

// Conflict returns an error wrapping ErrConflict and a *referee.Violation of
// code, for a change the stored state refuses because it moved on since the
// change was decided (another judge's change came first) or no longer
// allows it: msg is the lower-case English message for the log, args the
// values it names, so that the web layer says it in the user's language.
func Conflict(code, msg string, args map[string]any) error {
	return fmt.Errorf("%w: %w", ErrConflict, referee.NewViolation(code, msg, args))
}

// named puts the names of the event's players in place of the player ids the
// service gave the referee, in the values of a *referee.Violation in err
// (Player, Group), so that its message names people rather than numbers. The
// English message, for the log, keeps the ids, and so does PlayerID, the
// int64 ID of Player, so that a form can put the message next to that
// player's field.
func (e record) named(err error) error {
	var v *referee.Violation
	if !errors.As(err, &v) {
		return err
	}
	args := maps.Clone(v.Args)
	if id, ok := args["Player"].(string); ok {
		args["Player"] = e.nameOf(id)
		args["PlayerID"] = fromPID(id)
	}
	if ids, ok := args["Group"].([]string); ok {
		names := make([]string, len(ids))
		pids := make([]int64, len(ids))
		for i, id := range ids {
			names[i], pids[i] = e.nameOf(id), fromPID(id)
		}
		args["Group"], args["GroupIDs"] = names, pids
	}
	// A rule of play names the player whose turn it is, and the players
	// who owe a discard or may be robbed (referee/game).
	if id, ok := args["Current"].(string); ok {
		args["Current"] = e.nameOf(id)
	}
	if ids, ok := args["Players"].([]string); ok {
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = e.nameOf(id)
		}
		args["Players"] = names
	}
	v.Args = args
	return err
}

// nameOf returns the name of the player the referee knows as id, or id.
func (e record) nameOf(id string) string {
	if p, ok := e.player(fromPID(id)); ok && p.Name != "" {
		return e.label(p)
	}
	return id
}
