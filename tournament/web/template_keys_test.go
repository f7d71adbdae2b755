package web_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// templateKey is a message a template asks for by a literal id:
// {{t "kiosk.players"}} or (t "kiosk.players" ...).
var templateKey = regexp.MustCompile(`[{(]-?\s*t "([a-z0-9_.\-]+)"`)

// Every message a template names exists in both languages: a missing one
// would show its id on the page.
func TestEveryTemplateMessageExists(t *testing.T) {
	root := filepath.Join("..", "..", "templates")
	msgs := map[string]map[string]bool{"ja": {}, "en": {}}
	for lang := range msgs {
		files, err := filepath.Glob(filepath.Join(root, "locales", "*."+lang+".toml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("locales of %s: %v", lang, err)
		}
		for _, name := range files {
			var texts map[string]string
			if _, err := toml.DecodeFile(name, &texts); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for k := range texts {
				msgs[lang][k] = true
			}
		}
	}
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range templateKey.FindAllStringSubmatch(string(b), -1) {
			found++
			for lang, have := range msgs {
				if !have[m[1]] {
					t.Errorf("%s asks for %q, which has no %s message", path, m[1], lang)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 200 {
		t.Fatalf("found %d messages in the templates, want many more: is the scan broken?", found)
	}
}
