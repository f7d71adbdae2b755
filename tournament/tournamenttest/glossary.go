package tournamenttest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// AvoidedWords reads the words docs/glossary.md says a Japanese page or
// sheet must not use: the 使わない column of its tables. root is the path
// from the test's folder to the repository's.
func AvoidedWords(t testing.TB, root string) []string {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(root, "docs", "glossary.md"))
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	col := -1
	for line := range strings.Lines(string(md)) {
		if !strings.HasPrefix(line, "|") {
			col = -1
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if i := slices.Index(cells, "使わない"); i >= 0 {
			col = i
			continue
		}
		if col < 0 || col >= len(cells) || strings.HasPrefix(cells[col], "---") {
			continue
		}
		for w := range strings.SplitSeq(cells[col], "、") {
			if w != "" {
				words = append(words, w)
			}
		}
	}
	if len(words) < 20 {
		t.Fatalf("docs/glossary.md lists %d words to avoid (%q), want its 使わない columns read", len(words), words)
	}
	return words
}
