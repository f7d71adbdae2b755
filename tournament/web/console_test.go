package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// browser is a client with a cookie jar that does not follow redirects,
// so tests see each 303.
type browser struct {
	env  *consoleEnv
	http *http.Client
}

func (e *consoleEnv) browser() *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return &browser{env: e, http: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// response is a finished response with its body read.
type response struct {
	Status   int
	Location string
	Body     string
	Header   http.Header
}

func (b *browser) do(method, path string, form url.Values, header ...string) response {
	b.env.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.env.srv.URL+path, body)
	if err != nil {
		b.env.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.http.Do(req)
	if err != nil {
		b.env.t.Fatal(err)
	}
	defer res.Body.Close()
	out := response{Status: res.StatusCode, Location: res.Header.Get("Location"), Header: res.Header}
	// An event stream never ends: its headers are all a test can read.
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return out
	}
	data, err := io.ReadAll(res.Body)
	if err != nil {
		b.env.t.Fatal(err)
	}
	out.Body = string(data)
	return out
}

func (b *browser) get(path string, header ...string) response {
	b.env.t.Helper()
	return b.do(http.MethodGet, path, nil, header...)
}

func (b *browser) post(path string, form url.Values, header ...string) response {
	b.env.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	return b.do(http.MethodPost, path, form, header...)
}

// login logs the browser in to the account named judge, a head's made
// for it when there is none, and fails the test otherwise.
func (b *browser) login(judge string) {
	b.env.t.Helper()
	b.loginAs(judge, tournament.RoleHead)
}

// loginAs logs the browser in to the account named name, made with the
// role role when there is none, and fails the test otherwise.
func (b *browser) loginAs(name string, role tournament.Role) {
	b.env.t.Helper()
	b.env.account(name, role)
	res := b.post("/judge/login", url.Values{"name": {name}, "password": {testPassword}})
	if res.Status != http.StatusSeeOther || res.Location != "/judge" {
		b.env.t.Fatalf("POST /judge/login = %d to %q, want 303 to /judge\n%s", res.Status, res.Location, res.Body)
	}
}

// mustSee fails unless res has status and its body contains every want.
func mustSee(t *testing.T, what string, res response, status int, wants ...string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("%s = %d (Location %q), want %d\n%s", what, res.Status, res.Location, status, res.Body)
	}
	for _, w := range wants {
		if !strings.Contains(res.Body, w) {
			t.Errorf("%s: body does not contain %q\n%s", what, w, res.Body)
		}
	}
}

// seedTournament creates a tournament with n checked-in players through the service.
func (e *consoleEnv) seedTournament(n int) (tournament.Tournament, []tournament.Player) {
	e.t.Helper()
	tr, err := e.svc.CreateTournament(e.ctx, "setup", tournament.TournamentInput{Name: "土曜カタン大会", Rounds: 3})
	if err != nil {
		e.t.Fatal(err)
	}
	names := []string{"青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "久保", "小林", "佐藤", "清水", "鈴木"}
	kana := []string{"あおき", "いのうえ", "うえだ", "えとう", "おおの", "かとう", "きむら", "くぼ", "こばやし", "さとう", "しみず", "すずき"}
	var ps []tournament.Player
	for i := range n {
		p, err := e.svc.AddPlayer(e.ctx, "setup", tr.ID, tournament.PlayerInput{Name: names[i%len(names)] + fmt.Sprint(i/len(names)+1), Kana: kana[i%len(kana)]})
		if err != nil {
			e.t.Fatal(err)
		}
		if p, err = e.svc.CheckIn(e.ctx, "setup", p.TournamentID, p.ID, true); err != nil {
			e.t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return tr, ps
}
