package api_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// GET /api/v1/referee/board sets up a national-rules board from the corner
// die and seed, replays it, and refuses the capsule roll's dice for it
// (and the corner for a capsule ruleset) with a clear 422.
func TestSpiralBoardAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	const target = "/api/v1/referee/board?ruleset=national-2025&corner=3&seed=42"
	a, b := webtest.Do(h, "GET", target, ""), webtest.Do(h, "GET", target, "")
	if a.Code != 200 || a.Body.String() != b.Body.String() {
		t.Fatalf("GET %s twice = %d %s / %s, want the same board", target, a.Code, a.Body, b.Body)
	}
	var board api.BoardJSON
	if err := json.Unmarshal(a.Body.Bytes(), &board); err != nil {
		t.Fatal(err)
	}
	if board.Method != "spiral" || board.Corner != 3 || board.Start != "east" || board.Seed != 42 || board.White != 0 ||
		board.Ruleset != "national-2025" || len(board.Hexes) != 19 || len(board.Harbors) != 9 {
		t.Errorf("board = %+v, want the spiral from corner 3 (east), seed 42, 19 hexes, 9 harbours", board)
	}
	if !strings.Contains(a.Body.String(), `"method":"spiral","corner":3,"start":"east","seed":42,`) || strings.Contains(a.Body.String(), `"white"`) {
		t.Errorf("board JSON = %.120s, want method, corner, start and seed, and no capsule roll", a.Body)
	}
	robbers := 0
	for _, x := range board.Hexes {
		if x.Robber {
			robbers++
			if x.Terrain != "desert" || x.Number != 0 {
				t.Errorf("robber on %+v, want the desert", x)
			}
		}
	}
	if robbers != 1 {
		t.Errorf("%d robbers, want one on the desert", robbers)
	}
	// The capsule ruleset's board keeps its shape, with its method named.
	if rec := webtest.Do(h, "GET", "/api/v1/referee/board?white=3&blue=5&seed=42", ""); !strings.HasPrefix(rec.Body.String(), `{"method":"capsule","white":3,"blue":5,"seed":42,`) {
		t.Errorf("capsule board = %.80s", rec.Body)
	}
	// A game record names the spiral board by corner and seed, as the board API wrote it.
	rec := webtest.Do(h, "POST", "/api/v1/referee/game", `{"ruleset":"national-2025","board":{"corner":3,"seed":42},"players":["a","b","c"],"moves":[]}`)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"valid":true`) {
		t.Errorf("POST game on the spiral board = %d %.200s, want a valid empty record", rec.Code, rec.Body)
	}

	tests := []struct {
		name, target, lang string
		status             int
		contains           string
	}{
		{"capsule dice for the spiral", "/api/v1/referee/board?ruleset=national-2025&white=1&blue=2&seed=1", "en", 422, "give the corner die"},
		{"capsule dice for the spiral ja", "/api/v1/referee/board?ruleset=national-2025&white=1&blue=2", "ja", 422, "開始角のダイス"},
		{"corner for the capsule roll", "/api/v1/referee/board?corner=2&seed=1", "en", 422, "give the white and blue dice"},
		{"corner missing", "/api/v1/referee/board?ruleset=national-2025&seed=1", "en", 400, "corner is required"},
		{"corner out of range", "/api/v1/referee/board?ruleset=national-2025&corner=7", "en", 400, "corner"},
		{"capsule dice in a spiral game record", "", "en", 422, "corner die"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec *httptest.ResponseRecorder
			if tt.target == "" {
				rec = webtest.Do(h, "POST", "/api/v1/referee/game", `{"ruleset":"national-2025","board":{"white":1,"blue":1,"seed":1},"players":["a","b","c"],"moves":[]}`,
					"Accept-Language", tt.lang)
			} else {
				rec = webtest.Do(h, "GET", tt.target, "", "Accept-Language", tt.lang)
			}
			var body struct {
				Error string `json:"error"`
			}
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != tt.status || !strings.Contains(body.Error, tt.contains) {
				t.Errorf("%s = %d %q, want %d containing %q", tt.target, rec.Code, body.Error, tt.status, tt.contains)
			}
		})
	}
}

// GET /api/v1/rulesets lists both presets; each one's settings include the
// board, time and event sections.
func TestRulesetsListNational(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	rec := webtest.Do(h, "GET", "/api/v1/rulesets", "")
	if rec.Code != 200 || rec.Body.String() != `{"default":"proshop-2003","rulesets":[{"name":"national-2025","version":"2025.1"},{"name":"proshop-2003","version":"2003.3"}]}` {
		t.Errorf("GET /api/v1/rulesets = %d %s", rec.Code, rec.Body)
	}
	rec = webtest.Do(h, "GET", "/api/v1/rulesets/national-2025", "")
	for _, want := range []string{
		`"game_minutes":60`, `"dango":"off"`,
		`"board":{"method":"spiral","corners":["north-west","north-east","east","south-east","south-west","west"],"chips":[5,2,6,3,8,10,9,12,11,4,8,10,9,4,5,6,3,11]}`,
		`"time":{"placement_seconds_per_settlement":60,"final_turn_seconds":120,"end_notice_minutes":10}`,
		`"event":{"rounds":["random","swiss"],"final":"top-cut","cut":[4],"final_ties":"shared","schedule_priority":"spread"}`,
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("GET /api/v1/rulesets/national-2025 lacks %s", want)
		}
	}
}
