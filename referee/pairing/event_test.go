package pairing_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

// event simulates a tournament: rounds are paired by the engine, results
// are drawn from a seeded source, and standings follow from them.
type event struct {
	players   []pairing.Player // active, by ID
	history   [][]string
	keepApart [][2]string
	points    map[string]int
	rng       *rand.Rand
}

func playerID(i int) string { return fmt.Sprintf("p%03d", i) }

func newEvent(n int, seed uint64) *event {
	e := &event{points: map[string]int{}, rng: rand.New(rand.NewPCG(seed, 7))}
	for i := range n {
		e.players = append(e.players, pairing.Player{ID: playerID(i)})
	}
	return e
}

// request returns the next round's request, standings included once a
// round has been played (competition ranking by points: ties share a rank).
func (e *event) request(seed uint64) pairing.Request {
	players := slices.Clone(e.players)
	if len(e.history) > 0 {
		for i := range players {
			players[i].Standing = 1
			for _, q := range e.players {
				if e.points[q.ID] > e.points[players[i].ID] {
					players[i].Standing++
				}
			}
		}
	}
	return pairing.Request{Players: players, History: slices.Clone(e.history), KeepApart: e.keepApart, Seed: seed}
}

// play records a round and draws its results: 4, 3, 2, 1 points by place,
// 2 for a bye.
func (e *event) play(r pairing.Round) {
	for _, t := range r.Tables {
		e.history = append(e.history, t)
		for place, k := range e.rng.Perm(len(t)) {
			e.points[t[k]] += 4 - place
		}
	}
	for _, b := range r.Byes {
		e.history = append(e.history, []string{b})
		e.points[b] += 2
	}
}

// drop removes a player; their History stays.
func (e *event) drop(id string) {
	e.players = slices.DeleteFunc(e.players, func(p pairing.Player) bool { return p.ID == id })
}

// enter adds a late entry.
func (e *event) enter(id string) {
	e.players = append(e.players, pairing.Player{ID: id})
	slices.SortFunc(e.players, func(a, b pairing.Player) int { return cmp.Compare(a.ID, b.ID) })
}

// runSwiss plays rounds: Random first, Swiss after. It checks every round.
func (e *event) runSwiss(t *testing.T, rounds int, seed uint64) []pairing.Round {
	t.Helper()
	var out []pairing.Round
	for r := range rounds {
		req := e.request(seed + uint64(r))
		pair := pairing.Swiss
		if r == 0 {
			pair = pairing.Random
		}
		round, err := pair(req)
		if err != nil {
			t.Fatalf("round %d of %d players: %v", r+1, len(req.Players), err)
		}
		checkRound(t, req, round)
		e.play(round)
		out = append(out, round)
	}
	return out
}

// checkRound checks what every round must satisfy: each active player
// seated exactly once or on a bye, table sizes by the split rule, fixed
// tables and keep-apart pairs honoured, repeats counted right.
func checkRound(t *testing.T, req pairing.Request, r pairing.Round) {
	t.Helper()
	n := len(req.Players)
	sizes, byes, err := pairing.Sizes(n)
	if err != nil {
		t.Fatalf("Sizes(%d): %v", n, err)
	}
	table := map[string]int{} // 0 = bye
	var got []int
	for i, tb := range r.Tables {
		got = append(got, len(tb))
		for _, id := range tb {
			if _, ok := table[id]; ok {
				t.Errorf("player %s seated twice in %v", id, r.Tables)
			}
			table[id] = i + 1
		}
	}
	for _, id := range r.Byes {
		if _, ok := table[id]; ok {
			t.Errorf("player %s seated and on a bye", id)
		}
		table[id] = 0
	}
	for _, p := range req.Players {
		tb, ok := table[p.ID]
		switch {
		case !ok:
			t.Errorf("player %s has no table and no bye", p.ID)
		case p.FixedTable > 0 && tb != p.FixedTable:
			t.Errorf("player %s sits at table %d, want fixed table %d", p.ID, tb, p.FixedTable)
		}
	}
	if len(table) != n {
		t.Errorf("round seats %d players, want %d", len(table), n)
	}
	slices.SortFunc(got, func(a, b int) int { return b - a })
	if !slices.Equal(got, sizes) || len(r.Byes) != byes {
		t.Errorf("table sizes %v and %d byes, want %v and %d", got, len(r.Byes), sizes, byes)
	}
	for _, pair := range req.KeepApart {
		ta, okA := table[pair[0]]
		tb, okB := table[pair[1]]
		if okA && okB && ta > 0 && ta == tb {
			t.Errorf("keep-apart pair %v both at table %d", pair, ta)
		}
	}
	if want := repeats(req.History, r.Tables); r.Repeats != want {
		t.Errorf("Repeats = %d, want %d", r.Repeats, want)
	}
}

// repeats counts the pairs seated together in tables who met in history.
func repeats(history, tables [][]string) int {
	met := map[[2]string]bool{}
	for _, t := range history {
		for i, a := range t {
			for _, b := range t[i+1:] {
				met[[2]string{min(a, b), max(a, b)}] = true
			}
		}
	}
	k := 0
	for _, t := range tables {
		for i, a := range t {
			for _, b := range t[i+1:] {
				if met[[2]string{min(a, b), max(a, b)}] {
					k++
				}
			}
		}
	}
	return k
}

// exposure returns each player's 3-player tables and byes in history.
func exposure(history [][]string) (three, byes map[string]int) {
	three, byes = map[string]int{}, map[string]int{}
	for _, t := range history {
		for _, id := range t {
			switch len(t) {
			case 1:
				byes[id]++
			case 3:
				three[id]++
			}
		}
	}
	return three, byes
}

// spread returns max - min of counts over players.
func spread(players []pairing.Player, counts map[string]int) int {
	lo, hi := 1<<30, 0
	for _, p := range players {
		lo, hi = min(lo, counts[p.ID]), max(hi, counts[p.ID])
	}
	return hi - lo
}

func players(n int) []pairing.Player {
	out := make([]pairing.Player, n)
	for i := range out {
		out[i].ID = playerID(i)
	}
	return out
}
