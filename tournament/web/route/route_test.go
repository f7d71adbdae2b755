package route

import (
	"net/url"
	"strings"
	"testing"
	"unicode"
)

// FuzzRedirectTarget throws arbitrary "next" values at Local: what it
// keeps is a path on this site (one slash, no scheme or host, no control
// character, space or backslash a browser would drop or turn into a
// slash); anything else becomes the fallback.
func FuzzRedirectTarget(f *testing.F) {
	for _, s := range []string{"/judge/t/1", "/\t/other-host/x", "//evil", "/\\evil", "https://evil", "/kiosk/1?q=%E9%9D%92", "/\u3000/x", "javascript:alert(1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		got := Local(target, "/fallback")
		if got == "/fallback" {
			return
		}
		u, err := url.Parse(got)
		switch {
		case got != target:
			t.Fatalf("Local(%q) = %q, want it or the fallback", target, got)
		case !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") || err != nil || u.Host != "" || u.Scheme != "":
			t.Fatalf("Local(%q) kept a target that leaves the site", target)
		case strings.IndexFunc(got, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) }) >= 0:
			t.Fatalf("Local(%q) kept a control character, space or backslash", target)
		}
	})
}

// Path fills a pattern's parameters in order.
func TestPath(t *testing.T) {
	tests := []struct {
		pattern string
		args    []any
		want    string
	}{
		{Table, []any{3, 2, 1}, "/judge/t/3/rounds/2/tables/1"},
		{Static, []any{"console.css"}, "/static/console.css"},
		{Tournaments, nil, "/judge"},
		{Round, []any{int64(7)}, "/judge/t/7/rounds/:n"},
	}
	for _, tt := range tests {
		if got := Path(tt.pattern, tt.args...); got != tt.want {
			t.Errorf("Path(%q, %v) = %q, want %q", tt.pattern, tt.args, got, tt.want)
		}
	}
}
