package game

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

func TestMoveSpecJSON(t *testing.T) {
	cases := []struct {
		move MoveSpec
		want string
	}{
		{MoveSpec{Do: "roll", Dice: []int{3, 4}}, `{"do":"roll","dice":[3,4]}`},
		{MoveSpec{Do: "build", Player: "A", Road: []string{"N(0,0)", "S(0,-1)"}}, `{"do":"build","player":"A","road":["N(0,0)","S(0,-1)"]}`},
		// A road building card played with no road and a harvest taking
		// nothing are written empty, not left out: Decode tells them apart.
		{MoveSpec{Do: "play", Dev: "road_building", Roads: [][]string{}}, `{"do":"play","roads":[],"dev":"road_building"}`},
		{MoveSpec{Do: "play", Dev: "harvest", Take: map[string]int{}}, `{"do":"play","take":{},"dev":"harvest"}`},
		{MoveSpec{Do: "robber", Hex: &referee.Hex{Q: 0, R: -2}, Rob: "B", Took: "ore"}, `{"do":"robber","hex":{"q":0,"r":-2},"rob":"B","took":"ore"}`},
		{MoveSpec{Do: "end_turn"}, `{"do":"end_turn"}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.move)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%+v is written %s, want %s", c.move, b, c.want)
		}
		var back MoveSpec
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, c.move) {
			t.Errorf("%s reads back as %+v, want %+v", b, back, c.move)
		}
	}
}

func TestMoveSpecJSONKeepsRandomGames(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		_, _, moves := randomRecord(t, "preset", 4, seed)
		b, err := json.Marshal(moves)
		if err != nil {
			t.Fatal(err)
		}
		var back []MoveSpec
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, moves) {
			t.Fatalf("seed %d: the record does not read back as written", seed)
		}
	}
}
