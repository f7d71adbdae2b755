package referee_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNothingRunsConcurrently checks that no file of the referee, its
// tests included, starts a goroutine, runs tests in parallel or imports
// sync: make test runs the referee's tests without the race detector,
// which has no two goroutines to watch here and made them 20 times
// slower (referee/pairing: 127 s against 6.6 s). Code that needs one of
// these needs the race detector too: run referee/... in make test-race's
// race run again.
func TestNothingRunsConcurrently(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "sync" || strings.HasPrefix(p, "sync/") {
				t.Errorf("%s imports %s", fset.Position(imp.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				t.Errorf("%s starts a goroutine", fset.Position(n.Pos()))
			case *ast.SelectorExpr:
				if n.Sel.Name == "Parallel" {
					t.Errorf("%s runs tests in parallel", fset.Position(n.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d Go files under referee, want all of them: is the walk broken?", files)
	}
}
