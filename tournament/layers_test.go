package tournament_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestImportsRunDownTheLayers holds the rooms of docs/architecture.md to
// the way their imports run: cmd → tournament/web/... → tournament →
// referee. (referee/purity_test.go keeps the referee to the standard
// library.)
func TestImportsRunDownTheLayers(t *testing.T) {
	const module = "github.com/catanjudge/catanjudge/"
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", module+"...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const (
		shared    = `tournament/web/(live|auth|render|route|i18n|problem|clock|sheet|drawing|gameview)`
		audiences = `tournament/web/(api|console|kiosk|home)`
	)
	rules := []struct {
		from, to string // patterns of the module's packages, without its path
		tests    bool   // the rule holds for the tests' imports too
		why      string
		except   string // a package from matches that the rule spares
	}{
		{`(config|referee|static|templates|tournament)(/.*)?`, `cmd(/.*)?`, true, "nothing imports a command", ``},
		{`tournament`, `(config|tournament/.*)`, false, "the use cases ask the referee and the Store interface, nothing above or beside them", ``},
		{`tournament/(store|export|roster|recordfile|store/pgtest|tournamenttest)`, `tournament/web(/.*)?`, true, "the store and the export never import the web", ``},
		{`(config|referee|tournament|tournament/(export|roster|recordfile)|tournament/web(/.*)?)`, `tournament/store`, false, "nothing but a command (and the tests' harness) opens the store", `tournament/web/webtest`},
		{`.*`, `tournament/web/webtest`, false, "only tests import the web tests' harness", ``},
		{shared, `tournament/web|` + audiences, false, "what the audiences share sits below them", ``},
		{`tournament/web/api`, `tournament/web|tournament/web/(console|kiosk|home)`, false, "the audiences do not import one another", ``},
		{`tournament/web/console`, `tournament/web|tournament/web/(api|kiosk|home)`, false, "the audiences do not import one another", ``},
		{`tournament/web/kiosk`, `tournament/web|tournament/web/(api|console|home)`, false, "the audiences do not import one another", ``},
		{`tournament/web/home`, `tournament/web|tournament/web/(api|console|kiosk)`, false, "the audiences do not import one another", ``},
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 {
			t.Fatalf("go list said %q", line)
		}
		pkg := strings.TrimPrefix(parts[0], module)
		for _, r := range rules {
			if !regexp.MustCompile(`^(`+r.from+`)$`).MatchString(pkg) || pkg == r.except {
				continue
			}
			imports := strings.Fields(parts[1])
			if r.tests {
				imports = append(imports, strings.Fields(parts[2])...)
			}
			to := regexp.MustCompile(`^(` + r.to + `)$`)
			for _, imp := range imports {
				dep, ours := strings.CutPrefix(imp, module)
				if !ours || dep == pkg {
					continue
				}
				checked++
				if to.MatchString(dep) {
					t.Errorf("%s imports %s: %s", pkg, dep, r.why)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d imports: is the listing broken?", checked)
	}
}
