package store_test

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// Group commit keeps each save its own: two judges correct each of twenty
// tables from the same revision at once, and their forty saves are
// committed together, in a few batches (the database's write lock is held
// elsewhere until they have all queued). At each table one correction is
// stored and the other is refused as a conflict, rolled back alone (its
// savepoint) without taking the batch's others with it; each stored one
// has its audit line, and the tournament's version moved once a batch.
func TestBatchedSavesKeepTheirOwnVersionChecks(t *testing.T) {
	if tournamenttest.OnPostgres() {
		t.Skip("the write lock held here is SQLite's")
	}
	ctx := context.Background()
	dsn, err := store.FileDSN(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st := tournamenttest.OpenDSN(t, dsn)
	svc := tournament.NewService(st, tournamenttest.Rulesets(t), tournamenttest.Clock(t0, time.Second))
	const tables = 20
	ev, err := tournamenttest.RecordEvent(ctx, st, svc, 4*tables, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	tid, round := ev.Tournament.ID, ev.Rounds[0]
	sheet := func(table, version, vp int) tournament.ResultInput {
		in := tournament.ResultInput{Version: version, Reason: "ジャッジが終了"}
		if version > 0 {
			in.Reason = "数え直し"
		}
		for i, id := range round.Tables[table-1].Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: vp - i})
		}
		return in
	}
	for table := 1; table <= tables; table++ {
		if _, err := svc.SaveResult(ctx, "山田", tid, 1, table, sheet(table, 0, 8)); err != nil {
			t.Fatal(err)
		}
	}
	before, err := st.Version(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	audit, err := st.AuditLog(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}

	stats := st.CommitStats()

	// Another program holds the write lock while the saves queue.
	other, err := sql.Open("sqlite3", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	holder, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		table, vp int
		err       error
	}
	answers := make(chan answer, 2*tables)
	var wg sync.WaitGroup
	for table := 1; table <= tables; table++ {
		for _, vp := range []int{9, 10} {
			wg.Go(func() {
				judge := map[int]string{9: "山田", 10: "佐藤"}[vp]
				_, err := svc.SaveResult(ctx, judge, tid, 1, table, sheet(table, 1, vp))
				answers <- answer{table, vp, err}
			})
		}
	}
	// The committer holds the first save, waiting for the lock; the
	// others queue behind it.
	for deadline := time.Now().Add(3 * time.Second); store.Queued(st) < 2*tables-1 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	queued := store.Queued(st)
	if _, err := holder.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(answers)

	stored := map[int]int{}
	for a := range answers {
		switch {
		case a.err == nil:
			if v, ok := stored[a.table]; ok {
				t.Errorf("table %d: both corrections from revision 1 were stored (%d and %d)", a.table, v, a.vp)
			}
			stored[a.table] = a.vp
		case errors.As(a.err, new(*tournament.ConflictError)):
		default:
			t.Errorf("table %d: the correction to %d: %v, want stored or a conflict", a.table, a.vp, a.err)
		}
	}
	for table := 1; table <= tables; table++ {
		vp, ok := stored[table]
		if !ok {
			t.Errorf("table %d: neither correction was stored", table)
			continue
		}
		revs, err := svc.Revisions(ctx, tid, 1, table)
		if err != nil {
			t.Fatal(err)
		}
		if len(revs) != 2 || revs[len(revs)-1].Version != 2 {
			t.Errorf("table %d has %d revisions, want the first and one correction", table, len(revs))
			continue
		}
		if got := scoreOf(revs[1], round.Tables[table-1].Players[0]); got != vp {
			t.Errorf("table %d stored %d for its first player, want the acknowledged correction's %d", table, got, vp)
		}
	}
	after, err := st.Version(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	now, err := st.AuditLog(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	commits := after - before
	t.Logf("%d saves queued behind the lock; %d corrections stored in %d commits, %d audit lines", queued+1, len(stored), commits, len(now)-len(audit))
	if len(now)-len(audit) != tables {
		t.Errorf("%d audit lines for %d corrections stored, want one each", len(now)-len(audit), tables)
	}
	if commits < 1 || commits >= tables {
		t.Errorf("%d corrections stored in %d commits: they were not committed together", tables, commits)
	}
	// CommitStats counts the batches that committed a write and the
	// writes they committed, not the refused ones.
	if got := st.CommitStats(); got.Writes-stats.Writes != int64(len(stored)) || got.Batches-stats.Batches != commits {
		t.Errorf("CommitStats moved by %d writes in %d batches, want the %d stored in %d commits",
			got.Writes-stats.Writes, got.Batches-stats.Batches, len(stored), commits)
	}
}

// scoreOf is player id's VP in r.
func scoreOf(r tournament.Result, id int64) int {
	for _, s := range r.Scores {
		if s.PlayerID == id {
			return s.VP
		}
	}
	return -1
}
