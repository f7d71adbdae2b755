package tournament

import "testing"

func TestSafeSeedFitsJavaScript(t *testing.T) {
	for range 1000 {
		if s := NewSeed(); s >= 1<<53 {
			t.Fatalf("NewSeed() = %d, want below 2^53", s)
		}
	}
}
