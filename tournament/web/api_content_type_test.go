package web

import (
	"net/http"
	"strings"
	"testing"
)

// The JSON API reads JSON whatever the request's Content-Type says: curl -d
// labels its body application/x-www-form-urlencoded, and the README's
// examples send JSON that way. A form parser must not consume the body first.
func TestJSONAPIIgnoresContentType(t *testing.T) {
	e := newHostileEnv(t)
	for _, ct := range []string{"application/x-www-form-urlencoded", "text/plain", "", "application/json"} {
		t.Run(ct, func(t *testing.T) {
			rec := do(e.h, http.MethodPost, "/api/v1/referee/placings",
				`{"scores":[{"player":"a","vp":10},{"player":"b","vp":8},{"player":"c","vp":8}],"declared":"a"}`, "Content-Type", ct)
			if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"place":2`) {
				t.Errorf("POST placings as %q = %d %s, want 200 with the placings", ct, rec.Code, rec.Body)
			}
			rec = e.api(http.MethodPost, "/api/v1/tournaments", `{"name":"curl大会","rounds":2}`, "Content-Type", ct)
			if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"name":"curl大会"`) {
				t.Errorf("POST tournaments as %q = %d %s, want 201", ct, rec.Code, rec.Body)
			}
		})
	}
}
