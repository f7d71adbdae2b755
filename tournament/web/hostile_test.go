package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/api"
)

// counts is what a refused request must leave as it was.
type counts struct {
	Commits         int64
	AuditA, AuditB  int
	PlayersA        int
	Table1, Table2  int // revisions of round 1's tables in the first tournament
	TableB          int // revisions of round 1's table in the second
	TournamentCount int
}

func (e *hostileEnv) counts(t *testing.T) counts {
	t.Helper()
	c := counts{Commits: e.commits.Load()}
	for _, x := range []struct {
		n   *int
		get func() (int, error)
	}{
		{&c.AuditA, func() (int, error) { l, err := e.svc.AuditLog(e.ctx, e.a.ID); return len(l), err }},
		{&c.AuditB, func() (int, error) { l, err := e.svc.AuditLog(e.ctx, e.b.ID); return len(l), err }},
		{&c.PlayersA, func() (int, error) { l, err := e.svc.Players(e.ctx, e.a.ID); return len(l), err }},
		{&c.Table1, func() (int, error) { l, err := e.svc.Revisions(e.ctx, e.a.ID, 1, 1); return len(l), err }},
		{&c.Table2, func() (int, error) { l, err := e.svc.Revisions(e.ctx, e.a.ID, 1, 2); return len(l), err }},
		{&c.TableB, func() (int, error) { l, err := e.svc.Revisions(e.ctx, e.b.ID, 1, 1); return len(l), err }},
		{&c.TournamentCount, func() (int, error) { l, err := e.svc.ListTournaments(e.ctx); return len(l), err }},
	} {
		n, err := x.get()
		if err != nil {
			t.Fatal(err)
		}
		*x.n = n
	}
	return c
}

// scoresJSON is a score sheet body naming players with VP in order.
func scoresJSON(version int, reason string, declared string, ids []int64, vps ...int) string {
	var parts []string
	for i, id := range ids {
		parts = append(parts, fmt.Sprintf(`{"player":%d,"vp":%d}`, id, vps[i]))
	}
	return fmt.Sprintf(`{"version":%d,"reason":%q,"declared":%s,"scores":[%s]}`, version, reason, declared, strings.Join(parts, ","))
}

// scoreForm is a score sheet form naming players with VP in order.
func scoreForm(version int, reason string, declared []string, ids []int64, vps ...string) string {
	v := url.Values{"version": {fmt.Sprint(version)}, "reason": {reason}, "action": {"save"}, "declared": declared}
	for i, id := range ids {
		v.Set(fmt.Sprintf("vp_%d", id), vps[i])
	}
	return v.Encode()
}

// TestHostileInputIsRefused sends what a confused or hostile client might
// through the real router, to the JSON API and to the console's forms:
// each gets a 4xx with a message saying what is wrong, in Japanese by
// default and in English on request, and changes nothing: no commit, the
// same audit logs, players and result revisions.
//
// Names made of markup or looking like a spreadsheet formula are not
// invalid: they are stored as typed and shown as text (see
// TestHostileNamesAreText).
func TestHostileInputIsRefused(t *testing.T) {
	env := newHostileEnv(t)
	t1, t2 := env.roundA.Tables[0].Players, env.roundA.Tables[1].Players
	tb := env.roundB.Tables[0].Players
	a := fmt.Sprintf("/api/v1/tournaments/%d", env.a.ID)
	result1 := a + "/rounds/1/tables/1/result"
	score1 := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/score", env.a.ID)
	score2 := fmt.Sprintf("/judge/t/%d/rounds/1/tables/2/score", env.a.ID)
	// Table 1 has a result, so that each bad sheet below is a correction
	// that must leave its one revision alone.
	if rec := env.api(http.MethodPut, result1, scoresJSON(0, "", fmt.Sprint(t1[0]), t1, 10, 8, 8, 5)); rec.Code != http.StatusOK {
		t.Fatalf("save table 1 = %d %s", rec.Code, rec.Body)
	}
	if _, err := env.svc.SetSeating(env.ctx, "setup", env.a.ID, 1, 2, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.svc.RevokePenalty(env.ctx, "setup", env.penalty.TournamentID, env.penalty.ID, "誤記録"); err != nil {
		t.Fatal(err)
	}
	huge := `{"version":1,"reason":"` + strings.Repeat("x", api.MaxBody) + `"}`
	callAPI := func(method, path, body string) func(lang string) (int, string) {
		return func(lang string) (int, string) {
			rec := env.api(method, path, body, "Accept-Language", lang)
			return rec.Code, jsonError(rec)
		}
	}
	form := func(path, body string) func(lang string) (int, string) {
		return func(lang string) (int, string) {
			rec := env.form(http.MethodPost, path, env.cookie, body, "Accept-Language", lang)
			return rec.Code, strings.Join(pageErrors(rec.Body.String()), " / ")
		}
	}
	tests := []struct {
		name     string
		send     func(lang string) (int, string)
		status   int
		ja, en   string
		toPlayer bool // the message names the player at fault
	}{
		{"API: negative VP", callAPI(http.MethodPut, result1, scoresJSON(1, "数え直し", "null", t1, 9, 8, -1, 5)),
			422, "勝利点は0点以上", "negative VP", true},
		{"API: VP no player can hold", callAPI(http.MethodPut, result1, scoresJSON(1, "数え直し", "null", t1, 9, 8, 99, 5)),
			422, "1人が持てる勝利点は最大22点", "more than the 22 a player can hold", true},
		{"API: two winners as a repeated key", callAPI(http.MethodPut, result1,
			strings.Replace(scoresJSON(1, "数え直し", fmt.Sprint(t1[0]), t1, 10, 10, 8, 5), `"declared"`, fmt.Sprintf(`"declared":%d,"declared"`, t1[1]), 1)),
			400, "項目 declared が2回指定", "Field declared is given twice", false},
		{"API: an unknown player", callAPI(http.MethodPut, result1, scoresJSON(1, "数え直し", "null", []int64{t1[0], t1[1], t1[2], 99999}, 9, 8, 7, 5)),
			422, "卓のプレイヤー全員の勝利点を1人1回ずつ", "the scores must name each player at the table once", false},
		{"API: players from another table", callAPI(http.MethodPut, result1, scoresJSON(1, "数え直し", "null", t2, 9, 8, 7, 5)),
			422, "卓のプレイヤー全員の勝利点を1人1回ずつ", "the scores must name each player at the table once", false},
		{"API: a winner from another table", callAPI(http.MethodPut, result1, scoresJSON(1, "数え直し", fmt.Sprint(t2[0]), t1, 9, 8, 7, 5)),
			422, "この卓のプレイヤーではありません", "is not at the table", true},
		{"API: players from another tournament", callAPI(http.MethodPut, result1, scoresJSON(1, "数え直し", "null", tb, 9, 8, 7, 5)),
			422, "卓のプレイヤー全員の勝利点を1人1回ずつ", "the scores must name each player at the table once", false},
		{"API: a huge body", callAPI(http.MethodPut, result1, huge),
			400, "送信データが大きすぎます", "too large", false},
		{"API: invalid UTF-8 in a reason", callAPI(http.MethodPut, result1, strings.Replace(scoresJSON(1, "REASON", "null", t1, 9, 8, 7, 5), "REASON", "\xff数え直し", 1)),
			400, "文字コードが正しくありません", "not valid UTF-8", false},
		{"API: invalid UTF-8 in a name", callAPI(http.MethodPost, a+"/players", "{\"name\":\"\xfe\xff\"}"),
			400, "文字コードが正しくありません", "not valid UTF-8", false},
		{"form: negative VP", form(score1, scoreForm(1, "数え直し", []string{"time"}, t1, "9", "8", "-1", "5")),
			422, "0〜99の範囲", "from 0 to 99", false},
		{"form: VP no player can hold", form(score1, scoreForm(1, "数え直し", []string{"time"}, t1, "9", "8", "99", "5")),
			422, "1人が持てる勝利点は最大22点", "more than the 22 a player can hold", true},
		{"form: VP over the sheet's range", form(score1, scoreForm(1, "数え直し", []string{"time"}, t1, "9", "8", "100", "5")),
			422, "0〜99の範囲", "from 0 to 99", false},
		{"form: two winners", form(score1, scoreForm(1, "数え直し", []string{fmt.Sprint(t1[0]), fmt.Sprint(t1[1])}, t1, "10", "10", "8", "5")),
			422, "勝利宣言できるのは1人だけ", "only one can", false},
		{"form: an unknown winner", form(score1, scoreForm(1, "数え直し", []string{"99999"}, t1, "10", "8", "8", "5")),
			422, "勝利宣言したプレイヤーか「宣言なし（時間切れ）」を選んでください", "Choose who declared victory", false},
		{"form: a winner from another table", form(score1, scoreForm(1, "数え直し", []string{fmt.Sprint(t2[0])}, t1, "10", "8", "8", "5")),
			422, "勝利宣言したプレイヤーか「宣言なし（時間切れ）」を選んでください", "Choose who declared victory", false},
		{"form: a huge body", form(score1, scoreForm(1, "数え直し", []string{"time"}, t1, "9", "8", "7", "5")+"&pad="+strings.Repeat("x", web.MaxForm)),
			400, "送信データが大きすぎます", "too large", false},
		{"form: invalid UTF-8 in a name", form(fmt.Sprintf("/judge/t/%d/players", env.a.ID), "name=%FE%FF&check_in=1"),
			400, "文字コードが正しくありません", "not valid UTF-8", false},
		{"form: invalid UTF-8 in a reason", form(score1, scoreForm(1, "\xff", []string{"time"}, t1, "9", "8", "7", "5")),
			400, "文字コードが正しくありません", "not valid UTF-8", false},
		{"form: a body that does not parse", form(score1, "version=1&reason=%zz"),
			400, "フォームの送信データを読み取れません", "could not be read", false},
		{"form: revoking a revoked penalty without a reason", form(fmt.Sprintf("/judge/t/%d/penalties/%d/revoke", env.a.ID, env.penalty.ID), "reason=+"),
			422, "理由を入力してください", "reason", false},
		{"form: no rolls for a seated table", form(strings.Replace(score2, "/score", "/seating", 1), "white=1"),
			422, "カプセルダイスの目を入力してください", "Enter the capsule rolls", false},
		{"form: rolls for a table that has a result", form(strings.Replace(score1, "/score", "/seating", 1), "round_0=1"),
			403, "結果が入力済みのため", "has a result", false},
		{"form: chips for a table without a board", form(strings.Replace(score2, "/score", "/deal", 1), "chip_0_-2=6&chip_1_-2=8"),
			422, "盤面のカプセルダイスの出目を入力してください", "capsule roll of the board before", false},
		// A result locks the table: whatever the forms carry, that is the answer.
		{"form: no rolls for a table that has a result", form(strings.Replace(score1, "/score", "/seating", 1), "0"),
			403, "結果が入力済みのため", "has a result", false},
		{"form: a board roll of 9 for a table that has a result", form(strings.Replace(score1, "/score", "/board", 1), "white=9&blue=x"),
			403, "結果が入力済みのため", "has a result", false},
		{"form: a chip of 13 for a table that has a result", form(strings.Replace(score1, "/score", "/deal", 1), "chip_0_0=13"),
			403, "結果が入力済みのため", "has a result", false},

		// Text every field refuses, in the API and the forms alike.
		{"API: a name of a zero-width space", callAPI(http.MethodPost, a+"/players", `{"name":"\u200b"}`),
			422, "名前に見える文字がありません", "The name has no visible character", false},
		{"API: a name with a right-to-left override", callAPI(http.MethodPost, a+"/players", `{"name":"taro\u202egpj.exe"}`),
			422, "名前に文字の向きを変える記号（U+202E）", "The name cannot contain characters that change the text direction (U+202E)", false},
		{"API: a name with NUL", callAPI(http.MethodPost, a+"/players", `{"name":"青\u0000木"}`),
			422, "名前に改行・タブなどの制御文字（U+0000）", "The name cannot contain line breaks, tabs or other control characters (U+0000)", false},
		{"API: a kana with a line break", callAPI(http.MethodPost, a+"/players", `{"name":"青木","kana":"あおき\nいのうえ"}`),
			422, "よみがなに改行", "The kana reading cannot contain line breaks", false},
		{"API: a 200,000-character tournament name", callAPI(http.MethodPost, "/api/v1/tournaments", `{"name":"`+strings.Repeat("x", 200000)+`","rounds":3}`),
			422, "大会名は 100 文字までです（入力: 200000 文字）", "The tournament name has at most 100 characters (got 200000)", false},
		{"API: a venue with ESC", callAPI(http.MethodPost, "/api/v1/tournaments", `{"name":"大会","venue":"\u001b[2J会場","rounds":3}`),
			422, "会場に改行・タブなどの制御文字（U+001B）", "The venue cannot contain", false},
		{"API: a penalty note with ESC", callAPI(http.MethodPost, a+"/penalties", fmt.Sprintf(`{"player":%d,"round":1,"offence":"note-taking","note":"\u001b]0;x\u0007"}`, t1[1])),
			422, "メモに改行・タブなどの制御文字", "The note cannot contain", false},
		{"API: a 501-character penalty note", callAPI(http.MethodPost, a+"/penalties", fmt.Sprintf(`{"player":%d,"round":1,"offence":"note-taking","note":%q}`, t1[1], strings.Repeat("メ", 501))),
			422, "メモは 500 文字まで", "The note has at most 500 characters", false},
		{"API: a correction reason with a line break", callAPI(http.MethodPut, result1, scoresJSON(1, "数え\n直し", "null", t1, 9, 8, 7, 5)),
			422, "理由に改行", "The reason cannot contain line breaks", false},
		{"API: an extension reason over its limit", callAPI(http.MethodPost, a+"/rounds/1/clock", `{"action":"extend","seconds":60,"reason":"`+strings.Repeat("r", 201)+`"}`),
			422, "理由は 200 文字まで", "The reason has at most 200 characters", false},
		{"form: a player name of zero-width spaces", form(fmt.Sprintf("/judge/t/%d/players", env.a.ID), "name=%E2%80%8B%E2%80%8B&check_in=1"),
			422, "名前に見える文字がありません", "The name has no visible character", false},
		{"form: a tournament name with an isolate", form("/judge/tournaments", "name=%E2%81%A7%E5%A4%A7%E4%BC%9A&rounds=3"),
			422, "大会名に文字の向きを変える記号", "The tournament name cannot contain characters that change the text direction", false},
		{"form: a 300,000-character venue", form("/judge/tournaments", "name=%E5%A4%A7%E4%BC%9A&rounds=3&venue="+strings.Repeat("v", 300000)),
			422, "会場は 100 文字まで", "The venue has at most 100 characters", false},
		{"form: a penalty note with NUL", form(fmt.Sprintf("/judge/t/%d/penalties", env.a.ID), fmt.Sprintf("player=%d&round=1&offence=note-taking&note=%%00", t1[1])),
			422, "メモに改行・タブなどの制御文字", "The note cannot contain", false},
		{"form: a revocation reason with ESC", form(fmt.Sprintf("/judge/t/%d/penalties/%d/revoke", env.a.ID, env.penalty.ID), "reason=%1B%5B31m"),
			422, "理由に改行・タブなどの制御文字", "The reason cannot contain", false},
		{"form: a swap reason of a zero-width space", form(fmt.Sprintf("/judge/t/%d/rounds/1/swap", env.a.ID), fmt.Sprintf("a=%d&b=%d&reason=%%E2%%80%%8B", t1[0], t2[0])),
			422, "理由に見える文字がありません", "The reason has no visible character", false},
	}
	names := map[int64]string{}
	for _, r := range []int64{t1[2], t2[0]} {
		p, err := env.svc.GetPlayer(env.ctx, env.a.ID, r)
		if err != nil {
			t.Fatal(err)
		}
		names[r] = p.Name
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := env.counts(t)
			for _, lang := range []string{"", "en"} {
				want := tt.ja
				if lang == "en" {
					want = tt.en
				}
				status, msg := tt.send(lang)
				if status != tt.status || !strings.Contains(msg, want) {
					t.Errorf("%s (Accept-Language %q) = %d %q, want %d saying %q", tt.name, lang, status, msg, tt.status, want)
				}
				if tt.toPlayer && !strings.Contains(msg, names[t1[2]]) && !strings.Contains(msg, names[t2[0]]) {
					t.Errorf("%s (Accept-Language %q) = %q, want the player's name", tt.name, lang, msg)
				}
			}
			if diff := cmp.Diff(before, env.counts(t)); diff != "" {
				t.Errorf("%s changed the data (-before +after):\n%s", tt.name, diff)
			}
		})
	}
}

// TestHostileNamesAreText registers players named with markup and with
// what a spreadsheet would take for a formula. They are names like any
// other: accepted (2xx), stored exactly as typed, shown as text on the
// console and the kiosk, and written to the workbook as text.
func TestHostileNamesAreText(t *testing.T) {
	env := newHostileEnv(t)
	const markup, formula = `<script>alert(1)</script>`, "=1+1"
	rec := env.api(http.MethodPost, "/api/v1/tournaments", `{"name":"<b>大会</b>","rounds":2}`)
	var tour api.TournamentJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &tour); rec.Code != http.StatusCreated || err != nil {
		t.Fatalf("create tournament = %d %s", rec.Code, rec.Body)
	}
	base := fmt.Sprintf("/api/v1/tournaments/%d", tour.ID)
	for _, name := range []string{markup, formula, "青木", "井上"} {
		body, _ := json.Marshal(map[string]string{"name": name})
		rec := env.api(http.MethodPost, base+"/players", string(body))
		var p api.PlayerJSON
		if err := json.Unmarshal(rec.Body.Bytes(), &p); rec.Code != http.StatusCreated || err != nil || p.Name != name {
			t.Fatalf("add player %q = %d %s, want 201 with the name as typed", name, rec.Code, rec.Body)
		}
	}
	if rec := env.api(http.MethodPost, base+"/rounds", ""); rec.Code != http.StatusCreated {
		t.Fatalf("pair round 1 = %d %s", rec.Code, rec.Body)
	}
	for _, path := range []string{
		fmt.Sprintf("/judge/t/%d/players", tour.ID), fmt.Sprintf("/judge/t/%d/rounds/1", tour.ID),
		fmt.Sprintf("/kiosk/%d", tour.ID), fmt.Sprintf("/kiosk/%d?q=%s", tour.ID, url.QueryEscape(markup)),
	} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Cookie", env.cookie)
		rec := httptest.NewRecorder()
		env.h.ServeHTTP(rec, req)
		page := rec.Body.String()
		if rec.Code != http.StatusOK || strings.Contains(page, markup) || strings.Contains(page, "<b>大会") {
			t.Errorf("GET %s = %d with the markup unescaped", path, rec.Code)
		}
		if text := html.UnescapeString(page); !strings.Contains(text, markup) || !strings.Contains(text, formula) {
			t.Errorf("GET %s does not show the names %q and %q as text", path, markup, formula)
		}
	}

	rec = env.api(http.MethodGet, base+"/export.xlsx", "")
	if rec.Code != http.StatusOK {
		t.Fatalf("export = %d %s", rec.Code, rec.Body)
	}
	f, err := excelize.OpenReader(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	found := map[string]int{}
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				if v != markup && v != formula {
					continue
				}
				found[v]++
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				typ, _ := f.GetCellType(sheet, cell)
				fm, _ := f.GetCellFormula(sheet, cell)
				if fm != "" || (typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString) {
					t.Errorf("%s!%s %q: type %v, formula %q; want a string and no formula", sheet, cell, v, typ, fm)
				}
			}
		}
	}
	if found[markup] == 0 || found[formula] == 0 {
		t.Errorf("workbook cells holding the names: %v, want both %q and %q", found, markup, formula)
	}
}
