package pairing

// The search's optimisation: tabu search on the seats in conflict, its
// kicks, and the polishing descent (split from search.go, which holds the
// search's state, its cost and its moves).

import "slices"

// optimise runs tabu search on the seats in conflict until none is left or
// the budget is spent, restarting from the best seating found after a
// stall, then polishes the best seating by descent.
func (s *search) optimise(b budget) {
	p := s.p
	best := slices.Clone(s.seat)
	bestCost := s.cost
	stall, restarts := 0, 0
	var cands []int32
	for s.evals < b.evals {
		cands = s.conflicts(cands[:0])
		if len(cands) == 0 {
			break
		}
		if len(cands) > b.sample {
			for i := range b.sample {
				j := i + s.rng.IntN(len(cands)-i)
				cands[i], cands[j] = cands[j], cands[i]
			}
			cands = cands[:b.sample]
		}
		s.tabuStep(cands, bestCost, b)
		if s.cost.less(bestCost) {
			copy(best, s.seat)
			bestCost = s.cost
			stall, restarts = 0, 0
			continue
		}
		if stall++; stall > b.stall {
			if restarts++; restarts > b.restarts {
				break
			}
			copy(s.seat, best)
			s.init()
			s.perturb(max(2, b.kick*s.nrounds*p.slots/16))
			stall = 0
		}
	}
	if s.cost != bestCost {
		copy(s.seat, best)
		s.init()
	}
	s.polish(b.evals)
}

// tabuStep makes the best swap of a conflicted seat that is not tabu, or
// that beats the best cost so far, even if it makes things worse; after it,
// moving either entity back is tabu for a few steps.
func (s *search) tabuStep(cands []int32, bestCost cost, b budget) {
	p := s.p
	s.step++
	bestD := worstCost
	var br, b1, b2, ties int
	var near, shorts []int
	for pass := range 2 {
		for _, c := range cands {
			r, s1 := int(c)/p.slots, int(c)%p.slots
			base := r * p.slots
			x := int(s.seat[base+s1])
			t1 := p.table(s1)
			eval := func(s2 int) {
				if !s.swappable(base, s1, s2) {
					return
				}
				y := int(s.seat[base+s2])
				t2 := p.table(s2)
				d := s.delta(r, s1, s2)
				if s.tabu[s.tabuIndex(r, x, t2)] > s.step || s.tabu[s.tabuIndex(r, y, t1)] > s.step {
					next := s.cost
					next.add(d)
					if !next.less(bestCost) {
						return
					}
				}
				switch {
				case d.less(bestD):
					bestD, br, b1, b2, ties = d, r, s1, s2, 1
				case d == bestD:
					if ties++; s.rng.IntN(ties) == 0 {
						br, b1, b2 = r, s1, s2
					}
				}
			}
			if pass == 0 && s.local() {
				shorts = s.shortSlots(base, shorts[:0])
				near = s.near(base, s1, shorts, near[:0])
				for _, s2 := range near {
					eval(s2)
				}
				continue
			}
			for s2 := range p.slots {
				eval(s2)
			}
		}
		// Near swaps that meet fewer again will do; otherwise every swap
		// of the seats in conflict is tried.
		if pass == 0 && s.local() && (ties == 0 || (bestD[hard] >= 0 && bestD[meetings] >= 0)) {
			bestD, ties = worstCost, 0
			continue
		}
		break
	}
	if ties == 0 {
		return
	}
	base := br * p.slots
	x, y := int(s.seat[base+b1]), int(s.seat[base+b2])
	s.swap(br, b1, b2, bestD)
	s.tabu[s.tabuIndex(br, x, p.table(b1))] = s.step + int32(b.tenure+s.rng.IntN(b.spread+1))
	s.tabu[s.tabuIndex(br, y, p.table(b2))] = s.step + int32(b.tenure+s.rng.IntN(b.spread+1))
}

// local reports whether a swap is worth trying only between tables near
// each other, or near the standing of the player moved: a Swiss round too
// large for every swap to be tried at every step.
func (s *search) local() bool {
	return s.p.swiss && !s.joint && s.p.tables > 8*polishWindow
}

// near appends the slots worth a swap with slot s1 of the round at base
// (local rounds): those of the tables within polishWindow of s1's, and of
// its player's standing, and shorts (the round's shortSlots).
func (s *search) near(base, s1 int, shorts, out []int) []int {
	p := s.p
	window := func(t int) (int, int) {
		return 4 * max(0, t-polishWindow), 4 * min(p.tables, t+polishWindow+1)
	}
	lo1, hi1 := window(p.table(s1))
	lo2, hi2 := lo1, hi1
	if e := s.seat[base+s1]; int(e) < p.n {
		lo2, hi2 = window(int(p.home[e]))
	}
	for s2 := lo1; s2 < hi1; s2++ {
		out = append(out, s2)
	}
	for s2 := lo2; s2 < hi2; s2++ {
		if s2 < lo1 || s2 >= hi1 {
			out = append(out, s2)
		}
	}
	for _, s2 := range shorts {
		if (s2 < lo1 || s2 >= hi1) && (s2 < lo2 || s2 >= hi2) {
			out = append(out, s2)
		}
	}
	return out
}

func (s *search) tabuIndex(r, e, t int) int {
	return (r*s.p.slots+e)*(s.p.tables+1) + t
}

// perturb makes k random swaps to leave a local minimum.
func (s *search) perturb(k int) {
	p := s.p
	for range k {
		r := s.rng.IntN(s.nrounds)
		s1, s2 := s.rng.IntN(p.slots), s.rng.IntN(p.slots)
		if s.swappable(r*p.slots, s1, s2) {
			s.swap(r, s1, s2, s.delta(r, s1, s2))
		}
	}
}

// polish makes every improving swap it finds, pass after pass, until a
// pass finds none or the budget is spent. Once no hard constraint is
// broken and nobody meets again, only exposure and standings are left to
// gain: exposure changes only when a swap moves someone to or from a
// 3-player table or a bye, and standings (a round seated by standing,
// table 1 the top) gain only between tables within polishWindow of each
// other, so a pass tries those swaps alone: its work grows with the
// players, not their square.
func (s *search) polish(maxEvals int) {
	p := s.p
	var shorts, nearby []int
	// A swap that did not pay in the last pass still does not unless one
	// of its tables changed since, or (in a round) someone changed seat
	// kind, which moves the fairness counts every swap is judged by.
	changed := make([]int, p.tables+1) // by table (byes last): the pass of the last change
	kinds := 0                         // the pass of the last change of seat kind
	for pass, improved := 1, true; improved && s.evals < maxEvals; pass++ {
		improved = false
		near := s.cost[hard] == 0 && s.cost[meetings] == 0
		stale := func(t1, t2 int) bool {
			return !s.joint && pass > 1 && kinds < pass-1 && changed[t1] < pass-1 && changed[t2] < pass-1
		}
		for r := range s.nrounds {
			base := r * p.slots
			shorts = s.shortSlots(base, shorts[:0])
			try := func(s1, s2 int) {
				t1, t2 := p.table(s1), p.table(s2)
				if stale(t1, t2) || !s.swappable(base, s1, s2) {
					return
				}
				if d := s.delta(r, s1, s2); d.less(cost{}) {
					if s.nmoves > 0 {
						kinds = pass
					}
					s.swap(r, s1, s2, d)
					changed[t1], changed[t2] = pass, pass
					improved = true
					shorts = s.shortSlots(base, shorts[:0])
				}
			}
			for s1 := range p.slots {
				switch {
				case !near || (p.swiss && !s.local()) || slices.Contains(shorts, s1):
					for s2 := s1 + 1; s2 < p.slots; s2++ {
						try(s1, s2)
					}
				case s.local():
					// Both ends try the pair: each slot's neighbourhood
					// differs.
					nearby = s.near(base, s1, slices.Clone(shorts), nearby[:0])
					for _, s2 := range nearby {
						if s2 != s1 {
							try(s1, s2)
						}
					}
				default:
					for _, s2 := range slices.Clone(shorts) {
						if s2 > s1 {
							try(s1, s2)
						}
					}
				}
			}
		}
	}
}

// polishWindow is how many tables apart a local round tries a swap.
const polishWindow = 8

// shortSlots appends the slots of the round at base that give less than a
// 4-player table: the seats (and holes) of 3-player tables, and byes.
func (s *search) shortSlots(base int, out []int) []int {
	for t := range s.p.tables {
		if s.holes(base, t) > 0 {
			out = append(out, 4*t, 4*t+1, 4*t+2, 4*t+3)
		}
	}
	for sl := 4 * s.p.tables; sl < s.p.slots; sl++ {
		out = append(out, sl)
	}
	return out
}
