package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/catanjudge/catanjudge/referee/pairing"
)

// SwissEvent is a simulated Swiss event to pair: results drawn at random,
// 4, 3, 2, 1 points by place and 2 for a bye, standings by points (ties
// share a rank).
type SwissEvent struct {
	ids     []string
	history [][]string
	points  map[string]int
	rng     *rand.Rand
}

// NewSwissEvent returns an event of n players, p0000, p0001, ..., whose
// results are drawn from seed.
func NewSwissEvent(n int, seed uint64) *SwissEvent {
	e := &SwissEvent{points: map[string]int{}, rng: rand.New(rand.NewPCG(seed, 7))}
	for i := range n {
		e.ids = append(e.ids, PlayerID(i))
	}
	return e
}

// PlayerID is the ID of player i of a simulated event.
func PlayerID(i int) string { return fmt.Sprintf("p%04d", i) }

// Request asks to pair the next round on the standings so far; before any
// round nobody has a standing.
func (e *SwissEvent) Request(seed uint64) pairing.Request {
	req := pairing.Request{History: slices.Clone(e.history), Seed: seed}
	byPoints := slices.Clone(e.ids)
	slices.SortStableFunc(byPoints, func(a, b string) int { return e.points[b] - e.points[a] })
	for i, id := range byPoints {
		rank := i + 1
		if i > 0 && e.points[byPoints[i-1]] == e.points[id] {
			rank = req.Players[i-1].Standing
		}
		if len(e.history) == 0 {
			rank = 0
		}
		req.Players = append(req.Players, pairing.Player{ID: id, Standing: rank})
	}
	return req
}

// Play records a round paired: each table's places drawn at random.
func (e *SwissEvent) Play(tables [][]string, byes []string) {
	for _, t := range tables {
		e.history = append(e.history, t)
		for place, k := range e.rng.Perm(len(t)) {
			e.points[t[k]] += 4 - place
		}
	}
	for _, b := range byes {
		e.history = append(e.history, []string{b})
		e.points[b] += 2
	}
}
