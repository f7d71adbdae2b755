package tournament

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/catanjudge/catanjudge/referee"
)

// One set of rules decides what text every field takes: names, kana,
// tournament names, venues, reasons and notes.
func TestTextRules(t *testing.T) {
	tests := []struct {
		name  string
		field textField
		in    string
		want  string // the cleaned text, when accepted
		code  string // the violation's code, when refused
	}{
		{"a name", fieldPlayerName, "  青木 太郎 ", "青木 太郎", ""},
		{"latin, digits, symbols", fieldPlayerName, "O'Brien-2 (Jr.) ★", "O'Brien-2 (Jr.) ★", ""},
		{"an emoji with a joiner", fieldPlayerName, "👨‍👩‍👧 家族", "👨‍👩‍👧 家族", ""},
		{"a right-to-left name", fieldPlayerName, "שלום", "שלום", ""},
		{"empty is the caller's", fieldVenue, "  ", "", ""},
		{"NUL", fieldPlayerName, "青\x00木", "", "text-control"},
		{"ESC", fieldTournamentName, "\x1b[31m大会", "", "text-control"},
		{"a newline in a name", fieldPlayerName, "青木\n井上", "", "text-control"},
		{"a tab in a reason", fieldReason, "数え\t直し", "", "text-control"},
		{"DEL", fieldVenue, "会場\x7f", "", "text-control"},
		{"a C1 control", fieldVenue, "会\u0085場", "", "text-control"},
		{"a right-to-left override", fieldPlayerName, "taro\u202Egpj.exe", "", "text-bidi"},
		{"a left-to-right embedding", fieldReason, "\u202Ax", "", "text-bidi"},
		{"an isolate", fieldNote, "x\u2067y\u2069", "", "text-bidi"},
		{"a zero-width space alone", fieldPlayerName, "\u200B", "", "text-invisible"},
		{"zero-width characters and spaces", fieldKana, "\u200B\u3000\u200D\uFEFF", "", "text-invisible"},
		{"a Hangul filler", fieldPlayerName, "\u3164", "", "text-invisible"},
		{"a blank Braille pattern", fieldTournamentName, "\u2800\u2800", "", "text-invisible"},
		{"a combining mark alone", fieldPlayerName, "\u0301", "", "text-invisible"},
		{"invalid UTF-8", fieldPlayerName, "\xff", "", "text-utf8"},
		{"a note's lines", fieldNote, "1行目\r\n2行目\n", "1行目\n2行目", ""},
		{"a note's other controls", fieldNote, "1行目\r2行目", "", "text-control"},
		{"a name at its limit", fieldPlayerName, strings.Repeat("あ", MaxNameRunes), strings.Repeat("あ", MaxNameRunes), ""},
		{"a name over it", fieldPlayerName, strings.Repeat("あ", MaxNameRunes+1), "", "player-name-too-long"},
		{"a kana over it", fieldKana, strings.Repeat("あ", MaxNameRunes+1), "", "player-kana-too-long"},
		{"a tournament name over it", fieldTournamentName, strings.Repeat("x", 1<<20), "", "text-too-long"},
		{"a venue over it", fieldVenue, strings.Repeat("会", MaxVenueRunes+1), "", "text-too-long"},
		{"a reason over it", fieldReason, strings.Repeat("x", MaxReasonRunes+1), "", "text-too-long"},
		{"a note at its limit", fieldNote, strings.Repeat("x", MaxNoteRunes), strings.Repeat("x", MaxNoteRunes), ""},
		{"a note over it", fieldNote, strings.Repeat("x", MaxNoteRunes+1), "", "text-too-long"},
		{"a judge over it", fieldJudge, strings.Repeat("x", MaxJudgeNameRunes+1), "", "text-too-long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.field.clean(tt.in)
			var v *referee.Violation
			switch {
			case tt.code == "" && (err != nil || got != tt.want):
				t.Errorf("clean(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			case tt.code != "" && (!errors.Is(err, ErrInvalid) || !errors.As(err, &v) || v.Code != tt.code):
				t.Errorf("clean(%q) = %q, %v; want a %s violation", tt.in, got, err, tt.code)
			case tt.code != "" && v.Args["Field"] != tt.field.name:
				t.Errorf("clean(%q): the violation names field %v, want %s", tt.in, v.Args["Field"], tt.field.name)
			}
		})
	}
}

// The judge's name the login keeps, and every change checks.
func TestCheckJudgeName(t *testing.T) {
	for in, code := range map[string]string{"": "judge-missing", " ": "judge-missing", "\u200B": "text-invisible", "山田\n": "", "山\x1b田": "text-control"} {
		_, err := CheckJudgeName(in)
		var v *referee.Violation
		if code == "" && err != nil || code != "" && (!errors.As(err, &v) || v.Code != code) {
			t.Errorf("CheckJudgeName(%q) = %v, want code %q", in, err, code)
		}
	}
}

// FuzzTextRules throws arbitrary text at every field: what a field accepts
// is trimmed valid UTF-8 within its limit, with no control character (but
// a note's line breaks), no character that reorders text, and something
// visible; cleaning it again changes nothing. What it refuses is refused
// with one of the text rules' codes, naming the field.
func FuzzTextRules(f *testing.F) {
	for _, s := range []string{"青木 太郎", " \u200B ", "taro\u202Egpj.exe", "a\x00b", "1行目\r\n2行目", "\xff", "👨‍👩‍👧", "\u3164", strings.Repeat("x", 501)} {
		f.Add(s)
	}
	fields := []textField{fieldTournamentName, fieldVenue, fieldPlayerName, fieldKana, fieldJudge, fieldReason, fieldNote}
	codes := []string{"text-utf8", "text-control", "text-bidi", "text-invisible", "text-too-long", "player-name-too-long", "player-kana-too-long"}
	f.Fuzz(func(t *testing.T, s string) {
		for _, field := range fields {
			got, err := field.clean(s)
			if err != nil {
				var v *referee.Violation
				if !errors.As(err, &v) || !slices.Contains(codes, v.Code) || v.Args["Field"] != field.name {
					t.Fatalf("%s.clean(%q) = %v, want a text rule naming the field", field.name, s, err)
				}
				continue
			}
			if got == "" {
				continue
			}
			switch {
			case !utf8.ValidString(got) || got != strings.TrimSpace(got) || utf8.RuneCountInString(got) > field.max:
				t.Fatalf("%s.clean(%q) = %q: not trimmed valid UTF-8 within %d characters", field.name, s, got, field.max)
			case strings.IndexFunc(got, func(r rune) bool { return unicode.IsControl(r) && !(field.lines && r == '\n') || reorders(r) }) >= 0:
				t.Fatalf("%s.clean(%q) = %q, which holds a control or direction character", field.name, s, got)
			case strings.IndexFunc(got, visible) < 0:
				t.Fatalf("%s.clean(%q) = %q, which shows nothing", field.name, s, got)
			}
			if again, err := field.clean(got); err != nil || again != got {
				t.Fatalf("%s.clean(%q) = %q, %v; want it unchanged", field.name, got, again, err)
			}
		}
	})
}
