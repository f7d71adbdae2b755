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

// Suggestion is the level the escalation rules suggest for a new penalty,
// with how they reached it, so that the judge sees why (§14: the judge's
// decision is final, and may be another level).
type Suggestion struct {
	Level Level // the suggested level
	Start Level // where the rules start: the offence's default level or the judge's choice
	// Nth counts this offence for the player in the tournament: 1 for a
	// first offence, 2 for the first repeat, ...
	Nth int
	// Highest is the highest level the player's earlier penalties for this
	// offence reached; "" for a first offence.
	Highest Level
	// Escalated says Level is one step above Highest (docs/rules.md, Penalties).
	Escalated bool
	// Why names how the rules reached Level: SuggestFirst, SuggestEscalated,
	// SuggestFixed, SuggestBelow or SuggestRepeat.
	Why string
}

// How the escalation rules reach a suggestion (Suggestion.Why).
const (
	SuggestFirst     = "first"     // a first offence: its default level
	SuggestEscalated = "escalated" // a repeat: one level above the highest so far
	SuggestFixed     = "fixed"     // a repeat of an offence that does not escalate
	SuggestBelow     = "below"     // a repeat whose highest level is below the ruleset's EscalateFrom
	SuggestRepeat    = "repeat"    // a repeat whose start level is higher than the escalation
)

// Suggest returns the suggestion of the escalation rules for a new penalty
// for the offence with the given code, starting from its default level
// (escalate), with how it was reached.
func Suggest(rs Ruleset, offence string, earlier []Level) (Suggestion, error) {
	o, ok := rs.Offence(offence)
	if !ok {
		return Suggestion{}, violation("unknown-offence", fmt.Sprintf("unknown offence %q", offence), map[string]any{"Offence": offence})
	}
	return escalate(rs, o, o.Level, earlier)
}

// escalate returns the suggestion for a new penalty for offence o that
// starts at level start, given the levels of the player's earlier
// penalties for the same offence in this tournament (not revoked, oldest
// first).
//
// docs/rules.md, Penalties: a repeat of an offence that escalates is suggested
// one level above the highest level that offence has reached for that
// player (the top of the ladder stays the top), or start if start is higher
// still. So a second caution becomes a warning, and a warning after a VP
// deduction becomes a game loss: a lighter penalty given in between lowers
// nothing. A ruleset may let repeats climb only from rs.EscalateFrom up
// (the preset escalates from the first level); an offence with Escalates
// false (an in-game procedural error with a fixed remedy) always gets start.
func escalate(rs Ruleset, o Offence, start Level, earlier []Level) (Suggestion, error) {
	at := func(l Level) (int, error) {
		i := slices.Index(rs.Ladder, l)
		if i < 0 {
			return 0, levelOffLadder(rs, l)
		}
		return i, nil
	}
	s, err := at(start)
	if err != nil {
		return Suggestion{}, err
	}
	sg := Suggestion{Level: start, Start: start, Nth: len(earlier) + 1, Why: SuggestFirst}
	highest := -1
	for _, l := range earlier {
		i, err := at(l)
		if err != nil {
			return Suggestion{}, err
		}
		highest = max(highest, i)
	}
	if highest < 0 {
		return sg, nil
	}
	sg.Highest = rs.Ladder[highest]
	if !o.Escalates {
		sg.Why = SuggestFixed
		return sg, nil
	}
	from, err := at(rs.EscalateFrom)
	if err != nil {
		return Suggestion{}, fmt.Errorf("escalate_from: %w", err)
	}
	if highest < from {
		sg.Why = SuggestBelow
		return sg, nil
	}
	sg.Why = SuggestRepeat
	next := min(highest+1, len(rs.Ladder)-1)
	if next > s {
		sg.Level, sg.Escalated, sg.Why = rs.Ladder[next], true, SuggestEscalated
	}
	return sg, nil
}

// CheckLevel refuses a penalty level that is not on the ruleset's ladder
// (§14: the judge chooses among the ruleset's levels).
func CheckLevel(rs Ruleset, l Level) error {
	if !slices.Contains(rs.Ladder, l) {
		return levelOffLadder(rs, l)
	}
	return nil
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
// penalties given in that game (docs/rules.md, Penalties):
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
		vp := rs.CapVP(s.VP)
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
