package auth

import (
	"testing"
	"time"
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
