package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// A form's message shows once, on the page its redirect leads to, as a
// whole page (issue 24): a part a script fetches meanwhile leaves it for
// the page; any other page shown first forgets it, so that it never shows
// later on a page it was not for (「新しいコードを発行しました」 on a round
// page minutes later). A refusal shows as one, not in the box of success.
func TestFlashShowsOnceOnItsPage(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(3)
	b := env.Browser()
	b.Login("山田")
	players := fmt.Sprintf("/judge/t/%d/players", tr.ID)
	overview := fmt.Sprintf("/judge/t/%d", tr.ID)
	const done = `<p class="flash" role="status" data-flash>受付しました。</p>`
	checkIn := func(p int) webtest.Response {
		t.Helper()
		res := b.Post(fmt.Sprintf("%s/%d/checkin", players, ps[p].ID), url.Values{"in": {"1"}})
		if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Location, players) {
			t.Fatalf("check in = %d to %q, want 303 to the players page", res.Status, res.Location)
		}
		return res
	}

	res := checkIn(0)
	if part := b.Get(players + "?part=list"); part.Status != http.StatusOK || strings.Contains(part.Body, "受付しました。</p>") {
		t.Errorf("the list part fetched before the page = %d, shows the message:\n%s", part.Status, part.Body)
	}
	webtest.MustSee(t, "the page the check-in leads to", b.Get(res.Location), http.StatusOK, done)
	if again := b.Get(res.Location); strings.Contains(again.Body, "受付しました。</p>") {
		t.Errorf("the message shows again on reloading the page")
	}

	res = checkIn(1)
	if other := b.Get(overview); strings.Contains(other.Body, "受付しました。") {
		t.Errorf("the overview shows the players page's message:\n%s", other.Body)
	}
	if later := b.Get(res.Location); strings.Contains(later.Body, "受付しました。</p>") {
		t.Errorf("the players page shows the message after another page was shown first")
	}
	if later := b.Get(overview); strings.Contains(later.Body, "受付しました。") {
		t.Errorf("the message is still kept for a later page")
	}

	// The bulk check-in with nobody ticked is refused, as a refusal.
	refused := b.Post(players+"/checkin", url.Values{})
	webtest.MustSee(t, "the bulk check-in with nobody ticked", refused, http.StatusUnprocessableEntity,
		`<p class="form-error" role="alert" id="list-error">受付する参加者が選ばれていません。`)
	if strings.Contains(refused.Body, `class="flash" role="status" id="list-done"`) {
		t.Errorf("the refusal shows in the box of success:\n%s", refused.Body)
	}
}
