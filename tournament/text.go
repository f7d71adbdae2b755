package tournament

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The longest text each field takes, in characters: enough for its use on
// the console, the kiosk and the printed sheets, and small enough that no
// page grows with what one field holds. A player's name and kana take
// MaxNameRunes.
const (
	MaxTournamentNameRunes = 100
	MaxVenueRunes          = 100
	MaxShopRunes           = 60
	MaxJudgeNameRunes      = 40
	MaxReasonRunes         = 200 // a correction's, an extension's, a pairing change's, a revocation's
	MaxNoteRunes           = 500 // a penalty's note, which may run over a few lines
)

// textField is a kind of text a judge types, with what it accepts. Every
// text that reaches the service passes through one, whether typed in a
// form, sent to the JSON API or read from an imported file.
type textField struct {
	name  string // how messages name the field: "tournament-name", "venue", ...
	max   int    // in characters
	lines bool   // line breaks are allowed (a penalty's note)
}

var (
	fieldTournamentName = textField{name: "tournament-name", max: MaxTournamentNameRunes}
	fieldVenue          = textField{name: "venue", max: MaxVenueRunes}
	fieldShop           = textField{name: "shop", max: MaxShopRunes}
	fieldPlayerName     = textField{name: "player-name", max: MaxNameRunes}
	fieldKana           = textField{name: "kana", max: MaxNameRunes}
	fieldJudge          = textField{name: "judge", max: MaxJudgeNameRunes}
	fieldReason         = textField{name: "reason", max: MaxReasonRunes}
	fieldNote           = textField{name: "note", max: MaxNoteRunes, lines: true}
)

// clean returns s trimmed of surrounding spaces, or an error wrapping
// ErrInvalid that says why the field cannot hold it: text that is not
// UTF-8; control characters (NUL, ESC, line breaks outside a note, ...),
// which corrupt logs, sheets and terminals; the characters that reorder
// text (bidirectional embeddings, overrides and isolates), which make a
// name read as another; text with no visible character, which looks
// blank; and text over the field's limit. An empty text is left to the
// caller: some fields are optional. A note's line breaks come back as
// "\n" whatever the browser sent.
func (f textField) clean(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", invalid("text-utf8", f.name+": not valid UTF-8", map[string]any{"Field": f.name})
	}
	if f.lines {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	for _, r := range s {
		char := fmt.Sprintf("U+%04X", r)
		switch {
		case f.lines && r == '\n':
		case unicode.IsControl(r):
			return "", invalid("text-control", fmt.Sprintf("%s: control character %s", f.name, char),
				map[string]any{"Field": f.name, "Char": char})
		case reorders(r):
			return "", invalid("text-bidi", fmt.Sprintf("%s: character %s changes the text's direction", f.name, char),
				map[string]any{"Field": f.name, "Char": char})
		}
	}
	if strings.IndexFunc(s, visible) < 0 {
		return "", invalid("text-invisible", f.name+": no visible character", map[string]any{"Field": f.name})
	}
	if n := utf8.RuneCountInString(s); n > f.max {
		msg := fmt.Sprintf("%s has at most %d characters, got %d", f.name, f.max, n)
		args := map[string]any{"Field": f.name, "Max": f.max, "Count": n}
		switch f {
		case fieldPlayerName:
			return "", invalid("player-name-too-long", msg, args)
		case fieldKana:
			return "", invalid("player-kana-too-long", msg, args)
		}
		return "", invalid("text-too-long", msg, args)
	}
	return s, nil
}

// reorders reports the characters that change the order text is shown in:
// the bidirectional embeddings and overrides (U+202A to U+202E) and
// isolates (U+2066 to U+2069). A right-to-left override can make
// "taro<RLO>gpj.exe" read as "taroexe.jpg".
func reorders(r rune) bool {
	return r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069'
}

// visible reports a character that shows something: a letter, a digit, a
// punctuation mark or a symbol, other than the fillers that render blank
// (the Hangul fillers and the blank Braille pattern). Spaces, zero-width
// characters, joiners and combining marks alone show nothing.
func visible(r rune) bool {
	switch r {
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800':
		return false
	}
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S)
}

// CheckJudgeName returns a judge's name as the audit log records it,
// trimmed, or an error wrapping ErrInvalid saying what is wrong with it:
// the login form checks the name a judge types with the rules every other
// text follows.
func CheckJudgeName(name string) (string, error) {
	name, err := fieldJudge.clean(name)
	if err == nil && name == "" {
		err = invalid("judge-missing", "the judge must be named", nil)
	}
	return name, err
}
