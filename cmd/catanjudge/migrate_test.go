package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestMigrateToPostgres runs an event on a laptop's SQLite folder, copies
// it with `catanjudge migrate --to` into an empty PostgreSQL database, and
// serves that database from another folder with --database: the rounds and
// results are all there, a judge saves a correction on top, the backup
// button and `catanjudge backup` say to use pg_dump, and a second migrate
// into the same database is refused.
func TestMigrateToPostgres(t *testing.T) {
	ctx := context.Background()
	cluster := tournamenttest.Postgres(t)
	dsn, err := cluster.CreateDatabase(ctx, "migrate_target", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.DropDatabase(context.Background(), "migrate_target") })

	laptop := t.TempDir()
	addr, stop := sitetest.ServeAt(t, laptop, "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの")
	var round roundAPI
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid), nil, 200, &round)
	saveVersion(t, base, tid, round, 0, 8)
	saveVersion(t, base, tid, round, 1, 9)
	var before, standingsBefore json.RawMessage
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid), nil, 200, &before)
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/standings", tid), nil, 200, &standingsBefore)
	stop()

	var stdout, stderr bytes.Buffer
	noenv := func(string) string { return "" }
	if err := run(ctx, []string{"migrate", "--data", laptop, "--to", dsn}, noenv, &stdout, &stderr); err != nil {
		t.Fatalf("catanjudge migrate: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"verified", "tournaments", "audit_entries", "results", "--database"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("catanjudge migrate said:\n%s\nwant it to mention %q", stdout.String(), want)
		}
	}

	// A server of the big event: a folder of its own, the data in PostgreSQL.
	hall := t.TempDir()
	addr, stop = sitetest.ServeAt(t, hall, "127.0.0.1:0", "--database", dsn)
	defer stop()
	base = "http://" + addr
	var after, standingsAfter json.RawMessage
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tid), nil, 200, &after)
	sitetest.APIDo(t, base, "GET", fmt.Sprintf("/api/v1/tournaments/%d/standings", tid), nil, 200, &standingsAfter)
	if string(after) != string(before) || string(standingsAfter) != string(standingsBefore) {
		t.Errorf("round 1 and standings on PostgreSQL:\n%s\n%s\nwant as on the laptop:\n%s\n%s", after, standingsAfter, before, standingsBefore)
	}
	saveVersion(t, base, tid, round, 2, 7)

	// The console's backup button says what to do instead.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.PostForm(base+"/judge/login", url.Values{"name": {tournament.FirstHead}, "password": {sitetest.BrowserPassword}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookie, _, _ := strings.Cut(res.Header.Get("Set-Cookie"), ";")
	for lang, want := range map[string]string{"en": "run pg_dump --format=custom", "ja": "pg_dump で取ります"} {
		req, err := http.NewRequest(http.MethodPost, base+"/judge/backup", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Cookie", cookie)
		req.Header.Set("Origin", base)
		req.Header.Set("Accept-Language", lang)
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), want) || res.Header.Get("Content-Disposition") != "" {
			t.Errorf("POST /judge/backup (%s) on PostgreSQL = %d %s\n%s\nwant 422 saying %q, and no file", lang, res.StatusCode, res.Header.Get("Content-Disposition"), body, want)
		}
	}
	err = run(ctx, []string{"backup", "--data", hall, "--database", dsn, filepath.Join(t.TempDir(), "x.db")}, noenv, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "pg_dump --format=custom") {
		t.Errorf("catanjudge backup --database = %v, want it to say to use pg_dump", err)
	}

	// The database holds an event now: a second migrate is refused.
	err = run(ctx, []string{"migrate", "--data", laptop, "--to", dsn}, noenv, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "not empty") || !strings.Contains(err.Error(), "tournaments: 1 row") {
		t.Errorf("catanjudge migrate into a database with an event = %v, want it refused as not empty", err)
	}
}

// roundAPI is what the tests read of a round through the API.
type roundAPI struct {
	Tables []struct {
		Number  int `json:"number"`
		Players []struct {
			ID int64 `json:"id"`
		} `json:"players"`
		Result *struct {
			Version int `json:"version"`
		} `json:"result"`
	} `json:"tables"`
}

// saveVersion saves table 1's sheet over version as the API would.
func saveVersion(t *testing.T, base string, tid int64, r roundAPI, version, vp int) {
	t.Helper()
	var scores []map[string]any
	for i, p := range r.Tables[0].Players {
		scores = append(scores, map[string]any{"player": p.ID, "vp": (vp + i) % 10})
	}
	sitetest.APIDo(t, base, "PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tid),
		map[string]any{"scores": scores, "version": version, "reason": "recount"}, 200, nil)
}

func TestMigrateCommandRefuses(t *testing.T) {
	noenv := func(string) string { return "" }
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no target", []string{"migrate", "--data", dir}, "usage: catanjudge migrate"},
		{"an SQLite target", []string{"migrate", "--data", dir, "--to", filepath.Join(dir, "copy.db")}, "must be a PostgreSQL URL"},
		{"no database", []string{"migrate", "--data", filepath.Join(dir, "typo"), "--to", "postgres://cj@localhost/cj"}, "no database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tc.args, noenv, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("run(%q) error = %v, want one saying %q", tc.args, err, tc.want)
			}
		})
	}
}
