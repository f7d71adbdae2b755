package pairing_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Recorded events: round 1 drawn at random, then Swiss rounds from the
// standings of invented (seeded) results. Each table lists its players with
// their standing before the round.
func TestGoldenEvents(t *testing.T) {
	tests := []struct {
		name      string
		n, rounds int
		seed      uint64
		setup     func(e *event)
	}{
		{name: "event13", n: 13, rounds: 5, seed: 2013},
		{name: "event33", n: 33, rounds: 5, seed: 2033, setup: func(e *event) {
			e.players[10].FixedTable = 1 // wheelchair access at table 1
			e.keepApart = [][2]string{{"p020", "p021"}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEvent(tt.n, tt.seed)
			if tt.setup != nil {
				tt.setup(e)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%d players, round 1 random, then Swiss; fixed tables %v, keep apart %v\n", tt.n, fixed(e.players), e.keepApart)
			for r := range tt.rounds {
				req := e.request(tt.seed + uint64(r))
				pair := pairing.Swiss
				if r == 0 {
					pair = pairing.Random
				}
				round, err := pair(req)
				if err != nil {
					t.Fatal(err)
				}
				checkRound(t, req, round)
				standing := map[string]int{}
				for _, p := range req.Players {
					standing[p.ID] = p.Standing
				}
				fmt.Fprintf(&b, "\nround %d (seed %d): %d repeats, cost %+v\n", r+1, round.Seed, round.Repeats, round.Cost)
				for i, tb := range round.Tables {
					fmt.Fprintf(&b, "  table %d:", i+1)
					for _, id := range tb {
						fmt.Fprintf(&b, " %s(%d)", id, standing[id])
					}
					b.WriteString("\n")
				}
				if len(round.Byes) > 0 {
					fmt.Fprintf(&b, "  byes: %s\n", strings.Join(round.Byes, " "))
				}
				e.play(round)
			}
			golden(t, tt.name, b.String())
		})
	}
}

func fixed(ps []pairing.Player) map[string]int {
	out := map[string]int{}
	for _, p := range ps {
		if p.FixedTable > 0 {
			out[p.ID] = p.FixedTable
		}
	}
	return out
}

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", name, diff)
	}
}
