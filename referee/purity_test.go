package referee_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The referee stays pure: standard library only (STYLE.md, Domain first).
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, "github.com/catanjudge/catanjudge/referee") {
			t.Errorf("referee depends on %s, want standard library only", p)
		}
	}
}
