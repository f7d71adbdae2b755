package webtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// Do sends one request with body (as JSON) and the header pairs straight
// to h.
func Do(h http.Handler, method, target, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// NewRefereeServer is the site for the referee API's tests, which
// call no use case.
func NewRefereeServer(t testing.TB) http.Handler {
	t.Helper()
	return New(t).Handler
}

// Serve sends one request straight to the handler from addr (host:port).
func Serve(h http.Handler, req *http.Request, addr string) *httptest.ResponseRecorder {
	if addr != "" {
		req.RemoteAddr = addr
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// APICall sends one JSON request to the test server with the API token,
// safe to use from many goroutines: it returns errors instead of failing.
func APICall(client *http.Client, base, method, path string, body any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer test-token")
	req.Header.Set("Accept-Language", "en")
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, data, err
}

// Itoa formats an ID for a path.
func Itoa(n int64) string { return strconv.FormatInt(n, 10) }
