package console_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestAuditLogSentencesAndFilters: each entry is a sentence naming who
// and what, linked to the table, player or penalty; the filters by round,
// table, player, judge and kind keep only what they say.
func TestAuditLogSentencesAndFilters(t *testing.T) {
	p := webtest.NewPaired(t)
	p.SaveAll(1)
	offender := p.Round.Tables[1].Players[0]
	pen, err := p.Service.RecordPenalty(p.Ctx, "佐藤", p.Tournament.ID, tournament.PenaltyInput{PlayerID: offender, Round: 1, Offence: "note-taking"})
	if err != nil {
		t.Fatal(err)
	}
	audit := fmt.Sprintf("/judge/t/%d/audit", p.Tournament.ID)
	res := p.B.Get(audit)
	webtest.MustSee(t, "audit log", res, http.StatusOK,
		"setup が第1回戦の組み合わせを作りました。",
		fmt.Sprintf("setup が第1回戦 2卓の成績を保存しました。 <a href=\"/judge/t/%d/rounds/1/tables/2/score\">開く</a>", p.Tournament.ID),
		fmt.Sprintf("佐藤 が %s にペナルティを記録しました（第1回戦 2卓）。 <a href=\"/judge/t/%d/penalties#pen%d\">開く</a>", p.Name(offender), p.Tournament.ID, pen.ID),
		fmt.Sprintf("setup が %s を受付しました。", p.Name(p.Players[0].ID)),
		`<summary>記録の詳細</summary>`, `<code>penalty.add</code>`)
	if strings.Contains(res.Body, "<td>clock.") || strings.Contains(res.Body, "<td>penalty.add</td>") {
		t.Error("the audit log shows raw action codes outside the record")
	}

	for _, tc := range []struct {
		what, query string
		want, not   []string
	}{
		{"table 2 of round 1", "?round=1&table=2", []string{"第1回戦 2卓の成績を保存しました", "ペナルティを記録しました"}, []string{"第1回戦 1卓の成績", "を受付しました"}},
		{"a player", fmt.Sprintf("?player=%d", offender), []string{"ペナルティを記録しました", "を受付しました"}, []string{"の成績を保存しました"}},
		{"a judge", "?judge=" + "%E4%BD%90%E8%97%A4", []string{"ペナルティを記録しました"}, []string{"組み合わせを作りました"}},
		{"a kind", "?kind=result", []string{"第1回戦 1卓の成績を保存しました", "第1回戦 2卓の成績を保存しました"}, []string{"ペナルティを記録しました", "受付しました"}},
		{"an unknown kind filters nothing", "?kind=nonsense", []string{"ペナルティを記録しました", "組み合わせを作りました"}, nil},
	} {
		res := p.B.Get(audit + tc.query)
		webtest.MustSee(t, tc.what, res, http.StatusOK, tc.want...)
		for _, n := range tc.not {
			if strings.Contains(res.Body, n) {
				t.Errorf("%s: the filtered log still has %q", tc.what, n)
			}
		}
	}
	webtest.MustSee(t, "the filter keeps its choices", p.B.Get(audit+"?round=1&table=2"), http.StatusOK,
		`<option value="1" selected>第1回戦</option>`, `<option value="2" selected>2卓</option>`)
	webtest.MustSee(t, "a filter nothing matches", p.B.Get(audit+"?round=1&table=9"), http.StatusOK, "条件に合う記録はありません。")
	webtest.MustSee(t, "audit log in English", p.B.Get(audit, "Accept-Language", "en"), http.StatusOK,
		"setup saved the result of round 1 table 2.", fmt.Sprintf("佐藤 gave %s a penalty (round 1 table 2).", p.Name(offender)))
}
