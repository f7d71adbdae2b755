// Package season scores a season (a league) of events: the formulas that
// turn each event's results into a person's points, the standings over the
// season, and the qualification ledger of a season whose events are
// attempts at qualifying (the national championship lets a player use a
// qualifying attempt at no more than three district events). A formula is
// data an organizer writes, checked here; everything is computed from the
// results given, exactly (points are fractions, never rounded until shown).
package season

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// The kinds of formula.
const (
	// KindPlacement gives each event's players points by their final rank
	// in the event (Formula.Points), the shop leagues' usual table.
	KindPlacement = "placement"
	// KindZeroSum gives each game's players the uma of their place at the
	// table (Formula.Uma4, Formula.Uma3) and Formula.VP points for each VP
	// above the table's average: every table adds up to zero, as the
	// leagues that borrow mahjong's scoring keep it.
	KindZeroSum = "zero-sum"
)

// Formula is how a season scores its events.
type Formula struct {
	Kind string
	// Points are the placement points of ranks 1, 2, ... of an event
	// (KindPlacement); a rank past the table gets 0. Players sharing a
	// rank split the points of the ranks they span, as uma splits: two
	// sharing 2nd of {10, 7, 5} take (7+5)/2 = 6 each.
	Points []int
	// Uma4 and Uma3 are the points of places 1..4 at a table of 4 and 1..3
	// at a table of 3 (KindZeroSum), each adding up to 0; shared places
	// split the uma they span.
	Uma4, Uma3 []int
	// VP is the points per VP above the table's average VP (KindZeroSum;
	// 0 for none): own VP × players − the table's VP, over the players.
	VP int
	// Best counts a person's best Best events only; 0 counts every event.
	Best int
}

// maxFormulaPoints bounds a table's entries and each entry, so that a
// season's points stay within what a page prints.
const (
	maxFormulaRanks = 512
	maxFormulaValue = 100000
	maxBest         = 100
)

// Check reports a formula that cannot score a season, as a Violation.
func (f Formula) Check() error {
	if f.Best < 0 || f.Best > maxBest {
		return referee.NewViolation("season-best-out-of-range", fmt.Sprintf("best %d: count 0 (every event) to %d events", f.Best, maxBest), map[string]any{"Best": f.Best, "Max": maxBest})
	}
	inRange := func(name string, xs []int) error {
		for i, x := range xs {
			if x < -maxFormulaValue || x > maxFormulaValue {
				return referee.NewViolation("season-points-out-of-range", fmt.Sprintf("%s[%d] = %d: points are within ±%d", name, i, x, maxFormulaValue),
					map[string]any{"Field": name, "Index": i + 1, "Value": x, "Max": maxFormulaValue})
			}
		}
		return nil
	}
	switch f.Kind {
	case KindPlacement:
		if len(f.Points) == 0 || len(f.Points) > maxFormulaRanks {
			return referee.NewViolation("season-points-missing", fmt.Sprintf("a placement formula needs points for rank 1 to at most %d", maxFormulaRanks), map[string]any{"Max": maxFormulaRanks})
		}
		if len(f.Uma4)+len(f.Uma3) > 0 || f.VP != 0 {
			return referee.NewViolation("season-formula-mixed", "a placement formula takes points, not uma or vp", nil)
		}
		return inRange("points", f.Points)
	case KindZeroSum:
		if len(f.Points) > 0 {
			return referee.NewViolation("season-formula-mixed", "a zero-sum formula takes uma4, uma3 and vp, not points", nil)
		}
		for _, u := range []struct {
			name  string
			uma   []int
			seats int
		}{{"uma4", f.Uma4, 4}, {"uma3", f.Uma3, 3}} {
			if len(u.uma) != u.seats {
				return referee.NewViolation("season-uma-size", fmt.Sprintf("%s needs %d places, not %d", u.name, u.seats, len(u.uma)),
					map[string]any{"Field": u.name, "Want": u.seats, "Got": len(u.uma)})
			}
			if err := inRange(u.name, u.uma); err != nil {
				return err
			}
			if sum(u.uma) != 0 {
				return referee.NewViolation("season-uma-not-zero", fmt.Sprintf("%s adds up to %d: a zero-sum table adds up to 0", u.name, sum(u.uma)),
					map[string]any{"Field": u.name, "Sum": sum(u.uma)})
			}
		}
		if f.VP < 0 || f.VP > maxFormulaValue {
			return referee.NewViolation("season-points-out-of-range", fmt.Sprintf("vp = %d: 0 to %d", f.VP, maxFormulaValue), map[string]any{"Field": "vp", "Index": 1, "Value": f.VP, "Max": maxFormulaValue})
		}
		return nil
	}
	return referee.NewViolation("season-formula-unknown", fmt.Sprintf("formula kind %q: %q or %q", f.Kind, KindPlacement, KindZeroSum),
		map[string]any{"Kind": f.Kind})
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// split returns the points a player takes who shares place from with
// others-1 more: the mean of table's entries from..from+others-1 (1-based;
// past the table, 0), as uma splits.
func split(table []int, from, others int) *big.Rat {
	total := 0
	for p := from; p < from+others; p++ {
		if p >= 1 && p <= len(table) {
			total += table[p-1]
		}
	}
	return big.NewRat(int64(total), int64(others))
}

// Ranked is a player's rank in an event (1 is first; players sharing a
// rank share it, and the next rank is skipped).
type Ranked struct {
	Player int64
	Rank   int
}

// Seat is a player's place and VP in one game.
type Seat struct {
	Player int64
	Place  int
	VP     int
}

// Event is what a season reads of one event: the final results, and its
// games for a formula that scores games.
type Event struct {
	ID    string
	Date  string // YYYY-MM-DD
	Seq   int64  // orders events of one date
	Ranks []Ranked
	Games [][]Seat
}

// Score returns every ranked player's points in the event by f, by player
// ID. Players without a rank (no game played) score nothing.
func (f Formula) Score(e Event) map[int64]*big.Rat {
	out := map[int64]*big.Rat{}
	switch f.Kind {
	case KindPlacement:
		sharing := map[int]int{}
		for _, r := range e.Ranks {
			sharing[r.Rank]++
		}
		for _, r := range e.Ranks {
			out[r.Player] = split(f.Points, r.Rank, sharing[r.Rank])
		}
	case KindZeroSum:
		for _, r := range e.Ranks {
			out[r.Player] = new(big.Rat)
		}
		for _, g := range e.Games {
			for p, pts := range f.game(g) {
				if out[p] == nil {
					out[p] = new(big.Rat)
				}
				out[p].Add(out[p], pts)
			}
		}
	}
	return out
}

// game scores one table by the zero-sum formula.
func (f Formula) game(g []Seat) map[int64]*big.Rat {
	uma := f.Uma4
	if len(g) == 3 {
		uma = f.Uma3
	}
	sharing := map[int]int{}
	total := 0
	for _, s := range g {
		sharing[s.Place]++
		total += s.VP
	}
	out := map[int64]*big.Rat{}
	for _, s := range g {
		pts := new(big.Rat)
		if len(g) == 3 || len(g) == 4 {
			pts = split(uma, s.Place, sharing[s.Place])
		}
		if f.VP != 0 {
			above := big.NewRat(int64(f.VP*(s.VP*len(g)-total)), int64(len(g)))
			pts.Add(pts, above)
		}
		out[s.Player] = pts
	}
	return out
}

// ranksOf is the set of keys of m, sorted: the order decisions iterate.
func ranksOf[V any](m map[int64]V) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
