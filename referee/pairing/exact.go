package pairing

import (
	"math/rand/v2"
	"slices"
)

// exactSlots is the largest round solved exactly: 12 slots is 3 tables,
// a few thousand seatings, where the pigeonhole forces repeats from round 2
// and only the fewest possible will do.
const exactSlots = 12

// exact returns a cheapest seating of one round by branch and bound. Holes
// go first (so every player's table size is known when they sit), then the
// players in seeded standings order; tables that are still interchangeable
// (nobody fixed there, same holes, no players yet) are tried only once.
func exact(p *problem, rng *rand.Rand, gap int) ([]int32, cost) {
	s := newSearch(p, 1, false, rng)
	var order []int32
	if p.swiss {
		order = s.byStanding()
	} else {
		order = s.shuffled()
	}
	b := &bnb{p: p, gap: gap, best: worstCost, seat: make([]int32, p.slots), fill: make([]int, p.tables+1), holes: make([]int, p.tables), pinned: make([]bool, p.tables)}
	for i := range b.seat {
		b.seat[i] = -1
	}
	for e := range p.n {
		if t := p.pin[e]; t >= 0 {
			b.put(int(t), int32(e))
			b.pinned[t] = true
		}
	}
	for h := p.n; h < p.slots; h++ {
		b.order = append(b.order, int32(h))
	}
	b.order = append(b.order, order...)
	b.run(0, cost{}, -1)
	return b.bestSeat, b.best
}

type bnb struct {
	p        *problem
	gap      int
	order    []int32
	seat     []int32
	fill     []int // entities seated per table, byes last
	holes    []int
	pinned   []bool
	best     cost
	bestSeat []int32
}

func (b *bnb) put(t int, e int32) {
	b.seat[4*t+b.fill[t]] = e
	b.fill[t]++
}

func (b *bnb) capacity(t int) int {
	if t == b.p.tables {
		return b.p.byes
	}
	return 4
}

// run seats b.order[i:] given the cost so far; lastHole is the table of the
// previous hole, since holes are interchangeable.
func (b *bnb) run(i int, c cost, lastHole int) {
	p := b.p
	if !c.less(b.best) {
		return
	}
	if i == len(b.order) {
		// Unfairness needs the whole round; until here it is bounded by 0.
		if c[fair] = p.unfair(b.seat, b.gap); !c.less(b.best) {
			return
		}
		b.best = c
		b.bestSeat = slices.Clone(b.seat)
		return
	}
	e := int(b.order[i])
	hole := e >= p.n
	for t := range p.tables + 1 {
		if b.fill[t] == b.capacity(t) || (hole && (t == p.tables || t <= lastHole)) || b.twin(t) {
			continue
		}
		next := c
		if t == p.tables {
			next[exposure] += ByeWeight * (2*int64(p.bye[e]) + 1)
			if p.swiss {
				next[standings] += p.byeStanding(e)
			}
		} else {
			if !hole && b.holes[t] > 0 {
				next[exposure] += 2*int64(p.three[e]) + 1
			}
			for _, z := range b.seat[4*t : 4*t+b.fill[t]] {
				next[hard] += p.pairHard(e, int(z))
				if hole || int(z) >= p.n {
					continue
				}
				next[meetings] += sq(int64(p.met[e*p.n+int(z)]))
				if p.swiss {
					next[standings] += sq(p.rank[e] - p.rank[z])
				}
			}
		}
		b.put(t, int32(e))
		if hole {
			b.holes[t]++
			b.run(i+1, next, t)
			b.holes[t]--
		} else {
			b.run(i+1, next, lastHole)
		}
		b.fill[t]--
		b.seat[4*t+b.fill[t]] = -1
	}
}

// twin reports whether table t is interchangeable with an earlier table, so
// seating the next entity there repeats a branch already tried.
func (b *bnb) twin(t int) bool {
	if t == b.p.tables || b.pinned[t] || b.fill[t] != b.holes[t] {
		return false
	}
	for u := range t {
		if !b.pinned[u] && b.fill[u] == b.holes[u] && b.holes[u] == b.holes[t] {
			return true
		}
	}
	return false
}
