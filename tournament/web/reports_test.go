package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// reportsEnv is a site with round 1 of 8 players paired under self_report
// approve, table 1's players and their codes.
func reportsEnv(t *testing.T) (*consoleEnv, tournament.Tournament, []int64, map[int64]string) {
	t.Helper()
	env := newConsoleEnv(t)
	tr, err := env.svc.CreateTournament(env.ctx, "setup", tournament.TournamentInput{Name: "報告大会", Rounds: 3, SelfReport: tournament.SelfReportApprove})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := env.svc.AddPlayer(env.ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%d", i+1), CheckedIn: true}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := env.svc.PairNextRound(env.ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	players := r.Tables[0].Players
	codes := map[int64]string{}
	for _, p := range players {
		np, err := env.svc.IssueCode(env.ctx, "setup", tr.ID, p)
		if err != nil {
			t.Fatal(err)
		}
		codes[p] = np.Code
	}
	return env, tr, players, codes
}

// The issue's JSON contract, on the real router: a player reports, the
// three others confirm, a judge accepts; the revision says it was the
// players'; the judge's sheet's checks answer a bad report.
func TestAPITableReports(t *testing.T) {
	env, tr, ps, codes := reportsEnv(t)
	base := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1", tr.ID)
	scores := fmt.Sprintf(`[{"player":%d,"vp":10},{"player":%d,"vp":7},{"player":%d,"vp":5},{"player":%d,"vp":3}]`, ps[0], ps[1], ps[2], ps[3])
	bad := strings.Replace(scores, `"vp":10`, `"vp":99`, 1)
	rec := do(env.h, "POST", base+"/reports", fmt.Sprintf(`{"player":%d,"code":%q,"scores":%s,"declared":%d}`, ps[0], codes[ps[0]], bad, ps[0]))
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("an impossible report = %d %s, want 422 as the judge's sheet", rec.Code, rec.Body)
	}
	rec = do(env.h, "POST", base+"/reports", fmt.Sprintf(`{"player":%d,"code":%q,"scores":%s,"declared":%d}`, ps[0], codes[ps[0]], scores, ps[0]))
	var rep struct {
		Report int64  `json:"report"`
		Status string `json:"status"`
	}
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &rep) != nil || rep.Status != "awaiting-confirmation" || rep.Report == 0 {
		t.Fatalf("report = %d %s, want 201 awaiting-confirmation", rec.Code, rec.Body)
	}
	report := fmt.Sprintf("%s/reports/%d", base, rep.Report)
	accept := func() int {
		return do(env.h, "POST", report+"/accept", "", "Authorization", "Bearer test-token").Code
	}
	if rec := do(env.h, "POST", report+"/accept", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("anonymous accept = %d, want 401", rec.Code)
	}
	if got := accept(); got != http.StatusConflict {
		t.Errorf("accept before the confirmations = %d, want 409", got)
	}
	for i, p := range ps[1:] {
		rec := do(env.h, "POST", report+"/confirm", fmt.Sprintf(`{"player":%d,"code":%q}`, p, codes[p]))
		want := "awaiting-confirmation"
		if i == 2 {
			want = "confirmed"
		}
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"`+want+`"`) {
			t.Fatalf("confirm %d = %d %s, want 200 %s", i+1, rec.Code, rec.Body, want)
		}
	}
	rec = do(env.h, "GET", base+"/reports", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"confirmed"`) {
		t.Fatalf("GET reports = %d %s", rec.Code, rec.Body)
	}
	rec = do(env.h, "POST", report+"/accept", "", "Authorization", "Bearer test-token")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"accepted"`) || !strings.Contains(rec.Body.String(), `"version":1`) {
		t.Fatalf("accept = %d %s, want 200 accepted version 1", rec.Code, rec.Body)
	}
	rec = do(env.h, "GET", base+"/revisions", "", "Authorization", "Bearer test-token")
	if !strings.Contains(rec.Body.String(), fmt.Sprintf(`"report":%d`, rep.Report)) || !strings.Contains(rec.Body.String(), `"judge":"api"`) {
		t.Errorf("revisions = %s, want revision 1 from the report, accepted by the API's judge", rec.Body)
	}
	// The same report under another table's path is no report of it.
	other := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/2/reports/%d/confirm", tr.ID, rep.Report)
	if rec := do(env.h, "POST", other, fmt.Sprintf(`{"player":%d,"code":%q}`, ps[1], codes[ps[1]])); rec.Code != http.StatusNotFound {
		t.Errorf("a report under another table = %d %s, want 404", rec.Code, rec.Body)
	}
}

// The judges' queue on the round page: a confirmed report with its
// players' VP and an accept button that saves it; a disputed one shows
// who disputed it and no button.
func TestConsoleReportQueue(t *testing.T) {
	env, tr, ps, codes := reportsEnv(t)
	in := tournament.ReportInput{Declared: ps[0]}
	for i, p := range ps {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{10, 7, 5, 3}[i]})
	}
	r, err := env.svc.ReportResult(env.ctx, tr.ID, 1, 1, ps[0], codes[ps[0]], in)
	if err != nil {
		t.Fatal(err)
	}
	b := env.browser()
	b.login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	res := b.get(round)
	mustSee(t, "the round with a report awaiting", res, http.StatusOK, "参加者からの報告", "確認待ち（4人中1人）", "報告: 選手")
	if strings.Contains(res.Body, "結果として承認") {
		t.Fatalf("an unconfirmed report offers the accept button")
	}
	for _, p := range ps[1:] {
		if _, err := env.svc.ConfirmReport(env.ctx, tr.ID, r.ID, p, codes[p]); err != nil {
			t.Fatal(err)
		}
	}
	mustSee(t, "the round with a confirmed report", b.get(round), http.StatusOK, "全員が確認済み", "結果として承認", "10 VP")
	res = b.post(fmt.Sprintf("%s/reports/%d/accept", round, r.ID), nil)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("accept = %d\n%s", res.Status, res.Body)
	}
	mustSee(t, "after accepting", b.get(res.Location), http.StatusOK, "参加者の報告を卓の結果として保存しました", "承認済み（第1版）")
	mustSee(t, "the score sheet's history", b.get(round+"/tables/1/score"), http.StatusOK, "参加者の報告")
	revs, err := env.svc.Revisions(env.ctx, tr.ID, 1, 1)
	if err != nil || len(revs) != 1 || revs[0].ReportID != r.ID || revs[0].Judge != "山田" {
		t.Fatalf("revisions %+v, %v; want 山田's acceptance of the report", revs, err)
	}
	mustSee(t, "accepting twice", b.post(fmt.Sprintf("%s/reports/%d/accept", round, r.ID), nil), http.StatusConflict, "この報告は承認できません")
}

// A table on its players' phones: one reports, another confirms, a third
// disputes; each step shows on the page, a wrong code in place.
func TestKioskTableReport(t *testing.T) {
	env, tr, ps, codes := reportsEnv(t)
	b := env.browser()
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	mustSee(t, "the kiosk", b.get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK, "卓の結果を報告", table)
	mustSee(t, "the table", b.get(table), http.StatusOK, "全員の勝利点", "結果を送る")
	form := url.Values{"player": {itoa(ps[0])}, "code": {codes[ps[1]]}, "declared": {itoa(ps[0])}}
	for i, p := range ps {
		form.Set("vp_"+itoa(p), []string{"10", "7", "5", "3"}[i])
	}
	mustSee(t, "a wrong code", b.post(table+"/report", form), http.StatusUnprocessableEntity, "コードが正しくありません", `value="10"`)
	form.Set("code", codes[ps[0]])
	res := b.post(table+"/report", form)
	mustSee(t, "reported", res, http.StatusOK, "送信しました", "確認待ち（4人中1人）", "確認: この内容で正しい")
	rs, err := env.svc.Reports(env.ctx, tr.ID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("reports %v, %v", rs, err)
	}
	answer := fmt.Sprintf("%s/reports/%d", table, rs[0].ID)
	mustSee(t, "confirmed", b.post(answer, url.Values{"player": {itoa(ps[1])}, "code": {codes[ps[1]]}, "action": {"confirm"}}), http.StatusOK,
		"確認しました", "確認待ち（4人中2人）")
	mustSee(t, "disputed", b.post(answer, url.Values{"player": {itoa(ps[2])}, "code": {codes[ps[2]]}, "action": {"dispute"}}), http.StatusOK,
		"異議を送りました", "さんが異議")
	// The judges see the dispute on the round page.
	j := env.browser()
	j.login("山田")
	mustSee(t, "the round page", j.get(fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)), http.StatusOK, "さんが異議: ジャッジが必要です")
}
