package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// actions returns the actions of a tournament's audit log, newest first.
func actions(t *testing.T, env *webtest.Env, tid int64) []string {
	t.Helper()
	log, err := env.Service.AuditLog(env.Ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range log {
		out = append(out, e.Action)
	}
	return out
}

// A form is one change: registering a player checked in, from the console
// or the API, writes the player once, checked in, with one audit line.
func TestAddPlayerCheckedInIsOneChange(t *testing.T) {
	env := webtest.New(t)
	tr, _ := env.SeedTournament(0)
	b := env.Browser()
	b.Login("山田")
	players := fmt.Sprintf("/judge/t/%d/players", tr.ID)
	before := len(actions(t, env, tr.ID))
	res := b.Post(players, url.Values{"name": {"青木"}, "kana": {"あおき"}, "check_in": {"1"}})
	if res.Status != http.StatusSeeOther {
		t.Fatalf("POST %s = %d, want 303\n%s", players, res.Status, res.Body)
	}
	rec := webtest.Do(env.Handler, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tr.ID), `{"name":"井上"}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusCreated {
		t.Fatalf("POST players API = %d %s", rec.Code, rec.Body)
	}
	if got := actions(t, env, tr.ID)[:len(actions(t, env, tr.ID))-before]; !slices.Equal(got, []string{"player.add", "player.add"}) {
		t.Errorf("audit lines of two registrations = %v, want one player.add each", got)
	}
	ps, err := env.Service.Players(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || !ps[0].CheckedIn || !ps[1].CheckedIn {
		t.Errorf("players = %+v, want both checked in", ps)
	}
}

// The player edit form is one change: refused as a whole when a part is
// refused (here a fifth player fixed to table 1), else saved with one
// audit line.
func TestEditPlayerFormIsOneChange(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(8)
	for _, p := range ps[:4] {
		if _, err := env.Service.EditPlayer(env.Ctx, "setup", tr.ID, p.ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: p.Name, Kana: p.Kana}, FixedTable: 1}); err != nil {
			t.Fatal(err)
		}
	}
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d/players/%d", tr.ID, ps[4].ID)
	form := url.Values{"name": {"新しい名前"}, "kana": {"あたらしい"}, "fixed_table": {"1"}, "keep_apart": {strconv.FormatInt(ps[5].ID, 10)}}
	before := actions(t, env, tr.ID)
	webtest.MustSee(t, "a fifth player at table 1", b.Post(page, form), http.StatusUnprocessableEntity, "1卓にはすでに", "新しい名前")
	got, err := env.Service.GetPlayer(env.Ctx, ps[4].TournamentID, ps[4].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != ps[4].Name || got.FixedTable != 0 || len(got.KeepApart) != 0 {
		t.Errorf("player after the refused form = %+v, want nothing saved", got)
	}
	if after := actions(t, env, tr.ID); len(after) != len(before) {
		t.Errorf("the refused form wrote audit lines %v", after[:len(after)-len(before)])
	}
	form.Set("fixed_table", "2")
	if res := b.Post(page, form); res.Status != http.StatusSeeOther {
		t.Fatalf("POST %s = %d, want 303\n%s", page, res.Status, res.Body)
	}
	want := tournament.Player{Name: "新しい名前", Kana: "あたらしい", FixedTable: 2, KeepApart: []int64{ps[5].ID}}
	got, err = env.Service.GetPlayer(env.Ctx, ps[4].TournamentID, ps[4].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != want.Name || got.Kana != want.Kana || got.FixedTable != 2 || !slices.Equal(got.KeepApart, want.KeepApart) {
		t.Errorf("player after the form = %+v, want %+v", got, want)
	}
	if after := actions(t, env, tr.ID); len(after) != len(before)+1 || after[0] != "player.edit" {
		t.Errorf("audit lines of the form = %v, want one player.edit", after[:len(after)-len(before)])
	}
}
