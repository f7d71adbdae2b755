package pairing

import "slices"

// Score counts the repeats and the cost of a round that was drawn or
// amended already, against req's History: the Repeats and Cost that
// Random, Swiss, DrawSchedule and Amend give the tables they return, for
// a reader who has the tables and not the draw (a record's checker). The
// round must seat every player of req exactly once, at tables as Sizes
// splits them, honouring req's fixed tables and keep-apart pairs;
// otherwise the error wraps referee.ErrInvalid. Cost.Standings counts
// when req gives standings, as Amend counts it; Cost.Unfair is left 0.
func Score(req Request, tables [][]string, byes []string) (Round, error) {
	swiss := slices.ContainsFunc(req.Players, func(pl Player) bool { return pl.Standing != 0 })
	p, err := newProblem(req, swiss)
	if err != nil {
		return Round{}, err
	}
	seating, err := p.parse(tables, byes)
	if err != nil {
		return Round{}, err
	}
	out := p.score([][]int32{seating}, req.Seed, false)[0]
	out.Cost.Unfair = 0
	return out, nil
}
