package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skip2/go-qrcode"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// countingBody is a request body of n bytes that counts what the server
// reads of it, without holding it in memory.
type countingBody struct {
	r    io.Reader
	read atomic.Int64
}

func newCountingBody(prefix string, n int64, suffix string) *countingBody {
	pad := io.LimitReader(repeatReader('x'), n)
	return &countingBody{r: io.MultiReader(strings.NewReader(prefix), pad, strings.NewReader(suffix))}
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read.Add(int64(n))
	return n, err
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// logInFrom posts the login form from addr (host:port) straight to h.
func logInFrom(h http.Handler, addr, password string) *httptest.ResponseRecorder {
	form := url.Values{"name": {"x"}, "password": {password}}.Encode()
	req := httptest.NewRequest(http.MethodPost, "/judge/login", strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return webtest.Serve(h, req, addr)
}

// A login form is a few hundred bytes, and anyone may post one: a
// multipart body (which would spool its files to the temporary folder) is
// refused unread, a larger form is read no further than the login's
// limit, and an address over the login limit is refused before anything
// of its body is read.
func TestLoginBodyIsBoundedAndReadAfterTheLimit(t *testing.T) {
	env := webtest.New(t)
	const big = 40 << 20

	// One part of 40 MB, then the fields.
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	_, _ = mw.CreateFormFile("upload", "big.bin")
	tail := "\r\n--" + mw.Boundary() + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nx\r\n--" + mw.Boundary() + "--\r\n"
	body := newCountingBody(head.String(), big, tail)
	req := httptest.NewRequest(http.MethodPost, "/judge/login", body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := webtest.Serve(env.Handler, req, "192.0.2.1:1234")
	if rec.Code != http.StatusUnsupportedMediaType || !strings.Contains(rec.Body.String(), "ファイルの送信を受け付けません") {
		t.Errorf("multipart login = %d, want 415 with a message\n%s", rec.Code, rec.Body)
	}
	if n := body.read.Load(); n > 64<<10 {
		t.Errorf("the server read %d bytes of a refused multipart login, want none to speak of", n)
	}

	// A form larger than the login's limit, without a declared length.
	body = newCountingBody("name=x&password=", 1<<20, "")
	req = httptest.NewRequest(http.MethodPost, "/judge/login", body)
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = webtest.Serve(env.Handler, req, "192.0.2.2:1234")
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "送信データが大きすぎます") {
		t.Errorf("1 MB login form = %d, want 400 too large\n%s", rec.Code, rec.Body)
	}
	if n := body.read.Load(); n > web.MaxLoginForm+64<<10 {
		t.Errorf("the server read %d bytes of a 1 MB login form, want at most about %d", n, web.MaxLoginForm)
	}

	// A body declared larger than any route takes is refused unread.
	body = newCountingBody("", 5<<20, "")
	req = httptest.NewRequest(http.MethodPost, "/api/v1/referee/placings", body)
	req.ContentLength = 5 << 20
	rec = webtest.Serve(env.Handler, req, "192.0.2.3:1234")
	if rec.Code != http.StatusBadRequest || body.read.Load() != 0 {
		t.Errorf("5 MB declared body = %d after reading %d bytes, want 400 unread", rec.Code, body.read.Load())
	}

	// Five wrong passwords, then a sixth form is not read at all.
	for i := range 5 {
		if rec := logInFrom(env.Handler, "192.0.2.4:1234", "guess"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d = %d, want 401", i+1, rec.Code)
		}
	}
	body = newCountingBody("name=x&password=", 100, "")
	req = httptest.NewRequest(http.MethodPost, "/judge/login", body)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = webtest.Serve(env.Handler, req, "192.0.2.4:1234")
	if rec.Code != http.StatusTooManyRequests || body.read.Load() != 0 {
		t.Errorf("login over the limit = %d after reading %d bytes, want 429 unread", rec.Code, body.read.Load())
	}
}

// Only wrong passwords count against the login limit: judges behind one
// router log in as often as they need.
func TestCorrectLoginsAreNotLimited(t *testing.T) {
	env := webtest.New(t)
	for i := range 12 {
		env.Account(fmt.Sprintf("ジャッジ%d", i), tournament.RoleJudge)
		res := env.Browser().Post("/judge/login", url.Values{"name": {fmt.Sprintf("ジャッジ%d", i)}, "password": {webtest.Password}})
		if res.Status != http.StatusSeeOther {
			t.Fatalf("correct login %d from one address = %d, want 303", i+1, res.Status)
		}
	}
	// Wrong passwords still count, the correct ones between them do not.
	b := env.Browser()
	for i := range 5 {
		if res := b.Post("/judge/login", url.Values{"name": {"x"}, "password": {"guess"}}); res.Status != http.StatusUnauthorized {
			t.Fatalf("wrong password %d = %d, want 401", i+1, res.Status)
		}
		if i < 4 {
			b.Login("山田")
		}
	}
	if res := b.Post("/judge/login", url.Values{"name": {"x"}, "password": {"guess"}}); res.Status != http.StatusTooManyRequests {
		t.Errorf("6th wrong password = %d, want 429", res.Status)
	}
}

// Wrong API tokens are guesses like wrong passwords: they share the
// address's login limit, after which not even the right token is checked.
// Scripts with the right token are never limited.
func TestWrongTokensAreLimited(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	path := fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID)
	get := func(addr, token string) int {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		return webtest.Serve(env.Handler, req, addr).Code
	}
	for i := range 200 {
		if code := get("198.51.100.1:1", "test-token"); code != http.StatusOK {
			t.Fatalf("request %d with the right token = %d, want 200", i+1, code)
		}
	}
	for i := range 5 {
		if code := get("198.51.100.2:1", fmt.Sprintf("tok%d", i)); code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d = %d, want 401", i+1, code)
		}
	}
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer test-token")
	rec := webtest.Serve(env.Handler, req, "198.51.100.2:1")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "多すぎます") {
		t.Errorf("the right token after 5 wrong ones = %d %s (Retry-After %q), want 429 with a message",
			rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
	// Another address is not held up; an IPv6 device's other addresses are.
	if code := get("198.51.100.3:1", "test-token"); code != http.StatusOK {
		t.Errorf("another address = %d, want 200", code)
	}
	for i := range 5 {
		get(fmt.Sprintf("[2001:db8:1:2::%x]:1", i+1), "wrong")
	}
	if code := get("[2001:db8:1:2:aaaa::1]:1", "test-token"); code != http.StatusTooManyRequests {
		t.Errorf("the right token from the same IPv6 /64 = %d, want 429", code)
	}
	// A wrong token on a state change is counted too, even where the
	// origin check, not the route, looks at it; and it shares the limit
	// with the login form.
	for i := range 3 {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/tournaments", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer wrong")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if rec := webtest.Serve(env.Handler, req, "198.51.100.4:1"); rec.Code < 400 {
			t.Fatalf("cross-site post %d with a wrong token = %d, want a 4xx", i+1, rec.Code)
		}
	}
	for i := range 2 {
		if rec := logInFrom(env.Handler, "198.51.100.4:1", "guess"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d after 3 wrong tokens = %d, want 401", i+1, rec.Code)
		}
	}
	if rec := logInFrom(env.Handler, "198.51.100.4:1", webtest.Password); rec.Code != http.StatusTooManyRequests {
		t.Errorf("login after 3 wrong tokens and 2 wrong passwords = %d, want 429", rec.Code)
	}
}

// The kiosk's address on its page, its QR code and the printed sheets
// comes from the configured public address, whatever Host the request
// names: a rebinding name or a proxy never ends up printed on pairings.
// Without one (serve always sets one) it is the kiosk's path alone.
func TestKioskAddressIgnoresHost(t *testing.T) {
	for _, public := range []string{"http://192.168.1.20:8080", ""} {
		t.Run(public, func(t *testing.T) { testKioskAddress(t, public) })
	}
}

func testKioskAddress(t *testing.T, public string) {
	env := webtest.New(t, webtest.WithPublicURL(public))
	svc, h := env.Service, env.Handler
	tr, _ := env.SeedTournament(8)
	if _, err := svc.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s/kiosk/%d", public, tr.ID)
	wantQR, err := qrcode.Encode(want, qrcode.Medium, 320)
	if err != nil {
		t.Fatal(err)
	}
	env.Account("山田", tournament.RoleJudge)
	login := httptest.NewRequest(http.MethodPost, "/judge/login", strings.NewReader(url.Values{"name": {"山田"}, "password": {webtest.Password}}.Encode()))
	login.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	cookie := webtest.Serve(h, login, "").Header().Get("Set-Cookie")
	cookie, _, _ = strings.Cut(cookie, ";")
	for _, path := range []string{fmt.Sprintf("/kiosk/%d", tr.ID), fmt.Sprintf("/judge/t/%d/rounds/1/print/tables", tr.ID)} {
		for _, host := range []string{"evil.example", "attacker.example:8080"} {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Host = host
			req.Header.Set("Cookie", cookie)
			rec := webtest.Serve(h, req, "")
			if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) || strings.Contains(rec.Body.String(), host) {
				t.Errorf("GET %s with Host %s = %d, want the kiosk at %q and never the Host", path, host, rec.Code, want)
			}
		}
	}
	req := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/kiosk/%d/qr.png", tr.ID), nil)
	req.Host = "evil.example"
	if rec := webtest.Serve(h, req, ""); rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), wantQR) {
		t.Errorf("GET qr.png with Host evil.example = %d, want the QR code of %q", rec.Code, want)
	}
}

// /healthz reads the database: over a damaged one it answers 503 with the
// reason, as the judges' pages answer 500, never "ok".
func TestHealthChecksTheDatabase(t *testing.T) {
	env := webtest.New(t)
	if res := env.Browser().Get("/healthz"); res.Status != http.StatusOK || res.Body != `{"status":"ok"}` {
		t.Fatalf("GET /healthz on a sound database = %d %s, want 200 {\"status\":\"ok\"}", res.Status, res.Body)
	}

	dir := t.TempDir()
	st := tournamenttest.OpenStore(t, dir)
	damaged := webtest.New(t, webtest.OnStore(st, st, nil))
	h := damaged.Handler
	tr, _ := damaged.SeedTournament(12)
	tournamenttest.Damage(t, dir)
	if rec := webtest.Serve(h, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/v1/tournaments/%d/standings", tr.ID), nil), ""); rec.Code != http.StatusInternalServerError {
		t.Errorf("standings over the damaged database = %d, want 500", rec.Code)
	}
	for _, lang := range []string{"ja", "en"} {
		req := httptest.NewRequest(http.MethodGet, "/healthz?lang="+lang, nil)
		rec := webtest.Serve(h, req, "")
		want := map[string]string{"ja": "バックアップ", "en": "backup"}[lang]
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"status":"unavailable"`) || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("GET /healthz?lang=%s over a damaged database = %d %s, want 503 saying what to do", lang, rec.Code, rec.Body)
		}
	}
}

// Everything the kiosk reads (its page, the live state, the standings,
// each round and its clock, the QR code) is served from reads shared until
// the next change: anonymous clients asking again and again cost no read,
// and a change is seen at once.
func TestKioskReadsAreSharedUntilAChange(t *testing.T) {
	broker := live.NewBroker(0, 0)
	st := &webtest.CountingStore{Store: tournamenttest.NewStore(t, store.WithAfterCommit(broker.Committed))}
	env := webtest.New(t, webtest.OnStore(st, st.Store, broker))
	svc, h := env.Service, env.Handler
	tr, _ := env.SeedTournament(8)
	r1, err := svc.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	var scores []tournament.Score
	for i, p := range r1.Tables[0].Players {
		scores = append(scores, tournament.Score{PlayerID: p, VP: 9 - i})
	}
	for _, tb := range r1.Tables {
		var sc []tournament.Score
		for i, p := range tb.Players {
			sc = append(sc, tournament.Score{PlayerID: p, VP: 9 - i})
		}
		// Ended by time without a clock: the judge's reason (§12).
		if _, err := svc.SaveResult(env.Ctx, "setup", tr.ID, 1, tb.Number, tournament.ResultInput{Scores: sc, Reason: "ended by the judge"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	paths := []string{
		fmt.Sprintf("/kiosk/%d", tr.ID), fmt.Sprintf("/api/v1/tournaments/%d/live", tr.ID),
		fmt.Sprintf("/api/v1/tournaments/%d/standings", tr.ID), fmt.Sprintf("/api/v1/tournaments/%d/rounds/2", tr.ID),
		fmt.Sprintf("/api/v1/tournaments/%d/rounds/2/clock", tr.ID), fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID),
		fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/clock", tr.ID), fmt.Sprintf("/kiosk/%d/qr.png", tr.ID),
	}
	hammer := func() {
		for range 20 {
			for _, p := range paths {
				if rec := webtest.Serve(h, httptest.NewRequest(http.MethodGet, p, nil), "203.0.113.9:1"); rec.Code != http.StatusOK {
					t.Fatalf("GET %s = %d %s", p, rec.Code, rec.Body)
				}
			}
		}
	}
	before := st.Loads.Load()
	hammer()
	// One read of the tournament's snapshot, which the live state and
	// every round are cut from.
	if n := st.Loads.Load() - before; n != 1 {
		t.Errorf("160 kiosk reads loaded the tournament %d times, want 1", n)
	}
	// A change is seen by the next read.
	if _, err := svc.SaveResult(env.Ctx, "setup", tr.ID, 1, 1, tournament.ResultInput{Version: 1, Reason: "数え直し", Scores: scores}); err != nil {
		t.Fatal(err)
	}
	before = st.Loads.Load()
	hammer()
	if n := st.Loads.Load() - before; n != 1 {
		t.Errorf("160 kiosk reads after a change loaded the tournament %d times, want 1", n)
	}
	rec := webtest.Serve(h, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil), "")
	if !strings.Contains(rec.Body.String(), `"version":2`) {
		t.Errorf("round 1 after the correction does not show version 2:\n%s", rec.Body)
	}
}

// An account's name, which every audit entry then carries, follows the
// rules of every text when the head names it; the login takes any name,
// and finds no account of one that breaks them.
func TestLoginNameFollowsTheTextRules(t *testing.T) {
	env := webtest.New(t)
	for name, want := range map[string]string{
		"山\u202e田":              "ジャッジ名に文字の向きを変える記号",
		"\u200b":                "ジャッジ名に見える文字がありません",
		"山\x1b田":                "ジャッジ名に改行・タブなどの制御文字",
		strings.Repeat("山", 41): "ジャッジ名は 40 文字までです",
	} {
		body, _ := json.Marshal(map[string]string{"name": name, "role": "judge"})
		rec := webtest.Do(env.Handler, http.MethodPost, "/api/v1/staff", string(body), "Authorization", "Bearer test-token")
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("an account named %q = %d %s, want 422 saying %q", name, rec.Code, rec.Body, want)
		}
		if res := env.Browser().Post("/judge/login", url.Values{"name": {name}, "password": {webtest.Password}}); res.Status != http.StatusUnauthorized {
			t.Errorf("login as %q = %d, want 401", name, res.Status)
		}
	}
	// A name with a newline at its end is the name without it.
	env.Account("山田", tournament.RoleJudge)
	if res := env.Browser().Post("/judge/login", url.Values{"name": {"山田\n"}, "password": {webtest.Password}}); res.Status != http.StatusSeeOther {
		t.Errorf("login as %q = %d, want 303", "山田\n", res.Status)
	}
}
