package referee

import (
	"fmt"
	"slices"
)

// NameJA returns the level's name in the Japanese of the rulebook's world,
// or the identifier for a level this package does not know.
func (l Level) NameJA() string {
	switch l {
	case Caution:
		return "注意"
	case Warning:
		return "警告"
	case VPDeduction:
		return "勝利点減点"
	case GameLoss:
		return "敗北"
	case Disqualification:
		return "失格"
	}
	return string(l)
}

// NameEN returns the level's English display name, or the identifier for a
// level this package does not know.
func (l Level) NameEN() string {
	switch l {
	case Caution:
		return "Caution"
	case Warning:
		return "Warning"
	case VPDeduction:
		return "VP deduction"
	case GameLoss:
		return "Game loss"
	case Disqualification:
		return "Disqualification"
	}
	return string(l)
}

// SuggestLevel returns the level the judge console proposes for a new
// penalty for the offence with the given code, from the levels of the
// player's earlier penalties for the same offence in this tournament
// (not revoked, oldest first). It is Escalate from the offence's default
// level; the judge's decision is final (§14), so the judge may record
// another level.
func SuggestLevel(rs Ruleset, offence string, earlier []Level) (Level, error) {
	o, ok := rs.Offence(offence)
	if !ok {
		return "", violation("unknown-offence", fmt.Sprintf("unknown offence %q", offence), map[string]any{"Offence": offence})
	}
	return Escalate(rs, o, o.Level, earlier)
}

// Escalate returns the level of a new penalty for offence o that starts at
// level start (the offence's default or one the judge chose), given the
// levels of the player's earlier penalties for the same offence in this
// tournament (not revoked, oldest first).
//
// RULINGS.md, Penalties: "the second warning for the same offence in one
// tournament becomes the next level", generalised by the ruleset: when the
// previous penalty for the offence was at rs.EscalateFrom or above on
// rs.Ladder, the new one is one step above that previous level (the top of
// the ladder stays the top), or start if start is higher still. A previous
// penalty below rs.EscalateFrom does not escalate, so with the preset
// repeated cautions stay cautions. An offence with Escalates false (an
// in-game procedural error with a fixed remedy) always gets start.
func Escalate(rs Ruleset, o Offence, start Level, earlier []Level) (Level, error) {
	at := func(l Level) (int, error) {
		i := slices.Index(rs.Ladder, l)
		if i < 0 {
			return 0, levelOffLadder(rs, l)
		}
		return i, nil
	}
	s, err := at(start)
	if err != nil {
		return "", err
	}
	for _, l := range earlier {
		if _, err := at(l); err != nil {
			return "", err
		}
	}
	if !o.Escalates || len(earlier) == 0 {
		return start, nil
	}
	from, err := at(rs.EscalateFrom)
	if err != nil {
		return "", fmt.Errorf("escalate_from: %w", err)
	}
	prev, _ := at(earlier[len(earlier)-1])
	if prev < from {
		return start, nil
	}
	next := min(prev+1, len(rs.Ladder)-1)
	return rs.Ladder[max(next, s)], nil
}

// levelOffLadder reports a penalty level that is not on the ruleset's ladder.
func levelOffLadder(rs Ruleset, l Level) *Violation {
	ladder := make([]string, len(rs.Ladder))
	for i, x := range rs.Ladder {
		ladder[i] = string(x)
	}
	return violation("level-off-ladder", fmt.Sprintf("penalty level %q is not on the ruleset's ladder %v", l, rs.Ladder),
		map[string]any{"Level": string(l), "Ladder": ladder})
}

// Sanction is a penalty given to a player during one game, as far as it
// changes that game's placings.
type Sanction struct {
	Player string
	Level  Level
}

// PlaceWithPenalties places one table as Place does, then applies the
// penalties given in that game (RULINGS.md, Penalties):
//   - caution and warning change nothing;
//   - each VP deduction takes rs.DeductVP off the player's recorded VP
//     (after the cap, never below 0) before placing;
//   - a game loss records 0 VP and places the player last at the table,
//     several such players sharing the last place; a declared winner with a
//     game loss is not 1st, and the table is placed as if nobody declared;
//   - a disqualification counts the game as lost in the same way (dropping
//     the player from the tournament is the caller's business).
//
// A declared winner keeps 1st place after a VP deduction: the declaration
// was valid when made (§11), and only a game loss undoes it.
func PlaceWithPenalties(rs Ruleset, scores []Score, declared string, sanctions []Sanction) ([]Placing, error) {
	if err := checkScores(rs, scores, declared); err != nil {
		return nil, err
	}
	deductions := make([]int, len(scores))
	lost := make([]bool, len(scores))
	for _, s := range sanctions {
		i := slices.IndexFunc(scores, func(sc Score) bool { return sc.Player == s.Player })
		if i < 0 {
			return nil, violation("penalty-not-at-table", fmt.Sprintf("penalty for %q, who is not at the table", s.Player),
				map[string]any{"Player": s.Player})
		}
		switch s.Level {
		case Caution, Warning:
		case VPDeduction:
			deductions[i]++
		case GameLoss, Disqualification:
			lost[i] = true
		default:
			return nil, violation("unknown-level", fmt.Sprintf("unknown penalty level %q for %q", s.Level, s.Player),
				map[string]any{"Level": string(s.Level), "Player": s.Player})
		}
	}
	table := make([]Placing, len(scores))
	for i, s := range scores {
		// §11: VP are recorded with a cap of 10 (rs.VPCap).
		vp := min(s.VP, rs.VPCap)
		vp = max(vp-deductions[i]*rs.DeductVP, 0)
		if lost[i] {
			vp = 0
		}
		table[i] = Placing{Player: s.Player, VP: vp}
		if lost[i] && s.Player == declared {
			declared = ""
		}
	}
	return rankTable(table, declared, lost), nil
}
