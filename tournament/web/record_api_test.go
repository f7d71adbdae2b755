package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// recordPlacements are the 8 placements of §4 at a 4-player table, on
// coastal corners apart from one another.
var recordPlacements = []string{
	`{"do":"place","settlement":"S(1,-3)","road":["S(1,-3)","N(0,-2)"]}`,
	`{"do":"place","settlement":"S(3,-2)","road":["S(3,-2)","N(2,-1)"]}`,
	`{"do":"place","settlement":"N(1,2)","road":["N(1,2)","S(1,1)"]}`,
	`{"do":"place","settlement":"N(-3,2)","road":["N(-3,2)","S(-2,1)"]}`,
	`{"do":"place","settlement":"S(-2,-1)","road":["S(-2,-1)","N(-3,1)"]}`,
	`{"do":"place","settlement":"S(-1,2)","road":["S(-1,2)","N(-1,3)"]}`,
	`{"do":"place","settlement":"N(2,1)","road":["N(2,1)","S(3,-1)"]}`,
	`{"do":"place","settlement":"S(0,-3)","road":["S(0,-3)","N(-1,-1)"]}`,
}

// withExpected adds "expected" to a move's JSON.
func withExpected(move string, n int) string {
	return strings.TrimSuffix(move, "}") + fmt.Sprintf(`,"expected":%d}`, n)
}

// gameEnv is a paired round whose table 1 is seated and has its board.
func gameEnv(t *testing.T) (*webtest.Env, tournament.Tournament, string) {
	t.Helper()
	env := webtest.New(t)
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.SetBoard(env.Ctx, "setup", tr.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 3, Blue: 5}}); err != nil {
		t.Fatal(err)
	}
	return env, tr, fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/game", tr.ID)
}

// The recorded game over HTTP: moves entered one at a time on the number
// of moves the client saw, each checked by the engine (422 with its rule
// and section), a stale one a 409 that says so, the last one undone, and
// the result saved from the finished record as a score sheet is.
func TestGameRecordAPI(t *testing.T) {
	env, tr, game := gameEnv(t)
	cl := webtest.APIClient{T: t, Env: env}
	type state struct {
		Moves int `json:"moves"`
		State struct {
			Phase   string `json:"phase"`
			Current string `json:"current"`
		} `json:"state"`
		Evaluation struct {
			LongestRoad struct {
				Code string `json:"code"`
			} `json:"longest_road"`
		} `json:"evaluation"`
	}
	var got struct {
		Players []string `json:"players"`
		Moves   []struct {
			Number int    `json:"number"`
			Judge  string `json:"judge"`
			Move   struct {
				Do   string   `json:"do"`
				Road []string `json:"road"`
			} `json:"move"`
		} `json:"moves"`
	}
	cl.Call("GET", game, nil, 200, &got)
	if len(got.Players) != 4 || len(got.Moves) != 0 {
		t.Fatalf("GET game = %+v, want 4 players and no move", got)
	}
	var st state
	cl.Call("POST", game+"/moves", withExpected(recordPlacements[0], 0), 201, &st)
	if st.Moves != 1 || st.State.Phase != "setup" || st.State.Current != got.Players[1] || st.Evaluation.LongestRoad.Code != "longest-road-none" {
		t.Errorf("POST the first placement = %+v, want 1 move, the 2nd player to place", st)
	}

	refusals := []struct {
		name, body string
		status     int
		want       []string
	}{
		{"the distance rule", `{"do":"place","settlement":"N(0,-2)","road":["N(0,-2)","S(1,-3)"],"expected":1}`, 422,
			[]string{`"code":"distance-rule"`, `"section":"§4 ア"`, "距離の規則"}},
		{"a stale record", withExpected(recordPlacements[1], 0), 409,
			[]string{`"code":"stale-game"`, `"current_version":1`, "1手になっています"}},
		{"no expected", recordPlacements[1], 400, []string{"expected"}},
		{"an unknown field", `{"do":"roll","dice":[1,2],"expected":1,"note":"x"}`, 400, []string{"note"}},
	}
	for _, tt := range refusals {
		rec := webtest.Do(env.Handler, "POST", game+"/moves", tt.body, "Authorization", "Bearer test-token")
		for _, w := range tt.want {
			if rec.Code != tt.status || !strings.Contains(rec.Body.String(), w) {
				t.Errorf("POST %s = %d %s, want %d with %s", tt.name, rec.Code, rec.Body, tt.status, w)
			}
		}
	}
	if rec := webtest.Do(env.Handler, "DELETE", game+"/moves/2", "", "Authorization", "Bearer test-token"); rec.Code != http.StatusConflict {
		t.Errorf("DELETE a move not there = %d %s, want 409", rec.Code, rec.Body)
	}
	cl.Call("DELETE", game+"/moves/1", nil, 200, &st)
	if st.Moves != 0 || st.State.Current != got.Players[0] {
		t.Errorf("after the undo: %+v, want no move, the 1st player to place", st)
	}
	for i, m := range recordPlacements {
		cl.Call("POST", game+"/moves", withExpected(m, i), 201, &st)
	}
	cl.Call("POST", game+"/moves", `{"do":"time_up","expected":8}`, 201, &st)
	if st.State.Phase != "over" {
		t.Fatalf("after the time signal the phase is %q, want over", st.State.Phase)
	}
	rec := webtest.Do(env.Handler, "POST", game+"/result", `{"moves":9,"version":0}`, "Authorization", "Bearer test-token")
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `"code":"ended-by-time-early"`) {
		t.Errorf("POST result without a reason = %d %s, want 422 ended-by-time-early", rec.Code, rec.Body)
	}
	var saved struct {
		Version   int    `json:"version"`
		EndedBy   string `json:"ended_by"`
		GameMoves int    `json:"game_moves"`
		Placings  []struct {
			VP        int `json:"vp"`
			Breakdown *struct {
				Settlements int `json:"settlements"`
			} `json:"breakdown"`
		} `json:"placings"`
	}
	cl.Call("POST", game+"/result", `{"moves":9,"version":0,"reason":"審判が終了"}`, 200, &saved)
	if saved.Version != 1 || saved.EndedBy != "time" || saved.GameMoves != 9 || len(saved.Placings) != 4 ||
		saved.Placings[0].VP != 2 || saved.Placings[0].Breakdown == nil || saved.Placings[0].Breakdown.Settlements != 2 {
		t.Errorf("POST result = %+v, want version 1 ended by time from 9 moves, 2 VP each with the breakdown", saved)
	}
	rec = webtest.Do(env.Handler, "GET", fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/1/revisions", tr.ID), "", "Authorization", "Bearer test-token")
	if !strings.Contains(rec.Body.String(), `"game_moves":9`) {
		t.Errorf("the revisions do not say the result came from the record: %s", rec.Body)
	}
	cl.Call("GET", game, nil, 200, &got)
	if len(got.Moves) != 9 || got.Moves[0].Number != 1 || got.Moves[0].Judge != tournament.APIActor || got.Moves[0].Move.Do != "place" || len(got.Moves[0].Move.Road) != 2 {
		t.Errorf("GET game = %+v, want the 9 moves with who entered them", got.Moves)
	}
	// The record is the judges': anonymous readers get nothing.
	if rec := webtest.Do(env.Handler, "GET", game, ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("GET game anonymously = %d, want 401", rec.Code)
	}
}

// Once a table has a result, its recorded game takes no move and no undo:
// the API answers 409 game-has-result, and the record page says why and
// offers neither.
func TestGameRecordLockedByResult(t *testing.T) {
	env, tr, game := gameEnv(t)
	cl := webtest.APIClient{T: t, Env: env}
	for i, m := range recordPlacements {
		cl.Call("POST", game+"/moves", withExpected(m, i), 201, nil)
	}
	cl.Save(tr.ID, 1, 1, 0, []int{10, 7, 5, 3}, 0, "")
	var p struct {
		Code  string `json:"code"`
		Error string `json:"error"`
	}
	cl.Call("POST", game+"/moves", `{"do":"roll","dice":[3,4],"expected":8}`, 409, &p)
	if p.Code != "game-has-result" || !strings.Contains(p.Error, "can no longer change") {
		t.Errorf("a move after the result: %+v, want the conflict game-has-result, said", p)
	}
	p.Code = ""
	cl.Call("DELETE", game+"/moves/8", nil, 409, &p)
	if p.Code != "game-has-result" {
		t.Errorf("an undo after the result: %+v, want the conflict game-has-result", p)
	}
	if g, err := env.Service.Game(env.Ctx, tr.ID, 1, 1); err != nil || len(g.Moves) != 8 {
		t.Fatalf("the record after the refusals has %d moves (%v), want 8", len(g.Moves), err)
	}
	b := env.Browser()
	b.Login("山田")
	page := fmt.Sprintf("/judge/t/%d/rounds/1/tables/1/game", tr.ID)
	res := b.Get(page)
	webtest.MustSee(t, "GET the record", res, http.StatusOK, `id="record-locked"`, "対戦記録はもう変更できません")
	for _, gone := range []string{`id="undo"`, `id="roll"`, `name="corner"`} {
		if strings.Contains(res.Body, gone) {
			t.Errorf("the locked record page still offers %s", gone)
		}
	}
	webtest.MustSee(t, "POST undo", b.Post(page, url.Values{"expected": {"8"}, "action": {"undo"}}), http.StatusConflict,
		`id="record-error"`, "対戦記録はもう変更できません")
}
