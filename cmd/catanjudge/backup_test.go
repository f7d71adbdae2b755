package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// TestBackupCommand runs `catanjudge backup` against the data folder of a
// running server while a judge keeps correcting a result, restores the
// copy and finds every result saved before the backup began, each table's
// history a prefix of the live one.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	addr, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "加藤/かとう", "木村/きむら", "久保/くぼ")
	var round struct {
		Tables []struct {
			Players []struct {
				ID int64 `json:"id"`
			} `json:"players"`
		} `json:"tables"`
	}
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid), nil, 200, &round)

	// A judge corrects table 1 over and over; table 2 is saved once.
	save := func(table, version, vp int) error {
		var scores []map[string]any
		for i, p := range round.Tables[table-1].Players {
			scores = append(scores, map[string]any{"player": p.ID, "vp": (vp + i) % 10})
		}
		status, body, err := crashClient(http.DefaultClient, "PUT", fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/1/tables/%d/result", base, tid, table),
			map[string]any{"scores": scores, "version": version, "reason": "recount"})
		if err == nil && status != http.StatusOK {
			err = fmt.Errorf("PUT table %d version %d = %d %s", table, version, status, body)
		}
		return err
	}
	if err := save(2, 0, 4); err != nil {
		t.Fatal(err)
	}
	var acked atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	var saveErr error
	wg.Go(func() {
		for v := 0; ; v++ {
			select {
			case <-done:
				return
			default:
			}
			if saveErr = save(1, v, v); saveErr != nil {
				return
			}
			acked.Store(int64(v + 1))
		}
	})
	time.Sleep(100 * time.Millisecond)
	before := acked.Load()
	out := filepath.Join(t.TempDir(), "backup.db")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"backup", "--data", dir, out}, func(string) string { return "" }, &stdout, &stderr)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatalf("catanjudge backup: %v\n%s", err, stderr.String())
	}
	if saveErr != nil {
		t.Fatal(saveErr)
	}
	if !strings.Contains(stdout.String(), out) {
		t.Errorf("catanjudge backup said %q, want the backup file named", stdout.String())
	}
	stop()

	ctx := context.Background()
	restored, err := store.Open(ctx, out)
	if err != nil {
		t.Fatalf("open the backup: %v", err)
	}
	defer restored.Close()
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	live, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	r, err := live.Round(ctx, tid, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, table := range r.Tables {
		want, err := live.Revisions(ctx, table.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := restored.Revisions(ctx, table.ID)
		if err != nil {
			t.Fatal(err)
		}
		least := map[int]int{0: int(before), 1: 1}[i]
		if len(got) < least || len(got) > len(want) {
			t.Fatalf("table %d: the backup has %d revisions, want from %d (saved before it began) to %d", table.Number, len(got), least, len(want))
		}
		if diff := cmp.Diff(want[:len(got)], got); diff != "" {
			t.Errorf("table %d: the backup's history is not the live one's start (-live +backup):\n%s", table.Number, diff)
		}
		t.Logf("table %d: %d revisions before the backup, %d in it, %d at the end", table.Number, least, len(got), len(want))
	}
}

func TestBackupCommandRefuses(t *testing.T) {
	dir := t.TempDir()
	// A server's first start makes the database.
	_, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	stop()
	existing := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	noenv := func(string) string { return "" }
	typo := filepath.Join(t.TempDir(), "typo")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"backup", "--data", dir}, "usage: catanjudge backup"},
		{"two files", []string{"backup", "--data", dir, "a.db", "b.db"}, "usage: catanjudge backup"},
		{"existing file", []string{"backup", "--data", dir, existing}, "already exists"},
		{"no database", []string{"backup", "--data", typo, filepath.Join(t.TempDir(), "x.db")}, "no database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tc.args, noenv, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run(%q) error = %v, want one saying %q", tc.args, err, tc.want)
			}
		})
	}
	if data, _ := os.ReadFile(existing); string(data) != "keep me" {
		t.Errorf("backup overwrote an existing file: %q", data)
	}
	if _, err := os.Stat(typo); err == nil {
		t.Errorf("backup of a mistyped folder created it")
	}
}
