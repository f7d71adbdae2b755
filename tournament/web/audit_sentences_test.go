package web_test

import (
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// auditAction is an action code as the service writes it, "player.add".
var auditAction = regexp.MustCompile(`^(tournament|player|round|table|result|game|penalty|clock|report|person|final)\.[a-z_]+$`)

// auditActions are the actions the service writes to the audit log: the
// string literals it passes to the functions that make an audit entry,
// and its Action constants.
func auditActions(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	found := map[string]string{}
	literal := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && auditAction.MatchString(s) {
				found[s] = fset.Position(lit.Pos()).String()
			}
		}
	}
	for _, f := range goFiles(t, fset, "..") {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					switch sel.Sel.Name {
					case "change", "updatePlayer", "updatePlayerFrom", "answerReport":
						for _, a := range n.Args {
							literal(a)
						}
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if strings.HasPrefix(name.Name, "Action") && i < len(n.Values) {
						literal(n.Values[i])
					}
				}
			}
			return true
		})
	}
	// The clock's actions are written as "clock." and the action.
	for _, a := range []string{tournament.ClockStart, tournament.ClockPause, tournament.ClockResume, tournament.ClockExtend, tournament.ClockTurn, tournament.ClockEnd, tournament.ClockPlacementEnd} {
		found["clock."+a] = "tournament/clock.go"
	}
	return found
}

// Issue 12: every entry of the audit log reads as a sentence in the
// page's language; an action without one would fall back to its code.
func TestEveryAuditActionHasASentence(t *testing.T) {
	actions := auditActions(t)
	if len(actions) < 30 {
		t.Fatalf("found %d audit actions in the service, want many more: is the scan broken?", len(actions))
	}
	tr, err := i18n.New(templates.Locales, nil)
	if err != nil {
		t.Fatal(err)
	}
	for a, at := range actions {
		for _, lang := range []string{"ja", "en"} {
			id := "audit.say." + a
			if tr.Text(lang, id, nil) == id {
				t.Errorf("%s: %s has no sentence in the %s audit log (%s)", at, a, lang, id)
			}
		}
	}
}
