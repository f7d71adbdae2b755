package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestPenaltyFormContext: the form opens on the latest round, lists each
// player's table by round for the script to fill in, and after a record
// comes back in the same round and at the same table.
func TestPenaltyFormContext(t *testing.T) {
	p := webtest.NewPaired(t)
	if _, err := p.Service.PairNextRound(p.Ctx, "setup", p.Tournament.ID); err != nil {
		// Round 2 needs round 1's results.
		p.SaveAll(1)
		if _, err := p.Service.PairNextRound(p.Ctx, "setup", p.Tournament.ID); err != nil {
			t.Fatal(err)
		}
	}
	page := fmt.Sprintf("/judge/t/%d/penalties", p.Tournament.ID)
	rv, err := p.Service.RoundView(p.Ctx, p.Tournament.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	player := rv.Round.Tables[1].Players[0]
	r1 := 0
	for _, tb := range p.Round.Tables {
		for _, id := range tb.Players {
			if id == player {
				r1 = tb.Number
			}
		}
	}
	res := p.B.Get(page)
	webtest.MustSee(t, "penalties page", res, http.StatusOK,
		`<option value="2" selected>第2回戦</option>`,
		fmt.Sprintf(`<option value="%d" data-tables="1:%d 2:2">`, player, r1),
		`data-fill-table`)
	webtest.MustSee(t, "outside a round, asked for", p.B.Get(page+"?round=0"), http.StatusOK, `<option value="0" selected>`)

	form := url.Values{"player": {webtest.Itoa(player)}, "round": {"2"}, "table": {"2"}, "offence": {"note-taking"}, "action": {"record"}}
	res = p.B.Post(page, form)
	if want := page + "?round=2&table=2#record-h"; res.Status != http.StatusSeeOther || res.Location != want {
		t.Fatalf("record = %d to %q, want 303 to %q\n%s", res.Status, res.Location, want, res.Body)
	}
	webtest.MustSee(t, "after the record", p.B.Get(res.Location), http.StatusOK, "ペナルティを記録しました。",
		`<option value="2" selected>第2回戦</option>`, `id="table" name="table" type="number" inputmode="numeric" min="0" value="2"`)
}
