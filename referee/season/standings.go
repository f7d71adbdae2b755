package season

import (
	"cmp"
	"math/big"
	"slices"
)

// Result is one event of a person's season.
type Result struct {
	Event  string
	Date   string
	Rank   int // the person's final rank in the event
	Points *big.Rat
	// Counted says the event is among the person's best that count
	// (Formula.Best), or that every event counts.
	Counted bool
}

// Line is a person's line in a season's standings.
type Line struct {
	Rank   int // players on equal points share a rank, the next skipped
	Player int64
	Points *big.Rat // the counted events' points
	Events int      // events played in the season
	// Results are the person's events, best first (by points, then the
	// earlier): the counted ones lead.
	Results []Result
}

// Standings scores each event of a season by f and adds up each person's
// points over their best f.Best events (all when 0). The lines are by
// points, best first; players on equal points share a rank (1, 2, 2, 4),
// listed by ID.
func Standings(f Formula, events []Event) []Line {
	ordered := slices.Clone(events)
	slices.SortStableFunc(ordered, func(a, b Event) int {
		return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.ID, b.ID))
	})
	results := map[int64][]Result{}
	for _, e := range ordered {
		rank := map[int64]int{}
		for _, r := range e.Ranks {
			rank[r.Player] = r.Rank
		}
		scores := f.Score(e)
		for _, p := range ranksOf(scores) {
			results[p] = append(results[p], Result{Event: e.ID, Date: e.Date, Rank: rank[p], Points: scores[p]})
		}
	}
	lines := make([]Line, 0, len(results))
	for _, p := range ranksOf(results) {
		rs := results[p]
		// Best first; among equal points the earlier event, so that which
		// of two equal events counts does not depend on the listing.
		slices.SortStableFunc(rs, func(a, b Result) int { return b.Points.Cmp(a.Points) })
		total := new(big.Rat)
		for i := range rs {
			if f.Best == 0 || i < f.Best {
				rs[i].Counted = true
				total.Add(total, rs[i].Points)
			}
		}
		lines = append(lines, Line{Player: p, Points: total, Events: len(rs), Results: rs})
	}
	slices.SortStableFunc(lines, func(a, b Line) int { return cmp.Or(b.Points.Cmp(a.Points), cmp.Compare(a.Player, b.Player)) })
	for i := range lines {
		lines[i].Rank = i + 1
		if i > 0 && lines[i].Points.Cmp(lines[i-1].Points) == 0 {
			lines[i].Rank = lines[i-1].Rank
		}
	}
	return lines
}
