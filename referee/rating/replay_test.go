package rating_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee/rating"
)

// randomEvents makes n events of random tables of 3 and 4 among players
// 1..people, with shared places, on random dates.
func randomEvents(seed uint64, n, people int) []rating.Event {
	rng := rand.New(rand.NewPCG(seed, 29))
	var out []rating.Event
	for e := range n {
		ev := rating.Event{ID: fmt.Sprintf("e%d", e), Date: fmt.Sprintf("2025-%02d-%02d", 1+rng.IntN(12), 1+rng.IntN(28)), Seq: int64(e)}
		for range 1 + rng.IntN(4) {
			ids := rng.Perm(people)
			var round []rating.Game
			for len(ids) >= 3 {
				size := 4
				if len(ids) == 3 || len(ids) == 6 || rng.IntN(4) == 0 {
					size = 3
				}
				g := rating.Game{}
				for _, id := range ids[:size] {
					g.Players = append(g.Players, int64(id+1))
					g.Places = append(g.Places, 1+rng.IntN(size))
				}
				ids = ids[size:]
				round = append(round, g)
			}
			ev.Rounds = append(ev.Rounds, round)
		}
		out = append(out, ev)
	}
	return out
}

func snapshot(l *rating.Ledger) map[int64][]rating.Point {
	out := map[int64][]rating.Point{}
	for _, p := range l.Players() {
		out[p] = l.History(p)
	}
	return out
}

func TestReplayIsIdenticalWhateverTheOrderEntered(t *testing.T) {
	for seed := range uint64(20) {
		events := randomEvents(seed, 8, 11)
		a, err := rating.Replay(rating.Default(), events)
		if err != nil {
			t.Fatal(err)
		}
		b, err := rating.Replay(rating.Default(), events)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(snapshot(a), snapshot(b)) {
			t.Fatalf("seed %d: two replays of the same events differ", seed)
		}
		shuffled := slices.Clone(events)
		rand.New(rand.NewPCG(seed, 1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		c, err := rating.Replay(rating.Default(), shuffled)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(snapshot(a), snapshot(c)) {
			t.Fatalf("seed %d: the events given in another order rate otherwise", seed)
		}
	}
}

// An event entered later but played earlier is rated first: by its date,
// not by when it was entered (Seq orders only events of one date).
func TestReplayRatesEventsByDateNotByEntry(t *testing.T) {
	win := rating.Event{ID: "entered-first", Date: "2025-11-15", Seq: 1, Rounds: [][]rating.Game{{{Players: []int64{1, 2, 3}, Places: []int{1, 2, 3}}}}}
	lose := rating.Event{ID: "entered-later", Date: "2025-10-18", Seq: 2, Rounds: [][]rating.Game{{{Players: []int64{1, 2, 3}, Places: []int{3, 2, 1}}}}}
	l, err := rating.Replay(rating.Default(), []rating.Event{win, lose})
	if err != nil {
		t.Fatal(err)
	}
	h := l.History(1)
	if len(h) != 2 || h[0].Event != "entered-later" || h[1].Event != "entered-first" {
		t.Fatalf("History(1) = %+v, want October's event first", h)
	}
	if h[1].Before != h[0].After {
		t.Errorf("November starts from %+v, want where October left: %+v", h[1].Before, h[0].After)
	}
	// Rated the other way round, the ratings would differ: the order is
	// what the test pins.
	swapped := []rating.Event{win, lose}
	swapped[0].Date, swapped[1].Date = lose.Date, win.Date
	l2, err := rating.Replay(rating.Default(), swapped)
	if err != nil {
		t.Fatal(err)
	}
	if l2.Rating(1) == l.Rating(1) {
		t.Errorf("the order of the events changes nothing: %+v", l.Rating(1))
	}
}

// Two players sharing a place at a symmetric table (everyone's rating
// alike) move the same way and by the same amount; nobody placed above
// another gains less, the last loses, and the game is zero-sum in μ. (The
// model's ties are its own: two players sharing 1st of 4 gain what the
// 3rd gains, with a larger σ; the order of places holds, not strictly.)
func TestSharedPlacesAtASymmetricTableMoveTheSame(t *testing.T) {
	m := rating.Default()
	for _, places := range [][]int{{1, 2, 2, 4}, {1, 1, 3, 4}, {1, 2, 3, 3}, {1, 2, 2}, {1, 1, 3}, {2, 2, 2, 2}} {
		players := make([]rating.Rating, len(places))
		for i := range players {
			players[i] = m.New()
		}
		got, err := m.Rate(players, places)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for i := range got {
			sum += got[i].Mu - players[i].Mu
			for j := range got {
				if places[i] == places[j] && got[i] != got[j] {
					t.Errorf("places %v: players %d and %d share a place but rate %+v and %+v", places, i+1, j+1, got[i], got[j])
				}
				if places[i] < places[j] && got[i].Mu < got[j].Mu-1e-12 {
					t.Errorf("places %v: player %d placed above %d but μ %v < %v", places, i+1, j+1, got[i].Mu, got[j].Mu)
				}
			}
		}
		last := slices.Index(places, slices.Max(places))
		if places[last] > slices.Min(places) && !(got[last].Mu < players[last].Mu) {
			t.Errorf("places %v: the last placed μ %v, want below %v", places, got[last].Mu, players[last].Mu)
		}
		if sum > 1e-9 || sum < -1e-9 {
			t.Errorf("places %v: μ moved by %v in all, want 0", places, sum)
		}
	}
}

// A table of 3 is a game: its players are rated, their games counted.
func TestATableOfThreeCounts(t *testing.T) {
	ev := rating.Event{ID: "three", Date: "2025-10-18", Rounds: [][]rating.Game{{
		{Players: []int64{1, 2, 3, 4}, Places: []int{1, 2, 3, 4}},
		{Players: []int64{5, 6, 7}, Places: []int{1, 2, 3}},
	}}}
	l, err := rating.Replay(rating.Default(), []rating.Event{ev})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int64{5, 6, 7} {
		if l.Games(p) != 1 || len(l.History(p)) != 1 {
			t.Errorf("player %d: %d games, %d points; want the table of 3 counted", p, l.Games(p), len(l.History(p)))
		}
	}
	if !(l.Rating(5).Mu > 25 && l.Rating(7).Mu < 25) {
		t.Errorf("table of 3: winner %+v, last %+v; want the winner up and the last down", l.Rating(5), l.Rating(7))
	}
}

func TestReplayRefusesAPlayerAtTwoTablesOfARound(t *testing.T) {
	ev := rating.Event{ID: "twice", Rounds: [][]rating.Game{{
		{Players: []int64{1, 2, 3}, Places: []int{1, 2, 3}},
		{Players: []int64{1, 4, 5}, Places: []int{1, 2, 3}},
	}}}
	if _, err := rating.Replay(rating.Default(), []rating.Event{ev}); err == nil {
		t.Error("Replay of a player at two tables of one round = nil error")
	}
}
