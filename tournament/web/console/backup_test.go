package console_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestBackupDownload presses the console's backup button and restores the
// download: every result revision is in it.
func TestBackupDownload(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	env.TimeUp(tr.ID, 1)
	for _, table := range r.Tables {
		for v := range 2 {
			in := tournament.ResultInput{Version: v}
			if v > 0 {
				in.Reason = "recount"
			}
			for i, p := range table.Players {
				in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: 3 + i + v})
			}
			if _, err := env.Service.SaveResult(env.Ctx, "setup", tr.ID, 1, table.Number, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	b := env.Browser()
	b.Login("山田")
	webtest.MustSee(t, "GET /judge", b.Get("/judge"), http.StatusOK, `action="/judge/backup"`)

	res := b.Post("/judge/backup", nil, "Origin", env.Server.URL, "Sec-Fetch-Site", "same-origin")
	if res.Status != http.StatusOK {
		t.Fatalf("POST /judge/backup = %d, want 200\n%s", res.Status, res.Body)
	}
	disposition := res.Header.Get("Content-Disposition")
	if !regexp.MustCompile(`^attachment; filename="catanjudge-\d{8}-\d{6}\.db"$`).MatchString(disposition) {
		t.Errorf("Content-Disposition = %q, want an attachment named catanjudge-YYYYMMDD-HHMMSS.db", disposition)
	}
	if got := res.Header.Get("Content-Type"); got != "application/vnd.sqlite3" {
		t.Errorf("Content-Type = %q, want application/vnd.sqlite3", got)
	}
	path := filepath.Join(t.TempDir(), "restored.db")
	if err := os.WriteFile(path, []byte(res.Body), 0o600); err != nil {
		t.Fatal(err)
	}
	restored, err := store.Open(env.Ctx, path)
	if err != nil {
		t.Fatalf("open the downloaded backup: %v", err)
	}
	defer restored.Close()
	live, err := env.Store.Round(env.Ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range live.Tables {
		want, err := env.Store.Revisions(env.Ctx, table.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := restored.Revisions(env.Ctx, table.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 2 {
			t.Fatalf("table %d has %d revisions live, want 2", table.Number, len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("table %d revisions in the backup (-live +backup):\n%s", table.Number, diff)
		}
	}

	if res := b.Post("/judge/backup", nil, "Sec-Fetch-Site", "cross-site"); res.Status != http.StatusForbidden {
		t.Errorf("cross-site POST /judge/backup = %d, want 403", res.Status)
	}
}
