package console_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// tableOf is the report of a table of players: 10, 7, 5 and 3 VP in
// their order, the first declared.
func tableOf(players []int64) tournament.ReportInput {
	in := tournament.ReportInput{Declared: players[0]}
	for i, p := range players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{10, 7, 5, 3}[i]})
	}
	return in
}

// reportOf reports table number of round 1, whose players are players,
// as tableOf says, from the first player's code.
func reportOf(t *testing.T, env *webtest.Env, tid int64, number int, players []int64, codes map[int64]string) tournament.Report {
	t.Helper()
	r, err := env.Service.ReportResult(env.Ctx, tid, 1, number, players[0], codes[players[0]], tableOf(players))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The issue's JSON contract, on the real router: a player reports, the
// three others confirm, a judge accepts; the revision says it was the
// players'; the judge's sheet's checks answer a bad report.
func TestAPITableReports(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	base := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1", tr.ID)
	scores := fmt.Sprintf(`[{"player":%d,"vp":10},{"player":%d,"vp":7},{"player":%d,"vp":5},{"player":%d,"vp":3}]`, ps[0], ps[1], ps[2], ps[3])
	bad := strings.Replace(scores, `"vp":10`, `"vp":99`, 1)
	rec := webtest.Do(env.Handler, "POST", base+"/reports", fmt.Sprintf(`{"player":%d,"code":%q,"scores":%s,"declared":%d}`, ps[0], codes[ps[0]], bad, ps[0]))
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("an impossible report = %d %s, want 422 as the judge's sheet", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "POST", base+"/reports", fmt.Sprintf(`{"player":%d,"code":%q,"scores":%s,"declared":%d}`, ps[0], codes[ps[0]], scores, ps[0]))
	var rep struct {
		Report int64  `json:"report"`
		Status string `json:"status"`
	}
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &rep) != nil || rep.Status != "awaiting-confirmation" || rep.Report == 0 {
		t.Fatalf("report = %d %s, want 201 awaiting-confirmation", rec.Code, rec.Body)
	}
	report := fmt.Sprintf("%s/reports/%d", base, rep.Report)
	accept := func() int {
		return webtest.Do(env.Handler, "POST", report+"/accept", "", "Authorization", "Bearer test-token").Code
	}
	if rec := webtest.Do(env.Handler, "POST", report+"/accept", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("anonymous accept = %d, want 401", rec.Code)
	}
	if got := accept(); got != http.StatusConflict {
		t.Errorf("accept before the confirmations = %d, want 409", got)
	}
	for i, p := range ps[1:] {
		rec := webtest.Do(env.Handler, "POST", report+"/confirm", fmt.Sprintf(`{"player":%d,"code":%q}`, p, codes[p]))
		want := "awaiting-confirmation"
		if i == 2 {
			want = "confirmed"
		}
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"`+want+`"`) {
			t.Fatalf("confirm %d = %d %s, want 200 %s", i+1, rec.Code, rec.Body, want)
		}
	}
	rec = webtest.Do(env.Handler, "GET", base+"/reports", "")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"confirmed"`) {
		t.Fatalf("GET reports = %d %s", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "POST", report+"/accept", "", "Authorization", "Bearer test-token")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"accepted"`) || !strings.Contains(rec.Body.String(), `"version":1`) {
		t.Fatalf("accept = %d %s, want 200 accepted version 1", rec.Code, rec.Body)
	}
	rec = webtest.Do(env.Handler, "GET", base+"/revisions", "", "Authorization", "Bearer test-token")
	if !strings.Contains(rec.Body.String(), fmt.Sprintf(`"report":%d`, rep.Report)) || !strings.Contains(rec.Body.String(), `"judge":"API"`) {
		t.Errorf("revisions = %s, want revision 1 from the report, accepted by the API's judge", rec.Body)
	}
	// The same report under another table's path is no report of it.
	other := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/2/reports/%d/confirm", tr.ID, rep.Report)
	if rec := webtest.Do(env.Handler, "POST", other, fmt.Sprintf(`{"player":%d,"code":%q}`, ps[1], codes[ps[1]])); rec.Code != http.StatusNotFound {
		t.Errorf("a report under another table = %d %s, want 404", rec.Code, rec.Body)
	}
}

// The judges' queue on the round page: a confirmed report with its
// players' VP and an accept button that saves it; a disputed one shows
// who disputed it and no button.
func TestConsoleReportQueue(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	r := reportOf(t, env, tr.ID, 1, ps, codes)
	b := env.Browser()
	b.Login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	res := b.Get(round)
	webtest.MustSee(t, "the round with a report awaiting", res, http.StatusOK, "参加者からの報告", "確認待ち（4人中1人が確認済み）", "報告: 選手")
	if strings.Contains(res.Body, "結果として承認") {
		t.Fatalf("an unconfirmed report offers the accept button")
	}
	for _, p := range ps[1:] {
		if _, err := env.Service.ConfirmReport(env.Ctx, tr.ID, r.ID, p, codes[p]); err != nil {
			t.Fatal(err)
		}
	}
	webtest.MustSee(t, "the round with a confirmed report", b.Get(round), http.StatusOK, "全員が確認済み", "結果として承認", "10点")
	res = b.Post(fmt.Sprintf("%s/reports/%d/accept", round, r.ID), nil)
	if res.Status != http.StatusSeeOther {
		t.Fatalf("accept = %d\n%s", res.Status, res.Body)
	}
	webtest.MustSee(t, "after accepting", b.Get(res.Location), http.StatusOK, "参加者の報告を卓の結果として保存しました", "承認済み: 選手1 さんの報告が第1版の結果になりました")
	webtest.MustSee(t, "the score sheet's history", b.Get(round+"/tables/1/score"), http.StatusOK, "参加者の報告")
	revs, err := env.Service.Revisions(env.Ctx, tr.ID, 1, 1)
	if err != nil || len(revs) != 1 || revs[0].ReportID != r.ID || revs[0].Judge != "山田" {
		t.Fatalf("revisions %+v, %v; want 山田's acceptance of the report", revs, err)
	}
	webtest.MustSee(t, "accepting twice", b.Post(fmt.Sprintf("%s/reports/%d/accept", round, r.ID), nil), http.StatusConflict, "この報告は承認できません")
}

// A disputed report after the judge saved a sheet of their own: the queue
// says the judge's sheet recorded the table and no longer calls a judge;
// the players' page says the judges recorded it.
func TestDisputedReportSupersededByJudge(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	r := reportOf(t, env, tr.ID, 1, ps, codes)
	mine := tableOf(ps)
	mine.Scores[2].VP = 6
	if _, err := env.Service.DisputeReport(env.Ctx, tr.ID, r.ID, ps[1], codes[ps[1]], tournament.DisputeInput{ReportInput: mine}); err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	webtest.MustSee(t, "the disputed report", b.Get(round), http.StatusOK, "さんが異議: ジャッジが必要です")
	judges := tableOf(ps)
	judges.Scores[2].VP, judges.Scores[3].VP = 4, 4
	if _, err := env.Service.SaveResult(env.Ctx, "山田", tr.ID, 1, 1, tournament.ResultInput{Scores: judges.Scores, Declared: judges.Declared}); err != nil {
		t.Fatal(err)
	}
	res := b.Get(round)
	webtest.MustSee(t, "after the judge's own sheet", res, http.StatusOK, "ジャッジの成績表（第1版）で記録済み（この報告は使われていません）", `class="report report-superseded"`)
	if strings.Contains(res.Body, "ジャッジが必要です") {
		t.Errorf("the round page still calls a judge for a table the judge recorded")
	}
}

// A table on its players' phones: one reports, another confirms, a third
// disputes; each step shows on the page, a wrong code in place.
func TestKioskTableReport(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	b := env.Browser()
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	webtest.MustSee(t, "the kiosk", b.Get(fmt.Sprintf("/kiosk/%d", tr.ID)), http.StatusOK, "卓の結果を報告", table)
	webtest.MustSee(t, "the table", b.Get(table), http.StatusOK, "全員の勝利点", "結果を送る")
	form := url.Values{"player": {webtest.Itoa(ps[0])}, "code": {codes[ps[1]]}, "declared": {webtest.Itoa(ps[0])}}
	for i, p := range ps {
		form.Set("vp_"+webtest.Itoa(p), []string{"10", "7", "5", "3"}[i])
	}
	webtest.MustSee(t, "a wrong code", b.Post(table+"/report", form), http.StatusUnprocessableEntity, "コードが正しくありません", `value="10"`)
	form.Set("code", codes[ps[0]])
	res := b.Post(table+"/report", form)
	webtest.MustSee(t, "reported", res, http.StatusOK, "送信しました", "確認待ち（4人中1人が確認済み）", "確認: この内容で正しい")
	rs, err := env.Service.Reports(env.Ctx, tr.ID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("reports %v, %v", rs, err)
	}
	answer := fmt.Sprintf("%s/reports/%d", table, rs[0].ID)
	// This phone remembers its reporter now; another phone asks who confirms.
	webtest.MustSee(t, "a confirmation without name or code", env.Browser().Post(answer, url.Values{"action": {"confirm"}}), http.StatusUnprocessableEntity,
		`id="player-error"`, "あなたの名前を選んでください。", `id="code-error"`)
	webtest.MustSee(t, "confirmed", b.Post(answer, url.Values{"player": {webtest.Itoa(ps[1])}, "code": {codes[ps[1]]}, "action": {"confirm"}}), http.StatusOK,
		"確認しました", "確認待ち（4人中2人が確認済み）")
	// A dispute gives the player's own version: the report's own is
	// refused, as is a version the judge's sheet would refuse.
	dispute := url.Values{"player": {webtest.Itoa(ps[2])}, "dispute_code": {codes[ps[2]]}, "action": {"dispute"}, "declared": {webtest.Itoa(ps[0])}, "note": {"3番目は6点"}}
	for i, p := range ps {
		dispute.Set("vp_"+webtest.Itoa(p), []string{"10", "7", "5", "3"}[i])
	}
	webtest.MustSee(t, "a dispute of the same sheet", b.Post(answer, dispute), http.StatusUnprocessableEntity, "入力した内容は報告と同じです", `value="3番目は6点"`)
	dispute.Set("vp_"+webtest.Itoa(ps[2]), "6")
	dispute.Set("declared", webtest.Itoa(ps[1]))
	webtest.MustSee(t, "a version whose winner has 7", b.Post(answer, dispute), http.StatusUnprocessableEntity, `id="declared-error"`, "10点以上が必要です", `value="6"`)
	dispute.Set("declared", webtest.Itoa(ps[0]))
	webtest.MustSee(t, "disputed", b.Post(answer, dispute), http.StatusOK,
		"異議を送りました", "さんの異議", "ジャッジを呼びました", "違い", "異議のメモ: 3番目は6点")
	webtest.MustSee(t, "the disputed table in English", b.Get(table, "Accept-Language", "en"), http.StatusOK,
		"A judge has been called. Please wait at your table.", "Reported", "Disputed", "differs", "Note with the dispute: 3番目は6点", "6 VP")
	// The judges see both versions on the round page, and open the sheet
	// with either.
	j := env.Browser()
	j.Login("山田")
	round := j.Get(fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID))
	webtest.MustSee(t, "the round page", round, http.StatusOK, "さんが異議: ジャッジが必要です", "報告の内容", "異議の内容", "違い",
		"異議の内容で成績表を開く", fmt.Sprintf("?report=%d&amp;side=disputed", rs[0].ID))
	// Once the judge saved a sheet of their own, the table's page says so.
	in := tableOf(ps)
	in.Scores[3].VP = 4
	if _, err := env.Service.SaveResult(env.Ctx, "山田", tr.ID, 1, 1, tournament.ResultInput{Scores: in.Scores, Declared: in.Declared}); err != nil {
		t.Fatal(err)
	}
	res = b.Get(table)
	webtest.MustSee(t, "the table after the judge's sheet", res, http.StatusOK, "この卓の結果はジャッジが記録済みです")
	if strings.Contains(res.Body, "ジャッジを呼びました") {
		t.Error("the table still says a judge was called once the judge saved the sheet")
	}
}

// The report form's live check (part=check, static/forms.js): each
// line's VP as its breakdown counts, and the refusal of a count that is
// not the VP typed (9 against 10) by that VP's field; nothing is saved, and no code is
// asked for.
func TestKioskReportLiveCheck(t *testing.T) {
	env, tr, ps, _ := webtest.ReportsEnv(t)
	b := env.Browser()
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	form := url.Values{"part": {"check"}, "declared": {webtest.Itoa(ps[0])}}
	for i, p := range ps {
		form.Set("vp_"+webtest.Itoa(p), []string{"10", "7", "5", "3"}[i])
	}
	w := webtest.Itoa(ps[0])
	form.Set("settlements_"+w, "2")
	form.Set("cities_"+w, "2")
	form.Set("longest_road_"+w, "1")
	form.Set("point_cards_"+w, "1")
	res := b.Post(table+"/report", form)
	webtest.MustSee(t, "a count of 9 against 10", res, http.StatusOK, `<output id="total-`+w+`" data-live>9</output>`, "内訳からは9点", `data-live-invalid="vp_`+w)
	form.Set("point_cards_"+w, "2")
	res = b.Post(table+"/report", form)
	webtest.MustSee(t, "a count of 10", res, http.StatusOK, `<output id="total-`+w+`" data-live>10</output>`, `<div id="vp_`+w+`-check" data-live></div>`)
	if rs, err := env.Service.Reports(env.Ctx, tr.ID); err != nil || len(rs) != 0 {
		t.Fatalf("reports after the live checks: %v, %v; want none", rs, err)
	}
}

// The API's report carries each score's breakdown, as the score sheet's
// PUT does, and the report keeps it; a dispute takes the old body, or the
// player's own version with a note, and the report answers both.
func TestAPIReportVersions(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	base := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/reports", tr.ID)
	scores := fmt.Sprintf(`[{"player":%d,"breakdown":{"settlements":2,"cities":2,"longest_road":true,"largest_army":false,"point_cards":2}},{"player":%d,"vp":7},{"player":%d,"vp":5},{"player":%d,"vp":3}]`,
		ps[0], ps[1], ps[2], ps[3])
	rec := webtest.Do(env.Handler, "POST", base, fmt.Sprintf(`{"player":%d,"code":%q,"scores":%s,"declared":%d}`, ps[0], codes[ps[0]], scores, ps[0]))
	var rep struct {
		Report int64 `json:"report"`
	}
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &rep) != nil {
		t.Fatalf("a report with a breakdown = %d %s", rec.Code, rec.Body)
	}
	dispute := fmt.Sprintf("%s/%d/dispute", base, rep.Report)
	same := fmt.Sprintf(`{"player":%d,"code":%q,"scores":%s,"declared":%d}`, ps[1], codes[ps[1]], scores, ps[0])
	if rec := webtest.Do(env.Handler, "POST", dispute, same); rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code":"report-dispute-same"`) {
		t.Errorf("a dispute with the report's own version = %d %s, want 422 report-dispute-same", rec.Code, rec.Body)
	}
	mine := strings.Replace(scores, `"vp":5`, `"vp":6`, 1)
	body := fmt.Sprintf(`{"player":%d,"code":%q,"scores":%s,"declared":%d,"note":"6点です"}`, ps[1], codes[ps[1]], mine, ps[0])
	if rec := webtest.Do(env.Handler, "POST", dispute, body); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"disputed"`) {
		t.Fatalf("a dispute with a version = %d %s", rec.Code, rec.Body)
	}
	got := webtest.Do(env.Handler, "GET", base, "").Body.String()
	for _, want := range []string{
		`"breakdown":{"settlements":2,"cities":2,"longest_road":true,"largest_army":false,"point_cards":2}`,
		fmt.Sprintf(`"disputed_by":%d`, ps[1]),
		fmt.Sprintf(`"dispute":{"scores":[{"player":%d,"vp":10,"breakdown"`, ps[0]),
		fmt.Sprintf(`{"player":%d,"vp":6}`, ps[2]),
		`"note":"6点です"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("GET reports lacks %s:\n%s", want, got)
		}
	}

	// The old body: a dispute without a version, on table 2.
	rv, err := env.Service.RoundView(env.Ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	t2 := rv.Round.Tables[1].Players
	c2 := map[int64]string{}
	for _, p := range t2[:2] {
		np, err := env.Service.IssueCode(env.Ctx, "setup", tr.ID, p)
		if err != nil {
			t.Fatal(err)
		}
		c2[p] = np.Code
	}
	r2 := reportOf(t, env, tr.ID, 2, t2, c2)
	old := fmt.Sprintf(`/api/v1/tournaments/%d/rounds/1/tables/2/reports/%d/dispute`, tr.ID, r2.ID)
	if rec := webtest.Do(env.Handler, "POST", old, fmt.Sprintf(`{"player":%d,"code":%q}`, t2[1], c2[t2[1]])); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"status":"disputed"`) {
		t.Errorf("the old dispute body = %d %s", rec.Code, rec.Body)
	}
}

// The audit log says who reported, confirmed and disputed a table, in
// both languages, and that a judge saved the players' report; the kind
// filter keeps the reports.
func TestAuditOfReports(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	in := tableOf(ps)
	r := reportOf(t, env, tr.ID, 1, ps, codes)
	if _, err := env.Service.ConfirmReport(env.Ctx, tr.ID, r.ID, ps[1], codes[ps[1]]); err != nil {
		t.Fatal(err)
	}
	mine := tournament.DisputeInput{ReportInput: in}
	mine.Scores = append([]tournament.Score(nil), in.Scores...)
	mine.Scores[2].VP = 6
	if _, err := env.Service.DisputeReport(env.Ctx, tr.ID, r.ID, ps[2], codes[ps[2]], mine); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.SaveResult(env.Ctx, "山田", tr.ID, 1, 1, tournament.ResultInput{Scores: mine.Scores, Declared: ps[0], ReportID: r.ID}); err != nil {
		t.Fatal(err)
	}
	names := map[int64]string{}
	players, _ := env.Service.Players(env.Ctx, tr.ID)
	for _, p := range players {
		names[p.ID] = p.Name
	}
	b := env.Browser()
	b.Login("山田")
	audit := fmt.Sprintf("/judge/t/%d/audit", tr.ID)
	webtest.MustSee(t, "the audit log", b.Get(audit), http.StatusOK,
		names[ps[0]]+" さんが第1回戦 1卓の結果を報告しました。",
		names[ps[1]]+" さんが第1回戦 1卓の報告を確認しました。",
		names[ps[2]]+" さんが第1回戦 1卓の報告に異議を出しました（自分の内容を入力）。",
		"山田 が第1回戦 1卓の参加者の報告を成績として保存しました。",
		"参加者（コードで）", fmt.Sprintf(`href="/judge/t/%d/rounds/1#reports"`, tr.ID))
	webtest.MustSee(t, "in English", b.Get(audit, "Accept-Language", "en"), http.StatusOK,
		names[ps[2]]+" disputed the report of round 1 table 1 (with their own version).",
		"山田 saved the players&#39; report of round 1 table 1 as its result.", "a player (with their code)")
	res := b.Get(audit + "?kind=report")
	webtest.MustSee(t, "the reports' kind", res, http.StatusOK, "報告に異議を出しました", `<option value="report" selected>参加者の報告</option>`)
	if strings.Contains(res.Body, "組み合わせを作りました") {
		t.Error("the kind report keeps the pairing")
	}
}

// A table reported as ended by time before its signal: the form asks for
// the reason, by its field in the players' words, with what was typed
// kept; with one the report goes, carrying it to the judges' queue.
func TestKioskReportReason(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	b := env.Browser()
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	webtest.MustSee(t, "the form", b.Get(table), http.StatusOK, `id="declared"`)
	if strings.Contains(b.Get(table).Body, `id="reason"`) {
		t.Error("the form asks for a reason before the service does")
	}
	form := url.Values{"player": {webtest.Itoa(ps[0])}, "code": {codes[ps[0]]}}
	for i, p := range ps {
		form.Set("vp_"+webtest.Itoa(p), []string{"9", "7", "5", "3"}[i])
	}
	webtest.MustSee(t, "how the game ended not chosen", b.Post(table+"/report", form), http.StatusUnprocessableEntity,
		`id="declared-error"`, "勝利宣言した人か「時間切れで終了」を選んでください。", `value="9"`)
	form.Set("declared", "0")
	webtest.MustSee(t, "ended by time before the clock", b.Post(table+"/report", form), http.StatusUnprocessableEntity,
		`id="reason"`, `id="reason-error"`, "その理由（ジャッジが終了を告げた、など）を入力してください", `value="9"`, `<option value="0" selected>`)
	form.Set("reason", "ジャッジが終了を告げた")
	webtest.MustSee(t, "with the reason", b.Post(table+"/report", form), http.StatusOK, "送信しました")
	j := env.Browser()
	j.Login("山田")
	webtest.MustSee(t, "the queue", j.Get(fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)), http.StatusOK, "合図の前に終了した理由: ジャッジが終了を告げた")
}

// Under a ruleset that requires the breakdown, the report form opens every
// player's, and a bare VP is refused by that player's fields, as on the
// judge's sheet.
func TestKioskReportRequiresBreakdown(t *testing.T) {
	data, err := os.ReadFile("../../../config/rulesets/proshop-2003.json")
	if err != nil {
		t.Fatal(err)
	}
	own := strings.Replace(strings.Replace(string(data), `"require_breakdown": false`, `"require_breakdown": true`, 1), `"name": "proshop-2003"`, `"name": "breakdown-cup"`, 1)
	file := filepath.Join(t.TempDir(), "breakdown-cup.json")
	if err := os.WriteFile(file, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	rulesets, err := config.LoadRulesets(file)
	if err != nil {
		t.Fatal(err)
	}
	env := webtest.New(t, webtest.WithRulesets(rulesets))
	// The tournament keeps its copy of the ruleset: made by a service that
	// knows the file, it is served by the site's.
	maker := tournament.NewService(env.Store, rulesets, time.Now, tournament.WithSeeds(tournamenttest.Seeds()))
	tr, err := maker.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "内訳杯", Ruleset: "breakdown-cup", Rounds: 1, SelfReport: tournament.SelfReportApprove})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if _, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%d", i+1), CheckedIn: true}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	ps := r.Tables[0].Players
	p, err := env.Service.IssueCode(env.Ctx, "setup", tr.ID, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID)
	res := b.Get(table)
	if n := strings.Count(res.Body, `<details class="p-bd" open>`); n != 4 {
		t.Errorf("%d breakdowns open, want the 4 players'", n)
	}
	webtest.MustSee(t, "the form", res, http.StatusOK, "この大会では各プレイヤーの内訳")
	form := url.Values{"player": {webtest.Itoa(ps[0])}, "code": {p.Code}, "declared": {webtest.Itoa(ps[0])}}
	for i, id := range ps {
		form.Set("vp_"+webtest.Itoa(id), []string{"10", "7", "5", "3"}[i])
	}
	res = b.Post(table+"/report", form)
	webtest.MustSee(t, "bare VP", res, http.StatusUnprocessableEntity, "内訳（家・街・2点カード・1ポイントカード。§11）が必須です", `id="settlements_`+webtest.Itoa(ps[0])+`" type="number" inputmode="numeric" min="0" max="5" value="" aria-invalid="true"`)
}

// Players may report before their round starts; a judge who pairs the
// round again discards the reports of the tables it replaces, and the
// audit log says so. A new report of the new tables goes.
func TestRepairDiscardsOpenReports(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	r := reportOf(t, env, tr.ID, 1, ps, codes)
	re, err := env.Service.RepairRound(env.Ctx, "山田", tr.ID, 1)
	if err != nil {
		t.Fatalf("RepairRound with an open report: %v", err)
	}
	if _, err := env.Service.GetReport(env.Ctx, tr.ID, r.ID); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("the open report after re-pairing: %v, want ErrNotFound", err)
	}
	players := re.Tables[0].Players
	codes = map[int64]string{}
	for _, p := range players {
		np, err := env.Service.IssueCode(env.Ctx, "setup", tr.ID, p)
		if err != nil {
			t.Fatal(err)
		}
		codes[p] = np.Code
	}
	reportOf(t, env, tr.ID, 1, players, codes)
	b := env.Browser()
	b.Login("山田")
	audit := fmt.Sprintf("/judge/t/%d/audit", tr.ID)
	webtest.MustSee(t, "the audit log", b.Get(audit), http.StatusOK, "山田 が第1回戦を組み直しました。未承認の参加者の報告1件を破棄しました。")
	webtest.MustSee(t, "in English", b.Get(audit, "Accept-Language", "en"), http.StatusOK,
		"山田 paired Round 1 again and discarded the players&#39; open reports of its tables (1).")
}

// Under auto, the last confirmation after a judge saved the table is
// taken: the phone answers 200 and says the judges recorded it, not a
// judges' conflict.
func TestKioskLastConfirmationAfterJudge(t *testing.T) {
	env, tr, ps, codes := webtest.ReportsEnv(t)
	if _, err := env.Service.EditTournament(env.Ctx, "setup", tr.ID, tournament.TournamentInput{
		Name: tr.Name, Date: tr.Date, Venue: tr.Venue, Rounds: tr.Rounds, SelfReport: tournament.SelfReportAuto,
	}); err != nil {
		t.Fatal(err)
	}
	r := reportOf(t, env, tr.ID, 1, ps, codes)
	for _, p := range ps[1:3] {
		if _, err := env.Service.ConfirmReport(env.Ctx, tr.ID, r.ID, p, codes[p]); err != nil {
			t.Fatal(err)
		}
	}
	judges := tableOf(ps)
	judges.Scores[3].VP = 4
	if _, err := env.Service.SaveResult(env.Ctx, "山田", tr.ID, 1, 1, tournament.ResultInput{Scores: judges.Scores, Declared: judges.Declared}); err != nil {
		t.Fatal(err)
	}
	answer := fmt.Sprintf("/kiosk/%d/rounds/1/tables/1/reports/%d", tr.ID, r.ID)
	b := env.Browser()
	webtest.MustSee(t, "the last confirmation", b.Post(answer, url.Values{"player": {webtest.Itoa(ps[3])}, "code": {codes[ps[3]]}, "action": {"confirm"}}), http.StatusOK,
		"確認しました", `id="report-saved"`)
	// The phone shows the judges' result as recorded, by place: the 4 the
	// judge wrote, not the report's.
	res := b.Get(fmt.Sprintf("/kiosk/%d/rounds/1/tables/1", tr.ID))
	webtest.MustSee(t, "the table's page once recorded", res, http.StatusOK, `id="result-scores"`, "<th scope=\"row\">1位</th>", ">4点</td>")
}

// A table's phones read its own reports, never the event's: its page,
// the report form's live check and the public JSON list each read the
// table's reports by its ID (docs/security.md).
func TestTableReportsReadTheTableAlone(t *testing.T) {
	broker := live.NewBroker(0, 0)
	st := &webtest.CountingStore{Store: tournamenttest.NewStore(t, store.WithAfterCommit(broker.Committed))}
	env := webtest.New(t, webtest.OnStore(st, st.Store, broker))
	tr, r1 := webtest.ReportsRound(t, env)
	codes := map[int64]string{}
	for _, tb := range r1.Tables {
		np, err := env.Service.IssueCode(env.Ctx, "setup", tr.ID, tb.Players[0])
		if err != nil {
			t.Fatal(err)
		}
		codes[tb.Players[0]] = np.Code
	}
	one := reportOf(t, env, tr.ID, 1, r1.Tables[0].Players, codes)
	two := reportOf(t, env, tr.ID, 2, r1.Tables[1].Players, codes)
	st.ReportReads.Store(0)

	b := env.Browser()
	table := fmt.Sprintf("/kiosk/%d/rounds/1/tables/2", tr.ID)
	webtest.MustSee(t, "table 2's page", b.Get(table), http.StatusOK, "確認待ち（4人中1人が確認済み）")
	form := url.Values{"part": {"check"}, "declared": {webtest.Itoa(r1.Tables[1].Players[0])}}
	webtest.MustSee(t, "the live check", b.Post(table+"/report", form), http.StatusOK)
	rec := webtest.Do(env.Handler, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/2/reports", tr.ID), "")
	var got struct {
		Reports []struct {
			Report int64 `json:"report"`
		} `json:"reports"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &got) != nil || len(got.Reports) != 1 || got.Reports[0].Report != two.ID {
		t.Errorf("GET table 2's reports = %d %s, want report %d alone (not %d)", rec.Code, rec.Body, two.ID, one.ID)
	}
	if n := st.ReportReads.Load(); n != 0 {
		t.Errorf("the table's reads read the whole event's reports %d times, want none", n)
	}
	if rec := webtest.Do(env.Handler, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/9/reports", tr.ID), ""); rec.Code != http.StatusNotFound {
		t.Errorf("GET a table the round lacks = %d, want 404", rec.Code)
	}
}
