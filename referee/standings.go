package referee

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
)

// Game is one finished game as the standings see it: every player's
// placing, with VP as recorded (capped, after penalties). The table size is
// len(Placings).
type Game struct {
	Placings []Placing
	// Removed counts the places a disqualification took out of the game
	// (Disqualified): the table was played by len(Placings)+Removed
	// players, and is counted as a table of those left.
	Removed int
	// Credited says the game was not played at a table: its one placing
	// is a place credited to its player by the rules (a late entry's
	// missed round, a no-show's seat, a substitute's fixed value:
	// late.go). It counts as a game played with its place and VP, and
	// gives no VP share.
	Credited bool
	// Substitutes are the players of Placings who sat in as substitutes
	// (late.go): their VP count in the table's totals and the others'
	// places are as played, but the game is credited to none of them.
	Substitutes []string
}

// Standing is one player's line in the tournament standings.
type Standing struct {
	Rank   int // competition ranking: players equal on every key share a rank
	Player string
	Firsts int     // 1st places, shared 1sts included
	VP     int     // total recorded VP
	Share  float64 // VP share, for display; ranks compare it exactly
	Points int     // placement points
	Played int     // games played, byes included when rs.Bye.Played
	Byes   int
}

// Standings ranks the players from the games played and the byes given
// (one entry per bye), using rs.StandingsOrder (docs/rules.md, Tournament
// standings). players lists who is ranked, so that players without games
// appear too; games may include players not listed (a dropped player still
// counts in the table totals of the others). The result is ordered by rank,
// then by player id. Bad games wrap ErrInvalid.
func Standings(rs Ruleset, games []Game, byes []string, players []string) ([]Standing, error) {
	for i, k := range rs.StandingsOrder {
		if !slices.Contains(StandingsKeys, k) {
			return nil, violation("unknown-standings-key", fmt.Sprintf("standings key %d: unknown key %q", i+1, k),
				map[string]any{"Index": i + 1, "Key": string(k)})
		}
	}
	type tally struct {
		Standing
		share big.Rat
	}
	tallies := make([]tally, len(players))
	index := make(map[string]int, len(players))
	for i, p := range players {
		if p == "" {
			return nil, emptyPlayer()
		}
		if _, ok := index[p]; ok {
			return nil, duplicatePlayer(p)
		}
		index[p] = i
		tallies[i].Player = p
	}
	var share big.Rat
	for g, game := range games {
		if err := checkGame(rs, game); err != nil {
			return nil, fmt.Errorf("game %d: %w", g+1, err)
		}
		n := len(game.Placings)
		total := 0
		for _, p := range game.Placings {
			total += p.VP
		}
		for _, p := range game.Placings {
			i, ok := index[p.Player]
			if !ok || slices.Contains(game.Substitutes, p.Player) {
				// A substitute's game counts in the table's totals only (late.go).
				continue
			}
			t := &tallies[i]
			t.Played++
			t.VP += p.VP
			if p.Place == 1 {
				// docs/rules.md, Tournament standings: a shared 1st counts as a 1st.
				t.Firsts++
			}
			if p.Place <= len(rs.PlacementPoints) {
				// docs/rules.md: shared places take the points of the place they share.
				t.Points += rs.PlacementPoints[p.Place-1]
			}
			if total > 0 && !game.Credited {
				// docs/rules.md: the share is own VP over the table's total VP; at
				// a 3-player table the total is raised by the table's average
				// VP, as if a 4th player had scored it: total*4/3. Both cases
				// are VP*n / (4*total). A table with no VP gives no share.
				share.SetFrac64(int64(p.VP)*int64(n), 4*int64(total))
				t.share.Add(&t.share, &share)
			}
		}
	}
	var byeShare big.Rat
	byeShare.SetFloat64(rs.Bye.Share)
	for _, p := range byes {
		i, ok := index[p]
		if !ok {
			continue
		}
		// docs/rules.md: a bye is credited as the ruleset says (rs.Bye).
		t := &tallies[i]
		t.Byes++
		t.Firsts += rs.Bye.Firsts
		t.VP += rs.Bye.VP
		t.Points += rs.Bye.Points
		t.share.Add(&t.share, &byeShare)
		if rs.Bye.Played {
			t.Played++
		}
	}
	compare := func(a, b *tally) int {
		for _, k := range rs.StandingsOrder {
			var c int
			switch k {
			case KeyFirsts:
				c = cmp.Compare(a.Firsts, b.Firsts)
			case KeyVP:
				c = cmp.Compare(a.VP, b.VP)
			case KeyShare:
				c = a.share.Cmp(&b.share)
			case KeyPoints:
				c = cmp.Compare(a.Points, b.Points)
			}
			if c != 0 {
				return -c // higher first
			}
		}
		return 0
	}
	order := make([]int, len(tallies))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		if c := compare(&tallies[i], &tallies[j]); c != 0 {
			return c
		}
		return cmp.Compare(tallies[i].Player, tallies[j].Player)
	})
	out := make([]Standing, len(order))
	for k, i := range order {
		t := &tallies[i]
		t.Share, _ = t.share.Float64()
		// docs/rules.md: players equal on every key share a standings rank;
		// the next rank is skipped (1, 2, 2, 4).
		t.Rank = k + 1
		if k > 0 && compare(t, &tallies[order[k-1]]) == 0 {
			t.Rank = out[k-1].Rank
		}
		out[k] = t.Standing
	}
	return out, nil
}

// checkGame reports a game that cannot be in the standings.
func checkGame(rs Ruleset, g Game) error {
	n := len(g.Placings)
	if g.Credited {
		return checkCredited(rs, g)
	}
	if n+g.Removed < 3 || n+g.Removed > 4 || n < 1 {
		return tableSize(n + g.Removed)
	}
	for i, p := range g.Placings {
		switch {
		case p.Player == "":
			return emptyPlayer()
		case slices.ContainsFunc(g.Placings[:i], func(q Placing) bool { return q.Player == p.Player }):
			return duplicatePlayer(p.Player)
		case p.VP < 0 || p.VP > rs.VPCap:
			// §11: recorded VP are capped.
			return violation("vp-out-of-range", fmt.Sprintf("player %q has %d VP, want 0 to %d", p.Player, p.VP, rs.VPCap),
				map[string]any{"Player": p.Player, "VP": p.VP, "Max": rs.VPCap})
		case p.Place < 1 || p.Place > n:
			return violation("place-out-of-range", fmt.Sprintf("player %q has place %d, want 1 to %d", p.Player, p.Place, n),
				map[string]any{"Player": p.Player, "Place": p.Place, "Max": n})
		}
	}
	return nil
}

// Cut picks the n players who advance (to a final table) from standings.
// Players ranked above the cut line advance; when players sharing the rank
// at the cut line do not all fit, a draw from a source seeded with seed
// orders that tied group alone and the first of the draw take the places
// left (docs/rules.md: a seeded draw decides only where a cut must separate
// players). draw is the drawn order of the whole tied group, to record, or
// nil when no draw was needed. advancing is in standings order, the drawn
// players last in drawn order.
func Cut(standings []Standing, n int, seed uint64) (advancing, draw []string, err error) {
	if n < 1 || n > len(standings) {
		return nil, nil, violation("cut-out-of-range", fmt.Sprintf("cannot cut %d players from %d", n, len(standings)),
			map[string]any{"Cut": n, "Count": len(standings)})
	}
	s := slices.Clone(standings)
	slices.SortFunc(s, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Player, b.Player))
	})
	seen := make(map[string]bool, len(s))
	for _, st := range s {
		if seen[st.Player] {
			return nil, nil, duplicatePlayer(st.Player)
		}
		seen[st.Player] = true
	}
	ids := make([]string, len(s))
	for i, st := range s {
		ids[i] = st.Player
	}
	if n == len(s) || s[n].Rank != s[n-1].Rank {
		return ids[:n], nil, nil
	}
	lo := n - 1
	for lo > 0 && s[lo-1].Rank == s[n-1].Rank {
		lo--
	}
	hi := n
	for hi < len(s) && s[hi].Rank == s[n-1].Rank {
		hi++
	}
	// The tied group is in player id order before the draw, so the same
	// standings and seed always draw the same order.
	draw = slices.Clone(ids[lo:hi])
	r := NewRand(seed)
	r.Shuffle(len(draw), func(i, j int) { draw[i], draw[j] = draw[j], draw[i] })
	advancing = append(slices.Clone(ids[:lo]), draw[:n-lo]...)
	return advancing, draw, nil
}
