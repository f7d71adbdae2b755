package webtest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament/web/api"
)

// APIClient calls the JSON API of a Env with the API token.
type APIClient struct {
	T   *testing.T
	Env *Env
}

// Call sends body (marshalled unless it is a string) and decodes the
// answer into out, failing the test unless the status is want.
func (a APIClient) Call(method, path string, body any, want int, out any) {
	a.T.Helper()
	var text string
	switch b := body.(type) {
	case nil:
	case string:
		text = b
	default:
		data, err := json.Marshal(b)
		if err != nil {
			a.T.Fatal(err)
		}
		text = string(data)
	}
	rec := Do(a.Env.Handler, method, path, text, "Authorization", "Bearer test-token", "Accept-Language", "en")
	if rec.Code != want {
		a.T.Fatalf("%s %s %s = %d %s, want %d", method, path, text, rec.Code, rec.Body, want)
	}
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			a.T.Fatalf("%s %s: decode %s: %v", method, path, rec.Body, err)
		}
	}
}

// Save PUTs a table's score sheet with VP in the table's pairing order;
// declared is an index into that order, or -1 when time ended the game.
func (a APIClient) Save(tid int64, n, table, version int, vp []int, declared int, reason string) api.ResultJSON {
	a.T.Helper()
	var round api.RoundJSON
	a.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d", tid, n), nil, 200, &round)
	players := round.Tables[table-1].Players
	req := api.SaveResultRequest{Version: version, Reason: reason}
	for i, p := range players {
		req.Scores = append(req.Scores, api.ScoreRequest{Player: p.ID, VP: &vp[i]})
	}
	if declared >= 0 {
		req.Declared = &players[declared].ID
	}
	var res struct {
		Placings []api.PlaceIDJSON `json:"placings"`
		Version  int               `json:"version"`
	}
	a.Call("PUT", fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d/tables/%d/result", tid, n, table), req, 200, &res)
	return api.ResultJSON{Version: res.Version, Scores: res.Placings}
}

// TimeUp starts round n's clock through the API and moves the service's
// clock past the game time: the tables without a result end by time (§12).
func (a APIClient) TimeUp(tid int64, n int) {
	a.T.Helper()
	var clk api.ClockJSON
	a.Call("POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d/clock", tid, n), `{"action":"start"}`, 200, &clk)
	a.Env.Ahead.Add(int64(time.Duration(clk.GameSeconds+60) * time.Second))
}

// NationalEvent creates a national-2025 tournament of rounds rounds with n
// players through the API, and returns the client, the tournament and its
// API path.
func NationalEvent(t *testing.T, env *Env, rounds, n int) (APIClient, api.TournamentJSON, string) {
	t.Helper()
	cl := APIClient{T: t, Env: env}
	var tour api.TournamentJSON
	cl.Call("POST", "/api/v1/tournaments", fmt.Sprintf(`{"name":"地区予選","rounds":%d,"ruleset":"national-2025"}`, rounds), 201, &tour)
	base := fmt.Sprintf("/api/v1/tournaments/%d", tour.ID)
	for i := range n {
		cl.Call("POST", base+"/players", map[string]string{"name": fmt.Sprintf("選手%02d", i+1)}, 201, nil)
	}
	return cl, tour, base
}
