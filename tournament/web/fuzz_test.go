package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// endpoint is a route a fuzz target throws bodies at.
type endpoint struct{ method, path string }

// apiEndpoints are the tournament API's routes that decode a JSON body,
// on the hostileEnv's data: the first tournament's round 1 (table 1 not
// yet seated nor set up), its penalty, and the second tournament's table.
func (e *hostileEnv) apiEndpoints() []endpoint {
	a, b := fmt.Sprintf("/api/v1/tournaments/%d", e.a.ID), fmt.Sprintf("/api/v1/tournaments/%d", e.b.ID)
	p := e.roundA.Tables[0].Players[0]
	return []endpoint{
		{http.MethodPost, "/api/v1/tournaments"},
		{http.MethodPost, a + "/players"},
		{http.MethodPost, fmt.Sprintf("%s/players/%d/checkin", a, p)},
		{http.MethodPost, a + "/rounds/1/tables/1/seating"},
		{http.MethodPost, a + "/rounds/1/tables/1/board"},
		{http.MethodPut, a + "/rounds/1/tables/1/result"},
		{http.MethodPut, a + "/rounds/1/tables/2/result"},
		{http.MethodPost, a + "/penalties"},
		{http.MethodPost, fmt.Sprintf("%s/penalties/%d/revoke", a, e.penalty.ID)},
		{http.MethodPost, a + "/rounds/1/clock"},
		{http.MethodPut, b + "/rounds/1/tables/1/result"},
	}
}

// FuzzTournamentAPI throws arbitrary bodies at every JSON decoder of the
// tournament API, as a judge with the API token, against a real service on
// SQLite: the answer is never a 5xx, a 4xx always says why (in Japanese or,
// with the high bit of which, in English), and a refused request commits
// nothing. Accepted requests change the data as they would at an event, so
// later inputs meet a tournament in a new state.
func FuzzTournamentAPI(f *testing.F) {
	env := newHostileEnv(f)
	eps := env.apiEndpoints()
	t1 := env.roundA.Tables[0].Players
	for _, s := range []struct {
		which uint8
		body  string
	}{
		{0, `{"name":"練習会","date":"2025-12-06","rounds":2}`},
		{1, `{"name":"遅刻者","kana":"ちこくしゃ","checked_in":false}`},
		{2, `{"checked_in":false}`},
		{3, `{"auto":true}`},
		{4, `{"white":3,"blue":5}`},
		{5, fmt.Sprintf(`{"version":0,"declared":%d,"scores":[{"player":%d,"vp":10},{"player":%d,"vp":8},{"player":%d,"vp":8},{"player":%d,"vp":5}]}`, t1[0], t1[0], t1[1], t1[2], t1[3])},
		{7, fmt.Sprintf(`{"player":%d,"round":1,"offence":"note-taking","note":"再度"}`, t1[1])},
		{8, `{"reason":"誤記録"}`},
		{9, `{"action":"start"}`},
		{0x80 | 5, `{"scores":[{"player":1,"vp":-1}],"declared":null}`},
		{0x80 | 10, `{"version":0,"scores":[],"declared":1,"declared":2}`},
		{6, `{}`}, {3, `[]`}, {4, `null`},
		// Text the fields refuse: invisible, reordering, control, too long.
		{1, `{"name":"\u200b"}`}, {1, `{"name":"taro\u202egpj.exe","kana":"\u0000"}`},
		{0, `{"name":"` + strings.Repeat("x", 101) + `","rounds":2}`}, {0x80, `{"name":"大会","venue":"\u001b[2J","rounds":2}`},
		{7, fmt.Sprintf(`{"player":%d,"round":1,"offence":"note-taking","note":"\u2066x"}`, t1[1])},
		{9, `{"action":"extend","seconds":30,"reason":"\n"}`},
	} {
		f.Add(s.which, s.body)
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		ep := eps[int(which&0x7f)%len(eps)]
		lang := "ja"
		if which&0x80 != 0 {
			lang = "en"
		}
		before := env.commits.Load()
		rec := env.api(ep.method, ep.path, body, "Accept-Language", lang)
		checkAPIAnswer(t, ep, body, rec, env.commits.Load()-before)
	})
}

// checkAPIAnswer fails unless rec is a 2xx with a JSON body, or a 4xx with
// an error message after which nothing was committed.
func checkAPIAnswer(t *testing.T, ep endpoint, body string, rec *httptest.ResponseRecorder, committed int64) {
	t.Helper()
	switch {
	case rec.Code >= 500:
		t.Fatalf("%s %s %q = %d %s, want 2xx or 4xx", ep.method, ep.path, body, rec.Code, rec.Body)
	case rec.Code >= 400 && jsonError(rec) == "":
		t.Fatalf("%s %s %q = %d %s, want an error message", ep.method, ep.path, body, rec.Code, rec.Body)
	case rec.Code >= 400 && committed != 0:
		t.Fatalf("%s %s %q = %d %s after committing %d changes, want none", ep.method, ep.path, body, rec.Code, rec.Body, committed)
	case rec.Code < 300 && !json.Valid(rec.Body.Bytes()):
		t.Fatalf("%s %s %q = %d with a body that is not JSON: %s", ep.method, ep.path, body, rec.Code, rec.Body)
	}
}

// formEndpoints are the console's form posts that read fields, on the
// hostileEnv's data, and the player import (a file upload, fuzzed as the
// file's bytes).
func (e *hostileEnv) formEndpoints() []endpoint {
	a := fmt.Sprintf("/judge/t/%d", e.a.ID)
	p := e.roundA.Tables[0].Players[0]
	return []endpoint{
		{http.MethodPost, "/judge/tournaments"},
		{http.MethodPost, a},
		{http.MethodPost, a + "/players"},
		{http.MethodPost, fmt.Sprintf("%s/players/%d", a, p)},
		{http.MethodPost, fmt.Sprintf("%s/players/%d/checkin", a, p)},
		{http.MethodPost, a + "/players/import/confirm"},
		{http.MethodPost, a + "/rounds/1/swap"},
		{http.MethodPost, a + "/rounds/1/move"},
		{http.MethodPost, a + "/rounds/1/clock"},
		{http.MethodPost, a + "/rounds/1/tables/1/seating"},
		{http.MethodPost, a + "/rounds/1/tables/1/board"},
		{http.MethodPost, a + "/rounds/1/tables/1/deal"},
		{http.MethodPost, a + "/rounds/1/tables/1/score"},
		{http.MethodPost, a + "/rounds/1/tables/2/score"},
		{http.MethodPost, a + "/penalties"},
		{http.MethodPost, fmt.Sprintf("%s/penalties/%d/revoke", a, e.penalty.ID)},
		{http.MethodPost, "/judge/login"},
		{http.MethodPost, a + "/players/import"},
	}
}

// FuzzConsoleForms throws arbitrary form bodies at every console form that
// reads fields, as a logged-in judge (the login form anonymously), and
// arbitrary files at the player import: never a 5xx, a 4xx page always
// shows a message, and a refused form commits nothing.
func FuzzConsoleForms(f *testing.F) {
	env := newHostileEnv(f)
	eps := env.formEndpoints()
	t1 := env.roundA.Tables[0].Players
	t2 := env.roundA.Tables[1].Players
	for _, s := range []struct {
		which uint8
		body  string
	}{
		{0, "name=%E7%B7%B4%E7%BF%92%E4%BC%9A&date=2025-12-06&venue=&ruleset=proshop-2003&rounds=3&game_minutes="},
		{1, "name=%E5%9C%9F%E6%9B%9C&date=&venue=&rounds=4&game_minutes=7"},
		{2, "name=%E9%81%85%E5%88%BB&kana=&check_in=1"},
		{3, fmt.Sprintf("name=X&kana=&fixed_table=&keep_apart=%d", t1[1])},
		{3, "name=Y&kana=&fixed_table=&keep_apart=99999"},
		{4, "in=0"},
		{5, "data=bmFtZQrpnZLmnKgK"},
		{8, "action=extend&table=1&seconds=60&reason=x"},
		{9, fmt.Sprintf("round_0=1&r0_%d_w=1&r0_%d_b=2&r0_%d_w=3&r0_%d_b=4&r0_%d_w=5&r0_%d_b=6&r0_%d_w=6&r0_%d_b=6", t1[0], t1[0], t1[1], t1[1], t1[2], t1[2], t1[3], t1[3])},
		{10, "white=3&blue=5"},
		{11, "chip_0_-2=6&chip_1_-2=8"},
		{12, fmt.Sprintf("version=0&action=save&declared=%d&vp_%d=10&vp_%d=8&vp_%d=8&vp_%d=5", t1[0], t1[0], t1[1], t1[2], t1[3])},
		{12, fmt.Sprintf("version=0&declared=%d&declared=%d&vp_%d=10&vp_%d=10&vp_%d=8&vp_%d=5", t1[0], t1[1], t1[0], t1[1], t1[2], t1[3])},
		{13, fmt.Sprintf("version=0&declared=time&vp_%d=-1&vp_%d=99&vp_%d=100&vp_%d=5", t2[0], t2[1], t2[2], t2[3])},
		{14, fmt.Sprintf("player=%d&round=1&table=&offence=note-taking&level=&note=", t1[1])},
		{15, "reason=%E8%AA%A4%E8%A8%98%E9%8C%B2"},
		{16, "name=%E5%B1%B1%E7%94%B0&password=wrong"},
		{6, fmt.Sprintf("a=%d&b=%d&reason=%%E5%%8F%%8B%%E4%%BA%%BA", t1[0], t2[0])},
		{7, fmt.Sprintf("a=%d&table=2&reason=x", t1[0])},
		{17, "氏名,フリガナ\n田中,たなか\n"},
		{0x80 | 2, "name=%ff%fe"},
		{0x80 | 12, "version=x&declared="},
		// Text the fields refuse, and a login name and next the rules refuse.
		{2, "name=%E2%80%8B&kana=&check_in=1"},
		{0, "name=%E2%80%AE%E5%A4%A7%E4%BC%9A&rounds=3&venue=%00"},
		{14, fmt.Sprintf("player=%d&round=1&offence=note-taking&note=%%1B%%5B2J", t1[1])},
		{16, "name=%E2%80%AE&password=x&next=%2F%09%2Fother-host"},
		{17, "名前" + strings.Repeat(",", 70) + "x\n青木\n"},
	} {
		f.Add(s.which, s.body)
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		ep := eps[int(which&0x7f)%len(eps)]
		lang := "ja"
		if which&0x80 != 0 {
			lang = "en"
		}
		before := env.commits.Load()
		var rec *httptest.ResponseRecorder
		switch ep.path {
		case "/judge/login":
			rec = env.form(ep.method, ep.path, "", body, "Accept-Language", lang)
		case eps[len(eps)-1].path:
			rec = env.upload(ep.path, []byte(body), "Accept-Language", lang)
		default:
			rec = env.form(ep.method, ep.path, env.cookie, body, "Accept-Language", lang)
		}
		committed := env.commits.Load() - before
		switch {
		case rec.Code >= 500:
			t.Fatalf("%s %s %q = %d, want 2xx, 3xx or 4xx:\n%s", ep.method, ep.path, body, rec.Code, rec.Body)
		case rec.Code >= 400 && len(pageErrors(rec.Body.String())) == 0:
			t.Fatalf("%s %s %q = %d without a message on the page:\n%s", ep.method, ep.path, body, rec.Code, rec.Body)
		case rec.Code >= 400 && committed != 0:
			t.Fatalf("%s %s %q = %d %q after committing %d changes, want none", ep.method, ep.path, body, rec.Code, pageErrors(rec.Body.String()), committed)
		}
	})
}
