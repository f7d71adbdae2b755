package console_test

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// pastTable is a past event's table of names (with their readings) and VP.
func pastTable(round, table int, players ...any) map[string]any {
	var scores []map[string]any
	for i := 0; i+2 < len(players)+1; i += 3 {
		scores = append(scores, map[string]any{"name": players[i], "kana": players[i+1], "vp": players[i+2]})
	}
	return map[string]any{"round": round, "table": table, "scores": scores}
}

// The API beyond one event over the real router: past events imported,
// the ratings public and by ordinal, a person's rating with the judges'
// read, a season a judge's to make and anyone's to read, its refusals.
func TestLeaguesAPI(t *testing.T) {
	env := webtest.New(t)
	api := webtest.APIClient{T: t, Env: env}
	east := "カードショップ東"
	var imported struct {
		Tournaments []struct {
			ID       int64  `json:"id"`
			State    string `json:"state"`
			Imported string `json:"imported"`
			Shop     string `json:"shop"`
		} `json:"tournaments"`
	}
	api.Call("POST", "/api/v1/events/import", map[string]any{"events": []map[string]any{
		{"name": "9月", "date": "2025-09-20", "shop": east, "tables": []any{pastTable(1, 1, "青木", "あおき", 10, "井上", "いのうえ", 6, "上田", "うえだ", 6, "遠藤", "えんどう", 2)}},
		{"name": "10月", "date": "2025-10-18", "shop": east, "tables": []any{pastTable(1, 1, "青木", "あおき", 10, "上田", "うえだ", 7, "井上", "いのうえ", 3)}},
	}}, http.StatusCreated, &imported)
	if len(imported.Tournaments) != 2 || imported.Tournaments[0].State != "finished" || imported.Tournaments[0].Imported != "results-sheet" || imported.Tournaments[1].Shop != east {
		t.Fatalf("import = %+v, want two finished events imported from a results sheet", imported)
	}
	// Anyone reads the ratings: 青木 won both, first by ordinal.
	rec := webtest.Do(env.Handler, "GET", "/api/v1/ratings?min_games=2", "")
	var list struct {
		Ratings []struct {
			Rank    int     `json:"rank"`
			Name    string  `json:"name"`
			Ordinal float64 `json:"ordinal"`
			Games   int     `json:"games"`
		} `json:"ratings"`
		Total int `json:"total"`
	}
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &list) != nil {
		t.Fatalf("GET /api/v1/ratings anonymously = %d %s", rec.Code, rec.Body)
	}
	if list.Total != 3 || list.Ratings[0].Name != "青木" || list.Ratings[0].Rank != 1 || list.Ratings[0].Games != 2 {
		t.Errorf("ratings = %+v, want 青木 first of the 3 with 2 games", list)
	}
	if strings.Contains(rec.Body.String(), "member") {
		t.Errorf("the public ratings carry member numbers: %s", rec.Body)
	}
	var person struct {
		Rating struct {
			Mu, Sigma, Ordinal float64
			Games              int
		} `json:"rating"`
	}
	api.Call("GET", "/api/v1/people/1", nil, http.StatusOK, &person)
	if person.Rating.Games != 2 || person.Rating.Ordinal != list.Ratings[0].Ordinal || person.Rating.Mu <= 25 {
		t.Errorf("GET /api/v1/people/1 rating = %+v, want 青木's 2 games and ordinal %v", person.Rating, list.Ratings[0].Ordinal)
	}
	// A season is a judge's: refused anonymously, refused with a formula
	// that does not add up, made, read by anyone.
	body := `{"name":"秋リーグ","from":"2025-09-01","to":"2025-12-31","shops":["カードショップ東"],"formula":{"kind":"zero-sum","uma4":[30,10,-10,-30],"uma3":[20,0,-20],"vp":1,"best":2}}`
	if rec := webtest.Do(env.Handler, "POST", "/api/v1/seasons", body); rec.Code != http.StatusUnauthorized {
		t.Errorf("POST /api/v1/seasons anonymously = %d, want 401", rec.Code)
	}
	bad := strings.Replace(body, "-30]", "-20]", 1)
	rec = webtest.Do(env.Handler, "POST", "/api/v1/seasons", bad, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code":"season-uma-not-zero"`) {
		t.Errorf("POST a season whose uma adds up to 10 = %d %s, want 422 season-uma-not-zero", rec.Code, rec.Body)
	}
	api.Call("POST", "/api/v1/seasons", body, http.StatusCreated, nil)
	var st struct {
		Standings []struct {
			Name   string  `json:"name"`
			Points float64 `json:"points"`
			Events int     `json:"events"`
			Best   []struct {
				Points float64 `json:"points"`
			} `json:"best"`
		} `json:"standings"`
	}
	rec = webtest.Do(env.Handler, "GET", "/api/v1/seasons/1/standings", "")
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &st) != nil {
		t.Fatalf("GET the standings anonymously = %d %s", rec.Code, rec.Body)
	}
	// The zero-sum season adds up to zero: 4 people, every table's points.
	var sum float64
	for _, l := range st.Standings {
		sum += l.Points
	}
	if len(st.Standings) != 4 || st.Standings[0].Name != "青木" || math.Abs(sum) > 0.02 {
		t.Errorf("zero-sum standings = %+v (sum %v), want 青木 first and a sum of 0", st.Standings, sum)
	}
	if rec := webtest.Do(env.Handler, "GET", "/api/v1/seasons/1/qualification", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("GET the qualification anonymously = %d, want 401 (it carries real names)", rec.Code)
	}
	rec = webtest.Do(env.Handler, "GET", "/api/v1/seasons/1/qualification", "", "Authorization", "Bearer test-token")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "season-not-qualification") {
		t.Errorf("the qualification of a league = %d %s, want 422 season-not-qualification", rec.Code, rec.Body)
	}
}

// The registry's list sorts by rating on the console: the best first.
func TestRegistrySortsByRating(t *testing.T) {
	env := webtest.New(t)
	_, err := env.Service.ImportPastEvents(env.Ctx, "setup", []tournament.PastEvent{{Name: "9月", Date: "2025-09-20", Tables: []tournament.PastGame{
		{Round: 1, Table: 1, Scores: []tournament.PastScore{{Name: "上田", Kana: "うえだ", VP: 10}, {Name: "井上", Kana: "いのうえ", VP: 7}, {Name: "青木", Kana: "あおき", VP: 3}}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	b := env.Browser()
	b.Login("山田")
	byReading := b.Get("/judge/people")
	byRating := b.Get("/judge/people?sort=rating")
	webtest.MustSee(t, "the registry by rating", byRating, http.StatusOK, "レーティングの高い順に並んでいます", `href="/judge/people"`)
	order := func(body string) string {
		var out []string
		for _, n := range []string{"上田", "井上", "青木"} {
			out = append(out, fmt.Sprint(strings.Index(body, ">"+n+"</a>")))
		}
		return strings.Join(out, ",")
	}
	at := func(body, n string) int { return strings.Index(body, ">"+n+"</a>") }
	if !(at(byRating.Body, "上田") < at(byRating.Body, "井上") && at(byRating.Body, "井上") < at(byRating.Body, "青木")) {
		t.Errorf("by rating the list is at %s, want 上田, 井上, 青木", order(byRating.Body))
	}
	if !(at(byReading.Body, "青木") < at(byReading.Body, "井上") && at(byReading.Body, "井上") < at(byReading.Body, "上田")) {
		t.Errorf("by reading the list is at %s, want 青木, 井上, 上田", order(byReading.Body))
	}
}

// A judge imports a results sheet on the console: the preview says whom
// each player is; confirmed, the events are finished tournaments. Then
// the judge makes a qualification season from the form, a refusal shown
// next to its field first, and reads its standings and ledger.
func TestConsoleImportsPastEventsAndMakesASeason(t *testing.T) {
	env := webtest.New(t)
	b := env.Browser()
	b.Login("山田")
	sheet := "日付,店舗,大会名,回戦,卓,名前,よみがな,勝利点\n" +
		"2025-09-20,カードショップ東,9月定例会,1,1,青木,あおき,10\n2025-09-20,カードショップ東,9月定例会,1,1,井上,いのうえ,7\n2025-09-20,カードショップ東,9月定例会,1,1,上田,うえだ,5\n" +
		"2025-10-04,カードショップ東,10月定例会,1,1,井上,いのうえ,10\n2025-10-04,カードショップ東,10月定例会,1,1,青木,あおき,8\n2025-10-04,カードショップ東,10月定例会,1,1,上田,うえだ,2\n"
	res := b.Upload("/judge/past-events", "results.csv", []byte(sheet))
	webtest.MustSee(t, "the preview", res, http.StatusOK, "「results.csv」の内容", "2025-09-20 カードショップ東 9月定例会", "1回戦・1卓・参加者3人", "新しい登録者", `id="past-confirm"`)
	if ts, _ := env.Service.ListTournaments(env.Ctx); len(ts) != 0 {
		t.Fatalf("the preview made %d tournaments, want none", len(ts))
	}
	data := res.Body[strings.Index(res.Body, `name="data" value="`)+len(`name="data" value="`):]
	data = data[:strings.Index(data, `"`)]
	res = b.Post("/judge/past-events/confirm", url.Values{"data": {html.UnescapeString(data)}})
	if res.Status != http.StatusSeeOther || res.Location != "/judge/seasons" {
		t.Fatalf("confirm = %d to %q, want 303 to /judge/seasons\n%s", res.Status, res.Location, res.Body)
	}
	ts, _ := env.Service.ListTournaments(env.Ctx)
	if len(ts) != 2 || ts[0].Imported != tournament.ImportedFromSheet || ts[0].Closed == nil {
		t.Fatalf("tournaments = %+v, want two finished, imported", ts)
	}
	form := url.Values{"name": {"秋の予選"}, "from": {"2025-09-01"}, "to": {"2025-12-31"}, "shops": {"カードショップ東"}, "kind": {"zero-sum"},
		"uma4": {"30, 10, -10, -30"}, "uma3": {"20, 0, -10"}, "vp": {"0"}, "best": {"0"}, "qualify": {"1"}, "attempts": {"2"}, "rank": {"1"}, "real_name": {"1"}}
	res = b.Post("/judge/seasons", form)
	webtest.MustSee(t, "a refused season", res, http.StatusUnprocessableEntity, `id="uma4-error"`, "uma3 の合計が10点です")
	form.Set("uma3", "20, 0, -20")
	res = b.Post("/judge/seasons", form)
	if res.Status != http.StatusSeeOther || res.Location != "/judge/seasons/1" {
		t.Fatalf("create = %d to %q\n%s", res.Status, res.Location, res.Body)
	}
	res = b.Get("/judge/seasons/1")
	webtest.MustSee(t, "the season", res, http.StatusOK, `id="season-standings"`, "青木", `id="ledger"`, "2回目 10月定例会", "9月定例会 1位", "未登録")
	webtest.MustSee(t, "the public season page", b.Get("/seasons/1"), http.StatusOK, `id="season-standings"`, "卓ごとのゼロサム")
}
