package auth

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

func TestLoginLimiterRefills(t *testing.T) {
	l := newLoginLimiter(12*time.Second, 5)
	now := time.Date(2025, 11, 22, 10, 0, 0, 0, time.UTC)
	for i := range 5 {
		if !l.allow("10.0.0.1", now) {
			t.Fatalf("attempt %d refused, want allowed", i+1)
		}
	}
	if l.allow("10.0.0.1", now) {
		t.Fatalf("6th attempt at once allowed, want refused")
	}
	if !l.allow("10.0.0.2", now) {
		t.Errorf("another address refused, want allowed")
	}
	if !l.allow("10.0.0.1", now.Add(12*time.Second)) {
		t.Errorf("attempt 12s later refused, want allowed")
	}
}

// Behind a trusted reverse proxy the limits count the client its
// X-Forwarded-For names (the proxy's own last entry, not one the client
// put first); from anyone else the header is ignored.
func TestClientAddrBehindProxy(t *testing.T) {
	tests := []struct {
		name    string
		trusted []string
		peer    string
		xff     string
		want    string
	}{
		{"no proxy trusted", nil, "10.0.0.2:5000", "203.0.113.9", "10.0.0.2"},
		{"trusted proxy", []string{"10.0.0.0/24"}, "10.0.0.2:5000", "203.0.113.9", "203.0.113.9"},
		{"forged first entry", []string{"10.0.0.2"}, "10.0.0.2:5000", "198.51.100.1, 203.0.113.9", "203.0.113.9"},
		{"untrusted peer", []string{"10.0.0.2"}, "10.0.0.3:5000", "203.0.113.9", "10.0.0.3"},
		{"IPv6 client", []string{"10.0.0.2"}, "10.0.0.2:5000", "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, e := gin.CreateTestContext(httptest.NewRecorder())
			if err := e.SetTrustedProxies(tt.trusted); err != nil {
				t.Fatal(err)
			}
			e.RemoteIPHeaders = []string{"X-Forwarded-For"}
			c.Request = httptest.NewRequest("GET", "/", nil)
			c.Request.RemoteAddr = tt.peer
			c.Request.Header.Set("X-Forwarded-For", tt.xff)
			if got := ClientAddr(c); got != tt.want {
				t.Errorf("ClientAddr(from %s, X-Forwarded-For %q) = %s, want %s", tt.peer, tt.xff, got, tt.want)
			}
		})
	}
}
