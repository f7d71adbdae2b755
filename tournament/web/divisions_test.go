package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/api"
)

// refusal is a coded refusal as the API answers it.
type refusal struct {
	Code   string `json:"code"`
	Detail string `json:"error"`
}

// The API's divisions: an event gets a division, players register in it
// through the event, each division pairs its own players, and the
// standings of one division are asked for by name; bad input is refused
// by code and changes nothing.
func TestDivisionsAPI(t *testing.T) {
	env := newConsoleEnv(t)
	cl := apiClient{t: t, env: env}
	var main, kid api.TournamentDetailJSON
	cl.call("POST", "/api/v1/tournaments", `{"name":"冬のカタン大会","rounds":2}`, http.StatusCreated, &main)
	base := fmt.Sprintf("/api/v1/tournaments/%d", main.ID)
	cl.call("PUT", base+"/division", `{"name":"一般の部"}`, http.StatusOK, &main)
	cl.call("POST", base+"/divisions", `{"name":"小学生の部"}`, http.StatusCreated, &kid)
	want := []api.DivisionJSON{{Name: "一般の部", Tournament: main.ID}, {Name: "小学生の部", Tournament: kid.ID}}
	if kid.Division != "小学生の部" || !slices.Equal(kid.Divisions, want) || kid.Name != "冬のカタン大会 小学生の部" || kid.Rounds != 2 {
		t.Errorf("division = %+v, want 小学生の部 of the event with its settings", kid.TournamentJSON)
	}
	var r refusal
	for _, tc := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"POST", base + "/divisions", `{"name":""}`, 422, "division-name-missing"},
		{"POST", base + "/divisions", `{"name":"小学生の部"}`, 422, "division-name-taken"},
		{"POST", fmt.Sprintf("/api/v1/tournaments/%d/divisions", kid.ID), `{"name":"中学生の部"}`, 422, "division-of-division"},
		{"POST", base + "/players", `{"name":"山田","division":"中学生の部"}`, 422, "unknown-division"},
		{"GET", base + "/standings?division=" + url.QueryEscape("中学生の部"), "", 404, "unknown-division"},
	} {
		cl.call(tc.method, tc.path, tc.body, tc.status, &r)
		if r.Code != tc.code || r.Detail == "" {
			t.Errorf("%s %s %s = %+v, want %s with its message", tc.method, tc.path, tc.body, r, tc.code)
		}
	}
	// The message in Japanese names the division asked for.
	rec := do(env.h, "GET", base+"/standings?division="+url.QueryEscape("中学生の部"), "", "Accept-Language", "ja")
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "「中学生の部」という部門はありません") || !strings.Contains(rec.Body.String(), "小学生の部") {
		t.Errorf("unknown division in Japanese = %d %s", rec.Code, rec.Body)
	}
	for _, n := range []string{"青木", "伊藤", "上田", "江藤"} {
		var p api.PlayerJSON
		cl.call("POST", base+"/players", fmt.Sprintf(`{"name":%q}`, n), http.StatusCreated, &p)
		if p.Division != "一般の部" {
			t.Errorf("%s's division = %q, want 一般の部", n, p.Division)
		}
	}
	for _, n := range []string{"あおい", "いつき", "うた", "えま"} {
		var p api.PlayerJSON
		cl.call("POST", base+"/players", fmt.Sprintf(`{"name":%q,"division":"小学生の部"}`, n), http.StatusCreated, &p)
		if p.Division != "小学生の部" {
			t.Errorf("%s's division = %q, want 小学生の部", n, p.Division)
		}
	}
	var players struct {
		Players []api.PlayerJSON `json:"players"`
	}
	cl.call("GET", base+"/players", nil, http.StatusOK, &players)
	if len(players.Players) != 4 || slices.ContainsFunc(players.Players, func(p api.PlayerJSON) bool { return p.Name == "山田" }) {
		t.Errorf("the main division's players = %+v, want the 4 of 一般の部 and not the refused one", players.Players)
	}
	kidPath := fmt.Sprintf("/api/v1/tournaments/%d", kid.ID)
	var round api.RoundJSON
	cl.call("POST", kidPath+"/rounds", nil, http.StatusCreated, &round)
	if len(round.Tables) != 1 || len(round.Tables[0].Players) != 4 {
		t.Fatalf("the kids' round 1 = %+v, want one table of their 4", round)
	}
	for _, p := range round.Tables[0].Players {
		if !slices.Contains([]string{"あおい", "いつき", "うた", "えま"}, p.Name) {
			t.Errorf("the kids' table seats %s", p.Name)
		}
	}
	var st api.StandingsJSON
	cl.call("GET", base+"/standings?division="+url.QueryEscape("小学生の部"), nil, http.StatusOK, &st)
	var names []string
	for _, x := range st.Standings {
		names = append(names, x.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"あおい", "いつき", "うた", "えま"}) {
		t.Errorf("小学生の部's standings = %v, want its 4 players alone", names)
	}
	var own api.StandingsJSON
	cl.call("GET", base+"/standings", nil, http.StatusOK, &own)
	if len(own.Standings) != 4 || own.Standings[0].Name == "あおい" {
		t.Errorf("the main's standings = %+v, want 一般の部's 4", own.Standings)
	}
}
