package webtest

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

// Browser is a client with a cookie jar that does not follow redirects,
// so tests see each 303.
type Browser struct {
	Env  *Env
	HTTP *http.Client
}

// Browser returns a new browser on e's site, logged in to nothing.
func (e *Env) Browser() *Browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		e.TB.Fatal(err)
	}
	return &Browser{Env: e, HTTP: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Response is a finished response with its body read.
type Response struct {
	Status   int
	Location string
	Body     string
	Header   http.Header
}

// Do sends a request with form (url-encoded, if any) and the header
// pairs, and returns the response read whole (an event stream's headers
// only).
func (b *Browser) Do(method, path string, form url.Values, header ...string) Response {
	b.Env.TB.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.Env.Server.URL+path, body)
	if err != nil {
		b.Env.TB.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.HTTP.Do(req)
	if err != nil {
		b.Env.TB.Fatal(err)
	}
	defer res.Body.Close()
	out := Response{Status: res.StatusCode, Location: res.Header.Get("Location"), Header: res.Header}
	// An event stream never ends: its headers are all a test can read.
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return out
	}
	data, err := io.ReadAll(res.Body)
	if err != nil {
		b.Env.TB.Fatal(err)
	}
	out.Body = string(data)
	return out
}

// Get fetches path.
func (b *Browser) Get(path string, header ...string) Response {
	b.Env.TB.Helper()
	return b.Do(http.MethodGet, path, nil, header...)
}

// Post posts form (an empty one if nil) to path.
func (b *Browser) Post(path string, form url.Values, header ...string) Response {
	b.Env.TB.Helper()
	if form == nil {
		form = url.Values{}
	}
	return b.Do(http.MethodPost, path, form, header...)
}

// Login logs the browser in to the account named judge, a head's made
// for it when there is none, and fails the test otherwise.
func (b *Browser) Login(judge string) {
	b.Env.TB.Helper()
	b.LoginAs(judge, tournament.RoleHead)
}

// LoginAs logs the browser in to the account named name, made with the
// role role when there is none, and fails the test otherwise.
func (b *Browser) LoginAs(name string, role tournament.Role) {
	b.Env.TB.Helper()
	b.Env.Account(name, role)
	res := b.Post("/judge/login", url.Values{"name": {name}, "password": {Password}})
	if res.Status != http.StatusSeeOther || res.Location != "/judge" {
		b.Env.TB.Fatalf("POST /judge/login = %d to %q, want 303 to /judge\n%s", res.Status, res.Location, res.Body)
	}
}

// MustSee fails unless res has status and its body contains every want.
func MustSee(t *testing.T, what string, res Response, status int, wants ...string) {
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

// SeedTournament creates a tournament with n checked-in players through the service.
func (e *Env) SeedTournament(n int) (tournament.Tournament, []tournament.Player) {
	e.TB.Helper()
	tr, err := e.Service.CreateTournament(e.Ctx, "setup", tournament.TournamentInput{Name: "土曜カタン大会", Rounds: 3})
	if err != nil {
		e.TB.Fatal(err)
	}
	names := []string{"青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "久保", "小林", "佐藤", "清水", "鈴木"}
	kana := []string{"あおき", "いのうえ", "うえだ", "えとう", "おおの", "かとう", "きむら", "くぼ", "こばやし", "さとう", "しみず", "すずき"}
	var ps []tournament.Player
	for i := range n {
		p, err := e.Service.AddPlayer(e.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: names[i%len(names)] + fmt.Sprint(i/len(names)+1), Kana: kana[i%len(kana)]})
		if err != nil {
			e.TB.Fatal(err)
		}
		if p, err = e.Service.CheckIn(e.Ctx, "setup", p.TournamentID, p.ID, true); err != nil {
			e.TB.Fatal(err)
		}
		ps = append(ps, p)
	}
	return tr, ps
}
