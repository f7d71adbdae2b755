package console_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestScoreLivePlacings is the part of the score page the script asks for
// as the judge types (part=preview): what the sheet lacks, the service's
// refusal, or the placings as saving would give them, and nothing saved.
func TestScoreLivePlacings(t *testing.T) {
	p := webtest.NewPaired(t)
	table := p.Round.Tables[0]
	score := p.URL + "/tables/1/score"
	webtest.MustSee(t, "score page", p.B.Get(score), http.StatusOK, `data-live="live-preview"`, `<div id="live-preview" aria-live="polite">`)

	form := url.Values{"version": {"0"}, "part": {"preview"}}
	for i, id := range table.Players[:3] {
		form.Set(fmt.Sprintf("vp_%d", id), strconv.Itoa([]int{10, 7, 5}[i]))
	}
	res := p.B.Post(score, form)
	webtest.MustSee(t, "half a sheet", res, http.StatusOK, `<p class="hint" id="preview-waiting">`)
	if strings.Contains(res.Body, "<html") || strings.Contains(res.Body, "<form") {
		t.Errorf("the live part is more than the preview:\n%s", res.Body)
	}

	form.Set(fmt.Sprintf("vp_%d", table.Players[3]), "3")
	form.Set("declared", webtest.Itoa(table.Players[1])) // 7 VP: §11 refuses
	webtest.MustSee(t, "a declaration under 10", p.B.Post(score, form), http.StatusOK, `id="preview-error"`, "宣言には10点以上が必要です（§11）")

	form.Set("declared", webtest.Itoa(table.Players[0]))
	res = p.B.Post(score, form)
	webtest.MustSee(t, "a full sheet", res, http.StatusOK, "保存前の順位",
		fmt.Sprintf(`<td class="place">1位</td>
    <td><span class="name">%s</span> <span class="tag ok">`, p.Name(table.Players[0])), `<td class="place">4位</td>`)
	if rv, _ := p.Service.RoundView(p.Ctx, p.Tournament.ID, 1); rv.Tables[0].Result != nil {
		t.Fatal("the live preview saved the sheet")
	}
}

// TestScoreNextTable: once a sheet is saved, its page offers the round's
// next table without a result, and says when every table has one.
func TestScoreNextTable(t *testing.T) {
	p := webtest.NewPaired(t)
	sheet := func(n int) string { return fmt.Sprintf("%s/tables/%d/score", p.URL, n) }
	webtest.MustSee(t, "a sheet before saving", p.B.Get(sheet(1)), http.StatusOK)
	if body := p.B.Get(sheet(1)).Body; strings.Contains(body, `id="next-table"`) {
		t.Error("a table without a result offers the next table")
	}
	save := func(n int) {
		t.Helper()
		form := url.Values{"version": {"0"}, "action": {"save"}}
		tb := p.Round.Tables[n-1]
		for i, id := range tb.Players {
			form.Set(fmt.Sprintf("vp_%d", id), strconv.Itoa([]int{10, 7, 5, 3}[i]))
		}
		form.Set("declared", webtest.Itoa(tb.Players[0]))
		if res := p.B.Post(sheet(n), form); res.Status != http.StatusSeeOther {
			t.Fatalf("save table %d = %d\n%s", n, res.Status, res.Body)
		}
	}
	save(1)
	webtest.MustSee(t, "table 1 saved", p.B.Get(sheet(1)), http.StatusOK,
		fmt.Sprintf(`<a class="button primary" id="next-table" href="%s">次の未入力の卓へ: 2卓</a>`, sheet(2)))
	save(2)
	webtest.MustSee(t, "every table saved", p.B.Get(sheet(2)), http.StatusOK, `<p class="next-table" id="all-in">第1回戦は全卓の結果が入力済みです。`)
}
