package pairing

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// The table of best-known schedules covers 9 to 100 players over 2 to 8
// rounds under both priorities, in the order lookup searches; every row's
// repeats are at least its bound; docs/schedules.md says what the data
// says; and a sample of rows, the sizes among them, drawn again
// with their seed and budget gives the same repeats and bound.
func TestBestKnownTable(t *testing.T) {
	want := 0
	for n := 9; n <= 100; n++ {
		for r := 2; r <= 8; r++ {
			for _, pr := range []referee.SchedulePriority{referee.SpreadFirst, referee.RepeatsFirst} {
				if want >= len(bestKnown) {
					t.Fatalf("the table ends at row %d, before %d players over %d rounds", want, n, r)
				}
				row := bestKnown[want]
				if row.players != n || row.rounds != r || row.priority != pr {
					t.Fatalf("row %d is %d x %d %s, want %d x %d %s", want, row.players, row.rounds, row.priority, n, r, pr)
				}
				if row.repeats < row.bound.Repeats {
					t.Errorf("%d x %d %s: %d repeats under its bound %v", n, r, pr, row.repeats, row.bound)
				}
				if got, ok := lookup(n, r, pr); !ok || got != row {
					t.Errorf("lookup(%d, %d, %s) = %+v, %v; want %+v", n, r, pr, got, ok, row)
				}
				want++
			}
		}
	}
	if len(bestKnown) != want {
		t.Errorf("the table has %d rows, want %d", len(bestKnown), want)
	}

	docs := docsTable(t)
	for _, row := range bestKnown {
		if got, want := docs[[3]any{row.players, row.rounds, row.priority}], fmt.Sprintf("%d %d %s %d", row.repeats, row.bound.Repeats, row.bound.By, row.seed); got != want {
			t.Errorf("docs/schedules.md: %d x %d %s first is %q, the data %q", row.players, row.rounds, row.priority, got, want)
		}
	}

	// The sizes in the table's range, and every 61st row.
	sample := map[[2]int]bool{{13, 4}: true, {20, 6}: true, {16, 5}: true, {24, 7}: true, {9, 5}: true, {10, 3}: true}
	for i, row := range bestKnown {
		if !sample[[2]int{row.players, row.rounds}] && i%61 != 0 {
			continue
		}
		var ids []Player
		for k := range row.players {
			ids = append(ids, Player{ID: fmt.Sprintf("p%03d", k)})
		}
		s, err := DrawSchedule(Request{Players: ids, Seed: row.seed, Priority: row.priority, MaxEvals: row.evals}, row.rounds)
		if err != nil {
			t.Fatal(err)
		}
		if s.Repeats != row.repeats || s.LowerBound != row.bound {
			t.Errorf("%d x %d %s first, seed %d: drew %d repeats, bound %v; the table has %d, %v (go run ./cmd/schedules)",
				row.players, row.rounds, row.priority, row.seed, s.Repeats, s.LowerBound, row.repeats, row.bound)
		}
		if wantStatus := map[bool]Status{true: Optimal, false: BestKnown}[row.repeats <= row.bound.Repeats]; s.Status != wantStatus {
			t.Errorf("%d x %d %s first: status %s, want %s", row.players, row.rounds, row.priority, s.Status, wantStatus)
		}
	}
}

// docsTable reads docs/schedules.md's rows: by players, rounds and
// priority, "repeats bound reason seed".
func docsTable(t *testing.T) map[[3]any]string {
	t.Helper()
	f, err := os.Open("../../docs/schedules.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[[3]any]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var n, r, sr, sb, ss, rr, rb, rs int
		var sBy, sStatus, rBy, rStatus, budget string
		line := strings.NewReplacer("|", " ").Replace(sc.Text())
		if k, _ := fmt.Sscan(line, &n, &r, &sr, &sb, &sBy, &sStatus, &ss, &rr, &rb, &rBy, &rStatus, &rs, &budget); k != 13 {
			continue
		}
		out[[3]any{n, r, referee.SpreadFirst}] = fmt.Sprintf("%d %d %s %d", sr, sb, sBy, ss)
		out[[3]any{n, r, referee.RepeatsFirst}] = fmt.Sprintf("%d %d %s %d", rr, rb, rBy, rs)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
