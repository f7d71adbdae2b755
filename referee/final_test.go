package referee_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

func ids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%02d", i+1)
	}
	return out
}

// The cut's players go round the tables in a snake, the 4-player tables first.
func TestSeatFinal(t *testing.T) {
	tests := []struct {
		n    int
		want [][]string
	}{
		{4, [][]string{{"p01", "p02", "p03", "p04"}}},
		{3, [][]string{{"p01", "p02", "p03"}}},
		{16, [][]string{{"p01", "p08", "p09", "p16"}, {"p02", "p07", "p10", "p15"}, {"p03", "p06", "p11", "p14"}, {"p04", "p05", "p12", "p13"}}},
		{9, [][]string{{"p01", "p06", "p07"}, {"p02", "p05", "p08"}, {"p03", "p04", "p09"}}},
		{11, [][]string{{"p01", "p06", "p07", "p11"}, {"p02", "p05", "p08", "p10"}, {"p03", "p04", "p09"}}},
	}
	for _, tt := range tests {
		got, err := referee.SeatFinal(ids(tt.n))
		if err != nil {
			t.Fatalf("SeatFinal(%d players) error = %v", tt.n, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("SeatFinal(%d players) (-want +got):\n%s", tt.n, diff)
		}
	}
	for _, n := range []int{0, 2, 5} {
		if _, err := referee.SeatFinal(ids(n)); err == nil {
			t.Errorf("SeatFinal(%d players) error = nil, want one", n)
		}
	}
}

func standingsOf(ranks ...int) []referee.Standing {
	out := make([]referee.Standing, len(ranks))
	for i, r := range ranks {
		out[i] = referee.Standing{Rank: r, Player: fmt.Sprintf("p%02d", i+1)}
	}
	return out
}

func game(places ...any) referee.Game {
	var g referee.Game
	for i := 0; i < len(places); i += 2 {
		g.Placings = append(g.Placings, referee.Placing{Player: places[i].(string), Place: places[i+1].(int)})
	}
	return g
}

// The best placed go on from a semi-final table; a shared place at the
// line goes to the qualifying standings under FinalTiesStandings, else to a
// seeded draw that replays.
func TestAdvance(t *testing.T) {
	q := standingsOf(1, 2, 3, 4)
	g := game("p04", 1, "p02", 1, "p01", 3, "p03", 4)
	adv, draw, err := referee.Advance(g, 1, q, referee.FinalTiesStandings, 7)
	if err != nil || !slices.Equal(adv, []string{"p02"}) || draw != nil {
		t.Errorf("Advance(standings) = %v, %v, %v; want [p02] by the qualifying standings, no draw", adv, draw, err)
	}
	adv, draw, err = referee.Advance(g, 1, q, referee.FinalTiesShared, 7)
	if err != nil || len(adv) != 1 || !slices.Contains([]string{"p02", "p04"}, adv[0]) || len(draw) != 2 || draw[0] != adv[0] {
		t.Fatalf("Advance(shared) = %v, %v, %v; want one of p02, p04 by a draw of both", adv, draw, err)
	}
	again, draw2, _ := referee.Advance(g, 1, q, referee.FinalTiesShared, 7)
	if !slices.Equal(adv, again) || !slices.Equal(draw, draw2) {
		t.Errorf("Advance(shared, same seed) = %v %v, then %v %v: want the same draw", adv, draw, again, draw2)
	}
	adv, draw, err = referee.Advance(g, 2, q, referee.FinalTiesShared, 7)
	if err != nil || !slices.Equal(adv, []string{"p02", "p04"}) || draw != nil {
		t.Errorf("Advance(2 of a shared 1st) = %v, %v, %v; want both, no draw", adv, draw, err)
	}
	if _, _, err := referee.Advance(game("p09", 1, "p01", 2, "p02", 3), 1, q, referee.FinalTiesShared, 7); err == nil {
		t.Error("Advance(a player without a qualifying standing) error = nil, want one")
	}
}

// The final table first by its places, then the players out at each
// earlier stage, then the rest by the qualifying standings.
func TestFinalResults(t *testing.T) {
	q := standingsOf(1, 2, 3, 3, 5, 6, 7, 8)
	type row struct{ Rank, Stage, Place int }
	line := func(fs []referee.FinalStanding) map[string]row {
		out := map[string]row{}
		for _, f := range fs {
			out[f.Player] = row{f.Rank, f.Stage, f.Place}
		}
		return out
	}
	tests := []struct {
		name   string
		ties   referee.FinalTies
		stages [][]referee.Game
		want   []string // players in order
		rows   map[string]row
	}{
		{
			name:   "top 4, a shared 2nd",
			ties:   referee.FinalTiesShared,
			stages: [][]referee.Game{{game("p01", 4, "p02", 2, "p03", 2, "p04", 1)}},
			want:   []string{"p04", "p02", "p03", "p01", "p05", "p06", "p07", "p08"},
			rows: map[string]row{"p04": {1, 1, 1}, "p02": {2, 1, 2}, "p03": {2, 1, 2}, "p01": {4, 1, 4},
				"p05": {5, 0, 0}, "p08": {8, 0, 0}},
		},
		{
			name:   "top 4, ties by the standings",
			ties:   referee.FinalTiesStandings,
			stages: [][]referee.Game{{game("p01", 4, "p03", 2, "p02", 2, "p04", 1)}},
			want:   []string{"p04", "p02", "p03", "p01", "p05", "p06", "p07", "p08"},
			rows:   map[string]row{"p02": {2, 1, 2}, "p03": {3, 1, 2}},
		},
		{
			name: "two semi-finals, then a final of 3",
			ties: referee.FinalTiesShared,
			stages: [][]referee.Game{
				{game("p01", 1, "p04", 2, "p05", 3, "p08", 4), game("p02", 2, "p03", 1, "p06", 2, "p07", 4)},
				{game("p01", 2, "p03", 1, "p04", 3)},
			},
			want: []string{"p03", "p01", "p04", "p02", "p06", "p05", "p07", "p08"},
			rows: map[string]row{"p03": {1, 2, 1}, "p04": {3, 2, 3}, "p02": {4, 1, 2}, "p06": {5, 1, 2}, "p05": {6, 1, 3}, "p07": {7, 1, 4}, "p08": {8, 1, 4}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.FinalResults(tt.ties, q, tt.stages)
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			for _, f := range got {
				order = append(order, f.Player)
			}
			if diff := cmp.Diff(tt.want, order); diff != "" {
				t.Errorf("FinalResults order (-want +got):\n%s", diff)
			}
			rows := line(got)
			for p, want := range tt.rows {
				if rows[p] != want {
					t.Errorf("FinalResults: %s = %+v, want %+v", p, rows[p], want)
				}
			}
		})
	}
	if _, err := referee.FinalResults(referee.FinalTiesShared, q, nil); err == nil {
		t.Error("FinalResults(no final table) error = nil, want one")
	}
}

// The event's winners: the final results' 1st place where a final was
// played, whatever the qualifying standings say; the standings' 1st
// without one; both players of a shared 1st; nobody before a game.
func TestWinners(t *testing.T) {
	played := func(st []referee.Standing) []referee.Standing {
		for i := range st {
			st[i].Played = 1
		}
		return st
	}
	q := played(standingsOf(1, 2, 3, 4, 5))
	tests := []struct {
		name      string
		ties      referee.FinalTies
		final     []referee.Game // the final table; nil for no final
		standings []referee.Standing
		want      []string
	}{
		{"the final's winner, not the qualifying leader", referee.FinalTiesShared, []referee.Game{game("p01", 2, "p02", 3, "p03", 1, "p04", 4)}, q, []string{"p03"}},
		{"a shared 1st at the final names both", referee.FinalTiesShared, []referee.Game{game("p01", 3, "p02", 1, "p03", 1, "p04", 4)}, q, []string{"p02", "p03"}},
		{"a shared 1st ordered by the standings", referee.FinalTiesStandings, []referee.Game{game("p01", 3, "p02", 1, "p03", 1, "p04", 4)}, q, []string{"p02"}},
		{"no final: the standings' 1st", referee.FinalTiesShared, nil, q, []string{"p01"}},
		{"no final: a shared 1st names both", referee.FinalTiesShared, nil, played(standingsOf(1, 1, 3)), []string{"p01", "p02"}},
		{"nobody played", referee.FinalTiesShared, nil, standingsOf(1, 1, 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var final []referee.FinalStanding
			if tt.final != nil {
				var err error
				if final, err = referee.FinalResults(tt.ties, tt.standings, [][]referee.Game{tt.final}); err != nil {
					t.Fatal(err)
				}
			}
			if got := referee.Winners(final, tt.standings); !slices.Equal(got, tt.want) {
				t.Errorf("Winners = %v, want %v", got, tt.want)
			}
		})
	}
}
