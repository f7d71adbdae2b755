package game

import (
	"fmt"

	"github.com/catanjudge/catanjudge/referee"
)

// Error is a move or step the rules refuse, or a development card they let
// stand without effect (Void). It names the rulebook section of the rule
// and carries a referee.Violation, so errors.Is(err, referee.ErrInvalid)
// holds and the user interface can say it in the user's language.
//
// A judge's evaluation (Evaluation and its answers) uses it too, to say the
// rule behind an answer with its section, code and values: there it
// refuses nothing and is never returned as an error.
type Error struct {
	Section string // the rulebook section, e.g. "§8 ア"
	// Index is the place of the move or step at fault in what was checked,
	// or -1 when the error is not about one.
	Index int
	// Void says the move stands with no effect: a development card played
	// on its purchase turn (§8 エ) or a second card in one turn (§9).
	Void bool
	*referee.Violation
}

// Unwrap returns the broken rule.
func (e *Error) Unwrap() error { return e.Violation }

func (e *Error) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("move %d: %s: %s", e.Index, e.Section, e.Violation.Error())
	}
	return e.Section + ": " + e.Violation.Error()
}

// broken returns the rule of section with the stable code, the English
// message msg and the values the message names.
func broken(code, section, msg string, args map[string]any) *Error {
	return &Error{Section: section, Index: -1, Violation: referee.NewViolation(code, msg, args)}
}

// at returns err with the place of the move or step at fault, when it is an *Error.
func at(err error, i int) error {
	if e, ok := err.(*Error); ok {
		e.Index = i
	}
	return err
}
