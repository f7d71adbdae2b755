package referee

import "errors"

// ErrInvalid marks input that breaks a rule; the wrapped message says which.
// Callers map it to a 422 (or a form message) and change nothing.
var ErrInvalid = errors.New("invalid")

// Violation is a broken rule with a stable code, so that the user interface
// can say it in the user's language, and the values it names.
// errors.Is(v, ErrInvalid) holds.
//
// Args are keyed by name for the message templates. Where a value is a
// player, Args["Player"] holds the player's id and Args["Group"] a []string
// of ids, as the caller gave them, so that a caller that knows the players
// may put their names in their place. A value that is a list is a []string.
type Violation struct {
	Code string         // e.g. "winner-under-win-vp"
	Args map[string]any // the values the message names, by name
	msg  string         // the English message
}

func (v *Violation) Error() string { return v.msg }

// Is makes every Violation an ErrInvalid.
func (v *Violation) Is(target error) bool { return target == ErrInvalid }

// NewViolation returns a Violation of the rule code with the English message
// msg, for rules checked outside this package (a tournament's own).
func NewViolation(code, msg string, args map[string]any) *Violation {
	return &Violation{Code: code, Args: args, msg: msg}
}

// violation returns a Violation of the rule code with the English message msg.
func violation(code, msg string, args map[string]any) *Violation {
	return NewViolation(code, msg, args)
}
