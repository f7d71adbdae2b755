package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// alertNear returns the form-error alert that follows marker in body, or
// "": a refused action's message is shown next to the button pressed.
func alertNear(body, marker string) string {
	i := strings.Index(body, marker)
	if i < 0 {
		return ""
	}
	m := regexp.MustCompile(`(?s)<p class="form-error" role="alert">(.*?)</p>`).FindStringSubmatch(body[i:])
	if m == nil {
		return ""
	}
	return m[1]
}

// mustSeeInline checks that a refused action shows the page it was pressed
// on again (not the error page with only a way back), with the message in
// the section of the button.
func mustSeeInline(t *testing.T, what string, res webtest.Response, status int, page, section, msg string) {
	t.Helper()
	webtest.MustSee(t, what, res, status, page)
	if strings.Contains(res.Body, `<p><a href=`) && strings.Contains(res.Body, "戻る</a>") {
		t.Errorf("%s: the error page replaced the page\n%s", what, res.Body)
	}
	if got := alertNear(res.Body, section); !strings.Contains(got, msg) {
		t.Errorf("%s: the message after %q is %q, want it to say %q\n%s", what, section, got, msg, res.Body)
	}
}

// Refused pairings, re-pairings, swaps and drops are said on the page the
// judge pressed the button on, next to it, and the page stays usable.
func TestRefusalsShowOnThePage(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(8)
	b := env.Browser()
	b.Login("山田")
	base := fmt.Sprintf("/judge/t/%d", tr.ID)
	round := base + "/rounds/1"
	swapForm := `action="` + round + `/swap"`

	t.Run("pair with too few players", func(t *testing.T) {
		small, _ := env.SeedTournament(2)
		page := fmt.Sprintf("/judge/t/%d", small.ID)
		webtest.MustSee(t, "overview", b.Get(page), http.StatusOK, `action="`+page+`/rounds"`)
		mustSeeInline(t, "pair 2 players", b.Post(page+"/rounds", nil), http.StatusUnprocessableEntity,
			`id="edit-h"`, `action="`+page+`/rounds"`, "受付済みの参加者が3人以上必要です")
	})

	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("pair before the results", func(t *testing.T) {
		mustSeeInline(t, "pair round 2 from round 1", b.Post(base+"/rounds", url.Values{"from": {"1"}}), http.StatusConflict,
			swapForm, `id="pair"`, "第1回戦 1卓の結果がまだ入力されていません")
	})
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 2, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	t.Run("repair a started round", func(t *testing.T) {
		// A started round offers no swap or move (issue 12), and says why.
		res := b.Post(round+"/repair", nil)
		mustSeeInline(t, "repair round 1", res, http.StatusConflict,
			`id="no-change"`, `id="pair"`, "第1回戦はもう始まっています")
		if strings.Contains(res.Body, swapForm) {
			t.Error("a started round's page offers the swap form")
		}
	})
	t.Run("swap into a seated table", func(t *testing.T) {
		form := url.Values{"a": {strconv.FormatInt(r.Tables[0].Players[0], 10)}, "b": {strconv.FormatInt(r.Tables[1].Players[0], 10)}, "reason": {"x"}}
		mustSeeInline(t, "swap", b.Post(round+"/swap", form), http.StatusConflict,
			swapForm, `id="swap-h"`, "第1回戦 2卓はもう着席順が決まっている")
	})
	t.Run("drop twice", func(t *testing.T) {
		p := ps[0]
		if _, err := env.Service.DropPlayer(env.Ctx, "setup", p.TournamentID, p.ID); err != nil {
			t.Fatal(err)
		}
		res := b.Post(fmt.Sprintf("%s/players/%d/drop", base, p.ID), nil)
		mustSeeInline(t, "drop twice", res, http.StatusUnprocessableEntity,
			`action="`+base+`/players"`, fmt.Sprintf(`id="p%d"`, p.ID), "棄権済みです")
	})
}
