package pairing

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
)

// A seating places every entity of a round in a slot. Entities 0..n-1 are
// the players (in ID order) and n.. are holes: the empty seat of each
// 3-player table, so every table has four slots and moving a player between
// a 4- and a 3-player table is a swap with a hole. Slot s belongs to table
// s/4; the slots past the tables are byes.
//
// problem holds the facts of a request in that dense form.
type problem struct {
	n      int // players
	holes  int // 3-player tables
	tables int
	byes   int
	slots  int // 4*tables + byes == n + holes

	ids   []string
	index map[string]int
	swiss bool
	rank  []int64 // standing; unknown ranks below the worst known
	worst int64

	met   []int32 // n*n: earlier meetings of each pair
	apart []bool  // n*n: keep-apart pairs
	three []int32 // earlier 3-player tables of each player
	bye   []int32 // earlier byes of each player
	pin   []int32 // the table each entity is fixed to, or -1
	// home is the table each player would sit at if tables were filled
	// by standing alone (ties by ID): where a large Swiss round looks
	// for their swaps.
	home []int32
}

func newProblem(req Request, swiss bool) (*problem, error) {
	n := len(req.Players)
	// The meetings table is n×n: bound n before allocating it, and the
	// history that fills it, so that no request can exhaust memory.
	if n > MaxPlayers {
		return nil, referee.NewViolation("too-many-players", fmt.Sprintf("a pairing takes at most %d players, got %d", MaxPlayers, n),
			map[string]any{"Count": n, "Max": MaxPlayers})
	}
	if h := len(req.History); h > maxHistory {
		return nil, referee.NewViolation("history-too-long", fmt.Sprintf("a pairing reads at most %d earlier tables, got %d", maxHistory, h),
			map[string]any{"Count": h, "Max": maxHistory})
	}
	sizes, byes, err := Sizes(n)
	if err != nil {
		return nil, err
	}
	players := slices.Clone(req.Players)
	slices.SortFunc(players, func(a, b Player) int { return cmp.Compare(a.ID, b.ID) })
	p := &problem{
		n:      n,
		tables: len(sizes),
		byes:   byes,
		ids:    make([]string, n),
		index:  make(map[string]int, n),
		swiss:  swiss,
		rank:   make([]int64, n),
		met:    make([]int32, n*n),
		apart:  make([]bool, n*n),
		three:  make([]int32, n),
		bye:    make([]int32, n),
	}
	for _, s := range sizes {
		if s == 3 {
			p.holes++
		}
	}
	p.slots = 4*p.tables + p.byes
	p.pin = make([]int32, p.slots)
	for i := range p.pin {
		p.pin[i] = -1
	}
	fixed := make([]int, p.tables)
	for i, pl := range players {
		switch {
		case pl.ID == "":
			return nil, referee.NewViolation("player-id-empty", "a player has an empty id", nil)
		case i > 0 && players[i-1].ID == pl.ID:
			return nil, referee.NewViolation("duplicate-player", fmt.Sprintf("player %q is listed twice", pl.ID), map[string]any{"Player": pl.ID})
		case pl.Standing < 0:
			return nil, referee.NewViolation("standing-out-of-range",
				fmt.Sprintf("player %q has standing %d, want 1 or more (0 for unknown)", pl.ID, pl.Standing),
				map[string]any{"Player": pl.ID, "Standing": pl.Standing})
		case pl.FixedTable < 0 || pl.FixedTable > p.tables:
			return nil, referee.NewViolation("fixed-table-beyond-round",
				fmt.Sprintf("player %q is fixed to table %d, but the round has tables 1 to %d", pl.ID, pl.FixedTable, p.tables),
				map[string]any{"Player": pl.ID, "Table": pl.FixedTable, "Tables": p.tables})
		}
		p.ids[i] = pl.ID
		p.index[pl.ID] = i
		p.rank[i] = int64(pl.Standing)
		p.worst = max(p.worst, p.rank[i])
		if pl.FixedTable > 0 {
			p.pin[i] = int32(pl.FixedTable - 1)
			fixed[pl.FixedTable-1]++
		}
	}
	for i := range p.rank {
		if p.rank[i] == 0 {
			p.rank[i] = p.worst + 1
		}
	}
	p.worst = slices.Max(p.rank)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(p.rank[a], p.rank[b]) })
	p.home = make([]int32, n)
	for pos, e := range order {
		p.home[e] = int32(pos * p.tables / n)
	}
	full := 0
	for t, k := range fixed {
		if k > 4 {
			return nil, referee.NewViolation("fixed-table-over-four",
				fmt.Sprintf("%d players are fixed to table %d, which seats at most 4", k, t+1),
				map[string]any{"Count": k, "Table": t + 1, "Max": 4})
		}
		if k == 4 {
			full++
		}
	}
	if full > p.tables-p.holes {
		return nil, referee.NewViolation("fixed-tables-over-fours",
			fmt.Sprintf("%d tables have 4 fixed players, but the round has only %d 4-player tables", full, p.tables-p.holes),
			map[string]any{"Full": full, "Fours": p.tables - p.holes})
	}
	for _, pair := range req.KeepApart {
		a, okA := p.index[pair[0]]
		b, okB := p.index[pair[1]]
		switch {
		case pair[0] == pair[1]:
			return nil, referee.NewViolation("keep-apart-self", fmt.Sprintf("player %q cannot be kept apart from themselves", pair[0]),
				map[string]any{"Player": pair[0]})
		case !okA || !okB:
			continue
		case p.pin[a] >= 0 && p.pin[a] == p.pin[b]:
			return nil, referee.NewViolation("keep-apart-fixed-together",
				fmt.Sprintf("players %q and %q must be kept apart but are both fixed to table %d", pair[0], pair[1], p.pin[a]+1),
				map[string]any{"Group": []string{pair[0], pair[1]}, "Table": int(p.pin[a]) + 1})
		}
		p.apart[a*n+b], p.apart[b*n+a] = true, true
	}
	for _, table := range req.History {
		// The size of the table as played counts, even if some of its
		// players have dropped since.
		size := len(table)
		idx := make([]int, 0, size)
		for _, id := range table {
			if i, ok := p.index[id]; ok && !slices.Contains(idx, i) {
				idx = append(idx, i)
			}
		}
		for k, a := range idx {
			switch size {
			case 1:
				p.bye[a]++
			case 3:
				p.three[a]++
			}
			for _, b := range idx[k+1:] {
				p.met[a*n+b]++
				p.met[b*n+a]++
			}
		}
	}
	return p, nil
}

// byeStanding is the standings cost of a bye for player e: more than any
// standings gap at the tables for each rank above the bottom, so that the
// bye goes to the lowest ranked of those who may take it.
func (p *problem) byeStanding(e int) int64 {
	return (p.worst - p.rank[e]) * (6*int64(p.tables)*sq(p.worst) + 1)
}

// table returns the table of slot s, or p.tables for a bye.
func (p *problem) table(s int) int {
	return min(s/4, p.tables)
}

// kind is what a seat gives its player.
type kind uint8

const (
	seatFour kind = iota
	seatThree
	seatBye
)

// kindOf returns the kind of table t's seats when it has the given holes.
func (p *problem) kindOf(t, holes int) kind {
	switch {
	case t == p.tables:
		return seatBye
	case holes > 0:
		return seatThree
	}
	return seatFour
}

// fairHist counts a round's players by seat kind and by their counts
// before the round: of 3-player tables for the seated, of byes for all.
type fairHist struct {
	three, four []int32 // by earlier 3-player tables
	bye, table  []int32 // by earlier byes
}

func newFairHist(size int) fairHist {
	return fairHist{make([]int32, size), make([]int32, size), make([]int32, size), make([]int32, size)}
}

// newFairHist sizes a fairHist for one round after History.
func (p *problem) newFairHist() fairHist {
	return newFairHist(int(max(slices.Max(p.three), slices.Max(p.bye))) + 1)
}

// add counts a player with c3 earlier 3-player tables and cb earlier byes
// in a seat of kind k (sign 1), or takes them out (sign -1).
func (h *fairHist) add(c3, cb int32, k kind, sign int32) {
	switch k {
	case seatThree:
		h.three[c3] += sign
		h.table[cb] += sign
	case seatFour:
		h.four[c3] += sign
		h.table[cb] += sign
	case seatBye:
		h.bye[cb] += sign
	}
}

func (h *fairHist) move(p *problem, m move, sign int32) {
	h.add(p.three[m.e], p.bye[m.e], m.from, -sign)
	h.add(p.three[m.e], p.bye[m.e], m.to, sign)
}

// unfair counts the players at a 3-player table while someone with at least
// gap fewer 3-player tables sits at a 4-player table, and the players on a
// bye while someone with fewer byes has a table.
func (h *fairHist) unfair(gap int) int64 {
	var u int64
	nonzero := func(x int32) bool { return x > 0 }
	if lo := slices.IndexFunc(h.four, nonzero); lo >= 0 {
		for _, k := range h.three[min(lo+gap, len(h.three)):] {
			u += int64(k)
		}
	}
	if lo := slices.IndexFunc(h.table, nonzero); lo >= 0 {
		for _, k := range h.bye[min(lo+1, len(h.bye)):] {
			u += int64(k)
		}
	}
	return u
}

// unfair returns fairHist.unfair of one round's seating.
func (p *problem) unfair(seat []int32, gap int) int64 {
	h := p.newFairHist()
	for t := range p.tables + 1 {
		holes := 0
		for _, e := range seat[4*t : min(4*t+4, p.slots)] {
			holes += b2i(int(e) >= p.n)
		}
		k := p.kindOf(t, holes)
		for _, e := range seat[4*t : min(4*t+4, p.slots)] {
			if int(e) < p.n {
				h.add(p.three[e], p.bye[e], k, 1)
			}
		}
	}
	return h.unfair(gap)
}

// hardCost counts the hard constraints a seating breaks: keep-apart pairs
// and two holes (a 2-player table) at one table.
func (p *problem) hardCost(seat []int32) int64 {
	var h int64
	for t := range p.tables {
		g := seat[4*t : 4*t+4]
		for i, a := range g {
			for _, b := range g[i+1:] {
				h += p.pairHard(int(a), int(b))
			}
		}
	}
	return h
}

func (p *problem) pairHard(a, b int) int64 {
	switch {
	case a >= p.n && b >= p.n:
		return 1
	case a >= p.n || b >= p.n:
		return 0
	case p.apart[a*p.n+b]:
		return 1
	}
	return 0
}

// parse turns a judge's tables into a seating, table i in table i's slots,
// checking what every round must satisfy.
func (p *problem) parse(tables [][]string, byes []string) ([]int32, error) {
	if len(tables) != p.tables || len(byes) != p.byes {
		return nil, referee.NewViolation("pairing-table-count",
			fmt.Sprintf("%d players need %d tables and %d byes, got %d and %d", p.n, p.tables, p.byes, len(tables), len(byes)),
			map[string]any{"Count": p.n, "Tables": p.tables, "Byes": p.byes, "GotTables": len(tables), "GotByes": len(byes)})
	}
	seat := make([]int32, p.slots)
	seen := make([]bool, p.n)
	place := func(id string, s int) error {
		i, ok := p.index[id]
		switch {
		case !ok:
			return referee.NewViolation("pairing-player-not-active", fmt.Sprintf("%q is not an active player", id), map[string]any{"Player": id})
		case seen[i]:
			return referee.NewViolation("pairing-seated-twice", fmt.Sprintf("player %q is seated twice", id), map[string]any{"Player": id})
		case p.pin[i] >= 0 && int(p.pin[i]) != p.table(s):
			return referee.NewViolation("pairing-off-fixed-table", fmt.Sprintf("player %q is fixed to table %d", id, p.pin[i]+1),
				map[string]any{"Player": id, "Table": int(p.pin[i]) + 1})
		}
		seen[i] = true
		seat[s] = int32(i)
		return nil
	}
	hole, threes := p.n, 0
	for t, table := range tables {
		switch len(table) {
		case 3:
			threes++
			seat[4*t+3] = int32(hole)
			hole++
		case 4:
		default:
			return nil, referee.NewViolation("pairing-table-size", fmt.Sprintf("table %d has %d players, want 3 or 4", t+1, len(table)),
				map[string]any{"Table": t + 1, "Count": len(table)})
		}
		for k, id := range table {
			if err := place(id, 4*t+k); err != nil {
				return nil, err
			}
		}
	}
	if threes != p.holes {
		return nil, referee.NewViolation("pairing-three-tables", fmt.Sprintf("%d players need %d 3-player tables, got %d", p.n, p.holes, threes),
			map[string]any{"Count": p.n, "Need": p.holes, "Got": threes})
	}
	for k, id := range byes {
		if err := place(id, 4*p.tables+k); err != nil {
			return nil, err
		}
	}
	if p.hardCost(seat) > 0 {
		return nil, referee.NewViolation("pairing-keep-apart-together", "the round seats a keep-apart pair together", nil)
	}
	return seat, nil
}

// score turns seatings of consecutive rounds into Rounds, counting each
// round's repeats and cost against History and the rounds before it.
// With relabel, tables nobody is fixed to are numbered by standing (mean
// rank, then first ID), so table 1 is the top table.
func (p *problem) score(seatings [][]int32, seed uint64, relabel bool) []Round {
	n := p.n
	met := slices.Clone(p.met)
	three := slices.Clone(p.three)
	bye := slices.Clone(p.bye)
	rounds := make([]Round, len(seatings))
	for ri, seat := range seatings {
		r := &rounds[ri]
		r.Seed = seed
		groups := make([][]int, p.tables)
		for t := range p.tables {
			for _, e := range seat[4*t : 4*t+4] {
				if int(e) < n {
					groups[t] = append(groups[t], int(e))
				}
			}
			slices.SortFunc(groups[t], p.compare)
			g := groups[t]
			for i, a := range g {
				for _, b := range g[i+1:] {
					m := int64(met[a*n+b])
					if m > 0 {
						r.Repeats++
					}
					r.Cost.Meetings += m * m
					if p.swiss {
						d := p.rank[a] - p.rank[b]
						r.Cost.Standings += d * d
					}
				}
			}
			if len(g) == 3 {
				for _, a := range g {
					r.Cost.Exposure += 2*int64(three[a]) + 1
					three[a]++
				}
			}
		}
		for _, g := range groups {
			for i, a := range g {
				for _, b := range g[i+1:] {
					met[a*n+b]++
					met[b*n+a]++
				}
			}
		}
		for _, e := range seat[4*p.tables:] {
			a := int(e)
			r.Byes = append(r.Byes, p.ids[a])
			r.Cost.Exposure += ByeWeight * (2*int64(bye[a]) + 1)
			bye[a]++
			if p.swiss {
				r.Cost.Standings += p.byeStanding(a)
			}
		}
		slices.Sort(r.Byes)
		hist := newFairHist(len(seatings) + int(max(slices.Max(three), slices.Max(bye))) + 1)
		for t, g := range groups {
			k := p.kindOf(t, 4-len(g))
			for _, a := range g {
				hist.add(three[a]-int32(b2i(k == seatThree)), bye[a], k, 1)
			}
		}
		for _, e := range seat[4*p.tables:] {
			hist.add(three[e], bye[e]-1, seatBye, 1)
		}
		r.Cost.Unfair = hist.unfair(1)
		order := make([]int, p.tables)
		for t := range order {
			order[t] = t
		}
		if relabel {
			order = p.numberTables(groups, seat)
		}
		r.Tables = make([][]string, p.tables)
		for label, t := range order {
			for _, a := range groups[t] {
				r.Tables[label] = append(r.Tables[label], p.ids[a])
			}
		}
	}
	return rounds
}

// numberTables returns, for each table number, the group seated there:
// fixed-table players keep their table, the other groups fill the free
// numbers by standing (best player, then mean rank, then the larger table),
// so table 1 is the top table unless someone is fixed to it.
func (p *problem) numberTables(groups [][]int, seat []int32) []int {
	order := make([]int, p.tables)
	taken := make([]bool, p.tables)
	var free []int
	for t := range p.tables {
		pinned := false
		for _, e := range seat[4*t : 4*t+4] {
			if p.pin[e] >= 0 {
				pinned = true
			}
		}
		if pinned {
			order[t], taken[t] = t, true
		} else {
			free = append(free, t)
		}
	}
	slices.SortFunc(free, func(a, b int) int {
		// Groups are sorted by standing: the best player first.
		ga, gb := groups[a], groups[b]
		var sa, sb int64
		for _, x := range ga {
			sa += p.rank[x]
		}
		for _, x := range gb {
			sb += p.rank[x]
		}
		return cmp.Or(
			cmp.Compare(p.rank[ga[0]], p.rank[gb[0]]),
			cmp.Compare(sa*int64(len(gb)), sb*int64(len(ga))), // mean ranks, without division
			// Without standings (a random round) the 4-player tables come
			// first, as Sizes lists them.
			cmp.Compare(len(gb), len(ga)),
			cmp.Compare(ga[0], gb[0]),
		)
	})
	k := 0
	for label := range p.tables {
		if !taken[label] {
			order[label] = free[k]
			k++
		}
	}
	return order
}

// compare orders players by standing, then ID (their index).
func (p *problem) compare(a, b int) int {
	return cmp.Or(cmp.Compare(p.rank[a], p.rank[b]), cmp.Compare(a, b))
}
