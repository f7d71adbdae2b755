package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

func TestPlacingsAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	tests := []struct {
		name, body string
		want       string
	}{
		// docs/rules.md §12 examples.
		{"declared", `{"scores":[{"player":"a","vp":10},{"player":"b","vp":8},{"player":"c","vp":8},{"player":"d","vp":5}],"declared":"a"}`,
			`{"placings":[{"player":"a","vp":10,"place":1},{"player":"b","vp":8,"place":2},{"player":"c","vp":8,"place":2},{"player":"d","vp":5,"place":4}]}`},
		{"time", `{"scores":[{"player":"a","vp":9},{"player":"b","vp":9},{"player":"c","vp":7},{"player":"d","vp":6}],"declared":null}`,
			`{"placings":[{"player":"a","vp":9,"place":1},{"player":"b","vp":9,"place":1},{"player":"c","vp":7,"place":3},{"player":"d","vp":6,"place":4}]}`},
		{"cap", `{"scores":[{"player":"a","vp":12},{"player":"b","vp":3},{"player":"c","vp":2}],"declared":"a"}`,
			`{"placings":[{"player":"a","vp":10,"place":1},{"player":"b","vp":3,"place":2},{"player":"c","vp":2,"place":3}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := webtest.Do(h, "POST", "/api/v1/referee/placings", tt.body)
			if rec.Code != http.StatusOK {
				t.Fatalf("POST placings %s = %d %s, want 200", tt.body, rec.Code, rec.Body)
			}
			if diff := cmp.Diff(tt.want, strings.TrimSpace(rec.Body.String())); diff != "" {
				t.Errorf("POST placings %s mismatch (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

func TestStandingsAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	body := `{"games":[
	  {"scores":[{"player":"a","vp":10},{"player":"b","vp":8},{"player":"c","vp":8},{"player":"d","vp":5}],"declared":"a"},
	  {"scores":[{"player":"a","vp":6},{"player":"b","vp":10},{"player":"c","vp":4}],"declared":"b"}]}`
	rec := webtest.Do(h, "POST", "/api/v1/referee/standings", body)
	if rec.Code != http.StatusOK {
		t.Fatalf("POST standings = %d %s", rec.Code, rec.Body)
	}
	var got struct {
		Standings []struct {
			Rank   int     `json:"rank"`
			Player string  `json:"player"`
			Firsts int     `json:"firsts"`
			VP     int     `json:"vp"`
			Share  float64 `json:"share"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	// a and b: one 1st each; b has 18 VP, a 16: b first. Shares: game 1 total
	// 31; game 2 is a 3-player table: total 20 raised by its average to 80/3.
	type row struct {
		Rank   int
		Player string
		Firsts int
		VP     int
		Share  float64
	}
	want := []row{{1, "b", 1, 18, 0.6331}, {2, "a", 1, 16, 0.5476}, {3, "c", 0, 12, 0.4081}, {4, "d", 0, 5, 0.1613}}
	var have []row
	for _, s := range got.Standings {
		have = append(have, row{s.Rank, s.Player, s.Firsts, s.VP, s.Share})
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("standings mismatch (-want +got):\n%s", diff)
	}
}

func TestBoardAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	a := webtest.Do(h, "GET", "/api/v1/referee/board?white=2&blue=5&seed=7", "")
	b := webtest.Do(h, "GET", "/api/v1/referee/board?white=2&blue=5&seed=7", "")
	if a.Code != 200 || a.Body.String() != b.Body.String() {
		t.Fatalf("same white, blue, seed gave %d %s and %s, want the same board twice", a.Code, a.Body, b.Body)
	}
	var board api.BoardJSON
	if err := json.Unmarshal(a.Body.Bytes(), &board); err != nil {
		t.Fatal(err)
	}
	if len(board.Hexes) != 19 || len(board.Harbors) != 9 || board.Seed != 7 || board.Ruleset != "proshop-2003" {
		t.Errorf("board = %d hexes, %d harbours, seed %d, ruleset %q; want 19, 9, 7, proshop-2003", len(board.Hexes), len(board.Harbors), board.Seed, board.Ruleset)
	}
	// Without a seed, one is chosen and returned, and replays the same board.
	r := webtest.Do(h, "GET", "/api/v1/referee/board?white=1&blue=1", "")
	var random api.BoardJSON
	if err := json.Unmarshal(r.Body.Bytes(), &random); err != nil {
		t.Fatal(err)
	}
	replay := webtest.Do(h, "GET", "/api/v1/referee/board?white=1&blue=1&seed="+jsonNumber(random.Seed), "")
	if replay.Body.String() != r.Body.String() {
		t.Errorf("replaying seed %d gave a different board", random.Seed)
	}
}

func jsonNumber(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestDealCheckAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	rec := webtest.Do(h, "GET", "/api/v1/referee/board?white=6&blue=6&seed=1", "")
	var board api.BoardJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &board); err != nil {
		t.Fatal(err)
	}
	var chips []api.ChipJSON
	for _, x := range board.Hexes {
		if x.Number != 0 {
			chips = append(chips, api.ChipJSON{Q: x.Q, R: x.R, Number: x.Number})
		}
	}
	body, _ := json.Marshal(api.DealCheckRequest{Numbers: chips})
	rec = webtest.Do(h, "POST", "/api/v1/referee/board/check", string(body))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"redeal":false`) {
		t.Errorf("checking a dealt board = %d %s, want 200 and no redeal", rec.Code, rec.Body)
	}
}

// Bad input gets a 4xx with a message in the request's language and never a 5xx.
func TestRefereeAPIBadInput(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	tests := []struct {
		name, method, target, body string
		lang                       string
		status                     int
		contains                   string
	}{
		{"declared under 10", "POST", "/api/v1/referee/placings", `{"scores":[{"player":"a","vp":9},{"player":"b","vp":1},{"player":"c","vp":1}],"declared":"a"}`, "en", 422, "9 VP"},
		{"negative vp", "POST", "/api/v1/referee/placings", `{"scores":[{"player":"a","vp":-1},{"player":"b","vp":1},{"player":"c","vp":1}],"declared":null}`, "en", 422, "negative"},
		{"two players", "POST", "/api/v1/referee/placings", `{"scores":[{"player":"a","vp":1},{"player":"b","vp":1}],"declared":null}`, "en", 422, "2 players"},
		{"duplicate", "POST", "/api/v1/referee/placings", `{"scores":[{"player":"a","vp":1},{"player":"a","vp":1},{"player":"b","vp":1}],"declared":null}`, "en", 422, "twice"},
		{"unknown field", "POST", "/api/v1/referee/placings", `{"scorez":[]}`, "en", 400, "scorez"},
		{"unknown field ja", "POST", "/api/v1/referee/placings", `{"scorez":[]}`, "ja", 400, "知らない項目"},
		{"wrong type", "POST", "/api/v1/referee/placings", `{"scores":[{"player":"a","vp":"ten"}]}`, "en", 400, "scores.vp"},
		{"not json", "POST", "/api/v1/referee/seating", `{`, "en", 400, "JSON"},
		{"invalid utf-8", "POST", "/api/v1/referee/seating", "{\"players\":[\"\xff\"]}", "en", 400, "UTF-8"},
		{"huge body", "POST", "/api/v1/referee/standings", `{"games":[` + strings.Repeat(" ", 2<<20) + `]}`, "en", 400, "too large"},
		{"tie", "POST", "/api/v1/referee/seating", `{"rounds":[[{"player":"a","white":1,"blue":2},{"player":"b","white":2,"blue":1},{"player":"c","white":6,"blue":6}]]}`, "en", 422, "a, b"},
		{"die out of range", "POST", "/api/v1/referee/seating", `{"rounds":[[{"player":"a","white":7,"blue":2},{"player":"b","white":2,"blue":1},{"player":"c","white":6,"blue":6}]]}`, "en", 422, "white die 7"},
		{"white missing", "GET", "/api/v1/referee/board?blue=2", "", "en", 400, "white is required"},
		{"blue range ja", "GET", "/api/v1/referee/board?white=1&blue=0", "", "ja", 400, "blue は 1 から 6"},
		{"bad seed", "GET", "/api/v1/referee/board?white=1&blue=1&seed=x", "", "en", 400, "seed"},
		{"unknown ruleset", "GET", "/api/v1/rulesets/nope", "", "en", 404, "nope"},
		{"chip off the land", "POST", "/api/v1/referee/board/check", `{"numbers":[{"q":5,"r":5,"number":6}]}`, "en", 422, "off the land"},
		{"no route", "GET", "/api/v1/nothing", "", "ja", 404, "見つかりません"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := webtest.Do(h, tt.method, tt.target, tt.body, "Accept-Language", tt.lang)
			var body struct {
				Error string `json:"error"`
			}
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != tt.status || !strings.Contains(body.Error, tt.contains) {
				t.Errorf("%s %s = %d %q, want %d containing %q", tt.method, tt.target, rec.Code, body.Error, tt.status, tt.contains)
			}
		})
	}
}

func TestRulesetAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	rec := webtest.Do(h, "GET", "/api/v1/rulesets/proshop-2003", "")
	if rec.Code != 200 {
		t.Fatalf("GET ruleset = %d", rec.Code)
	}
	var got struct {
		GameMinutes int `json:"game_minutes"`
		Penalties   []struct {
			Code, Section, Level string
			NameJA               string `json:"name_ja"`
		} `json:"penalties"`
		Levels []api.LevelJSON `json:"levels"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.GameMinutes != 7 || len(got.Penalties) == 0 || got.Penalties[0].Section == "" || got.Penalties[0].NameJA == "" {
		t.Errorf("ruleset = %+v, want game_minutes 7 and a penalty catalogue with sections", got)
	}
	wantLevels := []api.LevelJSON{
		{ID: "caution", NameJA: "注意", NameEN: "Caution"}, {ID: "warning", NameJA: "警告", NameEN: "Warning"}, {ID: "vp_deduction", NameJA: "勝利点減点", NameEN: "VP deduction"},
		{ID: "game_loss", NameJA: "敗北", NameEN: "Game loss"}, {ID: "disqualification", NameJA: "失格", NameEN: "Disqualification"},
	}
	if diff := cmp.Diff(wantLevels, got.Levels); diff != "" {
		t.Errorf("levels (-want +got):\n%s", diff)
	}
}

// FuzzRefereeAPI throws arbitrary bodies at every JSON decoder of the
// referee API: the answer is always a 2xx or a 4xx with an error message.
// (The tournament API has FuzzTournamentAPI.)
func FuzzRefereeAPI(f *testing.F) {
	h := webtest.NewRefereeServer(f)
	paths := []string{"/api/v1/referee/placings", "/api/v1/referee/standings", "/api/v1/referee/seating", "/api/v1/referee/board/check",
		"/api/v1/referee/pairings"}
	seeds := []string{
		`{"scores":[{"player":"a","vp":10},{"player":"b","vp":8},{"player":"c","vp":8}],"declared":"a"}`,
		`{"games":[{"scores":[{"player":"a","vp":3},{"player":"b","vp":3},{"player":"c","vp":3}],"declared":null}],"byes":["e"]}`,
		`{"rounds":[[{"player":"a","white":3,"blue":3},{"player":"b","white":3,"blue":3},{"player":"c","white":1,"blue":1}],[{"player":"a","white":1,"blue":1},{"player":"b","white":2,"blue":1}]]}`,
		`{"players":["a","b","c","d"],"seed":5}`,
		`{"white":0,"numbers":[{"q":0,"r":-2,"number":6},{"q":1,"r":-2,"number":8}]}`,
		`{"mode":"swiss","seed":7,"players":[{"id":"a","standing":1},{"id":"b","standing":2},{"id":"c","standing":3},{"id":"d","standing":4},{"id":"e","standing":5}],"history":[["a","b","c"],["d","e"]],"keep_apart":[["a","e"]]}`,
		`{}`, `[]`, `null`, `{"scores":null}`,
	}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		path := paths[int(which)%len(paths)]
		rec := webtest.Do(h, "POST", path, body)
		if rec.Code >= 500 || (rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error"`)) {
			t.Fatalf("POST %s %q = %d %s, want 2xx or 4xx with an error", path, body, rec.Code, rec.Body)
		}
	})
}

func TestPairingsAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	players := `[{"id":"a","standing":1},{"id":"b","standing":2},{"id":"c","standing":3},{"id":"d","standing":4},{"id":"e","standing":5},{"id":"f","standing":6},{"id":"g","standing":7}]`
	rec := webtest.Do(h, "POST", "/api/v1/referee/pairings", `{"mode":"swiss","seed":7,"players":`+players+`,"history":[["a","b","c","d"],["e","f","g"]]}`)
	var got api.PairedRoundJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != 200 || err != nil {
		t.Fatalf("POST pairings = %d %s", rec.Code, rec.Body)
	}
	// 7 players: a table of 4 and one of 3, every player seated exactly once.
	seen := map[string]int{}
	for _, tb := range got.Tables {
		for _, p := range tb {
			seen[p]++
		}
	}
	if len(got.Tables) != 2 || len(seen) != 7 || got.Seed != 7 {
		t.Errorf("pairing = %+v, want 7 players at 2 tables with seed 7", got)
	}
	again := webtest.Do(h, "POST", "/api/v1/referee/pairings", `{"mode":"swiss","seed":7,"players":`+players+`,"history":[["a","b","c","d"],["e","f","g"]]}`)
	if again.Body.String() != rec.Body.String() {
		t.Errorf("same input and seed gave %s then %s", rec.Body, again.Body)
	}

	var ids []string
	for i := range 16 {
		ids = append(ids, fmt.Sprintf(`{"id":"p%02d"}`, i))
	}
	rec = webtest.Do(h, "POST", "/api/v1/referee/pairings", `{"mode":"schedule","rounds":5,"seed":1,"players":[`+strings.Join(ids, ",")+`]}`)
	var sched api.ScheduleJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &sched); rec.Code != 200 || err != nil {
		t.Fatalf("POST schedule = %d %s", rec.Code, rec.Body)
	}
	if len(sched.Rounds) != 5 || sched.Repeats != 0 {
		t.Errorf("16 x 5 schedule: %d rounds, %d repeats; want 5 rounds, 0 repeats", len(sched.Rounds), sched.Repeats)
	}

	for _, bad := range []struct{ body, want string }{
		{`{"mode":"swiss","players":[{"id":"a"},{"id":"b"}]}`, "at least 3"},
		{`{"mode":"chess","players":[{"id":"a"},{"id":"b"},{"id":"c"}]}`, "mode"},
		{`{"mode":"schedule","rounds":0,"players":[{"id":"a"},{"id":"b"},{"id":"c"}]}`, "rounds"},
	} {
		rec := webtest.Do(h, "POST", "/api/v1/referee/pairings", bad.body, "Accept-Language", "en")
		if rec.Code < 400 || rec.Code >= 500 || !strings.Contains(rec.Body.String(), bad.want) {
			t.Errorf("POST pairings %s = %d %s, want 4xx mentioning %q", bad.body, rec.Code, rec.Body, bad.want)
		}
	}
}
