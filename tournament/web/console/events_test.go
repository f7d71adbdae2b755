package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// POST .../players/{pid}/disqualify: a reason is required, the effect is
// one of three or the ruleset's, and the standings say which applied.
func TestDisqualifyAPI(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	tr, cheat := env.DQSeed()
	path := fmt.Sprintf("/api/v1/tournaments/%d/players/%d/disqualify", tr.ID, cheat)
	var refused struct {
		Code   string `json:"code"`
		Detail string `json:"error"`
	}
	cl.Call("POST", path, `{"effect":"remove"}`, http.StatusUnprocessableEntity, &refused)
	if refused.Code != "dq-reason-missing" {
		t.Errorf("no reason: %+v, want dq-reason-missing", refused)
	}
	cl.Call("POST", path, `{"reason":"不正","effect":"erase"}`, http.StatusUnprocessableEntity, &refused)
	if refused.Code != "unknown-dq-effect" {
		t.Errorf("unknown effect: %+v, want unknown-dq-effect", refused)
	}
	var p api.PlayerJSON
	cl.Call("POST", path, `{"reason":"サイコロの細工","effect":"remove"}`, http.StatusOK, &p)
	if p.Disqualification == nil || p.Disqualification.Effect != "remove" || p.Disqualification.Reason != "サイコロの細工" || p.DroppedRound != 2 {
		t.Errorf("disqualified player = %+v, want effect remove with its reason, dropped from round 2", p)
	}
	cl.Call("POST", path, `{"reason":"again"}`, http.StatusUnprocessableEntity, &refused)
	if refused.Code != "already-disqualified" {
		t.Errorf("twice: %+v, want already-disqualified", refused)
	}
	var st api.StandingsJSON
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/standings", tr.ID), nil, http.StatusOK, &st)
	for _, x := range st.Standings {
		switch {
		case x.Player == cheat && (x.Disqualified != "remove" || x.Played != 0):
			t.Errorf("disqualified player's line = %+v, want disqualified remove, no game", x)
		case x.Player != cheat && x.Rank == 1 && x.Firsts != 1:
			t.Errorf("the 2nd placed again: %+v, want 1st", x)
		}
	}
	// An effect left out takes the ruleset's: the preset keeps the results.
	other := st.Standings[0].Player
	cl.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/players/%d/disqualify", tr.ID, other), `{"reason":"遅刻の繰り返し"}`, http.StatusOK, &p)
	if p.Disqualification == nil || p.Disqualification.Effect != "keep" {
		t.Errorf("effect left out = %+v, want the ruleset's keep", p.Disqualification)
	}
}

// The console's disqualification: the form offers the ruleset's effect
// first, shows what the chosen one does to which games before
// confirming, and records it only on the confirmation.
func TestDisqualifyPage(t *testing.T) {
	env := webtest.New(t)
	tr, cheat := env.DQSeed()
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d/players/%d/disqualify", tr.ID, cheat)
	webtest.MustSee(t, "GET disqualify", b.Get(page), http.StatusOK, `value="keep" checked`, "ルールセットの設定", "対戦を無効にする")
	webtest.MustSee(t, "preview without a reason", b.Post(page, url.Values{"effect": {"void"}}), http.StatusUnprocessableEntity, `id="reason-error"`)
	res := b.Post(page, url.Values{"effect": {"void"}, "reason": {"サイコロの細工"}})
	webtest.MustSee(t, "preview", res, http.StatusOK, "これまでの対戦の扱い: 対戦を無効にする", "次の1卓の対戦を無効にします", "第1回戦 1卓", "第2回戦から組み合わせに入りません", `name="confirm" value="1"`)
	if p, _ := env.Service.GetPlayer(env.Ctx, tr.ID, cheat); p.DQEffect != "" {
		t.Fatalf("the preview disqualified the player: %+v", p)
	}
	res = b.Post(page, url.Values{"effect": {"void"}, "reason": {"サイコロの細工"}, "confirm": {"1"}})
	if res.Status != http.StatusSeeOther || !strings.HasSuffix(res.Location, fmt.Sprintf("/players/%d", cheat)) {
		t.Fatalf("confirm = %d to %q, want 303 to the player", res.Status, res.Location)
	}
	webtest.MustSee(t, "player page", b.Get(res.Location), http.StatusOK, "本人が出た対戦を無効にしました", "これまでの対戦の扱い: 対戦を無効にする", "理由: サイコロの細工")
	webtest.MustSee(t, "standings", b.Get(fmt.Sprintf("/judge/t/%d/standings", tr.ID)), http.StatusOK, "失格・対戦を無効にする")
	webtest.MustSee(t, "audit", b.Get(fmt.Sprintf("/judge/t/%d/audit", tr.ID)), http.StatusOK, "を失格にしました。これまでの対戦の扱い: 対戦を無効にする。理由: サイコロの細工")
}

// DELETE .../rounds/{n} undoes the latest round (with a reason once
// results are in), and POST .../rounds/{n}/restore puts it back.
func TestUndoRoundAPI(t *testing.T) {
	env := webtest.New(t)
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.DQSeed()
	path := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID)
	var refused struct {
		Code   string `json:"code"`
		Detail string `json:"error"`
	}
	cl.Call("DELETE", path, nil, http.StatusUnprocessableEntity, &refused)
	if refused.Code != "undo-reason-missing" || !strings.Contains(refused.Detail, "needs a reason") {
		t.Errorf("undo without a reason: %+v, want undo-reason-missing", refused)
	}
	cl.Call("DELETE", fmt.Sprintf("/api/v1/tournaments/%d/rounds/2", tr.ID), `{"reason":"x"}`, http.StatusUnprocessableEntity, &refused)
	if refused.Code != "undo-not-latest" {
		t.Errorf("undo of an unpaired round: %+v, want undo-not-latest", refused)
	}
	var undone api.UndoneRoundJSON
	cl.Call("DELETE", path, `{"reason":"参加者の取り違え"}`, http.StatusOK, &undone)
	if undone.Round != 1 || undone.Tables != 1 || undone.Results != 1 || undone.Reason != "参加者の取り違え" {
		t.Errorf("undone = %+v, want round 1's table and result with the reason", undone)
	}
	cl.Call("GET", path, nil, http.StatusNotFound, nil)
	var restored api.UndoneRoundJSON
	cl.Call("POST", path+"/restore", nil, http.StatusOK, &restored)
	if restored.Tables != 1 || restored.Results != 1 {
		t.Errorf("restored = %+v, want the table and its result", restored)
	}
	var st api.StandingsJSON
	cl.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/standings", tr.ID), nil, http.StatusOK, &st)
	if st.Standings[0].Played != 1 || st.Standings[0].Firsts != 1 {
		t.Errorf("standings after restoring = %+v, want the game counted again", st.Standings[0])
	}
	cl.Call("POST", path+"/restore", nil, http.StatusConflict, &refused)
	if refused.Code != "round-not-restorable" {
		t.Errorf("restoring twice: %+v, want round-not-restorable", refused)
	}
}

// The round page undoes the latest round, refusing without a reason once
// a result is in; the overview then offers to put it back.
func TestUndoRoundPage(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.DQSeed()
	b := env.Browser()
	b.Login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	webtest.MustSee(t, "round page", b.Get(round), http.StatusOK, "第1回戦を取り消す")
	webtest.MustSee(t, "undo without a reason", b.Post(round+"/undo", nil), http.StatusUnprocessableEntity,
		`id="undo-error"`, "第1回戦の卓にはすでに記録があります")
	res := b.Post(round+"/undo", url.Values{"reason": {"参加者の取り違え"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("undo = %d, want 303\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "overview", b.Get(res.Location), http.StatusOK, "回戦を取り消しました", "取り消した第1回戦（1卓、成績1件、ペナルティ0件）を元に戻せます", "理由: 参加者の取り違え")
	res = b.Post(round+"/restore", nil)
	if res.Status != http.StatusSeeOther || res.Location != round {
		t.Fatalf("restore = %d to %q, want 303 to the round", res.Status, res.Location)
	}
	webtest.MustSee(t, "restored round", b.Get(round), http.StatusOK, "取り消した回戦を元に戻しました")
	webtest.MustSee(t, "audit", b.Get(fmt.Sprintf("/judge/t/%d/audit", tr.ID)), http.StatusOK, "が第1回戦を取り消しました", "が取り消した第1回戦を元に戻しました")
}
