package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// POST .../rounds/{n}/late enters late players (a table of 3 becomes 4
// under the default ruleset), refusing with a code; .../substitute,
// .../sit-in and .../no-show mark, seat and take players, each in the
// JSON shapes docs/api.md gives.
func TestLateEntryAPI(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(7)
	base := fmt.Sprintf("/api/v1/tournaments/%d", tr.ID)
	cl.Call("POST", base+"/rounds", nil, http.StatusCreated, nil)
	var late api.PlayerJSON
	cl.Call("POST", base+"/players", `{"name":"遅刻 一郎","checked_in":true}`, http.StatusCreated, &late)
	var refused struct {
		Code   string `json:"code"`
		Detail string `json:"error"`
	}
	cl.Call("POST", base+"/rounds/1/late", `{"players":[]}`, http.StatusUnprocessableEntity, &refused)
	if refused.Code != "late-none" {
		t.Errorf("no players = %+v, want late-none", refused)
	}
	var got api.LateSeatingJSON
	cl.Call("POST", base+"/rounds/1/late", fmt.Sprintf(`{"players":[%d]}`, late.ID), http.StatusOK, &got)
	if got.Join != "fill" || got.Missed != "not-played" || len(got.Seated) != 1 || got.Seated[0].Player != late.ID || got.Seated[0].NewTable || len(got.NextRound) != 0 {
		t.Errorf("late = %+v, want the player at a table of 3", got)
	}
	cl.Call("POST", base+"/rounds/1/late", fmt.Sprintf(`{"players":[%d]}`, late.ID), http.StatusUnprocessableEntity, &refused)
	if refused.Code != "late-in-round" {
		t.Errorf("twice = %+v, want late-in-round", refused)
	}
	var list struct {
		Players []api.PlayerJSON `json:"players"`
	}
	cl.Call("GET", base+"/players", nil, http.StatusOK, &list)
	if i := slices.IndexFunc(list.Players, func(p api.PlayerJSON) bool { return p.ID == late.ID }); i < 0 || list.Players[i].LateJoin != "fill" || list.Players[i].LateEntry != 1 {
		t.Errorf("players = %+v, want the late player with late_join fill from round 1", list.Players)
	}

	// A no-show at a table of 4, then a substitute in their place.
	var round api.RoundJSON
	cl.Call("GET", base+"/rounds/1", nil, http.StatusOK, &round)
	absent := round.Tables[0].Players[0].ID
	var gone api.PlayerJSON
	cl.Call("POST", base+"/rounds/1/tables/1/no-show", fmt.Sprintf(`{"player":%d}`, absent), http.StatusOK, &gone)
	if gone.NoShowRound != 1 || gone.DroppedRound != 2 {
		t.Errorf("no-show = %+v, want round 1, dropped from round 2", gone)
	}
	var helper api.PlayerJSON
	cl.Call("POST", base+"/players", `{"name":"助っ人"}`, http.StatusCreated, &helper)
	cl.Call("POST", base+"/rounds/1/tables/1/sit-in", fmt.Sprintf(`{"player":%d}`, helper.ID), http.StatusUnprocessableEntity, &refused)
	if refused.Code != "sit-in-not-substitute" {
		t.Errorf("sit-in of a player = %+v, want sit-in-not-substitute", refused)
	}
	cl.Call("POST", fmt.Sprintf("%s/players/%d/substitute", base, helper.ID), `{"substitute":true}`, http.StatusOK, &helper)
	if !helper.Substitute {
		t.Errorf("marked = %+v, want a substitute", helper)
	}
	var sat api.SitInJSON
	cl.Call("POST", base+"/rounds/1/tables/1/sit-in", fmt.Sprintf(`{"player":%d}`, helper.ID), http.StatusOK, &sat)
	if sat.Table != 1 || len(sat.Players) != 4 || !slices.Contains(sat.Players, helper.ID) {
		t.Errorf("sit-in = %+v, want table 1 of 4 with the substitute", sat)
	}
}

// The round page's card enters the ticked late players and says where
// they sit; the audit says it in words.
func TestLateEntryPage(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(7)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	late, err := env.Service.AddPlayer(env.Ctx, "desk", tr.ID, tournament.PlayerInput{Name: "遅刻 一郎", CheckedIn: true})
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.LoginAs("田中", tournament.RoleJudge)
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	webtest.MustSee(t, "round page", b.Get(round), http.StatusOK, "遅れて来た参加者・助っ人・欠席", "遅刻 一郎", "第1回戦に入れる",
		"回戦が始まる前なら3人卓に入って4人卓にします",
		// The notice of players the pairing lacks points to the card too,
		// not only to pairing the round again.
		`<a href="#late" id="late-link">遅れて来た参加者として入れることもできます`)
	webtest.MustSee(t, "nobody ticked", b.Post(round+"/late", nil), http.StatusUnprocessableEntity, `id="late-error"`, "入れる参加者を選んでください。")
	res := b.Post(round+"/late", url.Values{"player": {fmt.Sprint(late.ID)}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("late = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "after", b.Get(round), http.StatusOK, "遅れて来た参加者を組み合わせに入れました。", "遅刻 一郎 さん: 遅れて来て", "卓に入りました（3人卓が4人卓に）。")
	webtest.MustSee(t, "audit", b.Get(fmt.Sprintf("/judge/t/%d/audit", tr.ID)), http.StatusOK, "田中 が第1回戦に遅れて来た参加者を入れました。")
}

// The round page takes a player who did not come from their table of 4
// and seats a substitute, marked on their page, at the table of 3 left.
func TestSubstituteAndNoShowPage(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	helper, err := env.Service.AddPlayer(env.Ctx, "desk", tr.ID, tournament.PlayerInput{Name: "助っ人"})
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.LoginAs("田中", tournament.RoleJudge)
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	absent := r.Tables[0].Players[1]
	webtest.MustSee(t, "round page", b.Get(round), http.StatusOK, `id="no-show"`, "卓に来なかった参加者は")
	res := b.Post(round+"/no-show", url.Values{"seat": {fmt.Sprintf("1:%d", absent)}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("no-show = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "after the no-show", b.Get(round), http.StatusOK, "来なかった参加者を卓から外しました。")
	webtest.MustSee(t, "a no-show at a table of 3", b.Post(round+"/no-show", url.Values{"seat": {fmt.Sprintf("1:%d", r.Tables[0].Players[0])}}),
		http.StatusUnprocessableEntity, `id="late-error"`, "1卓は3人卓なので、これ以上外せません。先に助っ人を入れてください。")

	player := fmt.Sprintf("/judge/t/%d/players/%d", tr.ID, helper.ID)
	res = b.Post(player+"/substitute", url.Values{"substitute": {"1"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("substitute = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "player page", b.Get(player), http.StatusOK, "助っ人にしました。組み合わせには入りません。", `id="sub-state"`, "参加者に戻す")
	webtest.MustSee(t, "round page", b.Get(round), http.StatusOK, `id="sit-in"`, "助っ人の成績は誰の順位にも数えず")
	res = b.Post(round+"/sit-in", url.Values{"player": {fmt.Sprint(helper.ID)}, "table": {"1"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("sit-in = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "after the sit-in", b.Get(round), http.StatusOK, "助っ人を卓に入れました。")
	webtest.MustSee(t, "audit", b.Get(fmt.Sprintf("/judge/t/%d/audit", tr.ID)), http.StatusOK,
		"田中 が第1回戦 1卓に来なかった参加者を卓から外しました。", "田中 が第1回戦 1卓に助っ人を入れました。", "の助っ人の設定を変えました。")
}
