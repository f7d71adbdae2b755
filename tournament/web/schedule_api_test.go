package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// scheduleBody asks for a schedule of n players (p00, p01, ...).
func scheduleBody(n, rounds int, seed uint64, extra string) string {
	var ps []string
	for i := range n {
		ps = append(ps, fmt.Sprintf(`{"id":"p%02d"}`, i))
	}
	return fmt.Sprintf(`{"mode":"schedule","rounds":%d,"seed":%d,"players":[%s]%s}`, rounds, seed, strings.Join(ps, ","), extra)
}

// A schedule says how good it is: its repeats, the lower bound and what
// proves it, its status and the priority it followed; the fields the API
// had stay. Sizes a design builds answer at zero whatever the seed and
// however little search the server allows, since nothing is searched.
func TestScheduleAPISaysHowGoodItIs(t *testing.T) {
	env := webtest.New(t)
	s, err := web.NewSite(web.Deps{Rulesets: tournamenttest.Rulesets(t), Service: env.Service, Settings: env.Store})
	if err != nil {
		t.Fatal(err)
	}
	// One swap evaluation: a design is built, not searched.
	s.API().PairingEvals = 1
	post := func(body string) (*httptest.ResponseRecorder, api.ScheduleJSON) {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, "/api/v1/referee/pairings?lang=en", strings.NewReader(body))
		rec := webtest.Serve(s.Router(), req, "192.0.2.60:1")
		var got api.ScheduleJSON
		if rec.Code == http.StatusOK {
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
		}
		return rec, got
	}
	for _, tt := range []struct{ n, rounds int }{{16, 5}, {24, 7}, {28, 9}, {32, 10}, {40, 13}, {44, 14}, {52, 17}, {56, 18}, {64, 21}, {84, 27}, {96, 31}, {100, 33}, {23, 7}, {55, 18}, {63, 21}, {99, 33}} {
		for _, seed := range []uint64{1, 2, 3} {
			rec, got := post(scheduleBody(tt.n, tt.rounds, seed, ""))
			if rec.Code != http.StatusOK {
				t.Fatalf("%d x %d seed %d = %d %s", tt.n, tt.rounds, seed, rec.Code, rec.Body)
			}
			if got.Repeats != 0 || got.LowerBound != 0 || got.Status != "optimal" || got.Priority != "spread" || got.Bound != "counting" ||
				len(got.Rounds) != tt.rounds || got.Seed != seed {
				t.Errorf("%d x %d seed %d: repeats %d, bound %d %s, status %q, priority %q, %d rounds, seed %d; want an optimal 0 in %d rounds",
					tt.n, tt.rounds, seed, got.Repeats, got.LowerBound, got.Bound, got.Status, got.Priority, len(got.Rounds), got.Seed, tt.rounds)
			}
		}
	}
	for _, field := range []string{`"repeats":`, `"lower_bound":`, `"bound":`, `"status":`, `"priority":`, `"seed":`, `"cost":`, `"rounds":`, `"tables":`, `"byes":`} {
		rec, _ := post(scheduleBody(16, 5, 1, ""))
		if !strings.Contains(rec.Body.String(), field) {
			t.Errorf("a schedule lacks %s: %s", field, rec.Body)
		}
	}

	// 20 players cannot play 6 rounds without a repeat: the bound says so.
	if _, got := post(scheduleBody(20, 6, 1, "")); got.LowerBound < 1 || got.Bound != "impossible-at-zero" || got.Repeats < got.LowerBound {
		t.Errorf("20 x 6: repeats %d, bound %d %s; want a bound of 1 or more, impossible at zero", got.Repeats, got.LowerBound, got.Bound)
	}
	// 16 players over 8 rounds meet 72 times again at least, and a design
	// and its rounds again reach it.
	if _, got := post(scheduleBody(16, 8, 1, "")); got.LowerBound != 72 || got.Bound != "counting" {
		t.Errorf("16 x 8: bound %d %s, want 72 by counting", got.LowerBound, got.Bound)
	}

	// 13 players over 4 rounds: spreading the 3-player tables costs
	// repeats, and the answer says what the fewest repeats first would
	// give (the table of best-known schedules: 0, optimal).
	if _, got := post(scheduleBody(13, 4, 1, `,"priority":"spread"`)); got.Other == nil ||
		*got.Other != (api.FigureJSON{Priority: "repeats", Repeats: 0, LowerBound: 0, Bound: "counting", Status: "optimal"}) {
		t.Errorf("13 x 4 spread first: other %+v, want repeats first at 0, optimal", got.Other)
	}

	// The priority is the request's, else the ruleset's.
	if _, got := post(scheduleBody(13, 4, 1, `,"priority":"repeats"`)); got.Priority != "repeats" {
		t.Errorf("priority repeats: the schedule followed %q", got.Priority)
	}
	if _, got := post(scheduleBody(13, 4, 1, `,"ruleset":"national-2025"`)); got.Priority != "spread" {
		t.Errorf("the national ruleset: the schedule followed %q, want its spread", got.Priority)
	}
	for _, bad := range []struct{ extra, want string }{
		{`,"priority":"fairness"`, "priority must be spread or repeats"},
		{`,"ruleset":"no-such"`, "no-such"},
	} {
		if rec, _ := post(scheduleBody(13, 4, 1, bad.extra)); rec.Code < 400 || rec.Code >= 500 || !strings.Contains(rec.Body.String(), bad.want) {
			t.Errorf("schedule with %s = %d %s, want 4xx saying %q", bad.extra, rec.Code, rec.Body, bad.want)
		}
	}
}
