package store_test

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// rowsRead counts, statement by statement, what a store reads from each
// of its tables: every statement it runs on any of its connections, and
// the rows each SELECT returned, by the table it reads from.
type rowsRead struct {
	mu    sync.Mutex
	stmts int
	rows  map[string]int64
}

// readFrom is the table a statement reads from: the first after FROM.
var readFrom = regexp.MustCompile(`(?i)\bFROM\s+["` + "`" + `]?(\w+)`)

func (r *rowsRead) trace(sql string, rows int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stmts++
	if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(sql)), "SELECT") {
		return
	}
	table := "?"
	if m := readFrom.FindStringSubmatch(sql); m != nil {
		table = m[1]
	}
	if r.rows == nil {
		r.rows = map[string]int64{}
	}
	r.rows[table] += max(rows, 0)
}

// take returns what was counted since the last take: the statements run
// and the rows read by table.
func (r *rowsRead) take() (int, map[string]int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, rows := r.stmts, r.rows
	r.stmts, r.rows = 0, nil
	return n, rows
}

// maxSaveRows is the most rows a table's score save may read, whatever
// the event's size: the table's row with its round's and tournament's,
// its seats and their players, its moves recorded (a count), its
// revisions and, for a correction, the scores of the one it corrects.
const maxSaveRows = 20

// maxTableRows is what the pages may read beyond the snapshot of the
// event, once per change: one table's revisions, scores and rulings (the
// score page's), over the rows of the event.
const maxTableRows = 12

// A table's score sheet saved reads, row by row, the same from the store
// in a shop's 40-player event as in a 1,000-player one of eight rounds
// (its own table, not the event), in a bounded number of statements; and
// the reads after it, as the pages make them (the round, the standings,
// the players, the live view, the table's revisions and rulings), read
// the store once for that change: each row of the event at most once,
// however many pages ask, and nothing more when they ask again.
func TestSaveReadsItsTableAndPagesReadEachRowOnce(t *testing.T) {
	type saved struct {
		stmts int
		rows  map[string]int64
	}
	got := map[int][]saved{}
	for _, players := range []int{40, 1000} {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			ctx := context.Background()
			var count rowsRead
			st := tournamenttest.NewStore(t, store.WithTrace(count.trace))
			svc := tournament.NewService(st, tournamenttest.Rulesets(t), tournamenttest.Clock(t0, time.Second))
			ev, err := tournamenttest.RecordEvent(ctx, st, svc, players, 8, 7)
			if err != nil {
				t.Fatal(err)
			}
			tid, round := ev.Tournament.ID, ev.Rounds[7]
			sheet := func(table, version int) tournament.ResultInput {
				in := tournament.ResultInput{Version: version, Reason: "ジャッジが終了"}
				for i, id := range round.Tables[table-1].Players {
					in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: 8 - i - version})
				}
				return in
			}
			// A first save at table 1 and table 2, then a correction at
			// table 1: each counted alone.
			for _, s := range []struct{ table, version int }{{1, 0}, {2, 0}, {1, 1}} {
				count.take()
				if _, err := svc.SaveResult(ctx, "山田", tid, 8, s.table, sheet(s.table, s.version)); err != nil {
					t.Fatal(err)
				}
				n, rows := count.take()
				var total int64
				for _, r := range rows {
					total += r
				}
				t.Logf("%d players: the save at table %d (version %d) ran %d statements and read %v", players, s.table, s.version, n, rows)
				if total > maxSaveRows {
					t.Errorf("the save at table %d read %d rows (%v), want at most %d", s.table, total, rows, maxSaveRows)
				}
				for _, table := range []string{"players", "results", "result_scores", "round_tables", "rounds"} {
					if rows[table] > 4 {
						t.Errorf("the save at table %d read %d rows of %s: more than its table's", s.table, rows[table], table)
					}
				}
				got[players] = append(got[players], saved{n, rows})
			}

			// The pages after the change, each asked three times.
			reads := func() {
				t.Helper()
				for range 3 {
					if _, err := svc.RoundView(ctx, tid, 8); err != nil {
						t.Fatal(err)
					}
					if _, err := svc.Standings(ctx, tid); err != nil {
						t.Fatal(err)
					}
					snap, err := svc.Snapshot(ctx, tid)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := snap.Results(); err != nil {
						t.Fatal(err)
					}
					if _, err := snap.Live(t0); err != nil {
						t.Fatal(err)
					}
					_ = snap.Players()
					if _, err := svc.Revisions(ctx, tid, 8, 1); err != nil {
						t.Fatal(err)
					}
					if _, err := svc.Rulings(ctx, tid, 8, 1); err != nil {
						t.Fatal(err)
					}
				}
			}
			count.take()
			reads()
			n, rows := count.take()
			t.Logf("%d players: the pages after the change ran %d statements and read %v", players, n, rows)
			var beyond int64
			for _, table := range slices.Sorted(maps.Keys(rows)) {
				have, err := store.RowCount(st, table)
				if err != nil {
					t.Fatalf("rows of %s: %v", table, err)
				}
				if rows[table] > have+4 {
					t.Errorf("the pages after one change read %d rows of %s, which holds %d: rows more than once", rows[table], table, have)
				}
				beyond += max(rows[table]-have, 0)
			}
			if beyond > maxTableRows {
				t.Errorf("the pages after one change read %d rows beyond the event's, want at most %d (one table's)", beyond, maxTableRows)
			}
			got[players] = append(got[players], saved{rows: map[string]int64{"beyond the event": beyond}})
			if rows["players"] < int64(players) {
				t.Errorf("the pages read %d players of %d: the count missed the snapshot's read", rows["players"], players)
			}
			count.take()
			reads()
			if n, rows := count.take(); n != 0 {
				t.Errorf("the pages asked again, with no change between, ran %d statements (%v), want none", n, rows)
			}
		})
	}
	if fmt.Sprint(got[40]) != fmt.Sprint(got[1000]) {
		t.Errorf("a save's reads, or the pages' beyond the event, differ with the event's size:\n 40 players    %v\n 1,000 players %v", got[40], got[1000])
	}
}
