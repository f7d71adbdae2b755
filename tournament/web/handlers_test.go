package web_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxHandlerLines bounds a handler: a function of the web layer that takes
// the request (*gin.Context). One longer than this is doing a use case's
// or a view model's work; move that into tournament or a page builder.
const maxHandlerLines = 60

// Every handler of the web layer, in every package under it, is at most
// maxHandlerLines long, from its func line to its closing brace.
func TestHandlersAreShort(t *testing.T) {
	fset := token.NewFileSet()
	handlers := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !takesRequest(fn) {
				continue
			}
			handlers++
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxHandlerLines {
				t.Errorf("%s: %s is %d lines long, want at most %d", fset.Position(fn.Pos()), fn.Name.Name, n, maxHandlerLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if handlers < 100 {
		t.Errorf("found %d handlers, want the web layer's hundred and more: is the walk looking in the right place?", handlers)
	}
}

// takesRequest reports whether fn has a *gin.Context parameter.
func takesRequest(fn *ast.FuncDecl) bool {
	for _, p := range fn.Type.Params.List {
		star, ok := p.Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "gin" && sel.Sel.Name == "Context" {
			return true
		}
	}
	return false
}
