package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestSwapCreatingARepeatAsksToConfirm: a swap that seats two players
// together again is not made at once: the page names who meets again and
// asks; the confirmed swap is made, and the round page names the repeat.
func TestSwapCreatingARepeatAsksToConfirm(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(12)
	names := map[int64]string{}
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	p := &webtest.Paired{Env: env, Tournament: tr}
	p.SaveAll(1)
	r2, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, b, added := tournamenttest.SwapAddingRepeat(t, env.Service, tr.ID, 2)
	br := env.Browser()
	br.Login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/2", tr.ID)
	form := url.Values{"a": {webtest.Itoa(a)}, "b": {webtest.Itoa(b)}, "reason": {"友人同士の希望"}}
	res := br.Post(round+"/swap", form)
	confirm := webtest.Itoa(a) + "-" + webtest.Itoa(b)
	want := []string{`id="swap-repeats"`, `<input type="hidden" name="confirm" value="` + confirm + `">`, "再戦を承知で変更する"}
	for _, rp := range added {
		want = append(want, fmt.Sprintf("%d卓: %s と %s（第1回戦でも同じ卓）", rp.Table, names[rp.A], names[rp.B]))
	}
	webtest.MustSee(t, "a swap making a repeat", res, http.StatusOK, want...)
	if rv, _ := env.Service.RoundView(env.Ctx, tr.ID, 2); !tournament.SamePairing(rv.Round, r2) {
		t.Fatal("the swap was made before the judge confirmed it")
	}
	// A confirmation of another swap is asked again.
	form.Set("confirm", webtest.Itoa(b)+"-"+webtest.Itoa(a))
	webtest.MustSee(t, "a confirmation of another swap", br.Post(round+"/swap", form), http.StatusOK, `id="swap-repeats"`)
	form.Set("confirm", confirm)
	if res := br.Post(round+"/swap", form); res.Status != http.StatusSeeOther {
		t.Fatalf("confirmed swap = %d\n%s", res.Status, res.Body)
	}
	page := br.Get(round)
	webtest.MustSee(t, "round page after", page, http.StatusOK, `<details class="repeats" id="repeats">`, want[len(want)-1])
}

// TestRepairSaysWhenNothingChanged: three players have one way to sit, so
// pairing their round again says it came out the same.
func TestRepairSaysWhenNothingChanged(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(3)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	res := b.Post(round+"/repair", nil)
	webtest.MustSee(t, "repair", b.Get(res.Location), http.StatusOK, "前と同じ組み合わせになりました")
}

// TestRoundPageJumpAndStartedForms: a round of many tables offers a jump
// to each; once a table is seated the swap and move forms give way to
// why.
func TestRoundPageJumpAndStartedForms(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(40)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	res := b.Get(round)
	webtest.MustSee(t, "10-table round", res, http.StatusOK, `<nav class="jump" aria-label="卓へ移動" id="jump">`,
		`<a href="#table-10" class="open">10</a>`, `id="table-10"`, `action="`+round+`/swap"`)
	if len(r.Tables) != 10 {
		t.Fatalf("40 players make %d tables, want 10", len(r.Tables))
	}
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	res = b.Get(round)
	webtest.MustSee(t, "started round", res, http.StatusOK, `id="no-change"`)
	for _, form := range []string{`action="` + round + `/swap"`, `action="` + round + `/move"`} {
		if strings.Contains(res.Body, form) {
			t.Errorf("a started round's page has %s", form)
		}
	}
	small, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", small.ID); err != nil {
		t.Fatal(err)
	}
	if body := b.Get(fmt.Sprintf("/judge/t/%d/rounds/1", small.ID)).Body; strings.Contains(body, `class="jump"`) {
		t.Error("a 2-table round has the jump")
	}
}
