package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

// deafSite serves the site over a store of its own on the PostgreSQL
// database dsn, as a server of the event does, but hears nothing of the
// other servers (no listener runs): the server behind the load balancer
// that a save's notice has not reached yet, for as long as the test likes.
func deafSite(t *testing.T, dsn string, keys []byte) (*httptest.Server, *tournament.Service) {
	t.Helper()
	st := tournamenttest.OpenDSN(t, dsn)
	rulesets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := auth.SetUpHead(context.Background(), st, sitetest.BrowserPassword, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	svc := tournament.NewService(st, rulesets, time.Now)
	h, err := web.New(web.Deps{Rulesets: rulesets, Service: svc, Settings: st, Cards: st, SessionKeys: keys, APIToken: sitetest.TestAPIToken})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, svc
}

// A judge saves a score sheet on one server and the redirect lands on
// another that has not heard of the save: the page there shows the save,
// as does a script's read that sends back the version its save answered
// with. The client is never shown the tournament older than it has seen;
// a client that saw nothing of it is shown what that server holds.
func TestReadYourWritesOnTwoServers(t *testing.T) {
	dsn := tournamenttest.NewPostgresDSN(t)
	keys, err := auth.SharedSessionKeys([]byte(testSessionKey))
	if err != nil {
		t.Fatal(err)
	}
	a, svcA := deafSite(t, dsn, keys)
	b, _ := deafSite(t, dsn, keys)
	ctx := context.Background()
	tr, err := svcA.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: "二台の大会", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := svcA.AddPlayer(ctx, "受付", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%d", i+1), CheckedIn: true}); err != nil {
			t.Fatal(err)
		}
	}
	round, err := svcA.PairNextRound(ctx, "受付", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	judge := loggedIn(t, a.URL)
	other := loggedIn(t, a.URL)
	score := func(base string, table int) string {
		return fmt.Sprintf("%s/judge/t/%d/rounds/1/tables/%d/score", base, tr.ID, table)
	}
	// Both servers have read the round before the saves.
	for _, c := range []*http.Client{judge, other} {
		for _, base := range []string{a.URL, b.URL} {
			if body := get(t, c, score(base, 1)); !strings.Contains(body, `name="version" value="0"`) {
				t.Fatalf("table 1's sheet on %s before the save is not empty:\n%s", base, body)
			}
		}
	}

	form := url.Values{"version": {"0"}, "action": {"save"}, "declared": {"time"}, "reason": {"ジャッジが終了"}}
	for i, id := range round.Tables[0].Players {
		form.Add("player", fmt.Sprint(id))
		form.Set(fmt.Sprintf("vp_%d", id), fmt.Sprint(9-i))
	}
	res, err := judge.PostForm(score(a.URL, 1), form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST the sheet on a = %s, want 303", res.Status)
	}
	// Proof that b has not heard: a judge who saw nothing newer is shown
	// what b holds.
	if body := get(t, other, score(b.URL, 1)); !strings.Contains(body, `name="version" value="0"`) {
		t.Fatalf("b shows the save to a judge who never saw it: it heard of it, and the test proves nothing")
	}
	// The redirect, followed on b.
	if body := get(t, judge, b.URL+res.Header.Get("Location")); !strings.Contains(body, `name="version" value="1"`) {
		t.Errorf("the sheet on b after the judge's save on a does not show version 1:\n%s", body)
	}

	// A script: the PUT on a answers with the version seen, which the GET
	// on b sends back.
	body := `{"version":0,"declared":null,"reason":"ジャッジが終了","scores":[`
	for i, id := range round.Tables[1].Players {
		body += fmt.Sprintf(`%s{"player":%d,"vp":%d}`, map[bool]string{true: ",", false: ""}[i > 0], id, 9-i)
	}
	body += "]}"
	req, _ := http.NewRequest(http.MethodPut, fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/1/tables/2/result", a.URL, tr.ID), strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+sitetest.TestAPIToken)
	req.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	seen := res.Header.Get("Catanjudge-Seen")
	if res.StatusCode != http.StatusOK || seen == "" {
		t.Fatalf("PUT the result on a = %s with Catanjudge-Seen %q, want 200 and the version", res.Status, seen)
	}
	read := func(seen string) string {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/1", b.URL, tr.ID), nil)
		if seen != "" {
			req.Header.Set("Catanjudge-Seen", seen)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		return string(out)
	}
	if got := read(seen); strings.Count(got, `"result":{`) != 2 {
		t.Errorf("round 1 on b, asked with the version the PUT gave (%s), does not show both results:\n%s", seen, got)
	}
}

// loggedIn is a browser's client logged in as a judge on base: its cookies
// go to every server on the same host, as through one load balancer.
func loggedIn(t *testing.T, base string) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(base+"/judge/login", url.Values{"name": {tournament.FirstHead}, "password": {sitetest.BrowserPassword}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("log in = %s", res.Status)
	}
	return c
}

// get reads a page and fails the test unless it is 200.
func get(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %s\n%s", u, res.Status, body)
	}
	return string(body)
}
