package api_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The position of the contract: R's five roads take the longest road
// (§10 ア), B's settlement cuts them (a placement play forbids, noted), and
// B's soldier is counted.
const positionBody = `{"players":["R","B","Y"],"steps":[
 {"do":"settlement","player":"R","at":"N(0,0)"},
 {"do":"road","player":"R","edge":["N(0,0)","S(1,-1)"]},
 {"do":"road","player":"R","edge":["S(1,-1)","N(1,0)"]},
 {"do":"road","player":"R","edge":["N(1,0)","S(2,-1)"]},
 {"do":"road","player":"R","edge":["S(2,-1)","N(2,0)"]},
 {"do":"road","player":"R","edge":["N(2,0)","S(3,-1)"]},
 {"do":"settlement","player":"B","at":"S(1,-1)"},
 {"do":"soldier","player":"B"}]}`

func TestPositionAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	rec := webtest.Do(h, "POST", "/api/v1/referee/position", positionBody, "Accept-Language", "en")
	if rec.Code != http.StatusOK {
		t.Fatalf("POST position = %d %s", rec.Code, rec.Body)
	}
	after := func(r, vpR, vpB, soldiersB int, longest string) string {
		l := "null"
		if longest != "" {
			l = `"` + longest + `"`
		}
		return fmt.Sprintf(`{"roads":{"B":0,"R":%d,"Y":0},"soldiers":{"B":%d,"R":0,"Y":0},"longest_road":%s,"largest_army":null,"vp":{"B":%d,"R":%d,"Y":0}}`,
			r, soldiersB, l, vpB, vpR)
	}
	want := `{"after":[` + strings.Join([]string{
		after(0, 1, 0, 0, ""), after(1, 1, 0, 0, ""), after(2, 1, 0, 0, ""), after(3, 1, 0, 0, ""), after(4, 1, 0, 0, ""),
		after(5, 3, 0, 0, "R"), after(4, 1, 1, 0, ""), after(4, 1, 1, 1, ""),
	}, ",") + `],"notes":[{"step":6,"code":"distance-rule","section":"§8 イ","message":"S(1,-1) is next to a settlement or city: the distance rule (§4 ア, §8 イ)."}],` +
		// The evaluation after the last step: R's longest road runs up to
		// B's settlement and stops there (§10 ア), and the cut returned the
		// card to the bank at step 6.
		`"evaluation":{"players":[` +
		`{"player":"R","road":4,"trail":["S(1,-1)","N(1,0)","S(2,-1)","N(2,0)","S(3,-1)"],"roads":5,"settlements":1,"cities":0,"soldiers":0,"point_cards":0,"vp":1,"vp_breakdown":{"settlements":1,"cities":0,"longest_road":0,"largest_army":0,"point_cards":0}},` +
		`{"player":"B","road":0,"trail":[],"roads":0,"settlements":1,"cities":0,"soldiers":1,"point_cards":0,"vp":1,"vp_breakdown":{"settlements":1,"cities":0,"longest_road":0,"largest_army":0,"point_cards":0}},` +
		`{"player":"Y","road":0,"trail":[],"roads":0,"settlements":0,"cities":0,"soldiers":0,"point_cards":0,"vp":0,"vp_breakdown":{"settlements":0,"cities":0,"longest_road":0,"largest_army":0,"point_cards":0}}],` +
		`"longest_road":{"holder":null,"code":"longest-road-cut-short","section":"§10 ア","step":6,"message":"R's road was cut, and nobody has a road of 5 or more (the longest is 4): the card returns to the bank (§10 ア)."},` +
		`"largest_army":{"holder":null,"code":"largest-army-none","section":"§10 イ","step":null,"message":"Nobody has played 3 soldiers (the most is 1): the largest army card is in the bank (§10 イ)."}}}`
	if diff := cmp.Diff(want, strings.TrimSpace(rec.Body.String())); diff != "" {
		t.Errorf("POST position mismatch (-want +got):\n%s", diff)
	}
}

func TestPositionAPIRefuses(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	tests := []struct {
		name, body, lang string
		status           int
		want             string
	}{
		{"a corner off the board", `{"players":["R","B","Y"],"steps":[{"do":"settlement","player":"R","at":"N(9,0)"}]}`, "ja", 422,
			`{"code":"vertex-off-board","error":"「N(9,0)」は陸地の頂点ではありません。頂点は N(q,r) か S(q,r) で指定します（§3 ア）。","section":"§3 ア","step":0}`},
		{"a corner already taken", `{"players":["R","B","Y"],"steps":[{"do":"settlement","player":"R","at":"N(0,0)"},{"do":"city","player":"B","at":"N(0,0)"}]}`, "en", 422,
			`{"code":"corner-taken","error":"N(0,0) already has a building.","section":"§8 イ","step":1}`},
		{"an edge already taken", `{"players":["R","B","Y"],"steps":[{"do":"road","player":"R","edge":["N(0,0)","S(1,-1)"]},{"do":"road","player":"B","edge":["S(1,-1)","N(0,0)"]}]}`, "en", 422,
			`{"code":"edge-taken","error":"N(0,0)-S(1,-1) already has a road.","section":"§8 ア","step":1}`},
		{"two players", `{"players":["R","B"],"steps":[]}`, "en", 422,
			`{"code":"table-size","error":"The table has 2 players; a table has 3 or 4.","section":"§3 カ"}`},
		{"an unknown field", `{"players":["R","B","Y"],"steps":[{"do":"road","player":"R","edge":["N(0,0)","S(1,-1)"],"colour":"red"}]}`, "en", 400, ``},
		{"an unknown ruleset", `{"ruleset":"nope","players":["R","B","Y"],"steps":[]}`, "en", 404, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := webtest.Do(h, "POST", "/api/v1/referee/position", tc.body, "Accept-Language", tc.lang)
			if rec.Code != tc.status || (tc.want != "" && strings.TrimSpace(rec.Body.String()) != tc.want) {
				t.Errorf("POST position = %d %s, want %d %s", rec.Code, rec.Body, tc.status, tc.want)
			}
		})
	}
	t.Run("the bound on steps", func(t *testing.T) {
		steps := strings.Repeat(`{"do":"soldier","player":"R"},`, game.MaxSteps)
		rec := webtest.Do(h, "POST", "/api/v1/referee/position", `{"players":["R","B","Y"],"steps":[`+steps+`{"do":"soldier","player":"R"}]}`)
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"too-many-steps"`) {
			t.Errorf("POST position with %d steps = %d %s, want 422 too-many-steps", game.MaxSteps+1, rec.Code, rec.Body)
		}
	})
}

// The game record of docs/api.md: 3 players place, roll, rob, trade, build,
// and the time signal ends the game.
const gameBody = `{"board":{"white":3,"blue":5,"seed":42},"players":["aoki","ito","ueda"],"moves":[
  {"do":"place","settlement":"N(0,0)","road":["N(0,0)","S(1,-1)"]},
  {"do":"place","settlement":"S(2,-1)","road":["S(2,-1)","N(2,0)"]},
  {"do":"place","settlement":"N(-1,0)","road":["N(-1,0)","S(-1,-1)"]},
  {"do":"place","settlement":"S(0,0)","road":["S(0,0)","N(-1,1)"]},
  {"do":"place","settlement":"N(1,-1)","road":["N(1,-1)","S(2,-2)"]},
  {"do":"place","settlement":"S(-1,1)","road":["S(-1,1)","N(-1,2)"]},
  {"do":"roll","dice":[2,3]},{"do":"end_turn"},
  {"do":"roll","dice":[6,1]},{"do":"robber","hex":{"q":-1,"r":1},"rob":"aoki","took":"wool"},
  {"do":"trade","with":"ueda","give":{"wool":1},"get":{"brick":1}},
  {"do":"build","road":["S(2,-2)","N(1,0)"]},{"do":"end_turn"},
  {"do":"roll","dice":[4,4]},{"do":"time_up"}]}`

func TestGameAPI(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	rec := webtest.Do(h, "POST", "/api/v1/referee/game", gameBody)
	if rec.Code != http.StatusOK {
		t.Fatalf("POST game = %d %s", rec.Code, rec.Body)
	}
	player := func(name string, hand [5]int, road int) string {
		return fmt.Sprintf(`{"player":%q,"hand":{"brick":%d,"grain":%d,"lumber":%d,"ore":%d,"wool":%d},"cards":0,"soldiers":0,"road":%d,"vp":2,`+
			`"vp_breakdown":{"settlements":2,"cities":0,"longest_road":0,"largest_army":0,"point_cards":0}}`, name, hand[0], hand[1], hand[2], hand[3], hand[4], road)
	}
	want := `{"valid":true,"applied":15,"error":null,"voided":[],"state":{"turn":3,"current":"ueda","phase":"over",` +
		`"bank":{"brick":18,"grain":18,"lumber":19,"ore":16,"wool":15},"deck":25,"longest_road":null,"largest_army":null,"winner":null,"ended_by":"time",` +
		`"players":[` + player("aoki", [5]int{1, 1, 0, 1, 0}, 1) + "," + player("ito", [5]int{0, 0, 0, 2, 2}, 2) + "," + player("ueda", [5]int{0, 0, 0, 0, 2}, 1) + `]}}`
	if diff := cmp.Diff(want, strings.TrimSpace(rec.Body.String())); diff != "" {
		t.Errorf("POST game mismatch (-want +got):\n%s", diff)
	}
}

// gameAnswer is the answer of POST /api/v1/referee/game, read back.
type gameAnswer struct {
	Valid   bool `json:"valid"`
	Applied int  `json:"applied"`
	Error   *struct {
		Move    int    `json:"move"`
		Code    string `json:"code"`
		Section string `json:"section"`
		Message string `json:"message"`
	} `json:"error"`
	Voided []api.VoidJSON    `json:"voided"`
	State  api.GameStateJSON `json:"state"`
}

func postGame(t *testing.T, h http.Handler, body string, lang string) gameAnswer {
	t.Helper()
	rec := webtest.Do(h, "POST", "/api/v1/referee/game", body, "Accept-Language", lang)
	var got gameAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != http.StatusOK || err != nil {
		t.Fatalf("POST game = %d %s", rec.Code, rec.Body)
	}
	return got
}

func TestGameAPIErrorsAndVoids(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	record := func(moves ...string) string {
		return strings.Replace(gameBody, `{"do":"roll","dice":[4,4]},{"do":"time_up"}`, strings.Join(moves, ","), 1)
	}
	t.Run("the first move the rules refuse", func(t *testing.T) {
		got := postGame(t, h, record(`{"do":"roll","dice":[4,4]}`, `{"do":"trade","with":"ito","give":{"wool":1},"get":{"wool":2}}`), "ja")
		if got.Valid || got.Applied != 14 || got.Error == nil || got.Error.Move != 14 || got.Error.Code != "trade-same-resource" ||
			got.Error.Section != "§7 ア" || got.Error.Message != "羊を出して羊を求める交渉は禁止です（§7 ア）。" {
			t.Errorf("a same-resource trade = %+v", got)
		}
		if got.State.Phase != "main" || got.State.Current != "ueda" {
			t.Errorf("the state after the applied moves: %+v", got.State)
		}
	})
	t.Run("a move the record cannot name", func(t *testing.T) {
		got := postGame(t, h, record(`{"do":"build","settlement":"N(7,7)"}`), "en")
		if got.Valid || got.Error == nil || got.Error.Code != "vertex-off-board" || got.Error.Move != 13 {
			t.Errorf("a corner off the board = %+v", got.Error)
		}
	})
	t.Run("a card played on its purchase turn stands, voided", func(t *testing.T) {
		body, void, buyer := recordWithVoid(t)
		got := postGame(t, h, body, "en")
		want := []api.VoidJSON{{Move: void, Code: "card-on-purchase-turn", Section: "§8 エ"}}
		if !got.Valid || !cmp.Equal(got.Voided, want) {
			t.Fatalf("a soldier played on its purchase turn: valid %v, error %+v, voided %+v; want %+v", got.Valid, got.Error, got.Voided, want)
		}
		if p := got.State.Players[buyer]; p.Cards != 1 || p.Soldiers != 0 {
			t.Errorf("after the voided soldier, %s holds %d cards and played %d soldiers; want 1 and 0", p.Player, p.Cards, p.Soldiers)
		}
	})
	for _, tc := range []struct{ name, body, code string }{
		{"no board", `{"board":{},"players":["a","b","c"],"moves":[]}`, "board-missing"},
		{"both boards", `{"board":{"white":1,"blue":1,"seed":1,"hexes":[]},"players":["a","b","c"],"moves":[]}`, "board-both"},
		{"a die of the board", `{"board":{"white":7,"blue":1,"seed":1},"players":["a","b","c"],"moves":[]}`, "die-out-of-range"},
		{"a hex off the land", `{"board":{"hexes":[{"q":5,"r":5,"terrain":"hills","number":2}],"harbors":[]},"players":["a","b","c"],"moves":[]}`, "board-hex-count"},
		{"two players", `{"board":{"white":1,"blue":1,"seed":1},"players":["a","b"],"moves":[]}`, "table-size"},
		{"the robber off the desert", robberOff(t, h), "board-robber"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := webtest.Do(h, "POST", "/api/v1/referee/game", tc.body, "Accept-Language", "en")
			if rec.Code != 422 || !strings.Contains(rec.Body.String(), tc.code) {
				t.Errorf("POST game %s = %d %s, want 422 %s", tc.body, rec.Code, rec.Body, tc.code)
			}
		})
	}
	t.Run("the bound on moves", func(t *testing.T) {
		moves := strings.Repeat(`{"do":"end_turn"},`, game.MaxMoves)
		rec := webtest.Do(h, "POST", "/api/v1/referee/game", `{"board":{"white":1,"blue":1,"seed":1},"players":["a","b","c"],"moves":[`+moves+`{"do":"end_turn"}]}`)
		if rec.Code != 422 || !strings.Contains(rec.Body.String(), "too-many-moves") {
			t.Errorf("POST game with %d moves = %d %.200s, want 422 too-many-moves", game.MaxMoves+1, rec.Code, rec.Body)
		}
	})
}

// robberOff returns a record whose board, as the board API wrote it, has
// the robber moved off the desert.
func robberOff(t *testing.T, h http.Handler) string {
	t.Helper()
	var b api.GameBoardJSON
	if err := json.Unmarshal(webtest.Do(h, "GET", "/api/v1/referee/board?white=1&blue=1&seed=1", "").Body.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	for i := range b.Hexes {
		b.Hexes[i].Robber = b.Hexes[i].Terrain == "mountains"
	}
	body, err := json.Marshal(map[string]any{"board": map[string]any{"hexes": b.Hexes, "harbors": b.Harbors}, "players": []string{"a", "b", "c"}, "moves": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// recordWithVoid plays a random game until a player can buy a development
// card, and writes its record with that player buying a soldier and
// playing it at once (§8 エ), then passing. It returns the record's body,
// the place of the voided move and the buyer.
func recordWithVoid(t *testing.T) (string, int, int) {
	t.Helper()
	rulesets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := rulesets.Get(config.DefaultRuleset)
	board, err := referee.NewBoard(rs, referee.CapsuleRoll{White: 2, Blue: 3}, 9)
	if err != nil {
		t.Fatal(err)
	}
	s, err := game.New(rs, board, []string{"aoki", "ito", "ueda"})
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRandom(rand.New(rand.NewPCG(9, 9)))
	var moves []game.MoveSpec
	for {
		if h := s.Hand(s.Current()); s.Phase() == game.Main && h[game.Wool] > 0 && h[game.Grain] > 0 && h[game.Ore] > 0 && s.Held(s.Current()).Total() == 0 {
			buyer, void := s.Current(), len(moves)+1
			moves = append(moves, game.MoveSpec{Do: "buy", Card: "soldier"}, game.MoveSpec{Do: "play", Dev: "soldier", Hex: &referee.Hex{Q: 0, R: 0}},
				game.MoveSpec{Do: "end_turn"})
			var js []api.MoveJSON
			for _, m := range moves {
				js = append(js, specJSON(m))
			}
			body, err := json.Marshal(map[string]any{"board": map[string]any{"white": 2, "blue": 3, "seed": 9}, "players": []string{"aoki", "ito", "ueda"}, "moves": js})
			if err != nil {
				t.Fatal(err)
			}
			return string(body), void, buyer
		}
		m := r.Next(s)
		if m.Kind == game.Declare || m.Kind == game.Buy || m.Kind >= game.PlaySoldier && m.Kind <= game.PlayMonopoly {
			m = game.NewMove(game.EndTurn)
		}
		moves = append(moves, s.Spec(m))
		if err := s.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
}

// specJSON writes a move as the API takes it.
func specJSON(spec game.MoveSpec) api.MoveJSON {
	mj := api.MoveJSON{Do: spec.Do, Player: spec.Player, Settlement: spec.Settlement, City: spec.City, Road: spec.Road, Roads: spec.Roads,
		Dice: spec.Dice, Cards: spec.Cards, Give: spec.Give, Get: spec.Get, Take: spec.Take, With: spec.With, Card: spec.Card,
		Dev: spec.Dev, Resource: spec.Resource}
	if spec.Hex != nil {
		mj.Hex = &api.HexJSON{Q: spec.Hex.Q, R: spec.Hex.R}
	}
	if spec.Rob != "" {
		mj.Rob, mj.Took = &spec.Rob, &spec.Took
	}
	return mj
}

// randomRecord plays a random game to its end with the engine and writes
// its record as the API takes it, with the final state it must reach.
func randomRecord(t testing.TB, rs referee.Ruleset, board referee.Board, players []string, seed uint64) ([]api.MoveJSON, *game.State) {
	t.Helper()
	s, err := game.New(rs, board, players)
	if err != nil {
		t.Fatal(err)
	}
	r := game.NewRandom(rand.New(rand.NewPCG(seed, 3)))
	var moves []api.MoveJSON
	for s.Phase() != game.Over {
		m := r.Next(s)
		if s.Turn() > 300 {
			m = game.NewMove(game.TimeUp)
		}
		spec := s.Spec(m)
		if err := s.Apply(m); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, specJSON(spec))
	}
	return moves, s
}

// Whole random games, written as the API takes them, on a board set up by
// §3 or given hex by hex as GET /api/v1/referee/board returns it, check as
// valid and end where the engine's play ended.
func TestGameAPIRandomGames(t *testing.T) {
	h := webtest.NewRefereeServer(t)
	rulesets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := rulesets.Get(config.DefaultRuleset)
	for seed := range uint64(6) {
		white, blue := 1+int(seed)%6, 1+int(seed*5)%6
		board, err := referee.NewBoard(rs, referee.CapsuleRoll{White: white, Blue: blue}, seed)
		if err != nil {
			t.Fatal(err)
		}
		players := []string{"aoki", "ito", "ueda", "eto"}[:3+seed%2]
		moves, want := randomRecord(t, rs, board, players, seed)
		var req struct {
			Board   any            `json:"board"`
			Players []string       `json:"players"`
			Moves   []api.MoveJSON `json:"moves"`
		}
		req.Players, req.Moves = players, moves
		req.Board = map[string]any{"white": white, "blue": blue, "seed": seed}
		if seed%2 == 1 {
			// The hexes and harbours as the board API writes them.
			rec := webtest.Do(h, "GET", fmt.Sprintf("/api/v1/referee/board?white=%d&blue=%d&seed=%d", white, blue, seed), "")
			var b struct {
				Hexes   []api.GameHexJSON    `json:"hexes"`
				Harbors []api.GameHarborJSON `json:"harbors"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
				t.Fatal(err)
			}
			req.Board = b
		}
		body, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		got := postGame(t, h, string(body), "en")
		if !got.Valid || got.Applied != len(moves) || len(got.Voided) != 0 {
			t.Fatalf("seed %d: random game of %d moves = valid %v, applied %d, error %+v", seed, len(moves), got.Valid, got.Applied, got.Error)
		}
		if diff := cmp.Diff(api.GameStateToJSON(want), got.State); diff != "" {
			t.Errorf("seed %d: final state mismatch (-engine +API):\n%s", seed, diff)
		}
	}
}

// FuzzGameAPI throws arbitrary bodies at the game record's decoder: the
// answer is never a 5xx, a 4xx says why, and a 200 describes a state that
// keeps the game's counts.
func FuzzGameAPI(f *testing.F) {
	h := webtest.NewRefereeServer(f)
	for _, s := range []string{gameBody, `{"board":{"white":1,"blue":1,"seed":1},"players":["a","b","c"],"moves":[{"do":"place","settlement":"N(0,0)","road":["N(0,0)","S(1,-1)"]}]}`,
		`{"board":{"hexes":[],"harbors":[]},"players":["a","b","c"],"moves":[]}`, `{"moves":[{"do":"play","dev":"road_building","roads":[[],["N(0,0)"]]}]}`,
		`{}`, `[]`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		rec := webtest.Do(h, "POST", "/api/v1/referee/game", body)
		if rec.Code >= 500 || (rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error"`)) {
			t.Fatalf("POST game %q = %d %s", body, rec.Code, rec.Body)
		}
		if rec.Code != 200 {
			return
		}
		var got gameAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		for _, r := range game.Resources {
			total := got.State.Bank[r.String()]
			for _, p := range got.State.Players {
				total += p.Hand[r.String()]
			}
			if total != 19 {
				t.Fatalf("POST game %q: %s in bank and hands = %d, want 19", body, r, total)
			}
		}
		for _, p := range got.State.Players {
			b := p.VPBreakdown
			if p.VP != b.Settlements+b.Cities+b.LongestRoad+b.LargestArmy+b.PointCards {
				t.Fatalf("POST game %q: %s's VP %d is not its breakdown %+v", body, p.Player, p.VP, b)
			}
		}
	})
}

// FuzzPositionAPI throws arbitrary bodies at the position's decoder: never
// a 5xx, a 4xx says why, a 200 has a standing for each step.
func FuzzPositionAPI(f *testing.F) {
	h := webtest.NewRefereeServer(f)
	for _, s := range []string{positionBody, `{"players":["a","b","c"],"steps":[{"do":"remove","at":"N(0,0)"}]}`,
		`{"players":["a","b","c","d"],"steps":[{"do":"road","player":"a","edge":["N(0,0)","S(1,-1)","N(1,0)"]}]}`, `{}`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		rec := webtest.Do(h, "POST", "/api/v1/referee/position", body)
		if rec.Code >= 500 || (rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error"`)) {
			t.Fatalf("POST position %q = %d %s", body, rec.Code, rec.Body)
		}
		if rec.Code != 200 {
			return
		}
		var req api.PositionRequest
		var got api.PositionResponse
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got.After) != len(req.Steps) {
			t.Fatalf("POST position %q = %s, want a standing per step", body, rec.Body)
		}
	})
}
