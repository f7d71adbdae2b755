package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The JSON API reads JSON whatever the request's Content-Type says: curl -d
// labels its body application/x-www-form-urlencoded, and the README's
// examples send JSON that way. A form parser must not consume the body first.
func TestJSONAPIIgnoresContentType(t *testing.T) {
	e := newHostileEnv(t)
	for _, ct := range []string{"application/x-www-form-urlencoded", "text/plain", "", "application/json"} {
		t.Run(ct, func(t *testing.T) {
			rec := webtest.Do(e.h, http.MethodPost, "/api/v1/referee/placings",
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
	// Left to its handler, an API body labelled as a form is bounded all
	// the same: 8 MB without a declared length is refused with JSON, read
	// no further than the limit.
	body := newCountingBody(`{"scores":[{"player":"`, 8<<20, `","vp":10}]}`)
	req := httptest.NewRequest(http.MethodPost, "/api/v1/referee/placings", body)
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := webtest.Serve(e.h, req, "192.0.2.9:1234")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"error":"送信データが大きすぎます`) {
		t.Errorf("8 MB API body labelled as a form = %d %s, want 400 too large, as JSON", rec.Code, rec.Body)
	}
	if n := body.read.Load(); n > web.MaxForm+64<<10 {
		t.Errorf("the server read %d bytes of an 8 MB API body, want at most about %d", n, web.MaxForm)
	}
}
