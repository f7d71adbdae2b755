package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestFormsPastTable100: in a hall of more than 400 players a round has
// more than 100 tables, and a judge records a penalty at table 101 and
// moves a player there from the console's forms; the service checks the
// number against the round (a table it does not have is refused with
// its message), not the form against a fixed bound.
func TestFormsPastTable100(t *testing.T) {
	env := webtest.New(t)
	// 403 players: 100 tables of 4 and one of 3.
	tr, _ := env.SeedTournament(403)
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tables) != 101 {
		t.Fatalf("%d tables, want 101", len(r.Tables))
	}
	b := env.Browser()
	b.Login("山田")

	at101 := r.Tables[100].Players[0]
	page := fmt.Sprintf("/judge/t/%d/penalties", tr.ID)
	form := url.Values{"player": {webtest.Itoa(at101)}, "round": {"1"}, "table": {"101"}, "offence": {"note-taking"}, "action": {"record"}}
	if res := b.Post(page, form); res.Status != http.StatusSeeOther {
		t.Fatalf("penalty at table 101 = %d, want 303\n%s", res.Status, res.Body)
	}
	form.Set("table", "102")
	webtest.MustSee(t, "penalty at table 102", b.Post(page, form), http.StatusUnprocessableEntity,
		"第1回戦の卓は 101卓です（102卓ではありません）。")

	// A player of a table of 4 moves to the table of 3, past table 100.
	small := slices.IndexFunc(r.Tables, func(tb tournament.Table) bool { return len(tb.Players) == 3 })
	if small < 0 || r.Tables[small].Number <= 100 {
		t.Fatalf("the table of 3 is %d, want one past table 100", small+1)
	}
	to := webtest.Itoa(int64(r.Tables[small].Number))
	mover := r.Tables[0].Players[0]
	move := fmt.Sprintf("/judge/t/%d/rounds/1/move", tr.ID)
	form = url.Values{"a": {webtest.Itoa(mover)}, "table": {"999"}, "reason": {"卓の移動"}, "confirm": {webtest.Itoa(mover) + "-999"}}
	webtest.MustSee(t, "move to table 999", b.Post(move, form), http.StatusUnprocessableEntity, "999卓はありません（この回戦は 101卓までです）。")
	form = url.Values{"a": {webtest.Itoa(mover)}, "table": {to}, "reason": {"卓の移動"}, "confirm": {webtest.Itoa(mover) + "-" + to}}
	if res := b.Post(move, form); res.Status != http.StatusSeeOther {
		t.Fatalf("move to table %s = %d, want 303\n%s", to, res.Status, res.Body)
	}
	after, err := env.Service.RoundView(env.Ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(after.Round.Tables[small].Players, mover) {
		t.Fatalf("table %s after the move = %v, want %d among them", to, after.Round.Tables[small].Players, mover)
	}
}
