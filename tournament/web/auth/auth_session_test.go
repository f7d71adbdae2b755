package auth_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gin-contrib/sessions"
	cookiestore "github.com/gin-contrib/sessions/cookie"
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The session cookie's contents, and the settings the epoch and
// the old keys were kept in, as the server writes them: what someone with
// a copy of the database would forge a cookie from.
const (
	sessionJudge        = "judge"
	sessionID           = "sid"
	sessionSince        = "since"
	sessionEpoch        = "epoch"
	settingSessionEpoch = "session_epoch"
	settingSessionKeys  = "session_keys"
)

// sessionCookieOf returns the session cookie b holds, as "name=value".
func sessionCookieOf(t *testing.T, b *webtest.Browser) string {
	t.Helper()
	u, err := url.Parse(b.Env.Server.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range b.HTTP.Jar.Cookies(u) {
		if c.Name == webtest.SessionCookie {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatal("no session cookie")
	return ""
}

// withCookie sends a GET with cookie and no jar: another browser, or
// whoever copied the cookie.
func withCookie(t *testing.T, env *webtest.Env, path, cookie string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Cookie", cookie)
	rec := httptest.NewRecorder()
	env.Server.Config.Handler.ServeHTTP(rec, req)
	return rec
}

// A logout ends that session on the server: a copy of its cookie is
// refused afterwards, after a restart too, while the judge's other
// sessions go on.
func TestLogoutEndsTheSession(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	players := "/api/v1/tournaments/" + webtest.Itoa(tr.ID) + "/players"
	laptop, tablet := env.Browser(), env.Browser()
	laptop.Login("山田")
	tablet.Login("山田")
	copied := sessionCookieOf(t, laptop)
	if rec := withCookie(t, env, "/judge", copied); rec.Code != http.StatusOK {
		t.Fatalf("GET /judge with the laptop's cookie = %d, want 200", rec.Code)
	}
	if res := laptop.Post("/judge/logout", nil); res.Status != http.StatusSeeOther {
		t.Fatalf("POST /judge/logout = %d, want 303", res.Status)
	}
	check := func(when string) {
		t.Helper()
		if rec := withCookie(t, env, "/judge", copied); rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/judge/login") {
			t.Errorf("GET /judge with the logged-out cookie %s = %d to %q, want 303 to the login page", when, rec.Code, rec.Header().Get("Location"))
		}
		if rec := withCookie(t, env, players, copied); rec.Code != http.StatusUnauthorized {
			t.Errorf("GET %s with the logged-out cookie %s = %d, want 401", players, when, rec.Code)
		}
		webtest.MustSee(t, "GET /judge on the tablet "+when, tablet.Get("/judge"), http.StatusOK, "ジャッジ: 山田")
	}
	check("at once")
	env.Restart(webtest.Password)
	check("after a restart")
	laptop.Login("山田")
	webtest.MustSee(t, "GET /judge after logging in again", laptop.Get("/judge"), http.StatusOK, "ジャッジ: 山田")
}

// forgeCookie makes the session cookie a store signed with keys would make
// for values: what anyone holding the keys can do.
func forgeCookie(t *testing.T, keys []byte, values map[string]any) string {
	t.Helper()
	r := gin.New()
	r.Use(sessions.Sessions(webtest.SessionCookie, cookiestore.NewStore(keys[:64], keys[64:])))
	r.GET("/", func(c *gin.Context) {
		sess := sessions.Default(c)
		for k, v := range values {
			sess.Set(k, v)
		}
		if err := sess.Save(); err != nil {
			t.Fatal(err)
		}
	})
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	cookie, _, _ := strings.Cut(rec.Header().Get("Set-Cookie"), ";")
	return cookie
}

// A backup is no master key: it holds neither the session keys nor
// anything a cookie could be forged from, and a cookie forged from what it
// holds is refused.
func TestBackupCannotForgeASession(t *testing.T) {
	env := webtest.New(t)
	env.Browser().Login("山田")
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := env.Service.Backup(env.Ctx, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, env.Keys) || bytes.Contains(data, []byte(hex.EncodeToString(env.Keys))) ||
		bytes.Contains(data, env.Keys[:16]) || bytes.Contains(data, []byte(hex.EncodeToString(env.Keys[:16]))) {
		t.Errorf("the backup holds the session keys")
	}
	copyStore := tournamenttest.OpenStore(t, dirWith(t, path))
	stored, err := copyStore.GetSetting(env.Ctx, settingSessionKeys)
	if err == nil {
		// What an attacker with the backup would do.
		keys, _ := hex.DecodeString(stored)
		epoch, _ := copyStore.GetSetting(env.Ctx, settingSessionEpoch)
		forged := forgeCookie(t, keys, map[string]any{sessionJudge: "偽ジャッジ", sessionSince: time.Now().Unix(), sessionEpoch: epoch, sessionID: "forged"})
		if rec := withCookie(t, env, "/judge", forged); rec.Code == http.StatusOK {
			t.Errorf("a cookie forged from the backup's session keys was accepted:\n%s", rec.Body)
		}
	} else if !errors.Is(err, tournament.ErrNotFound) {
		t.Fatal(err)
	}
	// Nor does the live database keep them for the next backup.
	if v, err := env.Store.GetSetting(env.Ctx, settingSessionKeys); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("the database holds session keys %q (err %v), want none", v, err)
	}
}

// dirWith returns a new data folder holding the database file path.
func dirWith(t *testing.T, path string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "catanjudge.db"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}
