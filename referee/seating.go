package referee

import (
	"fmt"
	"slices"
	"strings"
)

// Roll is one player's roll of the capsule dice for the play order (§3 オ).
// Both dice are recorded; their sum counts.
type Roll struct {
	Player string
	CapsuleRoll
}

// Seat is a player's place in the play order and the colour that goes with it.
type Seat struct {
	Player string
	Order  int // 1-based play order: 1 plays first
	Color  Color
}

// TieError reports capsule rolls that leave players tied for places in the
// play order (§3 オ). Each group must re-roll among itself in the next round.
type TieError struct {
	// Groups lists the tied groups in play order of the places they contest;
	// within a group, players keep their order in the first round.
	Groups [][]string
}

func (e *TieError) Error() string {
	parts := make([]string, len(e.Groups))
	for i, g := range e.Groups {
		parts[i] = joinPlayers(g) + " must re-roll"
	}
	return "tied rolls: " + strings.Join(parts, "; ")
}

// Players returns every player who must re-roll, group by group.
func (e *TieError) Players() []string {
	var out []string
	for _, g := range e.Groups {
		out = append(out, g...)
	}
	return out
}

// SeatTable decides the play order and colours of one table from its capsule
// rolls. rounds[0] holds one roll for every player at the table; each later
// round holds the re-rolls of one or more groups that were still tied, each
// group complete. A tie left unresolved is a *TieError naming the players who
// must re-roll; any other bad input wraps ErrInvalid.
func SeatTable(rs Ruleset, rounds [][]Roll) ([]Seat, error) {
	segs, err := playOrder(rounds)
	if err != nil {
		return nil, err
	}
	if ties := tiedGroups(segs); ties != nil {
		return nil, &TieError{Groups: ties}
	}
	// §3 カ: colours go by play order (1st red, 2nd blue, 3rd yellow, 4th
	// green); a 3-player table uses the first three.
	if len(rs.Colors) < len(segs) {
		return nil, violation("too-few-colors",
			fmt.Sprintf("the ruleset lists %d colours for a table of %d", len(rs.Colors), len(segs)),
			map[string]any{"Colors": len(rs.Colors), "Count": len(segs)})
	}
	seats := make([]Seat, len(segs))
	for i, s := range segs {
		seats[i] = Seat{Player: s[0], Order: i + 1, Color: rs.Colors[i]}
	}
	return seats, nil
}

// Rerolls returns the groups that must re-roll next, in play order of the
// places they contest, or nil when the rounds so far settle the play order.
// It lets the judge console run the tie re-roll flow one round at a time.
func Rerolls(rounds [][]Roll) ([][]string, error) {
	segs, err := playOrder(rounds)
	if err != nil {
		return nil, err
	}
	return tiedGroups(segs), nil
}

// RollSeating rolls the capsule dice for a table from a source seeded with
// seed: every player once, in the order given, then one round after another
// in which every tied group re-rolls, until the play order is settled. It
// returns the roll history (to record, and to replay with SeatTable) and the
// seats.
func RollSeating(rs Ruleset, players []string, seed uint64) ([][]Roll, []Seat, error) {
	if err := checkTablePlayers(players); err != nil {
		return nil, nil, err
	}
	r := NewRand(seed)
	first := make([]Roll, len(players))
	for i, p := range players {
		first[i] = Roll{Player: p, CapsuleRoll: RollCapsule(r)}
	}
	rounds := [][]Roll{first}
	for {
		ties, err := Rerolls(rounds)
		if err != nil {
			return nil, nil, err
		}
		if ties == nil {
			break
		}
		var round []Roll
		for _, g := range ties {
			for _, p := range g {
				round = append(round, Roll{Player: p, CapsuleRoll: RollCapsule(r)})
			}
		}
		rounds = append(rounds, round)
	}
	seats, err := SeatTable(rs, rounds)
	if err != nil {
		return nil, nil, err
	}
	return rounds, seats, nil
}

// playOrder replays the rounds and returns the play order as segments: a
// segment of one player is a settled place, a longer one a group still tied.
func playOrder(rounds [][]Roll) ([][]string, error) {
	if len(rounds) == 0 {
		return nil, violation("no-rolls", "no capsule rolls recorded", nil)
	}
	players := make([]string, len(rounds[0]))
	for i, r := range rounds[0] {
		players[i] = r.Player
	}
	if err := checkTablePlayers(players); err != nil {
		return nil, err
	}
	sums, err := roundSums(1, rounds[0])
	if err != nil {
		return nil, err
	}
	// §3 オ: the highest roll plays first and the others follow in
	// descending order of their rolls.
	segs := splitBySum(players, sums)
	for k, round := range rounds[1:] {
		n := k + 2
		if len(round) == 0 {
			return nil, violation("reroll-empty", fmt.Sprintf("re-roll round %d has no rolls", n),
				map[string]any{"Round": n, "Reroll": n - 1})
		}
		sums, err := roundSums(n, round)
		if err != nil {
			return nil, err
		}
		tied := map[string]int{}
		for i, s := range segs {
			if len(s) > 1 {
				for _, p := range s {
					tied[p] = i
				}
			}
		}
		rerolled := make([]bool, len(segs))
		for _, r := range round {
			i, ok := tied[r.Player]
			if !ok {
				if !slices.Contains(players, r.Player) {
					return nil, violation("reroll-not-at-table",
						fmt.Sprintf("re-roll round %d: %q is not at the table", n, r.Player),
						map[string]any{"Round": n, "Reroll": n - 1, "Player": r.Player})
				}
				// §3 オ: only the players who tie re-roll.
				return nil, violation("reroll-not-tied",
					fmt.Sprintf("re-roll round %d: %q was not tied and must not re-roll", n, r.Player),
					map[string]any{"Round": n, "Reroll": n - 1, "Player": r.Player})
			}
			rerolled[i] = true
		}
		// §3 オ: players who tie re-roll among themselves, so a re-roll
		// orders only its own group, and only when the whole group rolls.
		var next [][]string
		for i, s := range segs {
			if !rerolled[i] {
				next = append(next, s)
				continue
			}
			for _, p := range s {
				if _, ok := sums[p]; !ok {
					return nil, violation("reroll-incomplete",
						fmt.Sprintf("re-roll round %d: %q is missing from the re-roll of %s", n, p, joinPlayers(s)),
						map[string]any{"Round": n, "Reroll": n - 1, "Player": p, "Group": slices.Clone(s)})
				}
			}
			next = append(next, splitBySum(s, sums)...)
		}
		segs = next
	}
	return segs, nil
}

// checkTablePlayers reports a table of other than 3 or 4 players, an empty
// player id or a player listed twice.
func checkTablePlayers(players []string) error {
	if n := len(players); n < 3 || n > 4 {
		return tableSize(n)
	}
	for i, p := range players {
		if p == "" {
			return emptyPlayer()
		}
		if slices.Contains(players[:i], p) {
			return duplicatePlayer(p)
		}
	}
	return nil
}

// roundSums checks round n of rolls (1 the first, 2 the first re-roll) and
// returns each player's sum. The violations it reports name the round both
// ways: Round n and Reroll n-1.
func roundSums(n int, round []Roll) (map[string]int, error) {
	sums := make(map[string]int, len(round))
	for _, r := range round {
		if r.Player == "" {
			return nil, violation("roll-player-id-empty", fmt.Sprintf("round %d: empty player id", n),
				map[string]any{"Round": n, "Reroll": n - 1})
		}
		if _, ok := sums[r.Player]; ok {
			return nil, violation("rolls-twice", fmt.Sprintf("round %d: %q rolls twice", n, r.Player),
				map[string]any{"Round": n, "Reroll": n - 1, "Player": r.Player})
		}
		if die, v, ok := r.badDie(); ok {
			return nil, violation("roll-die-out-of-range",
				fmt.Sprintf("round %d, player %q: %s die %d is not between 1 and 6", n, r.Player, die, v),
				map[string]any{"Round": n, "Reroll": n - 1, "Player": r.Player, "Die": die, "Value": v})
		}
		sums[r.Player] = r.Sum()
	}
	return sums, nil
}

// splitBySum orders players by descending sum and groups equal sums;
// players with equal sums keep their order in players, so tied groups keep
// the order of the first round.
func splitBySum(players []string, sums map[string]int) [][]string {
	sorted := slices.Clone(players)
	slices.SortStableFunc(sorted, func(a, b string) int { return sums[b] - sums[a] })
	var segs [][]string
	for i, p := range sorted {
		if i > 0 && sums[p] == sums[sorted[i-1]] {
			segs[len(segs)-1] = append(segs[len(segs)-1], p)
			continue
		}
		segs = append(segs, []string{p})
	}
	return segs
}

func tiedGroups(segs [][]string) [][]string {
	var ties [][]string
	for _, s := range segs {
		if len(s) > 1 {
			ties = append(ties, s)
		}
	}
	return ties
}

// joinPlayers lists players for a message: "a", "a and b", "a, b and c".
func joinPlayers(ps []string) string {
	if len(ps) < 2 {
		return strings.Join(ps, "")
	}
	return strings.Join(ps[:len(ps)-1], ", ") + " and " + ps[len(ps)-1]
}
