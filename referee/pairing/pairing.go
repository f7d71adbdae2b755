// Package pairing decides who sits at which table in each round of an event:
// as many 4-player tables as possible, players of similar standing together
// after round 1 (Swiss), nobody facing the same opponent again while that can
// be avoided, and 3-player tables and byes spread evenly over the event.
// Seats inside a table are not its business: the capsule dice decide them
// (§3 オ).
//
// A pairing is a search for the cheapest seating. Keep-apart pairs and fixed
// tables never give way. Within them a round seats
//
//  1. nobody at a 3-player table while someone with two fewer 3-player
//     tables sits at a 4-player table, and nobody on a bye while someone
//     with fewer byes has a table;
//  2. the fewest repeat meetings, each weighted by the square of the pair's
//     earlier meetings, so that unavoidable repeats spread out;
//  3. 3-player tables and byes spread as evenly as they can be;
//  4. standings as close as they can be (Swiss only).
//
// Rule 1 lets a round give a 3-player table to someone with one more than a
// player at a 4-player table when that avoids every repeat (13 players
// cannot play round 2 otherwise); later rounds even it out. When a round cannot avoid repeats, it spreads
// 3-player tables strictly before counting repeats. A schedule drawn at once
// spreads 3-player tables and byes over all its rounds first, then minimises
// repeats.
//
// Everything is seeded (referee.NewRand) and bounded by work done, never by
// the clock: the same Request gives the same tables.
//
// Drops, late entries and re-pairs need no special calls: a dropped player is
// left out of Request.Players (their History stays and is ignored where it
// names them), a late entry is a player with no History, and a round that has
// not started is re-paired by calling again with another seed.
//
// Input the rules refuse is reported as a *referee.Violation with a stable
// code (so that the judge reads it in their language) naming players by
// their Request IDs; it matches referee.ErrInvalid with errors.Is.
package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// Player is one active player of the round.
type Player struct {
	ID string
	// Standing is the player's rank in the current standings: 1 is the
	// leader, players sharing a rank share the number, 0 is unknown (ranked
	// below everyone). Swiss pairs by it; elsewhere it only orders players
	// within a table and numbers the tables.
	Standing int
	// FixedTable is the 1-based table the player must sit at in every round
	// (an accessibility request), or 0 for none.
	FixedTable int
}

// Request is everything a pairing reads. Player IDs are matched exactly.
type Request struct {
	Players []Player
	// History lists the tables of earlier rounds. A table of one player
	// records a bye; a table of three a 3-player table. IDs of players who
	// are no longer active are ignored, so History may include drops.
	History [][]string
	// KeepApart lists pairs (family, same team) never seated together.
	// Pairs naming a player who is not active are ignored.
	KeepApart [][2]string
	Seed      uint64
	// MaxEvals bounds the search's work, in swap evaluations: 0 takes the
	// package's budgets (a round of 1,000 players, a schedule of 200
	// players over 25 rounds, each in a few seconds at most). A lower
	// bound answers sooner, with tables that may repeat more meetings; the
	// same Request, MaxEvals included, always gives the same tables.
	MaxEvals int
	// Priority is what a schedule (DrawSchedule) puts first: 3-player
	// tables and byes spread evenly (referee.SpreadFirst, and "" too) or
	// the fewest repeats (referee.RepeatsFirst). Rounds drawn one at a
	// time follow rule 1 of the package doc.
	Priority referee.SchedulePriority
}

// Cost measures how far a pairing is from ideal, one field per rule of the
// package doc.
type Cost struct {
	// Unfair counts the players given a 3-player table while someone with
	// fewer 3-player tables before the round got a 4-player table, and the
	// players given a bye while someone with fewer byes got a table.
	Unfair int64
	// Meetings sums, over every pair seated together, the square of the
	// number of times they had met before.
	Meetings int64
	// Exposure is the growth of the sum over players of the squared counts
	// of 3-player tables they sat at, plus that of byes weighted by
	// ByeWeight: giving an empty seat to whoever had the fewest costs least.
	Exposure int64
	// Standings sums, over every pair seated together, the square of their
	// rank difference, plus for each bye a cost that grows with the player's
	// distance from the bottom rank (Swiss, and Amend when req has
	// standings; 0 otherwise).
	Standings int64
}

// ByeWeight is how many 3-player tables one bye counts as in Cost.Exposure.
const ByeWeight = 1000

// Round is the pairing of one round.
type Round struct {
	// Tables lists the players of table 1, 2, ... in order; within a table,
	// by standing, then ID.
	Tables [][]string
	Byes   []string // players without a table this round, by ID
	// Repeats counts the pairs seated together who had met at least once
	// before, in History or an earlier round of the same schedule.
	Repeats int
	Cost    Cost
	Seed    uint64
	// Changes lists the judge's manual changes since the draw, in order.
	Changes []Change
}

// Schedule is every round of an event drawn at once.
type Schedule struct {
	Rounds []Round
	// Repeats sums the rounds' repeats: for each pair, the number of times
	// they meet beyond the first (counting History).
	Repeats int
	// LowerBound is the fewest repeats any schedule of the request can
	// have (under its Priority), and what proves it.
	LowerBound Bound
	// Status says how good Repeats is known to be.
	Status Status
	// Priority is what the schedule put first (never "").
	Priority referee.SchedulePriority
	// Other is the best-known figure of the same size under the other
	// priority, when it differs from this schedule's (a bare size in the
	// table of best-known schedules only); nil otherwise.
	Other *Figure
	Cost  Cost // the sum of the rounds' costs
	Seed  uint64
}

// Change is a judge's manual change to a drawn round: A and B trade places
// (either may hold a bye), or, when B is empty, A moves to table Table.
type Change struct {
	A, B   string
	Table  int // 1-based; used only when B is empty
	Reason string
}

// Sizes splits n players into tables with as many 4-player tables as possible:
// the 4-player tables first, then the 3-player ones (13 gives 4, 3, 3, 3).
// Five players cannot be split, so one of them gets a bye; fewer than three
// is an error wrapping referee.ErrInvalid.
func Sizes(n int) (tables []int, byes int, err error) {
	if n < 3 {
		return nil, 0, referee.NewViolation("pairing-too-few-players", fmt.Sprintf("a round needs at least 3 players, got %d", n),
			map[string]any{"Count": n, "Min": 3})
	}
	if n == 5 {
		return []int{4}, 1, nil
	}
	t := (n + 3) / 4
	threes := 4*t - n
	tables = make([]int, t)
	for i := range tables {
		tables[i] = 4
		if i >= t-threes {
			tables[i] = 3
		}
	}
	return tables, 0, nil
}

// Random pairs a round with no regard to standings: a seeded draw for round 1
// that still avoids repeats and spreads 3-player tables and byes when History
// is given. It honours fixed tables and keep-apart pairs; when they cannot all
// be honoured the error wraps referee.ErrInvalid.
func Random(req Request) (Round, error) {
	return pairRound(req, false)
}

// Swiss pairs a round by the current standings: leaders together, table 1
// the top table, as far as the rules before standings in the package doc
// allow (a repeat outweighs any standings gap); a bye goes to the lowest
// ranked of those with the fewest byes. Round 1 "by a given order" is Swiss
// with Standing set to that order. It honours fixed tables and keep-apart
// pairs; when they cannot all be honoured the error wraps referee.ErrInvalid.
func Swiss(req Request) (Round, error) {
	return pairRound(req, true)
}

// DrawSchedule draws rounds rounds at once for an event that pre-draws every
// round, optimising them jointly: 3-player tables and byes spread over the
// whole schedule first, then the fewest meetings beyond a pair's first (16
// players over 5 rounds, or 32 over 8, meet nobody twice). Fixed tables and
// keep-apart pairs hold in every round; when they cannot, the error wraps
// referee.ErrInvalid.
func DrawSchedule(req Request, rounds int) (Schedule, error) {
	if rounds < 1 || rounds > maxRounds {
		return Schedule{}, referee.NewViolation("schedule-rounds-out-of-range", fmt.Sprintf("a schedule needs 1 to %d rounds, got %d", maxRounds, rounds),
			map[string]any{"Rounds": rounds, "Max": maxRounds})
	}
	if seats := rounds * len(req.Players); seats > maxScheduleSeats {
		return Schedule{}, referee.NewViolation("schedule-too-large",
			fmt.Sprintf("a schedule draws at most %d seats (players × rounds), got %d", maxScheduleSeats, seats),
			map[string]any{"Seats": seats, "Max": maxScheduleSeats})
	}
	p, err := newProblem(req, false)
	if err != nil {
		return Schedule{}, err
	}
	s := newSearch(p, rounds, true, referee.NewRand(req.Seed))
	s.repeatsFirst = req.Priority == referee.RepeatsFirst
	three, bye := slices.Clone(p.three), slices.Clone(p.bye)
	for r := s.placeDesign(three); r < rounds; r++ {
		s.placeFair(r, three, bye)
	}
	s.init()
	// A start from a design that meets nobody again and spreads evenly is
	// the answer: there is nothing to search.
	if s.cost[hard] > 0 || s.cost[meetings] > 0 || len(s.conflicts(nil)) > 0 {
		s.optimise(scheduleBudget(p).within(req.MaxEvals))
	}
	if s.cost[hard] > 0 {
		return Schedule{}, errConstraints()
	}
	sched := Schedule{Seed: req.Seed, Priority: req.Priority}
	if sched.Priority == "" {
		sched.Priority = referee.SpreadFirst
	}
	for _, r := range p.score(s.rounds(), req.Seed, true) {
		sched.Rounds = append(sched.Rounds, r)
		sched.Repeats += r.Repeats
		sched.Cost.Unfair += r.Cost.Unfair
		sched.Cost.Meetings += r.Cost.Meetings
		sched.Cost.Exposure += r.Cost.Exposure
		sched.Cost.Standings += r.Cost.Standings
	}
	p.judge(&sched, req, s)
	return sched, nil
}

// maxRounds bounds a schedule, which also bounds the search's memory.
const maxRounds = 100

// MaxPlayers is the most players one pairing takes: far above a shop's
// event, low enough that the n×n meetings table stays a few megabytes.
const MaxPlayers = 2000

// maxHistory bounds the earlier tables a pairing reads: MaxPlayers playing
// 50 rounds, byes included.
const maxHistory = 50 * MaxPlayers

// maxScheduleSeats bounds players × rounds of a schedule, whose search
// time grows with both: 200 players over 25 rounds.
const maxScheduleSeats = 5000

// errConstraints reports requests no seating honours. Each call makes a
// new Violation: a caller may put names in its values.
func errConstraints() error {
	return referee.NewViolation("pairing-constraints", "the keep-apart pairs and fixed tables cannot all be honoured", nil)
}

func pairRound(req Request, swiss bool) (Round, error) {
	p, err := newProblem(req, swiss)
	if err != nil {
		return Round{}, err
	}
	rng := referee.NewRand(req.Seed)
	// Rule 1 of the package doc allows a gap of one 3-player table; if
	// repeats remain anyway, the strict spread decides first.
	b := roundBudget.within(req.MaxEvals)
	seating, c := solveRound(p, rng, 2, b)
	if c[meetings] > 0 {
		if c[fair] = p.unfair(seating, 1); c[fair] > 0 {
			if strict, sc := solveRound(p, rng, 1, b); sc.less(c) {
				seating, c = strict, sc
			}
		}
	}
	if c[hard] > 0 {
		return Round{}, errConstraints()
	}
	return p.score([][]int32{seating}, req.Seed, true)[0], nil
}

// solveRound returns the cheapest seating it finds for one round, counting
// as unfair a player at a 3-player table while someone with gap fewer sits
// at a 4-player table: exactly for up to 3 tables, by search above.
func solveRound(p *problem, rng *rand.Rand, gap int, b budget) ([]int32, cost) {
	if p.slots <= exactSlots {
		return exact(p, rng, gap)
	}
	s := newSearch(p, 1, false, rng)
	s.gap = gap
	if p.swiss {
		s.place(0, s.byStanding())
	} else {
		s.place(0, s.shuffled())
	}
	s.init()
	s.optimise(b)
	return s.seat, s.cost
}

// Amend applies a judge's manual change to a round that has not started and
// returns the new round with its repeats and cost recomputed and the change
// recorded. The result must still follow Sizes, seat every player of req
// exactly once and honour fixed tables and keep-apart pairs; otherwise, or
// without a reason, the error wraps referee.ErrInvalid.
func Amend(req Request, r Round, c Change) (Round, error) {
	// The round's standings gaps count whenever req gives standings.
	swiss := slices.ContainsFunc(req.Players, func(pl Player) bool { return pl.Standing != 0 })
	p, err := newProblem(req, swiss)
	if err != nil {
		return Round{}, err
	}
	if strings.TrimSpace(c.Reason) == "" {
		return Round{}, referee.NewViolation("amend-reason-missing", "a manual change needs a reason", nil)
	}
	tables := make([][]string, len(r.Tables))
	for i, t := range r.Tables {
		tables[i] = slices.Clone(t)
	}
	byes := slices.Clone(r.Byes)
	find := func(id string) (table, seat int, ok bool) {
		for i, t := range tables {
			if j := slices.Index(t, id); j >= 0 {
				return i, j, true
			}
		}
		if j := slices.Index(byes, id); j >= 0 {
			return -1, j, true
		}
		return 0, 0, false
	}
	ta, sa, ok := find(c.A)
	if !ok {
		return Round{}, notInRound(c.A)
	}
	if c.B != "" {
		tb, sb, ok := find(c.B)
		switch {
		case !ok:
			return Round{}, notInRound(c.B)
		case c.A == c.B:
			return Round{}, referee.NewViolation("amend-swap-self", fmt.Sprintf("cannot swap %q with themselves", c.A),
				map[string]any{"Player": c.A})
		}
		*cell(tables, byes, ta, sa), *cell(tables, byes, tb, sb) = c.B, c.A
	} else {
		if c.Table < 1 || c.Table > len(tables) {
			return Round{}, referee.NewViolation("amend-no-table", fmt.Sprintf("table %d does not exist (the round has %d)", c.Table, len(tables)),
				map[string]any{"Table": c.Table, "Tables": len(tables)})
		}
		if ta < 0 {
			byes = slices.Delete(byes, sa, sa+1)
		} else {
			tables[ta] = slices.Delete(tables[ta], sa, sa+1)
		}
		tables[c.Table-1] = append(tables[c.Table-1], c.A)
	}
	seating, err := p.parse(tables, byes)
	if err != nil {
		return Round{}, err
	}
	out := p.score([][]int32{seating}, r.Seed, false)[0]
	out.Changes = append(slices.Clone(r.Changes), c)
	return out, nil
}

// notInRound reports a player a change names who is not in the round.
func notInRound(id string) error {
	return referee.NewViolation("amend-not-in-round", fmt.Sprintf("player %q is not in the round", id), map[string]any{"Player": id})
}

func cell(tables [][]string, byes []string, table, seat int) *string {
	if table < 0 {
		return &byes[seat]
	}
	return &tables[table][seat]
}
