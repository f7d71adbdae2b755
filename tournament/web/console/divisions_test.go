package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
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
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	var main, kid api.TournamentDetailJSON
	cl.Call("POST", "/api/v1/tournaments", `{"name":"冬のカタン大会","rounds":2}`, http.StatusCreated, &main)
	base := fmt.Sprintf("/api/v1/tournaments/%d", main.ID)
	cl.Call("PUT", base+"/division", `{"name":"一般の部"}`, http.StatusOK, &main)
	cl.Call("POST", base+"/divisions", `{"name":"小学生の部"}`, http.StatusCreated, &kid)
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
		cl.Call(tc.method, tc.path, tc.body, tc.status, &r)
		if r.Code != tc.code || r.Detail == "" {
			t.Errorf("%s %s %s = %+v, want %s with its message", tc.method, tc.path, tc.body, r, tc.code)
		}
	}
	// The message in Japanese names the division asked for.
	rec := webtest.Do(env.Handler, "GET", base+"/standings?division="+url.QueryEscape("中学生の部"), "", "Accept-Language", "ja")
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "「中学生の部」という部門はありません") || !strings.Contains(rec.Body.String(), "小学生の部") {
		t.Errorf("unknown division in Japanese = %d %s", rec.Code, rec.Body)
	}
	for _, n := range []string{"青木", "伊藤", "上田", "江藤"} {
		var p api.PlayerJSON
		cl.Call("POST", base+"/players", fmt.Sprintf(`{"name":%q}`, n), http.StatusCreated, &p)
		if p.Division != "一般の部" {
			t.Errorf("%s's division = %q, want 一般の部", n, p.Division)
		}
	}
	for _, n := range []string{"あおい", "いつき", "うた", "えま"} {
		var p api.PlayerJSON
		cl.Call("POST", base+"/players", fmt.Sprintf(`{"name":%q,"division":"小学生の部"}`, n), http.StatusCreated, &p)
		if p.Division != "小学生の部" {
			t.Errorf("%s's division = %q, want 小学生の部", n, p.Division)
		}
	}
	var players struct {
		Players []api.PlayerJSON `json:"players"`
	}
	cl.Call("GET", base+"/players", nil, http.StatusOK, &players)
	if len(players.Players) != 4 || slices.ContainsFunc(players.Players, func(p api.PlayerJSON) bool { return p.Name == "山田" }) {
		t.Errorf("the main division's players = %+v, want the 4 of 一般の部 and not the refused one", players.Players)
	}
	kidPath := fmt.Sprintf("/api/v1/tournaments/%d", kid.ID)
	var round api.RoundJSON
	cl.Call("POST", kidPath+"/rounds", nil, http.StatusCreated, &round)
	if len(round.Tables) != 1 || len(round.Tables[0].Players) != 4 {
		t.Fatalf("the kids' round 1 = %+v, want one table of their 4", round)
	}
	for _, p := range round.Tables[0].Players {
		if !slices.Contains([]string{"あおい", "いつき", "うた", "えま"}, p.Name) {
			t.Errorf("the kids' table seats %s", p.Name)
		}
	}
	var st api.StandingsJSON
	cl.Call("GET", base+"/standings?division="+url.QueryEscape("小学生の部"), nil, http.StatusOK, &st)
	var names []string
	for _, x := range st.Standings {
		names = append(names, x.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"あおい", "いつき", "うた", "えま"}) {
		t.Errorf("小学生の部's standings = %v, want its 4 players alone", names)
	}
	var own api.StandingsJSON
	cl.Call("GET", base+"/standings", nil, http.StatusOK, &own)
	if len(own.Standings) != 4 || own.Standings[0].Name == "あおい" {
		t.Errorf("the main's standings = %+v, want 一般の部's 4", own.Standings)
	}
}

// The console's divisions: the overview adds one and names this one,
// refusing bad names in the judge's language with nothing changed; every
// page of a division shows the event's divisions, the players page
// registers in any of them, and the kiosk links each division's.
func TestDivisionsPages(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	b := env.Browser()
	b.Login("山田")
	overview := fmt.Sprintf("/judge/t/%d", tr.ID)
	webtest.MustSee(t, "overview", b.Get(overview), http.StatusOK, `id="divisions"`, "部門を追加", "小学生の部など")
	if res := b.Get(overview); strings.Contains(res.Body, `id="divisions-nav"`) {
		t.Error("an event of one division shows the divisions' navigation")
	}
	webtest.MustSee(t, "name the main", b.Post(overview+"/division", url.Values{"name": {"一般の部"}}), http.StatusSeeOther)
	res := b.Post(overview+"/divisions", url.Values{"name": {"小学生の部"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("add a division = %d %s", res.Status, res.Body)
	}
	kid := res.Location
	webtest.MustSee(t, "the new division's overview", b.Get(kid), http.StatusOK, "部門を追加しました", `id="divisions-nav"`,
		`aria-current="page">小学生の部</a>`, "土曜カタン大会 小学生の部")
	if strings.Contains(b.Get(kid).Body, `id="division-add"`) {
		t.Error("a division's overview offers to add a division to it")
	}
	webtest.MustSee(t, "name taken", b.Post(overview+"/divisions", url.Values{"name": {"小学生の部"}}), http.StatusUnprocessableEntity,
		`id="division-add-error"`, "この大会にはすでに「小学生の部」があります", `value="小学生の部"`)
	webtest.MustSee(t, "no name, in English", b.Post(overview+"/divisions", url.Values{"name": {" "}}, "Accept-Language", "en"),
		http.StatusUnprocessableEntity, "Give the division a name.")
	webtest.MustSee(t, "name taken by the other", b.Post(kid+"/division", url.Values{"name": {"一般の部"}}), http.StatusUnprocessableEntity,
		`id="division-name-error"`, "この大会にはすでに「一般の部」があります")
	if got, _ := env.Service.ListTournaments(env.Ctx); len(got) != 2 {
		t.Errorf("%d tournaments after the refusals, want the main and its one division", len(got))
	}
	// The players page registers in the division chosen, and lands on it.
	players := overview + "/players"
	webtest.MustSee(t, "players", b.Get(players), http.StatusOK, `<select id="division" name="division"`, `<option value="小学生の部">小学生の部</option>`)
	res = b.Post(players, url.Values{"name": {"あおい"}, "kana": {"あおい"}, "check_in": {"1"}, "division": {"小学生の部"}})
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, kid+"/players") {
		t.Fatalf("register in 小学生の部 = %d to %q, want the division's players page", res.Status, res.Location)
	}
	webtest.MustSee(t, "the division's players", b.Get(kid+"/players"), http.StatusOK, "あおい")
	if strings.Contains(b.Get(players).Body, "あおい") {
		t.Error("the main's players page lists the player of 小学生の部")
	}
	webtest.MustSee(t, "unknown division", b.Post(players, url.Values{"name": {"山田"}, "division": {"中学生の部"}}), http.StatusUnprocessableEntity,
		"「中学生の部」という部門はありません")
	// The standings page of one division links the other's.
	webtest.MustSee(t, "standings", b.Get(kid+"/standings"), http.StatusOK, fmt.Sprintf(`href="/judge/t/%d/standings">一般の部</a>`, tr.ID))
	// The kiosk shows each division.
	webtest.MustSee(t, "kiosk", b.Get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK, `id="k-divisions"`,
		fmt.Sprintf(`href="/kiosk/%d" aria-current="page">一般の部</a>`, tr.ID), `>小学生の部</a>`)
}

// Adding and naming divisions is the head judge's, as the other settings
// of the event are: a scorekeeper sees the event's divisions, without the
// forms, and a POST of theirs is refused and adds nothing.
func TestDivisionsAreTheHeadsToChange(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	if _, err := env.Service.AddDivision(env.Ctx, "setup", tr.ID, "小学生の部"); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.LoginAs("佐藤", tournament.RoleScorekeeper)
	overview := fmt.Sprintf("/judge/t/%d", tr.ID)
	res := b.Get(overview)
	webtest.MustSee(t, "overview", res, http.StatusOK, `id="division-list"`, "小学生の部")
	if strings.Contains(res.Body, `id="division-add"`) || strings.Contains(res.Body, `id="division-name"`) {
		t.Error("a scorekeeper's overview offers the divisions' forms")
	}
	if res := b.Post(overview+"/divisions", url.Values{"name": {"中学生の部"}}); res.Status != http.StatusForbidden {
		t.Errorf("a scorekeeper's POST .../divisions = %d, want 403", res.Status)
	}
	if got, _ := env.Service.ListTournaments(env.Ctx); len(got) != 2 {
		t.Errorf("%d tournaments after the refused POST, want 2", len(got))
	}
}
