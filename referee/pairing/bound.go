package pairing

import (
	"slices"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// Status says how good a schedule's repeats are known to be.
type Status string

// The statuses of a schedule.
const (
	// Optimal: no schedule of the request meets fewer repeats (Repeats is
	// the lower bound).
	Optimal Status = "optimal"
	// BestKnown: as few repeats as the best schedule known of this size
	// (the table of best-known schedules, docs/schedules.md), with no proof
	// that fewer are impossible.
	BestKnown Status = "best-known"
	// Searched: the fewest the search found within its budget.
	Searched Status = "searched"
)

// Bound is a lower bound on a schedule's repeats and what proves it.
type Bound struct {
	Repeats int
	By      BoundReason
}

// BoundReason is what proves a lower bound.
type BoundReason string

// The proofs of a lower bound.
const (
	// ByCounting: the schedule seats more pairs than there are pairs yet
	// to meet, or a player meets more opponents than are left (with the
	// 3-player tables spread evenly when the schedule spreads them first).
	ByCounting BoundReason = "counting"
	// ByDesign: design theory shows zero impossible (8 players over 2
	// rounds, 12 over 2 or 3, 20 over 6: no resolvable design reaches
	// them; design.Limit).
	ByDesign BoundReason = "impossible-at-zero"
	// ByExhaustion: every schedule was tried (small sizes, in the table of
	// best-known schedules).
	ByExhaustion BoundReason = "exhaustive"
)

// Figure is what is known of one size's schedules under one priority:
// the best-known repeats and the lower bound.
type Figure struct {
	Priority   referee.SchedulePriority
	Repeats    int
	LowerBound Bound
	Status     Status
}

// plain reports whether the request is a bare size: no History, no
// keep-apart pair, nobody fixed to a table, so the table of best-known
// schedules speaks for it.
func (p *problem) plain(req Request) bool {
	return len(req.History) == 0 && len(req.KeepApart) == 0 && !slices.ContainsFunc(p.pin[:p.n], func(t int32) bool { return t >= 0 })
}

// lowerBound bounds the repeats of every schedule of rounds rounds of the
// problem; with evenly, of those whose 3-player tables (and byes) are
// spread as evenly as they can be, since a schedule that spreads them
// first is one of those.
func (p *problem) lowerBound(rounds int, evenly bool) Bound {
	n := p.n
	pairs := 0 // seated per round
	for t := range p.tables {
		size := 4 - b2i(t >= p.tables-p.holes)
		pairs += size * (size - 1) / 2
	}
	unmet := make([]int, n) // opponents not met yet, by player
	free := 0               // pairs not met yet
	for a := range n {
		for b := range n {
			if a != b && p.met[a*n+b] == 0 {
				unmet[a]++
				if a < b {
					free++
				}
			}
		}
	}
	bound := Bound{max(0, rounds*pairs-free), ByCounting}
	// A player at a 4-player table every round meets 3 a round; each seat
	// at a 3-player table is one fewer, a bye three fewer. What they meet
	// beyond their unmet opponents are repeats, each counted by both.
	excess := make([]int, n)
	for i := range excess {
		excess[i] = 3*rounds - unmet[i]
	}
	short := 3 * p.holes * rounds // 3-player seats
	var over int
	if evenly && p.byes == 0 {
		for i, t := range evenShares(p.three, excess, short, rounds) {
			over += max(0, excess[i]-t)
		}
	} else {
		for _, e := range excess {
			over += max(0, e)
		}
		over = max(0, over-short-3*p.byes*rounds)
	}
	if b := (over + 1) / 2; b > bound.Repeats {
		bound.Repeats = b
	}
	if bound.Repeats == 0 && p.holes == 0 && p.byes == 0 && !slices.ContainsFunc(p.met, func(m int32) bool { return m > 0 }) &&
		rounds > design.Limit(n) {
		bound = Bound{1, ByDesign}
	}
	return bound
}

// evenShares returns the 3-player tables each player gets when short seats
// over rounds rounds go evenly on top of the counts before (the fewest
// squares of the totals: a water level, the players below it raised to
// it, at most one a round). Of players tied at the level the last seats
// go to those with the most excess, which leaves the least: the bound
// takes the most favourable of the even spreads.
func evenShares(before []int32, excess []int, short, rounds int) []int {
	n := len(before)
	t := make([]int, n)
	// Raise the lowest totals one seat at a time: bounded by the seats,
	// at most 3 × 3 × 100 rounds.
	for range short {
		best := -1
		for i := range n {
			if t[i] >= rounds {
				continue
			}
			if best < 0 || int(before[i])+t[i] < int(before[best])+t[best] ||
				(int(before[i])+t[i] == int(before[best])+t[best] && excess[i]-t[i] > excess[best]-t[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		t[best]++
	}
	return t
}

// known is a row of the table of best-known schedules (docs/schedules.md,
// written by cmd/schedules): the fewest repeats found for a bare size
// under a priority, its lower bound, and the seed and budget (MaxEvals;
// 0 for the package's) that draw it again.
type known struct {
	players, rounds int
	priority        referee.SchedulePriority
	repeats         int
	bound           Bound
	seed            uint64
	evals           int
}

// lookup returns the table's row of a size and priority.
func lookup(players, rounds int, priority referee.SchedulePriority) (known, bool) {
	i, ok := slices.BinarySearchFunc(bestKnown, known{players: players, rounds: rounds, priority: priority}, func(a, b known) int {
		if a.players != b.players {
			return a.players - b.players
		}
		if a.rounds != b.rounds {
			return a.rounds - b.rounds
		}
		return b2i(a.priority == referee.RepeatsFirst) - b2i(b.priority == referee.RepeatsFirst)
	})
	if !ok {
		return known{}, false
	}
	return bestKnown[i], true
}

// judge sets the schedule's lower bound, status and the other priority's
// figure.
func (p *problem) judge(sched *Schedule, req Request, s *search) {
	rounds := len(sched.Rounds)
	sched.LowerBound = p.lowerBound(rounds, sched.Priority == referee.SpreadFirst && s.evenlySpread())
	sched.Status = Searched
	plain := p.plain(req)
	if row, ok := lookup(p.n, rounds, sched.Priority); ok && plain {
		if row.bound.Repeats > sched.LowerBound.Repeats {
			sched.LowerBound = row.bound
		}
		if sched.Repeats <= row.repeats {
			sched.Status = BestKnown
		}
	}
	if sched.Repeats <= sched.LowerBound.Repeats {
		sched.Status = Optimal
	}
	other := referee.RepeatsFirst
	if sched.Priority == referee.RepeatsFirst {
		other = referee.SpreadFirst
	}
	if row, ok := lookup(p.n, rounds, other); ok && plain && row.repeats != sched.Repeats {
		f := Figure{Priority: other, Repeats: row.repeats, LowerBound: row.bound, Status: BestKnown}
		if row.repeats <= row.bound.Repeats {
			f.Status = Optimal
		}
		sched.Other = &f
	}
}

// evenlySpread reports whether the schedule's 3-player tables and byes are
// spread as evenly as they can be: nobody has two more than someone else.
func (s *search) evenlySpread() bool {
	lo3, hi3, loB, hiB := slices.Min(s.three), slices.Max(s.three), slices.Min(s.bye), slices.Max(s.bye)
	return hi3-lo3 <= 1 && hiB-loB <= 1
}
