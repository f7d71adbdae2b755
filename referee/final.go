package referee

import (
	"cmp"
	"fmt"
	"slices"
)

// SeatFinal deals the players of a stage of a top-cut final, best first (as
// Cut returns them), to tables of 4, some of 3 when the numbers require
// (docs/rules.md (national rules), Event format), the 4-player tables first. Ruling (the
// national rules are silent): the players go round the tables in a snake,
// 1, 2, 3, 4 then 4, 3, 2, 1, so that every table is as strong as the
// others; within a table they stay best first.
func SeatFinal(players []string) ([][]string, error) {
	n := len(players)
	if n < 3 {
		return nil, violation("final-table-too-few", fmt.Sprintf("a final table needs at least 3 players, got %d", n),
			map[string]any{"Count": n, "Min": 3})
	}
	t := tablesFor(n)
	if n < 3*t {
		return nil, violation("final-tables-do-not-fit", fmt.Sprintf("%d players do not fit tables of 3 or 4", n), map[string]any{"Count": n})
	}
	size := make([]int, t)
	for i := range size {
		size[i] = 3
	}
	for i := range n - 3*t {
		size[i] = 4
	}
	out := make([][]string, t)
	for i, k := 0, 0; i < n; k++ {
		// Position k of the snake: forwards on even passes, backwards on odd.
		j := k % t
		if (k/t)%2 == 1 {
			j = t - 1 - j
		}
		if len(out[j]) < size[j] {
			out[j] = append(out[j], players[i])
			i++
		}
	}
	return out, nil
}

// Advance picks the n players who go on from one table of a stage of a
// top-cut final to the next (EventFormat.Cut): the best placed in the
// table's game. Players who share a place at the line are separated by
// their qualifying standings when ties is FinalTiesStandings, and by a draw
// from seed where still equal, as Cut draws at a cut (docs/rules.md: a seeded
// draw decides only where a cut must separate players). draw is the drawn
// order of the tied group, nil when none was needed.
func Advance(g Game, n int, qualifying []Standing, ties FinalTies, seed uint64) (advancing, draw []string, err error) {
	rank, err := qualifyingRanks(qualifying, g.Placings)
	if err != nil {
		return nil, nil, err
	}
	key := func(p Placing) [2]int {
		if ties == FinalTiesStandings {
			return [2]int{p.Place, rank[p.Player]}
		}
		return [2]int{p.Place, 0}
	}
	ps := slices.Clone(g.Placings)
	slices.SortFunc(ps, func(a, b Placing) int {
		return cmp.Or(cmp.Compare(key(a)[0], key(b)[0]), cmp.Compare(key(a)[1], key(b)[1]), cmp.Compare(a.Player, b.Player))
	})
	st := make([]Standing, len(ps))
	for i, p := range ps {
		st[i] = Standing{Rank: i + 1, Player: p.Player}
		if i > 0 && key(p) == key(ps[i-1]) {
			st[i].Rank = st[i-1].Rank
		}
	}
	return Cut(st, n, seed)
}

// FinalStanding is one player's line in an event's final results.
type FinalStanding struct {
	Rank   int // competition ranking over the whole event
	Player string
	// Stage is how far the player went in the final: the number of its
	// stages they played (the last is the final table), or 0 for a player
	// ranked by the qualifying standings alone.
	Stage int
	Place int // the player's place at their table in that stage; 0 for Stage 0
}

// FinalResults ranks an event once its final is played (docs/rules.md (national rules),
// Event format: the top players play a final table). stages holds the
// games of each stage played, the last the final table (one game); for the
// leaders'-table format it is that one table. qualifying are the
// standings before the final, of every player to rank.
//
// The final table's players come first, by their places in its game; those
// who share a place share a rank, or are ranked by their qualifying
// standings when ties is FinalTiesStandings. Then the players out at each
// earlier stage, the later stage first; ruling (the rules are silent):
// among them, by their place at their table, then by their qualifying
// standings. Everyone else follows by the qualifying standings, sharing
// their ranks as there.
func FinalResults(ties FinalTies, qualifying []Standing, stages [][]Game) ([]FinalStanding, error) {
	if len(stages) == 0 || len(stages[len(stages)-1]) != 1 {
		return nil, violation("final-table-missing", "the final results need the final table's game", nil)
	}
	order := make(map[string]int, len(qualifying))
	rank := make(map[string]int, len(qualifying))
	for i, s := range qualifying {
		if _, ok := order[s.Player]; ok {
			return nil, duplicatePlayer(s.Player)
		}
		order[s.Player], rank[s.Player] = i, s.Rank
	}
	// The stage each player went to, and their place there.
	type line struct {
		FinalStanding
		key [3]int // group (the final first), place, qualifying rank
	}
	went := map[string]FinalStanding{}
	for k := len(stages) - 1; k >= 0; k-- {
		seen := map[string]bool{}
		for _, g := range stages[k] {
			if _, err := qualifyingRanks(qualifying, g.Placings); err != nil {
				return nil, err
			}
			for _, p := range g.Placings {
				if seen[p.Player] {
					return nil, duplicatePlayer(p.Player)
				}
				seen[p.Player] = true
				if p.Place < 1 || p.Place > len(g.Placings) {
					return nil, violation("place-out-of-range", fmt.Sprintf("player %q has place %d, want 1 to %d", p.Player, p.Place, len(g.Placings)),
						map[string]any{"Player": p.Player, "Place": p.Place, "Max": len(g.Placings)})
				}
				if _, ok := went[p.Player]; !ok {
					went[p.Player] = FinalStanding{Player: p.Player, Stage: k + 1, Place: p.Place}
				}
			}
		}
	}
	lines := make([]line, len(qualifying))
	for i, s := range qualifying {
		f, ok := went[s.Player]
		if !ok {
			f = FinalStanding{Player: s.Player}
		}
		l := line{FinalStanding: f}
		switch {
		case f.Stage == len(stages) && ties == FinalTiesShared:
			l.key = [3]int{0, f.Place, 0}
		case f.Stage > 0:
			l.key = [3]int{len(stages) - f.Stage, f.Place, s.Rank}
		default:
			l.key = [3]int{len(stages) + 1, 0, s.Rank}
		}
		lines[i] = l
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		for i := range a.key {
			if c := cmp.Compare(a.key[i], b.key[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(order[a.Player], order[b.Player])
	})
	out := make([]FinalStanding, len(lines))
	for i, l := range lines {
		l.Rank = i + 1
		if i > 0 && l.key == lines[i-1].key {
			l.Rank = out[i-1].Rank
		}
		out[i] = l.FinalStanding
	}
	return out, nil
}

// qualifyingRanks returns the qualifying rank of each player of a table,
// refusing a player the standings do not rank.
func qualifyingRanks(qualifying []Standing, ps []Placing) (map[string]int, error) {
	rank := make(map[string]int, len(ps))
	for _, p := range ps {
		i := slices.IndexFunc(qualifying, func(s Standing) bool { return s.Player == p.Player })
		if i < 0 {
			return nil, violation("final-player-unranked", fmt.Sprintf("player %q plays a final table but has no qualifying standing", p.Player),
				map[string]any{"Player": p.Player})
		}
		rank[p.Player] = qualifying[i].Rank
	}
	return rank, nil
}

// Winners returns who won an event, several when they share the first
// place: with a final played, the players its results rank 1st
// (FinalResults: the final table's places, players of equal VP sharing
// one unless the ruleset's event.final_ties orders them by their
// qualifying standings; docs/rules.md, The national rules preset: the
// top 4 play a final table, whose winner is the champion); without one,
// the players the standings rank 1st who played a game (docs/rules.md,
// Standings: players equal on every key share a rank). Nobody
// has won an event nobody played.
func Winners(final []FinalStanding, standings []Standing) []string {
	var out []string
	if len(final) > 0 {
		for _, f := range final {
			if f.Rank == 1 {
				out = append(out, f.Player)
			}
		}
		return out
	}
	for _, s := range standings {
		if s.Rank == 1 && s.Played > 0 {
			out = append(out, s.Player)
		}
	}
	return out
}
