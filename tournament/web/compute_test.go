package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee/pairing"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// schedule25x20 is a schedule request whose repeats cannot all be avoided,
// so that the search runs until its bound.
func schedule25x20() string {
	var ps []string
	for i := range 25 {
		ps = append(ps, fmt.Sprintf(`{"id":"p%02d"}`, i))
	}
	return `{"mode":"schedule","rounds":20,"seed":7,"players":[` + strings.Join(ps, ",") + `]}`
}

// An anonymous pairing request gets a search bounded at the server's
// pairingEvals (api.PublicPairingEvals unless a test lowers it): its schedule
// is the library's at that bound. A client with two requests under way is
// refused a third with 429 and a message.
func TestPublicPairingIsBounded(t *testing.T) {
	env := webtest.New(t)
	s, err := web.NewSite(web.Deps{Rulesets: tournamenttest.Rulesets(t), Service: env.Service, Settings: env.Store})
	if err != nil {
		t.Fatal(err)
	}
	if s.API().PairingEvals != api.PublicPairingEvals {
		t.Fatalf("pairingEvals = %d, want api.PublicPairingEvals", s.API().PairingEvals)
	}
	s.API().PairingEvals = 200_000
	post := func(lang string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/referee/pairings?lang="+lang, strings.NewReader(schedule25x20()))
		return webtest.Serve(s.Router(), req, "192.0.2.50:1")
	}
	var ps []pairing.Player
	for i := range 25 {
		ps = append(ps, pairing.Player{ID: fmt.Sprintf("p%02d", i)})
	}
	want, err := pairing.DrawSchedule(pairing.Request{Players: ps, Seed: 7, MaxEvals: 200_000}, 20)
	if err != nil {
		t.Fatal(err)
	}
	rec := post("ja")
	var got api.ScheduleJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != http.StatusOK || err != nil {
		t.Fatalf("schedule = %d %s", rec.Code, rec.Body)
	}
	if got.Repeats != want.Repeats || len(got.Rounds) != 20 {
		t.Fatalf("%d repeats in %d rounds, want the bounded search's %d in 20", got.Repeats, len(got.Rounds), want.Repeats)
	}
	for r, round := range got.Rounds {
		if diff := cmp.Diff(want.Rounds[r].Tables, round.Tables); diff != "" {
			t.Fatalf("round %d: tables differ from the bounded search's (-want +got):\n%s", r+1, diff)
		}
	}

	// The client's two requests under way, as the gate sees them.
	s.SetCompute(auth.NewGate(2, 4, 4, time.Second))
	for range 2 {
		done, err := s.Compute().Enter(context.Background(), "192.0.2.50")
		if err != nil {
			t.Fatal(err)
		}
		defer done()
	}
	for _, lang := range []string{"ja", "en"} {
		rec := post(lang)
		want := map[string]string{"ja": "同時に多すぎます", "en": "Too many requests from this device at once"}[lang]
		if rec.Code != http.StatusTooManyRequests || !strings.Contains(jsonError(rec), want) || rec.Header().Get("Retry-After") == "" {
			t.Errorf("a third request at once (%s) = %d %s, want 429 saying %q", lang, rec.Code, rec.Body, want)
		}
	}
	other := httptest.NewRequest(http.MethodPost, "/api/v1/referee/placings", strings.NewReader(`{"scores":[{"player":"a","vp":10},{"player":"b","vp":3},{"player":"c","vp":2}],"declared":"a"}`))
	if rec := webtest.Serve(s.Router(), other, "192.0.2.51:1"); rec.Code != http.StatusOK {
		t.Errorf("another client meanwhile = %d %s, want 200", rec.Code, rec.Body)
	}
}

// The kiosk's reads pass a gate too: an address with six under way is
// refused a seventh, while other phones and any judge go on.
func TestKioskReadsAreGated(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	s, err := web.NewSite(web.Deps{Rulesets: tournamenttest.Rulesets(t), Service: env.Service, Settings: env.Store, APIToken: "test-token"})
	if err != nil {
		t.Fatal(err)
	}
	s.SetReads(auth.NewGate(6, 8, 8, time.Second))
	for range 6 {
		done, err := s.Reads().Enter(context.Background(), "192.0.2.60")
		if err != nil {
			t.Fatal(err)
		}
		defer done()
	}
	live := fmt.Sprintf("/api/v1/tournaments/%d/live", tr.ID)
	get := func(addr string, header ...string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, live, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		return webtest.Serve(s.Router(), req, addr)
	}
	if rec := get("192.0.2.60:1"); rec.Code != http.StatusTooManyRequests || jsonError(rec) == "" {
		t.Errorf("a seventh read from one address = %d %s, want 429 with a message", rec.Code, rec.Body)
	}
	if rec := get("192.0.2.61:1"); rec.Code != http.StatusOK {
		t.Errorf("another phone = %d, want 200", rec.Code)
	}
	if rec := get("192.0.2.60:1", "Authorization", "Bearer test-token"); rec.Code != http.StatusOK {
		t.Errorf("a judge's script from the busy address = %d, want 200", rec.Code)
	}
	// The live feed is bounded by the broker, not by this gate.
	req := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/v1/tournaments/%d/events", tr.ID), nil)
	ctx, cancel := context.WithCancel(context.Background())
	req = req.WithContext(ctx)
	rec := httptest.NewRecorder()
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	req.RemoteAddr = "192.0.2.60:1"
	s.Router().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Errorf("the live feed from the busy address = %d, want 200", rec.Code)
	}
}
