package pairing

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// cost is Cost with the hard constraints in front, compared lexicographically.
type cost [5]int64

const (
	hard = iota
	// fair is Cost.Unfair for one round; for a schedule it is the whole
	// exposure, so that 3-player tables and byes are spread evenly over the
	// schedule before meetings count.
	fair
	meetings
	exposure
	standings
)

func (c cost) less(d cost) bool {
	for i := range c {
		if c[i] != d[i] {
			return c[i] < d[i]
		}
	}
	return false
}

func (c *cost) add(d cost) {
	for i := range c {
		c[i] += d[i]
	}
}

var worstCost = cost{math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64, math.MaxInt64}

// budget bounds a search by work done, never by the clock, so that a seed
// replays exactly on any machine.
type budget struct {
	evals    int // swap evaluations in all
	stall    int // steps without a new best before a restart from the best
	restarts int // restarts without a new best before giving up
	sample   int // conflicted seats examined per step
	tenure   int // a move back is tabu for tenure to tenure+spread steps
	spread   int
	kick     int // random swaps per restart, per 16 slots
}

// roundBudget bounds the search for one round: a round of 1,000 players
// takes well under a second.
var roundBudget = budget{evals: 30_000_000, stall: 50, restarts: 3, sample: 12, tenure: 5, spread: 10, kick: 1}

// within returns b with at most maxEvals evaluations; 0 leaves it as it is.
func (b budget) within(maxEvals int) budget {
	if maxEvals > 0 && maxEvals < b.evals {
		b.evals = maxEvals
	}
	return b
}

// scheduleBudget bounds the search for a schedule.
func scheduleBudget(p *problem) budget {
	return budget{evals: 60_000_000, stall: 300, restarts: 4, sample: max(8, 100_000/p.slots), tenure: 5, spread: 10, kick: 1}
}

// search improves seatings of one or more rounds by swapping two entities
// of a round: tabu search on the seats in conflict, then plain descent.
type search struct {
	p       *problem
	nrounds int
	joint   bool // a schedule: exposure is judged over all rounds
	// repeatsFirst puts a schedule's exposure after its meetings
	// (referee.RepeatsFirst); rounds always count it after them.
	repeatsFirst bool
	rng          *rand.Rand
	seat         []int32 // nrounds*slots: the entity in each slot
	met          []int32 // n*n: History plus the seatings
	three        []int32 // History plus the seatings
	bye          []int32 // History plus the seatings
	hist         fairHist
	gap          int     // see fairHist.unfair; rounds only
	cost         cost    // of the seatings, beyond History
	tabu         []int32 // (round, entity, table): the step until which the move is tabu
	step         int32
	evals        int
	moves        [8]move // the seat changes of the swap being priced
	nmoves       int
}

// move is a player's change of seat kind in a swap.
type move struct {
	e        int
	from, to kind
}

func newSearch(p *problem, rounds int, joint bool, rng *rand.Rand) *search {
	return &search{
		p:       p,
		nrounds: rounds,
		joint:   joint,
		rng:     rng,
		seat:    make([]int32, rounds*p.slots),
		tabu:    make([]int32, rounds*p.slots*(p.tables+1)),
	}
}

// shuffled returns the players not fixed to a table in a seeded order.
func (s *search) shuffled() []int32 {
	var free []int32
	for e := range s.p.n {
		if s.p.pin[e] < 0 {
			free = append(free, int32(e))
		}
	}
	s.rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	return free
}

// byStanding returns the players not fixed to a table by standing, ties in
// a seeded order.
func (s *search) byStanding() []int32 {
	free := s.shuffled()
	slices.SortStableFunc(free, func(a, b int32) int {
		return cmp.Compare(s.p.rank[a], s.p.rank[b])
	})
	return free
}

// place seats round r: fixed players at their tables, holes at the bottom
// tables (Swiss) or at random ones, then order fills the free slots table by
// table, the byes last.
func (s *search) place(r int, order []int32) {
	p := s.p
	seat := s.seat[r*p.slots : (r+1)*p.slots]
	for i := range seat {
		seat[i] = -1
	}
	fill := make([]int, p.tables)
	for e := range p.n {
		if t := p.pin[e]; t >= 0 {
			seat[4*int(t)+fill[t]] = int32(e)
			fill[t]++
		}
	}
	tables := make([]int, p.tables)
	for t := range tables {
		tables[t] = p.tables - 1 - t
	}
	if !p.swiss {
		s.rng.Shuffle(len(tables), func(i, j int) { tables[i], tables[j] = tables[j], tables[i] })
	}
	hole := p.n
	for _, t := range tables {
		if hole < p.slots && fill[t] < 4 {
			seat[4*t+3] = int32(hole)
			hole++
		}
	}
	k := 0
	for i := range seat {
		if seat[i] < 0 {
			seat[i] = order[k]
			k++
		}
	}
}

// placeFair seats round r of a schedule at random, except that byes and
// 3-player tables go to the players with the fewest so far: three and bye
// hold the counts before the round and are updated.
func (s *search) placeFair(r int, three, bye []int32) {
	p := s.p
	seat := s.seat[r*p.slots : (r+1)*p.slots]
	free := s.shuffled()
	slices.SortStableFunc(free, func(a, b int32) int { return cmp.Compare(bye[a], bye[b]) })
	copy(seat[4*p.tables:], free[:p.byes])
	for _, e := range free[:p.byes] {
		bye[e]++
	}
	free = free[p.byes:]
	slices.SortStableFunc(free, func(a, b int32) int { return cmp.Compare(three[a], three[b]) })
	// A table's claim to the holes, lowest first: the most 3-player tables
	// of the players fixed there; for the other tables, the count of the
	// last free player who would get a 3-player table anyway.
	key := make([]int32, p.tables)
	if p.holes > 0 && len(free) > 0 {
		for t := range key {
			key[t] = three[free[min(3*p.holes, len(free))-1]]
		}
	}
	fill := make([]int, p.tables)
	for e := range p.n {
		if t := p.pin[e]; t >= 0 {
			if fill[t] == 0 {
				key[t] = three[e]
			}
			key[t] = max(key[t], three[e])
			seat[4*int(t)+fill[t]] = int32(e)
			fill[t]++
		}
	}
	tables := s.rng.Perm(p.tables)
	slices.SortStableFunc(tables, func(a, b int) int {
		return cmp.Or(cmp.Compare(b2i(fill[a] == 4), b2i(fill[b] == 4)), cmp.Compare(key[a], key[b]))
	})
	k := 0
	for i, t := range tables {
		size := 4
		if i < p.holes {
			size = 3
			seat[4*t+3] = int32(p.n + i)
		}
		for ; fill[t] < size; fill[t]++ {
			seat[4*t+fill[t]] = free[k]
			k++
		}
		if size == 3 {
			for _, e := range seat[4*t : 4*t+3] {
				three[e]++
			}
		}
	}
}

// init derives everything else from s.seat.
func (s *search) init() {
	p := s.p
	n := p.n
	s.met = slices.Clone(p.met)
	s.three = slices.Clone(p.three)
	s.bye = slices.Clone(p.bye)
	s.cost = cost{}
	if !s.joint {
		s.hist = p.newFairHist()
	}
	for r := range s.nrounds {
		base := r * p.slots
		seat := s.seat[base : base+p.slots]
		s.cost[hard] += p.hardCost(seat)
		for t := range p.tables + 1 {
			k := s.kind(base, t)
			g := seat[4*t : min(4*t+4, p.slots)]
			for i, a := range g {
				if int(a) >= n {
					continue
				}
				switch k {
				case seatThree:
					s.three[a]++
				case seatBye:
					s.bye[a]++
					if p.swiss {
						s.cost[standings] += p.byeStanding(int(a))
					}
				}
				if !s.joint {
					s.hist.add(p.three[a], p.bye[a], k, 1)
				}
				if k == seatBye {
					continue
				}
				for _, b := range g[i+1:] {
					if int(b) < n {
						s.met[int(a)*n+int(b)]++
						s.met[int(b)*n+int(a)]++
						if p.swiss {
							s.cost[standings] += sq(p.rank[a] - p.rank[b])
						}
					}
				}
			}
		}
	}
	expo := s.spreadAt()
	if !s.joint {
		s.cost[fair] = s.hist.unfair(s.gap)
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			s.cost[meetings] += cumSq(s.met[a*n+b]) - cumSq(p.met[a*n+b])
		}
		s.cost[expo] += sq(int64(s.three[a])) - sq(int64(p.three[a]))
		s.cost[expo] += ByeWeight * (sq(int64(s.bye[a])) - sq(int64(p.bye[a])))
	}
}

func sq(x int64) int64 { return x * x }

// cumSq is the meetings cost of a pair that met m times: the k-th meeting
// costs (k-1)², the square of the meetings before it.
func cumSq(m int32) int64 {
	x := int64(m)
	return (x - 1) * x * (2*x - 1) / 6
}

// rounds returns each round's seating.
func (s *search) rounds() [][]int32 {
	out := make([][]int32, s.nrounds)
	for r := range out {
		out[r] = slices.Clone(s.seat[r*s.p.slots : (r+1)*s.p.slots])
	}
	return out
}

// swappable reports whether the entities in slots s1 and s2 of one round
// may trade places: neither is fixed, they sit at different tables, and no
// hole would land on a bye.
func (s *search) swappable(base, s1, s2 int) bool {
	p := s.p
	x, y := int(s.seat[base+s1]), int(s.seat[base+s2])
	t1, t2 := p.table(s1), p.table(s2)
	switch {
	case t1 == t2 || p.pin[x] >= 0 || p.pin[y] >= 0:
		return false
	case x >= p.n && (y >= p.n || t2 == p.tables):
		return false
	case y >= p.n && t1 == p.tables:
		return false
	}
	return true
}

// kind returns what table t of the round at base gives its players.
func (s *search) kind(base, t int) kind {
	return s.p.kindOf(t, s.holes(base, t))
}

func (s *search) holes(base, t int) int {
	if t == s.p.tables {
		return 0
	}
	h := 0
	for _, e := range s.seat[base+4*t : base+4*t+4] {
		h += b2i(int(e) >= s.p.n)
	}
	return h
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func b2i64(b bool) int64 { return int64(b2i(b)) }

// collect lists in s.moves the players whose seat kind changes if the
// entities in slots s1 and s2 of the round at base traded places.
func (s *search) collect(base, s1, s2 int) {
	p := s.p
	n := p.n
	x, y := int(s.seat[base+s1]), int(s.seat[base+s2])
	t1, t2 := p.table(s1), p.table(s2)
	h1, h2 := s.holes(base, t1), s.holes(base, t2)
	k1, k2 := p.kindOf(t1, h1), p.kindOf(t2, h2)
	k1after := p.kindOf(t1, h1-b2i(x >= n)+b2i(y >= n))
	k2after := p.kindOf(t2, h2-b2i(y >= n)+b2i(x >= n))
	s.nmoves = 0
	add := func(e int, from, to kind) {
		if e < n && from != to {
			s.moves[s.nmoves] = move{e, from, to}
			s.nmoves++
		}
	}
	add(x, k1, k2after)
	add(y, k2, k1after)
	if k1 != k1after {
		for k := 4 * t1; k < 4*t1+4; k++ {
			if k != s1 {
				add(int(s.seat[base+k]), k1, k1after)
			}
		}
	}
	if k2 != k2after {
		for k := 4 * t2; k < 4*t2+4; k++ {
			if k != s2 {
				add(int(s.seat[base+k]), k2, k2after)
			}
		}
	}
}

// delta is the change of cost if the entities in slots s1 and s2 of round r
// traded places (see swappable).
func (s *search) delta(r, s1, s2 int) cost {
	p := s.p
	base := r * p.slots
	x, y := int(s.seat[base+s1]), int(s.seat[base+s2])
	var d cost
	s.side(&d, base, p.table(s1), s1, x, y)
	s.side(&d, base, p.table(s2), s2, y, x)
	s.collect(base, s1, s2)
	if s.nmoves > 0 {
		expo := s.spreadAt()
		for _, m := range s.moves[:s.nmoves] {
			d[expo] += s.expo(m)
		}
		if !s.joint {
			for _, m := range s.moves[:s.nmoves] {
				s.hist.move(p, m, 1)
			}
			d[fair] += s.hist.unfair(s.gap) - s.cost[fair]
			for _, m := range s.moves[:s.nmoves] {
				s.hist.move(p, m, -1)
			}
		}
	}
	s.evals++
	return d
}

// side adds the change of meetings, standings and hard constraints at
// table t, where out leaves slot sl and in takes it.
func (s *search) side(d *cost, base, t, sl, out, in int) {
	p := s.p
	n := p.n
	if t == p.tables {
		if p.swiss {
			d[standings] += p.byeStanding(in) - p.byeStanding(out)
		}
		return
	}
	for k := 4 * t; k < 4*t+4; k++ {
		if k == sl {
			continue
		}
		z := int(s.seat[base+k])
		if z >= n {
			d[hard] += b2i64(in >= n) - b2i64(out >= n)
			continue
		}
		if out < n {
			d[meetings] -= sq(int64(s.met[out*n+z]) - 1)
			d[hard] -= b2i64(p.apart[out*n+z])
			if p.swiss {
				d[standings] -= sq(p.rank[out] - p.rank[z])
			}
		}
		if in < n {
			d[meetings] += sq(int64(s.met[in*n+z]))
			d[hard] += b2i64(p.apart[in*n+z])
			if p.swiss {
				d[standings] += sq(p.rank[in] - p.rank[z])
			}
		}
	}
}

// spreadAt is where exposure counts in the cost: before meetings in a
// schedule that spreads 3-player tables and byes first, after them
// otherwise.
func (s *search) spreadAt() int {
	if s.joint && !s.repeatsFirst {
		return fair
	}
	return exposure
}

// expo is the change of exposure, the sum of the squares of the players'
// counts, when m happens.
func (s *search) expo(m move) int64 {
	var x int64
	switch m.from {
	case seatThree:
		x -= 2*int64(s.three[m.e]) - 1
	case seatBye:
		x -= ByeWeight * (2*int64(s.bye[m.e]) - 1)
	}
	switch m.to {
	case seatThree:
		x += 2*int64(s.three[m.e]) + 1
	case seatBye:
		x += ByeWeight * (2*int64(s.bye[m.e]) + 1)
	}
	return x
}

// swap makes the trade that delta priced at d.
func (s *search) swap(r, s1, s2 int, d cost) {
	p := s.p
	base := r * p.slots
	x, y := int(s.seat[base+s1]), int(s.seat[base+s2])
	s.collect(base, s1, s2)
	for _, m := range s.moves[:s.nmoves] {
		s.three[m.e] += int32(b2i(m.to == seatThree) - b2i(m.from == seatThree))
		s.bye[m.e] += int32(b2i(m.to == seatBye) - b2i(m.from == seatBye))
		if !s.joint {
			s.hist.move(p, m, 1)
		}
	}
	s.meet(base, p.table(s1), s1, x, y)
	s.meet(base, p.table(s2), s2, y, x)
	s.seat[base+s1], s.seat[base+s2] = int32(y), int32(x)
	s.cost.add(d)
}

// meet updates the meetings at table t, where out leaves slot sl and in
// takes it.
func (s *search) meet(base, t, sl, out, in int) {
	p := s.p
	n := p.n
	if t == p.tables {
		return
	}
	for k := 4 * t; k < 4*t+4; k++ {
		z := int(s.seat[base+k])
		if k == sl || z >= n {
			continue
		}
		if out < n {
			s.met[out*n+z]--
			s.met[z*n+out]--
		}
		if in < n {
			s.met[in*n+z]++
			s.met[z*n+in]++
		}
	}
}

// conflicts appends the seats (round*slots + slot) of movable entities that
// break a hard constraint or meet a tablemate again; and of players at a
// 3-player table (and its hole) or a bye whose count, counting the
// seatings searched, is at least two above that of a player of the same
// round seated otherwise: trading places would spread exposure better.
func (s *search) conflicts(out []int32) []int32 {
	p := s.p
	n := p.n
	mark := make([]bool, p.slots)
	for r := range s.nrounds {
		base := r * p.slots
		clear(mark)
		// Far above any count, so nobody is in conflict when no one can take
		// their place.
		min3, minBye := 1<<40, 1<<40
		for t := range p.tables + 1 {
			h := s.holes(base, t)
			for k := 4 * t; k < min(4*t+4, p.slots); k++ {
				e := s.seat[base+k]
				if int(e) >= n {
					continue
				}
				if t < p.tables && h == 0 {
					min3 = min(min3, int(s.three[e]))
				}
				if t < p.tables {
					minBye = min(minBye, int(s.bye[e]))
				}
			}
		}
		for t := range p.tables {
			g := s.seat[base+4*t : base+4*t+4]
			h := s.holes(base, t)
			for i, a := range g {
				if int(a) < n && h > 0 && int(s.three[a]) >= min3+2 {
					// Moving the hole instead helps too, and is the only
					// way when the player is fixed to the table.
					mark[4*t+i] = true
					for j, z := range g {
						mark[4*t+j] = mark[4*t+j] || int(z) >= n
					}
				}
				for j := i + 1; j < 4; j++ {
					b := g[j]
					if p.pairHard(int(a), int(b)) > 0 || (int(a) < n && int(b) < n && s.met[int(a)*n+int(b)] >= 2) {
						mark[4*t+i], mark[4*t+j] = true, true
					}
				}
			}
		}
		for k := 4 * p.tables; k < p.slots; k++ {
			if int(s.bye[s.seat[base+k]]) >= minBye+2 {
				mark[k] = true
			}
		}
		for k, m := range mark {
			if m && p.pin[s.seat[base+k]] < 0 {
				out = append(out, int32(base+k))
			}
		}
	}
	return out
}
