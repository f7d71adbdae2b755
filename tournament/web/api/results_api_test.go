package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// docs/rules.md §12: the VP a table reports above 13 each add up to at most 9.
// Four players with 22 VP and a declarer is a typo, refused with a message
// that says why, and nothing is saved.
func TestImpossibleTableRefused(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	cl := webtest.APIClient{T: t, Env: env}
	var round api.RoundJSON
	cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), nil, 201, &round)
	players := round.Tables[0].Players
	body := fmt.Sprintf(`{"scores":[{"player":%d,"vp":22},{"player":%d,"vp":22},{"player":%d,"vp":22},{"player":%d,"vp":22}],"declared":%d,"version":0}`,
		players[0].ID, players[1].ID, players[2].ID, players[3].ID, players[0].ID)
	path := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID)
	for _, tt := range []struct{ lang, want string }{
		{"ja", "2点カードと1ポイントカードで卓全体に9点まで"},
		{"en", "at most 9 VP to the whole table"},
	} {
		rec := webtest.Do(env.Handler, "PUT", path, body, "Authorization", "Bearer test-token", "Accept-Language", tt.lang)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tt.want) ||
			!strings.Contains(rec.Body.String(), `"code":"table-vp-impossible"`) || !strings.Contains(rec.Body.String(), players[0].Name) {
			t.Errorf("PUT %s (%s) = %d %s, want 422 table-vp-impossible saying %q and naming the players", path, tt.lang, rec.Code, rec.Body, tt.want)
		}
	}
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil, 200, &round)
	if round.Tables[0].Result != nil {
		t.Errorf("the refused sheet was saved: %+v", round.Tables[0].Result)
	}
}

// docs/rules.md, Penalties: a deduction shows as such, 6 − 2 = 4 with the
// penalty it comes from, on the score page, the round page, the kiosk and
// in GET .../rounds/{n}, whose scores carry reported_vp, deducted and vp.
func TestDeductionShownAsSuch(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	winner, deducted := table.Players[0], table.Players[1]
	in := tournament.ResultInput{Declared: winner}
	for i, id := range table.Players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{12, 6, 5, 3}[i]})
	}
	if _, err := p.Service.SaveResult(p.Ctx, "setup", p.Tournament.ID, 1, 1, in); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Service.RecordPenalty(p.Ctx, "setup", p.Tournament.ID, tournament.PenaltyInput{PlayerID: deducted, Round: 1, Offence: "note-taking", Level: referee.VPDeduction}); err != nil {
		t.Fatal(err)
	}
	var round api.RoundJSON
	webtest.APIClient{T: t, Env: p.Env}.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", p.Tournament.ID), nil, 200, &round)
	got := map[int64]api.PlaceIDJSON{}
	for _, sc := range round.Tables[0].Result.Scores {
		got[sc.Player] = sc
	}
	if sc := got[deducted]; sc.ReportedVP != 6 || sc.Deducted != 2 || sc.VP != 4 || !slices.Equal(sc.Penalties, []string{"vp_deduction"}) {
		t.Errorf("GET round: deducted player's score = %+v, want reported_vp 6, deducted 2, vp 4", sc)
	}
	if sc := got[winner]; sc.ReportedVP != 12 || sc.Deducted != 0 || sc.VP != 10 {
		t.Errorf("GET round: winner's score = %+v, want reported_vp 12 (as written), deducted 0, vp 10 (the cap)", sc)
	}
	rec := webtest.Do(p.Handler, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", p.Tournament.ID), "")
	for _, key := range []string{`"reported_vp":6`, `"deducted":2`, `"vp":4`} {
		if !strings.Contains(rec.Body.String(), key) {
			t.Errorf("GET round body lacks %s: %s", key, rec.Body)
		}
	}
	webtest.MustSee(t, "score page", p.B.Get(p.URL+"/tables/1/score"), http.StatusOK, "6 − 2 = 4", "勝利点減点（メモを取った）", "12 → 10")
	webtest.MustSee(t, "round page", p.B.Get(p.URL), http.StatusOK, "6 − 2 = 4", "勝利点減点（メモを取った）")
	webtest.MustSee(t, "kiosk", p.B.Get(fmt.Sprintf("/kiosk/%d", p.Tournament.ID)), http.StatusOK, "6 − 2 = 4点", `<span class="k-pen">勝利点減点</span>`)
	// Issue 25: the penalty list says how many points the deduction took.
	webtest.MustSee(t, "penalty list", p.B.Get(fmt.Sprintf("/judge/t/%d/penalties", p.Tournament.ID)), http.StatusOK, "勝利点 −2")
	webtest.MustSee(t, "penalty list in English", p.B.Get(fmt.Sprintf("/judge/t/%d/penalties?lang=en", p.Tournament.ID)), http.StatusOK, "−2 VP")
	webtest.MustSee(t, "score page in English", p.B.Get(p.URL+"/tables/1/score?lang=en"), http.StatusOK, "6 − 2 = 4", "VP deduction (Took notes)")
}

// docs/rules.md §12: a time-ended save before the table's time is up needs the
// judge's reason: without one the API answers 422 with the code
// ended-by-time-early and says what is missing; the console's sheet shows the
// message next to its reason field. With a reason the result is saved and
// marked as ended early.
func TestEndedByTimeEarlyNeedsAReason(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	var scores []string
	for i, id := range table.Players {
		scores = append(scores, fmt.Sprintf(`{"player":%d,"vp":%d}`, id, 8-i))
	}
	path := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", p.Tournament.ID)
	sheet := func(reason string) string {
		return fmt.Sprintf(`{"scores":[%s],"declared":null,"version":0,"reason":%q}`, strings.Join(scores, ","), reason)
	}
	rec := webtest.Do(p.Handler, "PUT", path, sheet(""), "Authorization", "Bearer test-token", "Accept-Language", "en")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code":"ended-by-time-early"`) ||
		!strings.Contains(rec.Body.String(), "the clock of round 1 has not started") || !strings.Contains(rec.Body.String(), "reason") {
		t.Errorf("PUT a time-ended sheet before the clock = %d %s, want 422 ended-by-time-early saying the clock has not started", rec.Code, rec.Body)
	}
	if _, err := p.Service.ClockAction(p.Ctx, "setup", p.Tournament.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	rec = webtest.Do(p.Handler, "PUT", path, sheet(""), "Authorization", "Bearer test-token")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code":"ended-by-time-early"`) || !strings.Contains(rec.Body.String(), "（残り ") {
		t.Errorf("PUT a time-ended sheet with time left = %d %s, want 422 ended-by-time-early with the time left", rec.Code, rec.Body)
	}

	// The console's sheet: the reason field, and the message next to it.
	form := url.Values{"version": {"0"}, "action": {"save"}, "declared": {"time"}}
	for i, id := range table.Players {
		form.Set(fmt.Sprintf("vp_%d", id), strconv.Itoa(8-i))
	}
	score := p.URL + "/tables/1/score"
	webtest.MustSee(t, "the sheet before the signal", p.B.Get(score), http.StatusOK, `id="reason"`, "合図の前に終了した理由")
	webtest.MustSee(t, "time without a reason", p.B.Post(score, form), http.StatusUnprocessableEntity, `id="reason-error"`, "時間はまだ終わっていません")
	form.Set("reason", "失格者が出たためジャッジが終了")
	if res := p.B.Post(score, form); res.Status != http.StatusSeeOther {
		t.Fatalf("time with a reason = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "the saved sheet", p.B.Get(score), http.StatusOK, "合図の前にジャッジが終了", "失格者が出たためジャッジが終了")
	var revs struct {
		Revisions []api.RevisionJSON `json:"revisions"`
	}
	webtest.APIClient{T: t, Env: p.Env}.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/revisions", p.Tournament.ID), nil, 200, &revs)
	if len(revs.Revisions) != 1 || !revs.Revisions[0].EndedEarly || revs.Revisions[0].Reason != "失格者が出たためジャッジが終了" {
		t.Errorf("revisions = %+v, want one ended early with the reason", revs.Revisions)
	}
}

// Issue 15: the score sheet's PUT takes each player's VP breakdown. A
// total that does not add up is a coded 422 naming the player, the field
// and the sum, in the request's language, and nothing is saved; a sheet
// that adds up is saved with its breakdowns, which the round, the
// placings and the revisions show.
func TestResultBreakdownAPI(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	cl := webtest.APIClient{T: t, Env: env}
	var round api.RoundJSON
	cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), nil, 201, &round)
	p := round.Tables[0].Players
	path := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/result", tr.ID)
	sheet := func(firstVP int) string {
		return fmt.Sprintf(`{"scores":[
			{"player":%d,"vp":%d,"breakdown":{"settlements":2,"cities":2,"longest_road":true,"largest_army":false,"point_cards":2}},
			{"player":%d,"breakdown":{"settlements":1,"cities":2,"longest_road":false,"largest_army":true,"point_cards":0}},
			{"player":%d,"vp":5},
			{"player":%d,"breakdown":{"settlements":2,"cities":1,"longest_road":false,"largest_army":false,"point_cards":1}}],
			"declared":%d,"version":0}`, p[0].ID, firstVP, p[1].ID, p[2].ID, p[3].ID, p[0].ID)
	}
	for _, tt := range []struct{ lang, want string }{
		{"ja", "「" + p[0].Name + "」の勝利点は11点と書かれていますが、内訳からは10点です（§11）"},
		{"en", p[0].Name + " wrote 11 VP, but the breakdown gives 10 (§11)"},
	} {
		rec := webtest.Do(env.Handler, "PUT", path, sheet(11), "Authorization", "Bearer test-token", "Accept-Language", tt.lang)
		body := rec.Body.String()
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, tt.want) || !strings.Contains(body, `"code":"sheet-vp-mismatch"`) ||
			!strings.Contains(body, fmt.Sprintf(`"player":%d`, p[0].ID)) || !strings.Contains(body, `"field":"vp"`) {
			t.Errorf("PUT %s (%s) = %d %s, want 422 sheet-vp-mismatch saying %q with the player and field", path, tt.lang, rec.Code, body, tt.want)
		}
	}
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil, 200, &round)
	if round.Tables[0].Result != nil {
		t.Fatalf("the refused sheet was saved: %+v", round.Tables[0].Result)
	}

	var saved struct {
		Placings []api.PlaceIDJSON `json:"placings"`
	}
	cl.Call("PUT", path, sheet(10), 200, &saved)
	want := map[int64]api.PlaceIDJSON{
		p[0].ID: {Player: p[0].ID, VP: 10, Place: 1, ReportedVP: 10, Breakdown: &api.BreakdownJSON{Settlements: 2, Cities: 2, LongestRoad: true, PointCards: 2}},
		p[1].ID: {Player: p[1].ID, VP: 7, Place: 2, ReportedVP: 7, Breakdown: &api.BreakdownJSON{Settlements: 1, Cities: 2, LargestArmy: true}},
		p[2].ID: {Player: p[2].ID, VP: 5, Place: 3, ReportedVP: 5},
		p[3].ID: {Player: p[3].ID, VP: 5, Place: 3, ReportedVP: 5, Breakdown: &api.BreakdownJSON{Settlements: 2, Cities: 1, PointCards: 1}},
	}
	check := func(what string, got []api.PlaceIDJSON) {
		for _, sc := range got {
			if diff := cmp.Diff(want[sc.Player], sc); diff != "" {
				t.Errorf("%s: score of %d (-want +got):\n%s", what, sc.Player, diff)
			}
		}
	}
	check("PUT", saved.Placings)
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil, 200, &round)
	check("GET round", round.Tables[0].Result.Scores)
	var revs struct {
		Revisions []api.RevisionJSON `json:"revisions"`
	}
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/revisions", tr.ID), nil, 200, &revs)
	if len(revs.Revisions) != 1 || revs.Revisions[0].Scores[1].Breakdown == nil || *revs.Revisions[0].Scores[1].Breakdown != *want[p[1].ID].Breakdown ||
		revs.Revisions[0].Scores[1].VP != 7 || revs.Revisions[0].Scores[2].Breakdown != nil {
		t.Errorf("revisions = %+v, want the breakdowns as saved", revs)
	}
	// The kiosk shows each breakdown the sheet gave, under its player, and
	// none for the player whose VP came alone.
	kiosk := webtest.Do(env.Handler, "GET", fmt.Sprintf("/kiosk/%d", tr.ID), "", "Accept-Language", "ja").Body.String()
	for _, b := range []string{"家2・街2・ロンゲストロード・1ポイント×2", "家1・街2・ラージェストアーマー", "家2・街1・1ポイント×1"} {
		if !strings.Contains(kiosk, `<span class="k-breakdown">`+b+`</span>`) {
			t.Errorf("the kiosk does not show the breakdown %s", b)
		}
	}
	if n := strings.Count(kiosk, `class="k-breakdown"`); n != 3 {
		t.Errorf("the kiosk shows %d breakdowns, want 3 (one score had none)", n)
	}
}

// Issue 15: POST .../tables/{t}/rulings stores a ruling, with the judge and
// the engine's answer, which it answers as the position API evaluates;
// GET lists them; a step off the board is a 422 naming it. A ruling
// changes no result.
func TestRulingsAPI(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(4)
	cl := webtest.APIClient{T: t, Env: env}
	var round api.RoundJSON
	cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tr.ID), nil, 201, &round)
	a, b := strconv.FormatInt(round.Tables[0].Players[0].ID, 10), strconv.FormatInt(round.Tables[0].Players[1].ID, 10)
	path := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/rulings", tr.ID)
	body := fmt.Sprintf(`{"note":"道が切られた","steps":[
		{"do":"settlement","player":%[1]q,"at":"N(0,0)"},
		{"do":"road","player":%[1]q,"edge":["N(0,0)","S(1,-1)"]},{"do":"road","player":%[1]q,"edge":["S(1,-1)","N(1,0)"]},
		{"do":"road","player":%[1]q,"edge":["N(1,0)","S(2,-1)"]},{"do":"road","player":%[1]q,"edge":["S(2,-1)","N(2,0)"]},
		{"do":"road","player":%[1]q,"edge":["N(2,0)","S(3,-1)"]},
		{"do":"settlement","player":%[2]q,"at":"S(1,-1)"}]}`, a, b)
	var got api.RulingJSON
	cl.Call("POST", path, body, 201, &got)
	ev := got.Evaluation
	if got.ID == 0 || got.Judge != tournament.APIActor || got.Note != "道が切られた" || len(got.Steps) != 7 || ev.LongestRoad.Holder != nil ||
		ev.LongestRoad.Code != "longest-road-cut-short" || ev.LongestRoad.Step == nil || *ev.LongestRoad.Step != 6 ||
		ev.Players[0].Road != 4 || len(ev.Players[0].Trail) != 5 || len(got.Notes) == 0 {
		t.Errorf("POST rulings = %+v, want the cut ruled with its trail and notes", got)
	}
	rec := webtest.Do(env.Handler, "POST", path, fmt.Sprintf(`{"steps":[{"do":"settlement","player":%q,"at":"N(9,9)"}],"note":""}`, a),
		"Authorization", "Bearer test-token", "Accept-Language", "en")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"step":0`) {
		t.Errorf("POST a step off the board = %d %s, want 422 naming step 0", rec.Code, rec.Body)
	}
	if rec := webtest.Do(env.Handler, "POST", path, body); rec.Code != http.StatusUnauthorized {
		t.Errorf("POST rulings anonymously = %d, want 401", rec.Code)
	}
	var list struct {
		Rulings []api.RulingJSON `json:"rulings"`
	}
	cl.Call("GET", path, nil, 200, &list)
	if len(list.Rulings) != 1 || list.Rulings[0].Evaluation.LongestRoad.Message == "" || list.Rulings[0].ID != got.ID {
		t.Errorf("GET rulings = %+v, want the one ruling", list)
	}
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID), nil, 200, &round)
	if round.Tables[0].Result != nil {
		t.Errorf("a ruling saved a result: %+v", round.Tables[0].Result)
	}
}
