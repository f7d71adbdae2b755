package referee

import (
	"fmt"
	"slices"
)

// Score is a player's VP at the end of a game, as counted: before the cap.
type Score struct {
	Player string
	VP     int
}

// Placing is a player's result in one game.
type Placing struct {
	Player string
	VP     int // recorded VP: capped (§11) and after any penalty
	Place  int // 1-based; equal places are shared and the next is skipped (§12)
}

// Place places one table from each player's VP and the declared winner, or
// "" when time ended the game (§12). VP are recorded capped at rs.VPCap. The
// declared winner is 1st; everyone else is placed by recorded VP, highest
// first, in standard competition ranking (10, 8, 8, 5 → 1, 2, 2, 4).
//
// The placings come in order of place, then in the order of scores. Bad
// input wraps ErrInvalid.
func Place(rs Ruleset, scores []Score, declared string) ([]Placing, error) {
	return PlaceWithPenalties(rs, scores, declared, nil)
}

// MaxVP is the most VP one player can hold with the pieces of §1: 4 cities
// (8) and 5 settlements (5) need 9 building sites, plus the two 2-point cards
// (§10) and the 5 one-point cards (§9 オ): 22. A score sheet above it is a
// typo (80 for 8), which the cap of §11 would otherwise record as 10.
const MaxVP = 22

// MaxBuildingVP is the most VP one player's buildings give (§1: 4 cities
// and 5 settlements), and MaxCardVP the most the cards add to a whole
// table: the two 2-point cards (§10) and the five 1-point cards (§9 オ).
const (
	MaxBuildingVP = 2*maxCities + maxSettlements
	MaxCardVP     = 2 + 2 + maxPointCards
)

// The pieces of each colour (§1, §8) and the one-point cards of the game
// (§1, §9 オ) that bound what a table can score.
const (
	maxSettlements = 5
	maxCities      = 4
	maxPointCards  = 5
)

// checkScores reports a table that cannot have happened: a table of other
// than 3 or 4 players, an empty or repeated player, negative VP, or a
// declared winner who is not at the table or has too few VP to declare.
func checkScores(rs Ruleset, scores []Score, declared string) error {
	if n := len(scores); n < 3 || n > 4 {
		return tableSize(n)
	}
	for i, s := range scores {
		if s.Player == "" {
			return emptyPlayer()
		}
		if slices.ContainsFunc(scores[:i], func(o Score) bool { return o.Player == s.Player }) {
			return duplicatePlayer(s.Player)
		}
		if s.VP < 0 {
			return violation("negative-vp", fmt.Sprintf("player %q has negative VP %d", s.Player, s.VP),
				map[string]any{"Player": s.Player, "VP": s.VP})
		}
		if s.VP > MaxVP {
			return violation("vp-impossible", fmt.Sprintf("player %q has %d VP, more than the %d a player can hold", s.Player, s.VP, MaxVP),
				map[string]any{"Player": s.Player, "VP": s.VP, "Max": MaxVP})
		}
	}
	if err := checkTableVP(scores); err != nil {
		return err
	}
	if declared == "" {
		return nil
	}
	i := slices.IndexFunc(scores, func(s Score) bool { return s.Player == declared })
	if i < 0 {
		return violation("winner-not-at-table", fmt.Sprintf("declared winner %q is not at the table", declared),
			map[string]any{"Player": declared})
	}
	// §11: only a player with 10 or more VP (rs.WinVP) may declare victory.
	if vp := scores[i].VP; vp < rs.WinVP {
		return violation("winner-under-win-vp",
			fmt.Sprintf("declared winner %q has %d VP, fewer than the %d needed to declare", declared, vp, rs.WinVP),
			map[string]any{"Player": declared, "VP": vp, "Need": rs.WinVP})
	}
	return nil
}

// checkTableVP applies docs/rules.md §12 (what a table's VP can be) to VP
// alone: every VP a player reports above what buildings give
// (MaxBuildingVP) comes from the cards, and the cards give at most
// MaxCardVP to the whole table, so those VP above 13 add up to at most 9.
// Four players with 22 each is a typo. CheckSheet applies the same rule
// with what breakdowns say.
func checkTableVP(scores []Score) error {
	over, extra, left := cardVPAbove(scores, 0)
	if extra <= left {
		return nil
	}
	return violation("table-vp-impossible",
		fmt.Sprintf("the VP above %d of players %v add up to %d, more than the %d the 2-point and 1-point cards give a table",
			MaxBuildingVP, over, extra, left),
		map[string]any{"Group": over, "Extra": extra, "Buildings": MaxBuildingVP, "Max": left})
}

// cardVPAbove is the table rule of docs/rules.md §12: the VP each of scores
// reports above what buildings give (MaxBuildingVP) come from the 2-point
// and one-point cards, which give the whole table at most MaxCardVP, of
// which claimed are already accounted for elsewhere (a score sheet's
// breakdowns). It returns the players above MaxBuildingVP, the VP they
// report above it, and the card VP left for them: the table cannot have
// happened when extra > left.
func cardVPAbove(scores []Score, claimed int) (over []string, extra, left int) {
	for _, s := range scores {
		if s.VP > MaxBuildingVP {
			extra += s.VP - MaxBuildingVP
			over = append(over, s.Player)
		}
	}
	return over, extra, max(MaxCardVP-claimed, 0)
}

// tableSize reports a table of n players, which is not 3 or 4.
func tableSize(n int) *Violation {
	return violation("table-size", fmt.Sprintf("table has %d players, want 3 or 4", n), map[string]any{"Count": n})
}

// emptyPlayer reports a player without an id.
func emptyPlayer() *Violation {
	return violation("player-id-empty", "empty player id", nil)
}

// duplicatePlayer reports a player listed twice.
func duplicatePlayer(p string) *Violation {
	return violation("duplicate-player", fmt.Sprintf("player %q is listed twice", p), map[string]any{"Player": p})
}

// rankTable places a table whose placings carry their recorded VP. lost[i]
// marks a player whose game counts as lost; declared is the winner still
// standing, or "".
func rankTable(table []Placing, declared string, lost []bool) []Placing {
	out := slices.Clone(table)
	for i, p := range table {
		switch {
		case lost[i]:
			// docs/rules.md, Penalties: a game loss places the player last at
			// the table. Several such players share the last place, which
			// stays the table's last (4th at a 4-player table), so that a
			// table where everyone lost credits nobody with a 1st.
			out[i].Place = len(table)
		case p.Player == declared:
			// §11, §12: the declared winner is 1st, whatever the others' VP.
			out[i].Place = 1
		default:
			// §12: the others are placed by VP; equal VP share a place and
			// the next place is skipped, so a place is 1 + those ahead.
			ahead := 0
			if declared != "" {
				ahead++
			}
			for j, q := range table {
				if !lost[j] && q.Player != declared && q.VP > p.VP {
					ahead++
				}
			}
			out[i].Place = ahead + 1
		}
	}
	slices.SortStableFunc(out, func(a, b Placing) int { return a.Place - b.Place })
	return out
}
