package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// TestBackupWhileSaving copies the database three times while four judges
// keep correcting results. Each copy opens with Open and holds every save
// acknowledged before the copy began, and what it holds is a prefix of each
// table's final history with its audit lines: a snapshot, never half a save.
func TestBackupWhileSaving(t *testing.T) {
	ctx := context.Background()
	f := newFixtureOn(t, openSQLite(t), 16, 4, 4, 4, 4)
	dir := t.TempDir()

	// acked[table] is the number of revisions whose save returned.
	var acked [4]atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errc := make(chan error, len(f.round.Tables))
	for ti, table := range f.round.Tables {
		wg.Go(func() {
			for v := 0; ; v++ {
				select {
				case <-stop:
					return
				default:
				}
				r := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "judge-a", At: t0, Reason: "recount"}
				for i, p := range table.Players {
					r.Scores = append(r.Scores, tournament.Score{PlayerID: p, VP: (v + i) % 10})
				}
				if err := f.s.SaveResult(ctx, table.ID, v, &r, change("result.correct")); err != nil {
					errc <- fmt.Errorf("table %d version %d: %w", table.Number, v+1, err)
					return
				}
				acked[ti].Store(int64(v + 1))
				// A pause lets the other tables' writers in: SQLite's busy
				// wait does not queue, so one busy loop would starve them.
				time.Sleep(2 * time.Millisecond)
			}
		})
	}
	type copyAt struct {
		path  string
		acked [4]int64 // acknowledged revisions per table when the copy began
	}
	var copies []copyAt
	for i := range 3 {
		time.Sleep(30 * time.Millisecond)
		c := copyAt{path: filepath.Join(dir, fmt.Sprintf("copy-%d.db", i))}
		for ti := range acked {
			c.acked[ti] = acked[ti].Load()
		}
		if err := f.s.Backup(ctx, c.path); err != nil {
			t.Fatalf("Backup(%s) while saving: %v", c.path, err)
		}
		copies = append(copies, c)
	}
	close(stop)
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}

	final := map[int64][]tournament.Result{}
	for _, table := range f.round.Tables {
		revs, err := f.s.Revisions(ctx, table.ID)
		if err != nil {
			t.Fatal(err)
		}
		final[table.ID] = revs
	}
	last := copyAt{path: filepath.Join(dir, "after.db")}
	for ti := range acked {
		last.acked[ti] = acked[ti].Load()
	}
	if err := f.s.Backup(ctx, last.path); err != nil {
		t.Fatal(err)
	}
	copies = append(copies, last)

	for _, c := range copies {
		info, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("backup %s mode = %o, want readable by its owner only", c.path, perm)
		}
		t.Logf("%s: began with %v revisions acknowledged", filepath.Base(c.path), c.acked)
		cp, err := store.Open(ctx, c.path)
		if err != nil {
			t.Fatalf("Open(backup %s): %v", c.path, err)
		}
		log, err := cp.AuditLog(ctx, f.t.ID)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for ti, table := range f.round.Tables {
			revs, err := cp.Revisions(ctx, table.ID)
			if err != nil {
				t.Fatal(err)
			}
			total += len(revs)
			if int64(len(revs)) < c.acked[ti] {
				t.Errorf("%s: table %d has %d revisions, want at least the %d acknowledged before the copy",
					filepath.Base(c.path), table.Number, len(revs), c.acked[ti])
			}
			want := final[table.ID][:min(len(revs), len(final[table.ID]))]
			if diff := cmp.Diff(want, revs); diff != "" {
				t.Errorf("%s: table %d revisions are not a prefix of the history (-want +got):\n%s", filepath.Base(c.path), table.Number, diff)
			}
		}
		if n := countAction(log, "result.correct"); n != total {
			t.Errorf("%s: %d result audit lines for %d revisions, want one each", filepath.Base(c.path), n, total)
		}
		cp.Close()
	}
	for ti, table := range f.round.Tables {
		if got := len(final[table.ID]); int64(got) != last.acked[ti] || got == 0 {
			t.Errorf("table %d: %d revisions stored, %d acknowledged", table.Number, got, last.acked[ti])
		}
	}
}

func TestBackupRefusesExistingFile(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t)
	path := filepath.Join(t.TempDir(), "keep.db")
	if err := os.WriteFile(path, []byte("yesterday's backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, path); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("Backup(existing file) error = %v, want ErrConflict", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "yesterday's backup" {
		t.Errorf("Backup overwrote an existing file: now %q", got)
	}
	if err := s.Backup(ctx, filepath.Join(t.TempDir(), "no", "such", "folder.db")); err == nil {
		t.Errorf("Backup(into a missing folder) succeeded, want an error")
	}
}

// TestDatabaseFilesPrivate checks the data folder and the database files
// are their owner's only, even under a umask that hides nothing.
func TestDatabaseFilesPrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	ctx := context.Background()

	dir := filepath.Join(t.TempDir(), "data")
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetSetting(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	wantPrivate := func(path string, want os.FileMode) {
		t.Helper()
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm != want {
			t.Errorf("%s mode = %o, want %o", filepath.Base(path), perm, want)
		}
	}
	wantPrivate(dir, 0o700)
	db := filepath.Join(dir, "catanjudge.db")
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		wantPrivate(p, 0o600)
	}
	s.Close()

	// A database an earlier version left world-readable is made private.
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := store.FileDSN(dir); err != nil {
		t.Fatal(err)
	}
	wantPrivate(db, 0o600)
}
