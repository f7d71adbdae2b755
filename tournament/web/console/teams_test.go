package console_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// Bad teams and line-ups are refused through the API with their code and
// a message in the asker's language, and change nothing.
func TestTeamAPIRefusals(t *testing.T) {
	env := webtest.New(t)
	tr, teams, loose := env.TeamSeed()
	tokyo, osaka := teams[0], teams[1]
	teamsPath := fmt.Sprintf("/api/v1/tournaments/%d/teams", tr.ID)
	lineup := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/lineups/%d", tr.ID, tokyo.ID)
	ids := func(xs ...int64) string { b, _ := json.Marshal(xs); return string(b) }
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code, ja, en             string
	}{
		{"a team of 3", "POST", teamsPath, `{"name":"京都","players":` + ids(loose[:3]...) + `}`, 422, "team-too-small",
			"チームは4〜6人で登録します。3人では少なすぎます。", "A team registers 4 to 6 players; 3 are too few."},
		{"a team of 7", "POST", teamsPath, `{"name":"京都","players":` + ids(loose...) + `}`, 422, "team-too-large",
			"7人では多すぎます。", "7 are too many."},
		{"another team's player", "POST", teamsPath, `{"name":"京都","players":` + ids(append(loose[:3:3], osaka.Players[0])...) + `}`, 409, "player-in-team",
			"大阪選手1 さんはもうチーム「大阪」のメンバーです。", "大阪選手1 is a member of team 大阪 already."},
		{"a line-up of 3", "PUT", lineup, `{"players":` + ids(tokyo.Players[:3]...) + `}`, 422, "lineup-size",
			"出場メンバーは4人選んでください（選んだのは3人）。", "Choose 4 players for the line-up (3 chosen)."},
		{"a line-up of 5", "PUT", lineup, `{"players":` + ids(tokyo.Players...) + `}`, 422, "lineup-size",
			"選んだのは5人", "(5 chosen)"},
		{"a line-up with another team's player", "PUT", lineup, `{"players":` + ids(append(tokyo.Players[:3:3], osaka.Players[0])...) + `}`, 422, "lineup-not-member",
			"大阪選手1 さんはこのチームのメンバーではありません。", "大阪選手1 is not a member of this team."},
		{"a round without Tokyo's line-up", "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), ``, 422, "lineup-missing",
			"チーム「東京」の第1回戦の出場メンバー（4人）が決まっていません。", "Team 東京 has no line-up (4 players) for round 1."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap, _ := env.Service.Snapshot(env.Ctx, tr.ID)
			before := snap.Version()
			for lang, want := range map[string]string{"ja": tc.ja, "en": tc.en} {
				rec := webtest.Do(env.Handler, tc.method, tc.path, tc.body, "Authorization", "Bearer test-token", "Accept-Language", lang)
				var got struct {
					Code  string `json:"code"`
					Error string `json:"error"`
				}
				_ = json.Unmarshal(rec.Body.Bytes(), &got)
				if rec.Code != tc.status || got.Code != tc.code || !strings.Contains(got.Error, want) {
					t.Errorf("%s in %s = %d %s, want %d %s saying %q", tc.name, lang, rec.Code, rec.Body, tc.status, tc.code, want)
				}
			}
			if snap, _ := env.Service.Snapshot(env.Ctx, tr.ID); snap.Version() != before {
				t.Errorf("a refused change moved the tournament from version %d to %d", before, snap.Version())
			}
		})
	}
	// Named, the line-up plays; the teams and the players say so.
	cl := webtest.APIClient{T: t, Env: env}
	var l api.LineupJSON
	cl.Call("PUT", lineup, `{"players":`+ids(tokyo.Players[1:]...)+`}`, http.StatusOK, &l)
	if l.Round != 1 || len(l.Players) != 4 {
		t.Errorf("line-up = %+v", l)
	}
	var round api.RoundJSON
	cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), ``, http.StatusCreated, &round)
	if len(round.Tables) != 4 {
		t.Errorf("round 1 has %d tables, want the 16 players of the line-ups at 4", len(round.Tables))
	}
	var ps struct {
		Players []api.PlayerJSON `json:"players"`
	}
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID), nil, http.StatusOK, &ps)
	for _, p := range ps.Players {
		if p.ID == tokyo.Players[0] && (p.Team == nil || p.Team.Name != "東京") {
			t.Errorf("player %+v, want team 東京", p)
		}
	}
	var st api.TeamStandingsJSON
	cl.Call("GET", teamsPath+"/standings", nil, http.StatusOK, &st)
	if len(st.Teams) != 4 || !st.IndividualStandings || len(st.Teams[0].Players) == 0 {
		t.Errorf("team standings = %+v", st)
	}
}

// The console's team pages: the teams with the next round's line-ups,
// the registration refused inline (a team of 3) and done, a team's
// line-up named and refused (another team's player), and the team
// standings, in Japanese and in English.
func TestTeamPages(t *testing.T) {
	env := webtest.New(t)
	tr, teams, loose := env.TeamSeed()
	tokyo, osaka := teams[0], teams[1]
	b := env.Browser()
	b.Login("山田")
	teamsPage := fmt.Sprintf("/judge/t/%d/teams", tr.ID)
	webtest.MustSee(t, "GET teams", b.Get(teamsPage), http.StatusOK, "チーム戦です。チームは4〜6人で登録し", "第1回戦の出場メンバー",
		"未登録: 組み合わせの前に登録してください", "大阪選手1・大阪選手2・大阪選手3・大阪選手4（メンバー全員）", `href="/judge/t/1/teams"`)
	form := func(name string, ids ...int64) url.Values {
		v := url.Values{"name": {name}}
		for _, id := range ids {
			v.Add("player", fmt.Sprint(id))
		}
		return v
	}
	webtest.MustSee(t, "a team of 3", b.Post(teamsPage, form("京都", loose[:3]...)), http.StatusUnprocessableEntity,
		`id="players-error">チームは4〜6人で登録します。3人では少なすぎます。`, `value="京都"`)
	webtest.MustSee(t, "a team of 3 in English", b.Post(teamsPage, form("京都", loose[:3]...), "Accept-Language", "en"), http.StatusUnprocessableEntity,
		"A team registers 4 to 6 players; 3 are too few.")
	if snap, _ := env.Service.Snapshot(env.Ctx, tr.ID); len(snap.Teams()) != 4 {
		t.Fatalf("a refused team was registered: %d teams", len(snap.Teams()))
	}
	res := b.Post(teamsPage, form("京都", loose[:4]...))
	if res.Status != http.StatusSeeOther {
		t.Fatalf("register = %d\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "after registering", b.Get(teamsPage), http.StatusOK, "チームを登録しました。", "京都")
	teamPage := fmt.Sprintf("/judge/t/%d/teams/%d", tr.ID, tokyo.ID)
	webtest.MustSee(t, "GET team", b.Get(teamPage), http.StatusOK, "第1回戦の出場メンバー（4人）", "出場する4人を選んでください", "第3回戦")
	bad := form("", append(tokyo.Players[:3:3], osaka.Players[0])...)
	bad.Set("round", "1")
	webtest.MustSee(t, "another team's player", b.Post(teamPage, bad), http.StatusUnprocessableEntity,
		`id="players-error">大阪選手1 さんはこのチームのメンバーではありません。`)
	good := form("", tokyo.Players[1:]...)
	good.Set("round", "1")
	if res := b.Post(teamPage, good); res.Status != http.StatusSeeOther {
		t.Fatalf("name line-up = %d\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "after naming", b.Get(teamPage+"?round=1"), http.StatusOK, "出場メンバーを登録しました。", "東京選手2・東京選手3・東京選手4・東京選手5（登録済み）")
	webtest.MustSee(t, "team standings", b.Get(fmt.Sprintf("/judge/t/%d/teams/standings", tr.ID)), http.StatusOK,
		"チーム順位表", "チームの順位は、メンバーの順位点の合計、次に勝利点の合計で決めます。", "東京選手1")
	webtest.MustSee(t, "team standings in English", b.Get(fmt.Sprintf("/judge/t/%d/teams/standings", tr.ID), "Accept-Language", "en"), http.StatusOK,
		"Teams rank by their members&#39; placement points, then VP.")
}

// playTeamRound1 names Tokyo's line-up, pairs round 1 and saves a
// declared win at every table.
func playTeamRound1(env *webtest.Env, tr tournament.Tournament, tokyo tournament.Team) {
	env.TB.Helper()
	if _, err := env.Service.NameLineup(env.Ctx, "setup", tr.ID, tokyo.ID, 1, tokyo.Players[:4]); err != nil {
		env.TB.Fatal(err)
	}
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		env.TB.Fatal(err)
	}
	for _, tb := range r.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8, 6, 4}[i]})
		}
		if _, err := env.Service.SaveResult(env.Ctx, "setup", tr.ID, 1, tb.Number, in); err != nil {
			env.TB.Fatal(err)
		}
	}
}

// The kiosk shows a team event's standings with each team's members, and
// the players' own standings beside them; a ruleset that hides the
// players' standings leaves them, and the members, off.
func TestKioskShowsTeams(t *testing.T) {
	env := webtest.New(t)
	tr, teams, _ := env.TeamSeed()
	playTeamRound1(env, tr, teams[0])
	b := env.Browser()
	webtest.MustSee(t, "kiosk", b.Get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK,
		`<section id="teams" class="k-panel"`, "チーム順位表", "東京選手1・", `<section id="standings" class="k-panel" aria-labelledby="standings-h">`)
	judge := env.Browser()
	judge.Login("山田")
	webtest.MustSee(t, "print", judge.Get(fmt.Sprintf("/judge/t/%d/standings/print", tr.ID)), http.StatusOK,
		`id="team-standings-print"`, "東京選手1・", "個人順位表", "順位の決め方")

	data, err := os.ReadFile(filepath.Join("..", "..", "..", "config", "rulesets", "proshop-2003.json"))
	if err != nil {
		t.Fatal(err)
	}
	own := strings.Replace(string(data), `"name": "proshop-2003",`,
		`"name": "team-cup", "teams": {"min_size": 4, "max_size": 6, "plays": 4, "order": ["points", "vp"], "individual_standings": false},`, 1)
	file := filepath.Join(t.TempDir(), "team-cup.json")
	if err := os.WriteFile(file, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	rulesets, err := config.LoadRulesets(file)
	if err != nil {
		t.Fatal(err)
	}
	env = webtest.New(t, webtest.WithRulesets(rulesets))
	maker := tournament.NewService(env.Store, rulesets, time.Now, tournament.WithSeeds(tournamenttest.Seeds()))
	tr, teams, _ = env.TeamSeedBy(maker, "team-cup")
	if tr.Ruleset.Teams.HideIndividual != true {
		t.Fatalf("the ruleset's teams = %+v, want the players' standings hidden", tr.Ruleset.Teams)
	}
	playTeamRound1(env, tr, teams[0])
	res := env.Browser().Get(fmt.Sprintf("/kiosk/%d", tr.ID))
	webtest.MustSee(t, "kiosk without the players' standings", res, http.StatusOK, `<section id="teams" class="k-panel"`, `<section id="standings" class="k-panel" aria-labelledby="standings-h" hidden>`)
	if strings.Contains(res.Body, "東京選手1・") {
		t.Error("the kiosk lists a team's members while the ruleset hides the players' standings")
	}
	judge = env.Browser()
	judge.Login("山田")
	res = judge.Get(fmt.Sprintf("/judge/t/%d/standings/print", tr.ID))
	webtest.MustSee(t, "print without the players' standings", res, http.StatusOK, `id="team-standings-print"`)
	if strings.Contains(res.Body, "東京選手1") || strings.Contains(res.Body, "個人順位表") {
		t.Error("the print shows the players' standings while the ruleset hides them")
	}
	var st api.TeamStandingsJSON
	webtest.APIClient{T: t, Env: env}.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/teams/standings", tr.ID), nil, http.StatusOK, &st)
	if st.IndividualStandings || len(st.Teams) != 4 || st.Teams[0].Players != nil {
		t.Errorf("team standings = %+v, want the teams without their players", st)
	}
}
