package design

import "testing"

func TestFieldDesigns(t *testing.T) {
	for _, q := range []int{5, 9, 13, 17, 25, 29, 37, 41, 49, 53, 81, 125, 625, 729} {
		rounds, ok := fieldDesign(q, q)
		if !ok {
			t.Fatalf("fieldDesign(%d) not built", q)
		}
		if len(rounds) != q {
			t.Errorf("fieldDesign(%d) has %d rounds", q, len(rounds))
		}
		if err := Verify(rounds, 3*q+1); err != nil {
			t.Errorf("fieldDesign(%d): %v", q, err)
		}
	}
	for n := 2; n <= 4; n++ {
		rounds := affineDesign(n, 1<<(2*n))
		v := 1 << (2 * n)
		if len(rounds) != (v-1)/3 {
			t.Errorf("affineDesign(%d) has %d rounds", n, len(rounds))
		}
		if err := Verify(rounds, v); err != nil {
			t.Errorf("affineDesign(%d): %v", n, err)
		}
	}
}

// The shipped partial spreads are the most there are, or nearly: 41 lines
// of GF(2)^7 (the most, (2^7 − 8)/3 + 1: Beutelspacher 1975) and 166 of
// GF(2)^9 (of at most 169).
func TestSpreads(t *testing.T) {
	want := map[int]int{7: 41, 9: 166}
	for _, s := range spreadTable {
		rounds := s.Rounds()
		if len(rounds) != want[s.K] {
			t.Errorf("the spread of GF(2)^%d has %d lines, want %d", s.K, len(rounds), want[s.K])
		}
		if err := Verify(rounds, 1<<s.K); err != nil {
			t.Errorf("the spread of GF(2)^%d: %v", s.K, err)
		}
	}
}
