package gameview

import (
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// playedGame is a whole random game, played and evaluated as the service
// gives it to the pages.
func playedGame(t *testing.T, seed uint64) (tournament.Game, []Seat) {
	t.Helper()
	rules, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := rules.Get(config.DefaultRuleset)
	b, err := referee.NewBoard(rs, referee.CapsuleRoll{White: 3, Blue: 5}, seed)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"11", "12", "13", "14"}
	specs := tournamenttest.PlayedGame(t, rs, b, ids, seed, 600)
	played, err := game.Play(rs, b, ids, specs)
	if err != nil || played.Err != nil {
		t.Fatalf("Play: %v, %v", err, played.Err)
	}
	ev, err := played.Evaluate(rs)
	if err != nil {
		t.Fatal(err)
	}
	g := tournament.Game{Round: 1, Table: 1, Players: []int64{11, 12, 13, 14}, Board: b, Played: played, Evaluation: ev}
	for i, m := range specs {
		g.Moves = append(g.Moves, tournament.GameMove{Number: i + 1, Move: m, Judge: "山田", At: time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)})
	}
	seats := []Seat{{ID: "11", Name: "青木", Color: "red"}, {ID: "12", Name: "井上", Color: "blue"},
		{ID: "13", Name: "上田", Color: "yellow"}, {ID: "14", Name: "遠藤", Color: "green"}}
	return g, seats
}

// The room sees what the players at the table see: the VP without the
// one-point cards still face down (§9 オ), the hands as counts, never the
// card drawn (§8 エ) or the card a robber took (§6 イ); the judges see all
// of it. Checked over whole random games, move by move.
func TestRoomSeesWhatTheTableSees(t *testing.T) {
	tr, err := i18n.New(templates.Locales, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	p := tr.In("ja")
	secret := []string{"ソルジャー）", "街道カード）", "収穫カード）", "独占カード）", "1ポイントカード）", "を1枚引く"}
	for seed := uint64(1); seed <= 4; seed++ {
		g, seats := playedGame(t, seed)
		room := New(p, g, seats, Room, Options{ID: "b"})
		judges := New(p, g, seats, Judges, Options{ID: "b", Targets: drawing.Targets{Board: true, Hexes: true}})
		st := g.State()
		if len(room.Moves) != len(g.Moves) || len(judges.Moves) != len(g.Moves) || room.Moves[0].N != len(g.Moves) {
			t.Fatalf("seed %d: %d and %d moves listed of %d, newest first", seed, len(room.Moves), len(judges.Moves), len(g.Moves))
		}
		bought, robbed := 0, 0
		for i, m := range room.Moves {
			spec := g.Moves[len(g.Moves)-1-i].Move
			for _, s := range secret {
				if strings.Contains(m.Text, s) {
					t.Errorf("seed %d: the room sees move %d as %q", seed, m.N, m.Text)
				}
			}
			if m.Judge != "" {
				t.Errorf("seed %d: the room sees who entered move %d", seed, m.N)
			}
			switch {
			case spec.Do == "buy":
				bought++
				if !strings.Contains(judges.Moves[i].Text, p.Text("card."+spec.Card, nil)) {
					t.Errorf("seed %d: the judges see the purchase %d as %q", seed, m.N, judges.Moves[i].Text)
				}
			case spec.Took != "":
				robbed++
			}
		}
		if bought == 0 || robbed == 0 {
			t.Fatalf("seed %d: the game bought %d cards and robbed %d times: it proves little", seed, bought, robbed)
		}
		for i := range seats {
			if room.Players[i].VP != st.PublicVP(i).Total() || judges.Players[i].VP != st.VP(i).Total() {
				t.Errorf("seed %d: %s's VP %d (room), %d (judges); want %d and %d", seed, seats[i].Name,
					room.Players[i].VP, judges.Players[i].VP, st.PublicVP(i).Total(), st.VP(i).Total())
			}
			if room.Players[i].Hand != "" || room.Players[i].DevText != "" || room.Players[i].Cards != st.Hand(i).Total() {
				t.Errorf("seed %d: the room sees %s's hand as %q, cards %q", seed, seats[i].Name, room.Players[i].Hand, room.Players[i].DevText)
			}
		}
		if room.LongestRoad.Why != "" || judges.LongestRoad.Why == "" || room.Bank != "" {
			t.Errorf("seed %d: the reasons and the bank are the judges'", seed)
		}
		if w := st.Winner(); w < 0 || !strings.Contains(room.Status, seats[w].Name) || !room.Over {
			t.Errorf("seed %d: the status says %q, want the declarer %d", seed, room.Status, w)
		}
		if len(judges.Board.Play.Hexes) != 19 || len(room.Board.Play.Corners) != 0 {
			t.Errorf("seed %d: %d hexes to tap for the judges, %d corners for the room", seed, len(judges.Board.Play.Hexes), len(room.Board.Play.Corners))
		}
	}
}

// The moves say where each piece went as the board is read
// (drawing.Places: a corner by the hexes around it, a side on the coast as
// a side of its hex), and the dice as white and blue.
func TestMoveWords(t *testing.T) {
	tr, err := i18n.New(templates.Locales, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	g, seats := playedGame(t, 1)
	named := drawing.NewPlaces(tr.In("ja"), &g.Board)
	w := words{p: tr.In("ja"), places: named, seats: seats}
	edge := func(a, b string) string {
		va, _ := game.ParseVertex(a)
		vb, _ := game.ParseVertex(b)
		e, _ := referee.NewEdge(va, vb)
		return named.Side(e)
	}
	if coast := edge("S(1,-3)", "N(0,-2)"); !strings.HasSuffix(coast, "（1段目・左から1）の右上の辺") {
		t.Errorf("the coast's side S(1,-3)-N(0,-2) is %q, want the upper right side of row 1, no. 1", coast)
	}
	if inner := named.Name("N(0,0)"); !strings.HasSuffix(inner, "の角") || strings.Count(inner, "・") != 2 {
		t.Errorf("the corner N(0,0) is %q, want it named by its three hexes", inner)
	}
	for _, tt := range []struct {
		m    game.MoveSpec
		want string
	}{
		{game.MoveSpec{Do: "roll", Dice: []int{3, 4}}, "ダイス 白3・青4（7）"},
		{game.MoveSpec{Do: "build", Settlement: "N(0,0)"}, "家 " + named.Name("N(0,0)")},
		{game.MoveSpec{Do: "build", Road: []string{"N(0,0)", "S(1,-1)"}}, "道 " + edge("N(0,0)", "S(1,-1)")},
		{game.MoveSpec{Do: "build", Road: []string{"S(1,-3)", "N(0,-2)"}}, "道 " + edge("S(1,-3)", "N(0,-2)")},
		{game.MoveSpec{Do: "trade", With: "12", Give: map[string]int{"wool": 1}, Get: map[string]int{"brick": 2}}, "井上 と交渉（羊1を出して土2を受け取る）"},
		{game.MoveSpec{Do: "robber", Hex: &referee.Hex{Q: 0, R: 0}, Rob: "13", Took: "ore"}, "盗賊を" + named.Hex(referee.Hex{}) + "へ、上田 から鉄を1枚引く"},
		{game.MoveSpec{Do: "time_up"}, "終了の合図（ジャッジ）"},
	} {
		if got := w.move(tt.m); got != tt.want {
			t.Errorf("move(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
	// Two roads of a card are listed as each language lists them.
	roads := game.MoveSpec{Do: "play", Dev: "road_building", Roads: [][]string{{"N(0,0)", "S(1,-1)"}, {"S(1,-3)", "N(0,-2)"}}}
	if got := w.move(roads); !strings.Contains(got, edge("N(0,0)", "S(1,-1)")+"、"+edge("S(1,-3)", "N(0,-2)")) {
		t.Errorf("the road building card in Japanese is %q, want its roads listed with 、", got)
	}
	en := words{p: tr.In("en"), places: drawing.NewPlaces(tr.In("en"), &g.Board), seats: seats}
	if got := en.move(roads); strings.Contains(got, "、") || !strings.Contains(got, ", ") {
		t.Errorf("the road building card in English is %q, want its roads listed with a comma", got)
	}
}
