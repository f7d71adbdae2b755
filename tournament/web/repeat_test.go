package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestSwapCreatingARepeatAsksToConfirm: a swap that seats two players
// together again is not made at once: the page names who meets again and
// asks; the confirmed swap is made, and the round page names the repeat.
func TestSwapCreatingARepeatAsksToConfirm(t *testing.T) {
	env := newConsoleEnv(t)
	tr, ps := env.seedTournament(12)
	names := map[int64]string{}
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	if _, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	p := &pairedEnv{consoleEnv: env, t: tr}
	p.saveAll(1)
	r2, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, b, added := tournamenttest.SwapAddingRepeat(t, env.svc, tr.ID, 2)
	br := env.browser()
	br.login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/2", tr.ID)
	form := url.Values{"a": {itoa(a)}, "b": {itoa(b)}, "reason": {"友人同士の希望"}}
	res := br.post(round+"/swap", form)
	confirm := itoa(a) + "-" + itoa(b)
	want := []string{`id="swap-repeats"`, `<input type="hidden" name="confirm" value="` + confirm + `">`, "再戦を承知で変更する"}
	for _, rp := range added {
		want = append(want, fmt.Sprintf("%d卓: %s と %s（第1回戦でも同じ卓）", rp.Table, names[rp.A], names[rp.B]))
	}
	mustSee(t, "a swap making a repeat", res, http.StatusOK, want...)
	if rv, _ := env.svc.RoundView(env.ctx, tr.ID, 2); !tournament.SamePairing(rv.Round, r2) {
		t.Fatal("the swap was made before the judge confirmed it")
	}
	// A confirmation of another swap is asked again.
	form.Set("confirm", itoa(b)+"-"+itoa(a))
	mustSee(t, "a confirmation of another swap", br.post(round+"/swap", form), http.StatusOK, `id="swap-repeats"`)
	form.Set("confirm", confirm)
	if res := br.post(round+"/swap", form); res.Status != http.StatusSeeOther {
		t.Fatalf("confirmed swap = %d\n%s", res.Status, res.Body)
	}
	page := br.get(round)
	mustSee(t, "round page after", page, http.StatusOK, `<details class="repeats" id="repeats">`, want[len(want)-1])
}

// TestRepairSaysWhenNothingChanged: three players have one way to sit, so
// pairing their round again says it came out the same.
func TestRepairSaysWhenNothingChanged(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(3)
	if _, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	b := env.browser()
	b.login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	res := b.post(round+"/repair", nil)
	mustSee(t, "repair", b.get(res.Location), http.StatusOK, "前と同じ組み合わせになりました")
}

// TestRoundPageJumpAndStartedForms: a round of many tables offers a jump
// to each; once a table is seated the swap and move forms give way to
// why.
func TestRoundPageJumpAndStartedForms(t *testing.T) {
	env := newConsoleEnv(t)
	tr, _ := env.seedTournament(40)
	r, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := env.browser()
	b.login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	res := b.get(round)
	mustSee(t, "10-table round", res, http.StatusOK, `<nav class="jump" aria-label="卓へ移動" id="jump">`,
		`<a href="#table-10" class="open">10</a>`, `id="table-10"`, `action="`+round+`/swap"`)
	if len(r.Tables) != 10 {
		t.Fatalf("40 players make %d tables, want 10", len(r.Tables))
	}
	if _, err := env.svc.SetSeating(env.ctx, "setup", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	res = b.get(round)
	mustSee(t, "started round", res, http.StatusOK, `id="no-change"`)
	for _, form := range []string{`action="` + round + `/swap"`, `action="` + round + `/move"`} {
		if strings.Contains(res.Body, form) {
			t.Errorf("a started round's page has %s", form)
		}
	}
	small, _ := env.seedTournament(8)
	if _, err := env.svc.PairNextRound(env.ctx, "setup", small.ID); err != nil {
		t.Fatal(err)
	}
	if body := b.get(fmt.Sprintf("/judge/t/%d/rounds/1", small.ID)).Body; strings.Contains(body, `class="jump"`) {
		t.Error("a 2-table round has the jump")
	}
}
