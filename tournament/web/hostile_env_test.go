package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// hostileEnv is the whole site over a real service on a temporary SQLite
// file, for throwing bad input at: the fuzz targets and the hostile-input
// test. It counts the changes the store commits, so a test can tell that a
// refused request changed nothing. Requests go straight to the handler; a
// judge's session cookie is at hand for the console forms.
//
// Its data is the same on every start (the seeds count up from 1): a
// tournament of 8 players with round 1 paired at two tables of four and
// one penalty recorded, and a second tournament of 4 players with round 1
// paired. The checked-in fuzz corpora name these IDs.
type hostileEnv struct {
	h       http.Handler
	svc     *tournament.Service
	ctx     context.Context
	commits atomic.Int64 // changes committed so far
	cookie  string       // a logged-in judge's session
	a, b    tournament.Tournament
	roundA  tournament.Round
	roundB  tournament.Round
	penalty tournament.Penalty
}

func newHostileEnv(tb testing.TB) *hostileEnv {
	tb.Helper()
	env := &hostileEnv{ctx: context.Background()}
	dir := tb.TempDir()
	// The fuzzers write thousands of times: skipping the fsync of every
	// commit keeps them fast, and durability is not what they test.
	st, err := store.Open(env.ctx, store.DatabaseFile(dir)+"?_synchronous=OFF",
		store.WithAfterCommit(func(tournament.AuditEntry) { env.commits.Add(1) }))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	site := webtest.New(tb, webtest.OnStore(st, st, nil))
	env.svc, env.h = site.Service, site.Handler
	env.a, env.roundA = env.seed(tb, "土曜カタン大会", []string{"青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "久保"})
	env.b, env.roundB = env.seed(tb, "日曜カタン大会", []string{"小林", "佐藤", "清水", "鈴木"})
	if env.penalty, err = env.svc.RecordPenalty(env.ctx, "setup", env.a.ID, tournament.PenaltyInput{
		PlayerID: env.roundA.Tables[0].Players[0], Round: 1, Offence: "note-taking", Note: "メモ"}); err != nil {
		tb.Fatal(err)
	}
	site.Account("山田", tournament.RoleHead)
	rec := env.form(http.MethodPost, "/judge/login", "", url.Values{"name": {"山田"}, "password": {webtest.Password}}.Encode())
	for _, c := range rec.Result().Cookies() {
		env.cookie = c.Name + "=" + c.Value
	}
	if rec.Code != http.StatusSeeOther || env.cookie == "" {
		tb.Fatalf("log in = %d without a session cookie:\n%s", rec.Code, rec.Body)
	}
	return env
}

// seed creates a tournament of checked-in players and pairs round 1.
func (e *hostileEnv) seed(tb testing.TB, name string, players []string) (tournament.Tournament, tournament.Round) {
	tb.Helper()
	t, err := e.svc.CreateTournament(e.ctx, "setup", tournament.TournamentInput{Name: name, Rounds: 3})
	if err != nil {
		tb.Fatal(err)
	}
	for _, n := range players {
		p, err := e.svc.AddPlayer(e.ctx, "setup", t.ID, tournament.PlayerInput{Name: n})
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := e.svc.CheckIn(e.ctx, "setup", p.TournamentID, p.ID, true); err != nil {
			tb.Fatal(err)
		}
	}
	r, err := e.svc.PairNextRound(e.ctx, "setup", t.ID)
	if err != nil {
		tb.Fatal(err)
	}
	return t, r
}

// api sends a JSON API request with the API token.
func (e *hostileEnv) api(method, path, body string, header ...string) *httptest.ResponseRecorder {
	return webtest.Do(e.h, method, path, body, append([]string{"Authorization", "Bearer test-token"}, header...)...)
}

// form posts a urlencoded form body as the browser with cookie ("" for none).
func (e *hostileEnv) form(method, path, cookie, body string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec
}

// upload posts data as the file of the player import form.
func (e *hostileEnv) upload(path string, data []byte, header ...string) *httptest.ResponseRecorder {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile("file", "players.csv")
	if err == nil {
		_, _ = w.Write(data)
	}
	_ = mw.Close()
	req := httptest.NewRequest(http.MethodPost, path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Cookie", e.cookie)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec
}

// jsonError returns the error message of a JSON answer, or "".
func jsonError(rec *httptest.ResponseRecorder) string {
	var body struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	return body.Error
}

// pageErrorRE finds a message a console page shows for a refused form: a
// form-level alert or a message next to a field.
var pageErrorRE = regexp.MustCompile(`<p class="(?:form|field)-error"[^>]*>([^<]+)</p>`)

// pageErrors returns the messages a console page shows for a refused form.
func pageErrors(body string) []string {
	var out []string
	for _, m := range pageErrorRE.FindAllStringSubmatch(body, -1) {
		if s := strings.TrimSpace(m[1]); s != "" {
			out = append(out, s)
		}
	}
	return out
}
