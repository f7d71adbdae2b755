package web_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// ruleSite is one place in the code that reports a broken rule: the code and
// the names of the values it passes to the message.
type ruleSite struct {
	code string
	keys []string // nil when the values are not a map literal the test can read
	at   string   // file:line
}

// ruleSites finds every violation("code", msg, args), invalid(...),
// the rules of play's broken("code", section, msg, args) and note(...),
// NewViolation(...), and the store's tournament.Invalid(...) and
// tournament.Conflict(...), in the non-test files of the packages in dirs.
func ruleSites(t *testing.T, dirs ...string) []ruleSite {
	t.Helper()
	var sites []ruleSite
	fset := token.NewFileSet()
	for _, dir := range dirs {
		for _, f := range goFiles(t, fset, dir) {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
					sites = append(sites, funcRuleSites(t, fset, fn.Body)...)
				}
			}
		}
	}
	return sites
}

// goFiles parses the Go files of dir, its tests left out.
func goFiles(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// funcRuleSites finds the rule sites in one function body. Values passed as
// a variable are read from the variable's latest map literal before the call.
func funcRuleSites(t *testing.T, fset *token.FileSet, body *ast.BlockStmt) []ruleSite {
	type literal struct {
		pos  token.Pos
		keys []string
	}
	vars := map[string][]literal{}
	var calls []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || i >= len(n.Rhs) {
					continue
				}
				if keys, ok := mapKeys(n.Rhs[i]); ok {
					vars[id.Name] = append(vars[id.Name], literal{n.Pos(), keys})
				}
			}
		case *ast.CallExpr:
			calls = append(calls, n)
		}
		return true
	})
	var sites []ruleSite
	for _, call := range calls {
		var name string
		switch fun := call.Fun.(type) {
		case *ast.Ident:
			name = fun.Name
		case *ast.SelectorExpr:
			name = fun.Sel.Name
		}
		// The rules of play (referee/game) name their section second:
		// broken(code, section, msg, args) and note(...) alike.
		argsAt := 2
		switch {
		case slices.Contains([]string{"violation", "invalid", "Invalid", "Conflict", "NewViolation"}, name) && len(call.Args) == 3:
		case slices.Contains([]string{"broken", "note"}, name) && len(call.Args) == 4:
			argsAt = 3
		default:
			continue
		}
		lit, ok := call.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue // the definition of a helper, not a rule
		}
		code, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatal(err)
		}
		site := ruleSite{code: code, at: fset.Position(call.Pos()).String()}
		if keys, ok := mapKeys(call.Args[argsAt]); ok {
			site.keys = keys
		} else if id, ok := call.Args[argsAt].(*ast.Ident); ok {
			for _, l := range vars[id.Name] {
				if l.pos < call.Pos() {
					site.keys = l.keys
				}
			}
		}
		sites = append(sites, site)
	}
	return sites
}

// mapKeys returns the string keys of a map literal, or none for nil.
func mapKeys(e ast.Expr) ([]string, bool) {
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return []string{}, true
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	if _, ok := cl.Type.(*ast.MapType); !ok {
		return nil, false
	}
	keys := []string{}
	for _, elt := range cl.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		lit, ok := kv.Key.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return nil, false
		}
		k, err := strconv.Unquote(lit.Value)
		if err != nil {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

var (
	templateAction = regexp.MustCompile(`\{\{(.*?)\}\}`)
	templateField  = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*)`)
)

// templateFields returns the names a message template reads from its data.
func templateFields(msg string) []string {
	var out []string
	for _, a := range templateAction.FindAllStringSubmatch(msg, -1) {
		for _, f := range templateField.FindAllStringSubmatch(a[1], -1) {
			out = append(out, f[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Every rule the referee or the tournament can report, and every conflict
// or refusal of the store, has a message in both languages that names only
// values the code passes, so that no user reads a bare code, an English
// message in the Japanese console or "<no value>".
func TestEveryRuleHasMessages(t *testing.T) {
	var sites []ruleSite
	for _, dir := range []string{"../../referee", "../../referee/pairing", "../../referee/game", "../../referee/season", "..", "../store"} {
		found := ruleSites(t, dir)
		if len(found) == 0 {
			t.Fatalf("found no rule sites in %s: is the scan broken?", dir)
		}
		sites = append(sites, found...)
	}
	if len(sites) < 30 {
		t.Fatalf("found %d rule sites in referee, pairing and tournament, want many more: is the scan broken?", len(sites))
	}
	tr, err := i18n.New(templates.Locales, nil)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, lang := range []string{"ja", "en"} {
		var msgs map[string]string
		if _, err := toml.DecodeFile("../../templates/locales/rules."+lang+".toml", &msgs); err != nil {
			t.Fatal(err)
		}
		for _, s := range sites {
			used["rule."+s.code] = true
			id := "rule." + s.code
			msg, ok := msgs[id]
			if !ok {
				t.Errorf("%s: %s has no message in locales/rules.%s.toml", s.at, id, lang)
				continue
			}
			if s.keys == nil {
				t.Errorf("%s: the values of %s are not a map literal, so their names cannot be checked", s.at, s.code)
				continue
			}
			for _, f := range templateFields(msg) {
				// i18n sets .API beside a judge who is the API token.
				if !slices.Contains(s.keys, f) && (f != "API" || !slices.Contains(s.keys, "Judge")) {
					t.Errorf("%s: %s in rules.%s.toml reads {{.%s}}, but the code passes only %v", s.at, id, lang, f, s.keys)
				}
			}
			data := map[string]any{}
			for _, k := range s.keys {
				data[k] = "‹" + k + "›"
			}
			if got := tr.Text(lang, id, data); got == id || strings.Contains(got, "<no value>") {
				t.Errorf("%s: %s in %s renders as %q", s.at, id, lang, got)
			}
		}
		for id := range msgs {
			if !used[id] {
				t.Errorf("locales/rules.%s.toml: %s is not a rule the code reports", lang, id)
			}
		}
	}
}

// A broken rule reaches the user in the request's language, with the values
// of the case filled in.
func TestRuleMessagesInTheRequestLanguage(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	declared9 := `{"scores":[{"player":"a","vp":9},{"player":"b","vp":1},{"player":"c","vp":1}],"declared":"a"}`
	incomplete := `{"rounds":[[{"player":"a","white":1,"blue":2},{"player":"b","white":2,"blue":1},{"player":"c","white":6,"blue":6}],[{"player":"a","white":5,"blue":5}]]}`
	tests := []struct {
		name, target, body, lang, want string
	}{
		{"declared under 10, ja", "/api/v1/referee/placings", declared9, "ja",
			"勝利宣言した「a」の勝利点は9点です。宣言には10点以上が必要です（§11）。"},
		{"declared under 10, en", "/api/v1/referee/placings", declared9, "en",
			"The declared winner a has 9 VP, fewer than the 10 needed to declare (§11)."},
		{"default is Japanese", "/api/v1/referee/placings", declared9, "",
			"勝利宣言した「a」の勝利点は9点です。宣言には10点以上が必要です（§11）。"},
		{"a list, ja", "/api/v1/referee/seating", incomplete, "ja",
			"振り直し 1回目に「b」の出目がありません。同点の a、b は全員で振り直します（§3 オ）。"},
		{"a list, en", "/api/v1/referee/seating", incomplete, "en",
			"Re-roll round 2: b is missing from the re-roll of a, b (§3 オ)."},
		{"a die, ja", "/api/v1/referee/seating", `{"rounds":[[{"player":"a","white":1,"blue":9},{"player":"b","white":2,"blue":1},{"player":"c","white":6,"blue":6}]]}`, "ja",
			"1回目の「a」の青ダイスが 9 になっています。ダイスの目は1〜6です。"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := webtest.Do(h, "POST", tt.target, tt.body, "Accept-Language", tt.lang)
			var body struct {
				Error string `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if rec.Code != 422 || body.Error != tt.want {
				t.Errorf("POST %s (Accept-Language %q) = %d %q, want 422 %q", tt.target, tt.lang, rec.Code, body.Error, tt.want)
			}
		})
	}
}

// The tournament's own rules are translated too, and the referee's rules
// name the tournament's players, not the ids the referee knows them by.
func TestTournamentRuleMessages(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	players := r.Tables[0].Players
	winner, err := env.Service.GetPlayer(env.Ctx, tr.ID, players[0])
	if err != nil {
		t.Fatal(err)
	}
	var scores []string
	for i, id := range players {
		scores = append(scores, fmt.Sprintf(`{"player":%d,"vp":%d}`, id, 9-i))
	}
	sheet := fmt.Sprintf(`{"scores":[%s],"declared":%d}`, strings.Join(scores, ","), winner.ID)
	result := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID)
	tests := []struct {
		name, method, target, body, lang, want string
	}{
		{"no name, ja", "POST", "/api/v1/tournaments", `{"rounds":3}`, "ja", "大会名を入力してください。"},
		{"no name, en", "POST", "/api/v1/tournaments", `{"rounds":3}`, "en", "The tournament needs a name."},
		{"rounds, ja", "POST", "/api/v1/tournaments", `{"name":"x","rounds":31}`, "ja", "回戦数は 1〜30 で入力してください（入力: 31）。"},
		{"declared under 10, ja", "PUT", result, sheet, "ja",
			"勝利宣言した「" + winner.Name + "」の勝利点は9点です。宣言には10点以上が必要です（§11）。"},
		{"declared under 10, en", "PUT", result, sheet, "en",
			"The declared winner " + winner.Name + " has 9 VP, fewer than the 10 needed to declare (§11)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := webtest.Do(env.Handler, tt.method, tt.target, tt.body, "Authorization", "Bearer test-token", "Accept-Language", tt.lang)
			var body struct {
				Error string `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if rec.Code != 422 || body.Error != tt.want {
				t.Errorf("%s %s (Accept-Language %q) = %d %q, want 422 %q", tt.method, tt.target, tt.lang, rec.Code, body.Error, tt.want)
			}
		})
	}
}
