package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// A console POST parses, writes and redirects: it builds its page (the
// event's snapshot, read again from the store after any change) only to
// show a refusal. Each POST here comes right after another change, so a
// POST that built its page first would read the whole event: the
// seating, the deal, the ruling and the player's edit read only what
// their change decides from. A refusal still shows its page.
func TestTablePostsWriteBeforeTheyBuildAPage(t *testing.T) {
	broker := live.NewBroker(0, 0)
	st := &readCounter{Store: tournamenttest.NewStore(t, store.WithAfterCommit(broker.Committed))}
	env := webtest.New(t, webtest.OnStore(st, st.Store, broker))
	ev, err := tournamenttest.RecordEvent(env.Ctx, st, env.Service, 40, 8, 7)
	if err != nil {
		t.Fatal(err)
	}
	tid := ev.Tournament.ID
	b := env.Browser()
	b.Login("山田")
	base := fmt.Sprintf("/judge/t/%d/rounds/8/tables/", tid)
	if res := b.Post(base+"2/board", url.Values{"auto": {"1"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("POST the board = %d\n%s", res.Status, res.Body)
	}
	rv, err := env.Service.RoundView(env.Ctx, tid, 8)
	if err != nil {
		t.Fatal(err)
	}
	deal := webtest.DealValues(rv.Tables[1].Board.Chips())
	player := ev.Players[0]
	// The change every POST below comes after.
	if res := b.Post(base+"3/board", url.Values{"auto": {"1"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("POST the board = %d\n%s", res.Status, res.Body)
	}
	for _, p := range []struct {
		what, path string
		form       url.Values
		to         string
	}{
		{"the seating", base + "1/seating", url.Values{"auto": {"1"}}, base + "1#seating"},
		{"the deal", base + "2/deal", deal, base + "2#board"},
		{"the ruling", base + "1/ruling", url.Values{"steps": {"[]"}, "action": {"save"}, "note": {"切断の裁定"}}, base + "1#ruling-"},
		{"the player's edit", fmt.Sprintf("/judge/t/%d/players/%d", tid, player.ID),
			url.Values{"name": {player.Name + "二世"}, "kana": {player.Kana}}, fmt.Sprintf("/judge/t/%d/players#p%d", tid, player.ID)},
	} {
		st.take()
		res := b.Post(p.path, p.form)
		if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, p.to) {
			t.Fatalf("POST %s = %d (Location %q), want 303 to %s\n%s", p.what, res.Status, res.Location, p.to, res.Body)
		}
		reads, n := st.take()
		t.Logf("%s's POST read %v", p.what, reads)
		if reads["Event"] > 0 || n > maxSaveReads {
			t.Errorf("%s's POST read the store %d times (%v), want no read of the event and at most %d", p.what, n, reads, maxSaveReads)
		}
	}
	// A refusal builds the page: a die that is no face, a chip out of
	// range, a player with no name.
	for _, p := range []struct {
		what, path string
		form       url.Values
		want       string
	}{
		{"a seating with a 7", base + "4/seating", url.Values{"round_0": {"1"}, fmt.Sprintf("r0_%d_w", rv.Tables[3].Players[0].PlayerID): {"7"}}, `aria-invalid="true"`},
		{"a deal with a 13", base + "2/deal", url.Values{"chip_0_0": {"13"}}, `aria-invalid="true"`},
		{"a nameless player", fmt.Sprintf("/judge/t/%d/players/%d", tid, player.ID), url.Values{"name": {""}}, `aria-invalid="true"`},
	} {
		webtest.MustSee(t, p.what, b.Post(p.path, p.form), http.StatusUnprocessableEntity, p.want)
	}
}
