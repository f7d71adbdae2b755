package web_test

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// engineNames are the names of hexes, corners and sides the rules engine
// and the API use, "(0,-2)", "N(0,0)", which keep their half-width
// parentheses wherever a message quotes them.
var engineNames = regexp.MustCompile(`[NS]?\(-?\d+, ?-?\d+\)|\(q, ?r\)`)

// spacedCounter is a number, or a message's value, and its counter
// written apart: "{{.N}} 点", "3 枚".
var spacedCounter = regexp.MustCompile(`(}}|[0-9]) (点|人|枚|本|卓|位|分|件|回|手|色|秒)`)

// tableOrdinal is a table written as an ordinal, 第2卓: the glossary's
// form is 2卓 (第 numbers rounds alone, 第2回戦).
var tableOrdinal = regexp.MustCompile(`第({{[^}]*}}|[0-9０-９]+)卓`)

// judgeHonorific is さん after the judge's name without the guard that
// leaves it out for the API token (i18n: .API).
var judgeHonorific = regexp.MustCompile(`{{\.Judge}} ?さん`)

// templateActions are the values a message fills in, {{.VP}}.
var templateActions = regexp.MustCompile(`{{[^}]*}}`)

// quoted are the strings that quote a word the glossary avoids on
// purpose, by key: the import reads the column headings organizers'
// spreadsheets have (glossary: "the import still reads them as columns"),
// and a byte is not a bye.
var quoted = map[string][]string{
	"import.columns":       {"氏名", "ふりがな", "フリガナ"},
	"import.error_no_name": {"氏名"},
	"error.too_large":      {"バイ"},
}

// Issue 12: every Japanese string of the pages reads as a Japanese judge
// would write it (docs/glossary.md): full-width parentheses, 勝利点 rather
// than "VP", none of the words the glossary avoids. Issue 25: 2卓 rather
// than 第2卓, a full-width ？, the API token never 「api さん」.
func TestJapaneseLocalesFollowTheGlossary(t *testing.T) {
	files, err := fs.Glob(templates.Locales, "locales/*.ja.toml")
	if err != nil || len(files) < 10 {
		t.Fatalf("locales: %v, %d files", err, len(files))
	}
	bad := tournamenttest.AvoidedWords(t, filepath.Join("..", ".."))
	read := 0
	for _, name := range files {
		var texts map[string]string
		if _, err := toml.DecodeFS(templates.Locales, name, &texts); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for key, s := range texts {
			read++
			plain := engineNames.ReplaceAllString(templateActions.ReplaceAllString(s, ""), "")
			if strings.ContainsAny(plain, "()") {
				t.Errorf("%s %s = %q has half-width parentheses: （）in Japanese", name, key, s)
			}
			if m := spacedCounter.FindString(s); m != "" {
				t.Errorf("%s %s = %q writes %q: the counter follows its number directly (10点, 3卓, 2枚)", name, key, s, m)
			}
			if m := tableOrdinal.FindString(s); m != "" {
				t.Errorf("%s %s = %q writes %q: a table is 2卓, not 第2卓", name, key, s, m)
			}
			if judgeHonorific.MatchString(strings.ReplaceAll(s, "{{if not .API}} さん{{end}}", "")) {
				t.Errorf("%s %s = %q gives the judge さん without {{if not .API}}: the API token is not a person", name, key, s)
			}
			if strings.ContainsAny(plain, "?!") && !strings.Contains(plain, "http") {
				t.Errorf("%s %s = %q has a half-width ? or !: ？ and ！ in Japanese", name, key, s)
			}
			if strings.Contains(plain, "VP") {
				t.Errorf("%s %s = %q says VP: 勝利点, or 点 after a number", name, key, s)
			}
			for _, w := range bad {
				if strings.Contains(s, w) && !slices.Contains(quoted[key], w) {
					t.Errorf("%s %s = %q says %q, which docs/glossary.md avoids", name, key, s, w)
				}
			}
		}
	}
	if read < 500 {
		t.Errorf("read %d Japanese strings, want every locale's", read)
	}
}
