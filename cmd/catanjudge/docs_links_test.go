package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink is a Markdown link's target.
var mdLink = regexp.MustCompile(`\]\(([^)#\s]+)[^)]*\)`)

// Issue 25: no page of the project points outside the repository: the
// README, the docs, the templates, the locales, the ruleset files and the
// code name neither the machine's folders nor the rule files beside the
// repository (docs/rules.md restates the rules), and every relative link
// of a Markdown page reaches a file of the repository.
func TestNothingPointsOutsideTheRepository(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// Spelled apart, so that this file does not hold them.
	outside := []string{"/wo" + "rk/", "../sha" + "red", "RULI" + "NGS", "national-ru" + "les.md", "tournament-rule" + "book.ja"}
	read := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == ".git" || name == "bin" || name == "artefacts" || name == "node_modules" || name == "data" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(name) {
		case ".md", ".go", ".html", ".toml", ".json", ".js", ".css", ".yml", ".yaml":
		default:
			if name != "Makefile" && name != "run" {
				return nil
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		read++
		rel, _ := filepath.Rel(root, path)
		for _, o := range outside {
			if strings.Contains(string(b), o) {
				t.Errorf("%s names %q, outside the repository", rel, o)
			}
		}
		if filepath.Ext(name) != ".md" {
			return nil
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			abs := filepath.Clean(filepath.Join(filepath.Dir(path), target))
			if !strings.HasPrefix(abs, root+string(filepath.Separator)) {
				t.Errorf("%s links to %s, outside the repository", rel, target)
			} else if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s links to %s, which is not in the repository", rel, target)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read < 100 {
		t.Errorf("read %d files, want the whole repository", read)
	}
}
