package tournament

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

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

// Changes lists, one line per difference, what the current revision changed
// from the one the judge edited, so the judge can redo the edit knowingly.
func (e *ConflictError) Changes() []string {
	var base Result
	if e.Base != nil {
		base = *e.Base
	}
	var out []string
	if base.Declared != e.Current.Declared {
		out = append(out, fmt.Sprintf("declared %s → %s", e.name(base.Declared), e.name(e.Current.Declared)))
	}
	if base.EndedBy != e.Current.EndedBy {
		out = append(out, fmt.Sprintf("ended by %s → %s", orNone(base.EndedBy), orNone(e.Current.EndedBy)))
	}
	old := map[int64]int{}
	for _, s := range base.Scores {
		old[s.PlayerID] = s.VP
	}
	ids := make([]int64, 0, len(e.Current.Scores))
	cur := map[int64]int{}
	for _, s := range e.Current.Scores {
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
		switch {
		case !had:
			out = append(out, fmt.Sprintf("%s %d VP", e.name(id), n))
		case !has:
			out = append(out, fmt.Sprintf("%s removed", e.name(id)))
		case o != n:
			out = append(out, fmt.Sprintf("%s %d → %d VP", e.name(id), o, n))
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

// named puts the names of the event's players in place of the player ids the
// service gave the referee, in the values of a *referee.Violation in err
// (Player, Group), so that its message names people rather than numbers. The
// English message, for the log, keeps the ids.
func (e event) named(err error) error {
	var v *referee.Violation
	if !errors.As(err, &v) {
		return err
	}
	args := maps.Clone(v.Args)
	if id, ok := args["Player"].(string); ok {
		args["Player"] = e.nameOf(id)
	}
	if ids, ok := args["Group"].([]string); ok {
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = e.nameOf(id)
		}
		args["Group"] = names
	}
	v.Args = args
	return err
}

// nameOf returns the name of the player the referee knows as id, or id.
func (e event) nameOf(id string) string {
	if p, ok := e.player(fromPID(id)); ok && p.Name != "" {
		return p.Name
	}
	return id
}
