package design

import (
	"fmt"
	"testing"
)

// Verify refuses every way a schedule can go wrong.
func TestVerifyRefuses(t *testing.T) {
	good := Round{{0, 1, 2, 3}, {4, 5, 6, 7}}
	tests := []struct {
		name   string
		rounds []Round
		v      int
	}{
		{"not tables of 4", []Round{good}, 10},
		{"a table too few", []Round{{{0, 1, 2, 3}}}, 8},
		{"a player twice", []Round{{{0, 1, 2, 3}, {3, 4, 5, 6}}}, 8},
		{"a player not in the event", []Round{{{0, 1, 2, 3}, {4, 5, 6, 8}}}, 8},
		{"a pair meets again", []Round{good, {{0, 1, 4, 5}, {2, 3, 6, 7}}}, 8},
	}
	for _, tt := range tests {
		if err := Verify(tt.rounds, tt.v); err == nil {
			t.Errorf("%s: Verify = nil, want an error", tt.name)
		}
	}
	if err := Verify([]Round{good, {}}, 8); err == nil {
		t.Error("an empty round: Verify = nil, want an error")
	}
	if err := Verify([]Round{good}, 8); err != nil {
		t.Errorf("Verify(one round of 8) = %v", err)
	}
}

// Every size of tables of 4 from 16 to 64 but 20 is built up to its limit
// of ⌊(v−1)/3⌋ rounds, and every schedule Build gives, up to the most
// players a pairing takes and the most rounds a schedule has (100), is one
// in which nobody meets twice.
func TestBuild(t *testing.T) {
	for v := 16; v <= 64; v += 4 {
		if v == 20 {
			continue
		}
		rounds, src := Build(v, v)
		if len(rounds) != (v-1)/3 {
			t.Errorf("Build(%d) gives %d rounds (%s), want %d", v, len(rounds), src, (v-1)/3)
		}
	}
	// Past 64: 100, a resolvable 2-(100,4,1) design though 33 is no prime
	// power (differences over Z_33, cmd/designgen's rotated shape).
	if rounds, src := Build(100, 100); len(rounds) != 33 || src != "differences over Z_33" {
		t.Errorf("Build(100) gives %d rounds (%s), want 33 from differences over Z_33", len(rounds), src)
	}
	reach := map[int]int{}
	for v := 16; v <= 2000; v += 4 {
		rounds, src := Build(v, 100)
		if err := Verify(rounds, v); len(rounds) > 0 && err != nil {
			t.Errorf("Build(%d) (%s): %v", v, src, err)
		}
		if len(rounds) > Limit(v) {
			t.Errorf("Build(%d) gives %d rounds, beyond the limit %d", v, len(rounds), Limit(v))
		}
		if len(rounds) == min(Limit(v), 100) {
			reach[v] = len(rounds)
		}
	}
	t.Logf("sizes built to their limit: %v", fmt.Sprint(reach))
}
