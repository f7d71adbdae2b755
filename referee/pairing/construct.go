package pairing

import (
	"slices"

	"github.com/catanjudge/catanjudge/referee/pairing/design"
)

// relabelTries is how many seeded relabellings of a design a schedule
// with History tries, keeping the one that meets History least.
const relabelTries = 8

// maxPhantomPoints bounds the designs whose points that never meet are
// searched for phantoms (the search is quadratic in the points).
const maxPhantomPoints = 400

// subsetPasses bounds the exchanges that even out the 3-player tables of
// a subset of a design's rounds.
const subsetPasses = 20

// placeDesign seats the first rounds of a schedule from a design of tables
// of 4 in which nobody meets twice (design.Build), and returns how many it
// placed. A round with h 3-player tables takes the design of 4·tables
// points and h phantom points that never share a table, each phantom's
// seat the empty one of its table: rounds in which two phantoms meet are
// left out. The seed relabels the points and picks the rounds when the
// design has more than the schedule needs; with History, the relabelling
// that meets it least of a few. Players fixed to a table sit at it: a
// round in which that cannot be is left out. The counts of 3-player
// tables in three grow by the rounds placed.
func (s *search) placeDesign(three []int32) int {
	p := s.p
	if p.byes > 0 || s.nrounds == 0 {
		return 0
	}
	v := 4 * p.tables
	// Twice the rounds asked for, and a few more for those phantoms or
	// fixed players leave out, are enough to choose from.
	rounds, _ := design.Build(v, min(maxRounds, 2*s.nrounds+3))
	if len(rounds) == 0 {
		return 0
	}
	phantoms, rounds := choosePhantoms(rounds, v, p.holes)
	// The points of the design, in the order players take them: those
	// fixed to a table first, so that relabelling moves only the others.
	var points []int
	for x := range v {
		if !slices.Contains(phantoms, x) {
			points = append(points, x)
		}
	}
	best, bestMeet := []int32(nil), int64(-1)
	var fixed []int32
	for e := range p.n {
		if p.pin[e] >= 0 {
			fixed = append(fixed, int32(e))
		}
	}
	history := slices.ContainsFunc(p.met, func(m int32) bool { return m > 0 })
	for try := range relabelTries {
		if try > 0 && !history {
			break
		}
		label := make([]int32, v) // point → entity
		for i, x := range phantoms {
			label[x] = int32(p.n + i)
		}
		s.rng.Shuffle(len(points), func(i, j int) { points[i], points[j] = points[j], points[i] })
		for i, e := range append(slices.Clone(fixed), s.shuffled()...) {
			label[points[i]] = e
		}
		if meet := historyMeetings(p, rounds, label); bestMeet < 0 || meet < bestMeet {
			best, bestMeet = label, meet
		}
	}
	chosen := s.chooseRounds(rounds, best, three)
	placed := 0
	for _, r := range chosen {
		if s.placeRound(placed, r, best) {
			placed++
		}
	}
	for r := range placed {
		seat := s.seat[r*p.slots : (r+1)*p.slots]
		for t := range p.tables {
			g := seat[4*t : 4*t+4]
			if slices.ContainsFunc(g, func(e int32) bool { return int(e) >= p.n }) {
				for _, e := range g {
					if int(e) < p.n {
						three[e]++
					}
				}
			}
		}
	}
	return placed
}

// choosePhantoms picks h points of the design that never share a table,
// as far as the design allows, and returns them with the rounds in which
// no two of them meet. Of the sets that lose the fewest rounds (none for
// points that never meet; three points of one table lose its round) it
// takes the one that spreads the 3-player tables most evenly: a player
// gets one for each phantom they sit with.
func choosePhantoms(rounds []design.Round, v, h int) ([]int, []design.Round) {
	if h == 0 {
		return nil, rounds
	}
	met := make([]int, v*v) // 1 + the round in which a pair met, 0 never
	for r, round := range rounds {
		for _, t := range round {
			for i, a := range t {
				for _, b := range t[i+1:] {
					met[a*v+b], met[b*v+a] = r+1, r+1
				}
			}
		}
	}
	lost := func(ps []int) []int {
		var out []int
		for i, a := range ps {
			for _, b := range ps[i+1:] {
				if m := met[a*v+b]; m > 0 && !slices.Contains(out, m-1) {
					out = append(out, m-1)
				}
			}
		}
		return out
	}
	// spread is the sum of the squares of the players' 3-player tables.
	spread := func(ps []int, lost []int) int {
		sum := 0
		for x := range v {
			if slices.Contains(ps, x) {
				continue
			}
			k := 0
			for _, p := range ps {
				if m := met[x*v+p]; m > 0 && !slices.Contains(lost, m-1) {
					k++
				}
			}
			sum += k * k
		}
		return sum
	}
	// The candidates: sets of points that never meet, and the first h
	// points of the first table (which lose one round).
	cands := [][]int{rounds[0][0][:h]}
	var grow func(set []int, from int)
	grow = func(set []int, from int) {
		if len(set) == h {
			cands = append(cands, slices.Clone(set))
			return
		}
		for x := from; x < v; x++ {
			if !slices.ContainsFunc(set, func(y int) bool { return met[x*v+y] > 0 }) {
				grow(append(set, x), x+1)
			}
		}
	}
	if h == 1 {
		cands = nil
		for x := range v {
			cands = append(cands, []int{x})
		}
	} else if len(rounds) < (v-1)/3+1 && v <= maxPhantomPoints {
		// Only a packing (not every pair meets) has points that never
		// meet; few, since each misses at most two others.
		grow(nil, 0)
	}
	best, bestLost, bestSpread := []int(nil), []int(nil), 0
	for _, c := range cands {
		l := lost(c)
		if sp := spread(c, l); best == nil || len(l) < len(bestLost) || (len(l) == len(bestLost) && sp < bestSpread) {
			best, bestLost, bestSpread = c, l, sp
		}
	}
	var kept []design.Round
	for r, round := range rounds {
		if !slices.Contains(bestLost, r) {
			kept = append(kept, round)
		}
	}
	return slices.Clone(best), kept
}

// historyMeetings is the meetings cost of the design's rounds, relabelled,
// against History.
func historyMeetings(p *problem, rounds []design.Round, label []int32) int64 {
	var m int64
	for _, round := range rounds {
		for _, t := range round {
			for i, a := range t {
				for _, b := range t[i+1:] {
					x, y := int(label[a]), int(label[b])
					if x < p.n && y < p.n {
						m += sq(int64(p.met[x*p.n+y]))
					}
				}
			}
		}
	}
	return m
}

// chooseRounds returns the design's rounds the schedule plays, in a
// seeded order: all of them if it needs as many, otherwise a subset whose
// 3-player tables (with History's) are spread as evenly as a few
// exchanges of a round in for one out can make them.
func (s *search) chooseRounds(rounds []design.Round, label []int32, three []int32) []design.Round {
	p := s.p
	order := s.rng.Perm(len(rounds))
	if len(rounds) <= s.nrounds {
		out := make([]design.Round, len(rounds))
		for i, r := range order {
			out[i] = rounds[r]
		}
		return out
	}
	if p.holes == 0 {
		out := make([]design.Round, s.nrounds)
		for i, r := range order[:s.nrounds] {
			out[i] = rounds[r]
		}
		return out
	}
	// The players each round gives a 3-player table.
	short := make([][]int32, len(rounds))
	for r, round := range rounds {
		for _, t := range round {
			if slices.ContainsFunc(t[:], func(x int) bool { return int(label[x]) >= p.n }) {
				for _, x := range t {
					if e := label[x]; int(e) < p.n {
						short[r] = append(short[r], e)
					}
				}
			}
		}
	}
	count := slices.Clone(three)
	in, out := slices.Clone(order[:s.nrounds]), slices.Clone(order[s.nrounds:])
	for _, r := range in {
		for _, e := range short[r] {
			count[e]++
		}
	}
	// Exchanging round a (in) for b (out) changes the sum of squares by
	// the players' counts: each of a's loses one, each of b's gains one.
	change := func(a, b int) int64 {
		var d int64
		for _, e := range short[a] {
			if !slices.Contains(short[b], e) {
				d += -2*int64(count[e]) + 1
			}
		}
		for _, e := range short[b] {
			if !slices.Contains(short[a], e) {
				d += 2*int64(count[e]) + 1
			}
		}
		return d
	}
	for pass := 0; pass < subsetPasses; pass++ {
		improved := false
		for i, a := range in {
			for j, b := range out {
				if change(a, b) < 0 {
					for _, e := range short[a] {
						count[e]--
					}
					for _, e := range short[b] {
						count[e]++
					}
					in[i], out[j] = b, a
					a = b
					improved = true
				}
			}
		}
		if !improved {
			break
		}
	}
	chosen := make([]design.Round, len(in))
	for i, r := range in {
		chosen[i] = rounds[r]
	}
	return chosen
}

// placeRound seats round r from a design round, numbering its tables so
// that players fixed to a table sit at it; it reports false, seating
// nothing, when they cannot all.
func (s *search) placeRound(r int, round design.Round, label []int32) bool {
	p := s.p
	seat := s.seat[r*p.slots : (r+1)*p.slots]
	number := make([]int, len(round)) // design table → table
	taken := make([]bool, p.tables)
	for i := range number {
		number[i] = -1
	}
	for i, t := range round {
		for _, x := range t {
			e := label[x]
			if int(e) >= p.n || p.pin[e] < 0 {
				continue
			}
			switch pin := int(p.pin[e]); {
			case number[i] == pin:
			case number[i] >= 0 || taken[pin]:
				return false
			default:
				number[i], taken[pin] = pin, true
			}
		}
	}
	next := 0
	for i := range number {
		if number[i] < 0 {
			for taken[next] {
				next++
			}
			number[i], taken[next] = next, true
		}
	}
	for i, t := range round {
		for k, x := range t {
			seat[4*number[i]+k] = label[x]
		}
	}
	return true
}
