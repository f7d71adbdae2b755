package pairing_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// verifySchedule checks, without trusting the engine's counts, that every
// round of s seats each player once at tables of 4 (and of 3 where Sizes
// says so) and that nobody meets anyone twice; it returns the repeats it
// counted.
func verifySchedule(t *testing.T, req pairing.Request, s pairing.Schedule) int {
	t.Helper()
	var history [][]string
	for _, r := range s.Rounds {
		checkRound(t, pairing.Request{Players: req.Players, History: history}, r)
		history = append(history, r.Tables...)
	}
	met := map[string]int{}
	repeats := 0
	for _, tb := range history {
		for i, a := range tb {
			for _, b := range tb[i+1:] {
				k := min(a, b) + "," + max(a, b)
				if met[k]++; met[k] > 1 {
					repeats++
				}
			}
		}
	}
	if repeats != s.Repeats {
		t.Errorf("Repeats = %d, counted %d", s.Repeats, repeats)
	}
	return repeats
}

// builtPast64 are the sizes past 64 built to their limit within a
// schedule's bounds: 72, 84, 96, 100 and 108 from differences over Z_23,
// Z_27, Z_31, Z_33 and Z_35 (the rotated shape, cmd/designgen; 100 a
// resolvable 2-(100,4,1) design), 76, 88 and 112 from the fields GF(25),
// GF(29) and GF(37).
var builtPast64 = []int{72, 76, 84, 88, 96, 100, 108, 112}

// Every size of tables of 4 from 16 to 64 but 20, and every larger one a design builds within a schedule's bounds (100 rounds, 5,000
// seats), is drawn at its limit of ⌊(N−1)/3⌋ rounds with nobody meeting
// twice, whatever the seed, and says so: lower bound 0, optimal.
func TestDesignsReachTheLimit(t *testing.T) {
	var sizes []int
	for n := 16; n <= 64; n += 4 {
		if n != 20 {
			sizes = append(sizes, n)
		}
	}
	for n := 68; n*((n-1)/3) <= 5000; n += 4 {
		if rounds, _ := design.Build(n, n); len(rounds) == (n-1)/3 {
			sizes = append(sizes, n)
		}
	}
	// The sizes past 64 the package builds: one lost would shrink the
	// list above without failing.
	for _, n := range builtPast64 {
		if !slices.Contains(sizes, n) {
			t.Errorf("%d players are not built to their limit of %d rounds", n, (n-1)/3)
		}
	}
	for _, n := range sizes {
		rounds := (n - 1) / 3
		for seed := uint64(1); seed <= 3; seed++ {
			req := pairing.Request{Players: players(n), Seed: seed}
			s, err := pairing.DrawSchedule(req, rounds)
			if err != nil {
				t.Fatalf("%d players: %v", n, err)
			}
			if got := verifySchedule(t, req, s); got != 0 || s.LowerBound.Repeats != 0 || s.Status != pairing.Optimal {
				t.Errorf("%d players over %d rounds, seed %d: %d repeats, bound %v, %s; want 0, optimal", n, rounds, seed, got, s.LowerBound, s.Status)
			}
		}
	}
	t.Logf("built to the limit: %v", sizes)
}

// 32 players over 10 rounds, the social golfer problem's 8-4-10, meet
// nobody twice for every seed from 1 to 20, each seed a different draw.
func TestSocialGolfer32x10(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		req := pairing.Request{Players: players(32), Seed: seed}
		s, err := pairing.DrawSchedule(req, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := verifySchedule(t, req, s); got != 0 {
			t.Errorf("seed %d: %d repeats, want 0", seed, got)
		}
		seen[fmt.Sprint(s.Rounds[0].Tables)] = true
	}
	if len(seen) < 20 {
		t.Errorf("20 seeds drew %d different first rounds, want 20: the seed relabels", len(seen))
	}
}

// Fewer rounds than the limit are some of the design's rounds: the same
// seed draws 28 players over 4 rounds at tables that its 9 rounds hold.
func TestFewerRoundsAreTheDesigns(t *testing.T) {
	key := func(tb []string) string {
		tb = slices.Clone(tb)
		slices.Sort(tb)
		return strings.Join(tb, ",")
	}
	for seed := uint64(1); seed <= 3; seed++ {
		full, err := pairing.DrawSchedule(pairing.Request{Players: players(28), Seed: seed}, 9)
		if err != nil {
			t.Fatal(err)
		}
		rounds := map[string]bool{}
		for _, r := range full.Rounds {
			var tables []string
			for _, tb := range r.Tables {
				tables = append(tables, key(tb))
			}
			slices.Sort(tables)
			rounds[strings.Join(tables, ";")] = true
		}
		part, err := pairing.DrawSchedule(pairing.Request{Players: players(28), Seed: seed}, 4)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range part.Rounds {
			var tables []string
			for _, tb := range r.Tables {
				tables = append(tables, key(tb))
			}
			slices.Sort(tables)
			if !rounds[strings.Join(tables, ";")] {
				t.Errorf("seed %d: round %d of 4 is none of the 9 rounds' draw", seed, i+1)
			}
		}
	}
}

// Sizes 1 to 3 below a design's take its points that never share a table
// as the empty seats: 15 players over 5 rounds, 23 over 7, 31 over 10,
// 33 over 11, 21 over 7, 43 over 14, 55 and 54 over 18 meet nobody twice,
// and under spread first everyone sits at a 3-player table as often as
// anyone else, within one.
func TestDesignsWithThreePlayerTables(t *testing.T) {
	for _, tt := range []struct{ n, rounds int }{{15, 5}, {23, 7}, {31, 10}, {33, 11}, {21, 7}, {27, 9}, {39, 13}, {43, 14}, {55, 18}, {54, 18}, {63, 21}} {
		req := pairing.Request{Players: players(tt.n), Seed: 5}
		s, err := pairing.DrawSchedule(req, tt.rounds)
		if err != nil {
			t.Fatal(err)
		}
		if got := verifySchedule(t, req, s); got != 0 || s.Status != pairing.Optimal {
			t.Errorf("%d players over %d rounds: %d repeats, %s; want 0, optimal", tt.n, tt.rounds, got, s.Status)
		}
		var history [][]string
		for _, r := range s.Rounds {
			history = append(history, r.Tables...)
		}
		three, _ := exposure(history)
		if d := spread(req.Players, three); d > 1 {
			t.Errorf("%d players over %d rounds: 3-player tables spread %d, want at most 1", tt.n, tt.rounds, d)
		}
	}
}

// The lower bound counts: pairs seated beyond those that can meet, players
// meeting more opponents than there are; and 8, 12 and 20 players cannot
// reach ⌊(N−1)/3⌋ rounds at zero.
func TestLowerBound(t *testing.T) {
	tests := []struct {
		n, rounds int
		priority  referee.SchedulePriority
		want      pairing.Bound
	}{
		{16, 5, referee.SpreadFirst, pairing.Bound{Repeats: 0, By: pairing.ByCounting}},
		{16, 6, referee.SpreadFirst, pairing.Bound{Repeats: 24, By: pairing.ByCounting}}, // 144 pairs seated, 120 to meet
		{16, 8, referee.SpreadFirst, pairing.Bound{Repeats: 72, By: pairing.ByCounting}},
		{9, 5, referee.SpreadFirst, pairing.Bound{Repeats: 9, By: pairing.ByCounting}}, // each meets 10 of 8
		{8, 2, referee.SpreadFirst, pairing.Bound{Repeats: 1, By: pairing.ByDesign}},
		{12, 2, referee.SpreadFirst, pairing.Bound{Repeats: 1, By: pairing.ByDesign}},
		{20, 6, referee.SpreadFirst, pairing.Bound{Repeats: 1, By: pairing.ByDesign}},
		{20, 5, referee.SpreadFirst, pairing.Bound{Repeats: 0, By: pairing.ByCounting}},
		{13, 4, referee.SpreadFirst, pairing.Bound{Repeats: 0, By: pairing.ByCounting}},
	}
	for _, tt := range tests {
		s, err := pairing.DrawSchedule(pairing.Request{Players: players(tt.n), Seed: 1, MaxEvals: 100_000, Priority: tt.priority}, tt.rounds)
		if err != nil {
			t.Fatal(err)
		}
		if s.LowerBound != tt.want || s.Repeats < s.LowerBound.Repeats {
			t.Errorf("%d x %d: bound %v with %d repeats, want %v", tt.n, tt.rounds, s.LowerBound, s.Repeats, tt.want)
		}
	}
}

// The priority decides at 13 players over 4 rounds: spread first (also
// when none is given) shares the 3-player tables out within one and meets
// more again than repeats first, which may leave the tables less even.
func TestSchedulePriorities(t *testing.T) {
	draw := func(p referee.SchedulePriority) pairing.Schedule {
		s, err := pairing.DrawSchedule(pairing.Request{Players: players(13), Seed: 1, Priority: p}, 4)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sp, rf, none := draw(referee.SpreadFirst), draw(referee.RepeatsFirst), draw("")
	if sp.Priority != referee.SpreadFirst || rf.Priority != referee.RepeatsFirst || none.Priority != referee.SpreadFirst {
		t.Errorf("priorities %q and %q, want spread and repeats", sp.Priority, rf.Priority)
	}
	if rf.Repeats >= sp.Repeats {
		t.Errorf("repeats first: %d repeats, spread first %d; want fewer", rf.Repeats, sp.Repeats)
	}
	var history [][]string
	for _, r := range sp.Rounds {
		history = append(history, r.Tables...)
	}
	three, _ := exposure(history)
	if d := spread(players(13), three); d > 1 {
		t.Errorf("spread first: 3-player tables spread %d, want at most 1", d)
	}
}
