package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server"
	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

// A request header over 16 KiB is refused (431) before any handler runs;
// the header of a real browser, cookies included, is far smaller.
func TestServeBoundsHeaders(t *testing.T) {
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	get := func(pad int) int {
		req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/healthz", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Pad", strings.Repeat("x", pad))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET /healthz with a %d-byte header: %v", pad, err)
		}
		defer res.Body.Close()
		_, _ = io.Copy(io.Discard, res.Body)
		return res.StatusCode
	}
	if got := get(4 << 10); got != http.StatusOK {
		t.Errorf("GET /healthz with a 4 KiB header = %d, want 200", got)
	}
	for _, pad := range []int{64 << 10, 1 << 20} {
		if got := get(pad); got != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("GET /healthz with a %d-byte header = %d, want 431", pad, got)
		}
	}
}

// Without --public-url the kiosk's QR codes carry the address the server
// listens on, never the Host header of the request that asked for them.
func TestServeKioskAddressFromListenAddress(t *testing.T) {
	addr, _ := sitetest.ServeAt(t, t.TempDir(), "127.0.0.1:0")
	base := "http://" + addr
	tid := sitetest.SetUpRound(t, base, "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう")
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/kiosk/%d", base, tid), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "rebound.example"
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	page, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s/kiosk/%d", base, tid)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(page), want) || strings.Contains(string(page), "rebound.example") {
		t.Errorf("GET /kiosk/%d with Host rebound.example = %d, want the kiosk at %s and never the Host", tid, res.StatusCode, want)
	}
}

// A damaged database is refused at start-up with what to do, as a backup
// of a missing one is; the server never starts over it.
func TestServeRefusesADamagedDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := tournamenttest.OpenStore(t, dir)
	svc := tournamenttest.NewServiceOn(t, st, time.Now)
	tr, err := svc.CreateTournament(ctx, "setup", tournament.TournamentInput{Name: "土曜カタン大会", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if _, err := svc.AddPlayer(ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	tournamenttest.Damage(t, dir)
	ready := false
	err = server.Serve(ctx, []string{"--addr", "127.0.0.1:0", "--data", dir}, func(string) string { return "" }, io.Discard, io.Discard,
		func(string) { ready = true })
	if ready || !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), store.DatabaseFile(dir)) {
		t.Errorf("serve over a damaged database: listening %v, error %v; want ErrDamaged naming the file, before listening", ready, err)
	}
}

// A backup restored into an empty data folder starts with new session
// keys: a judge's cookie from the server the backup came from is refused
// there, while that server, restarted, keeps its judges logged in.
func TestRestoredBackupStartsWithFreshKeys(t *testing.T) {
	dir := t.TempDir()
	addr, stop := sitetest.ServeAt(t, dir, "127.0.0.1:0")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.PostForm("http://"+addr+"/judge/login", url.Values{"name": {tournament.FirstHead}, "password": {sitetest.BrowserPassword}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookie, _, _ := strings.Cut(res.Header.Get("Set-Cookie"), ";")
	if res.StatusCode != http.StatusSeeOther || cookie == "" {
		t.Fatalf("log in = %d with cookie %q, want 303 and a session", res.StatusCode, cookie)
	}
	judgePage := func(addr string) int {
		req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/judge", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Cookie", cookie)
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := judgePage(addr); got != http.StatusOK {
		t.Fatalf("GET /judge logged in = %d, want 200", got)
	}
	backupFile := filepath.Join(t.TempDir(), "backup.db")
	if err := run(context.Background(), []string{"backup", "--data", dir, backupFile}, func(string) string { return "" }, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	stop()

	restored := t.TempDir()
	data, err := os.ReadFile(backupFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(store.DatabaseFile(restored), data, 0o600); err != nil {
		t.Fatal(err)
	}
	addr, stop = sitetest.ServeAt(t, restored, "127.0.0.1:0")
	if got := judgePage(addr); got != http.StatusSeeOther {
		t.Errorf("GET /judge on the restored server with the old cookie = %d, want 303 to the login page", got)
	}
	old, err1 := os.ReadFile(filepath.Join(dir, auth.SessionKeyFile))
	fresh, err2 := os.ReadFile(filepath.Join(restored, auth.SessionKeyFile))
	if err1 != nil || err2 != nil || bytes.Equal(old, fresh) {
		t.Errorf("session keys of the restored folder: %v, %v; want new ones", err1, err2)
	}
	stop()

	addr, _ = sitetest.ServeAt(t, dir, "127.0.0.1:0")
	if got := judgePage(addr); got != http.StatusOK {
		t.Errorf("GET /judge on the original server restarted = %d, want 200", got)
	}
}
