package referee

import (
	"fmt"
	"slices"
)

// DQEffect is what a disqualification does to the games the disqualified
// player already played (docs/rules.md, Penalties: a disqualification's
// effect). The rulebook says only that the player is disqualified (§14:
// the judge's decision is final); the effect on the games played is the
// ruleset's choice, which the judge may change for one disqualification.
type DQEffect string

const (
	// DQKeep: the games stand as played; the player only stops playing.
	DQKeep DQEffect = "keep"
	// DQRemove: the player's places are removed from the games they played,
	// and the others at those tables are placed again among themselves.
	DQRemove DQEffect = "remove"
	// DQVoid: the games the player played are void, for everyone at those
	// tables.
	DQVoid DQEffect = "void"
)

// DQEffects lists the effects a disqualification can have.
var DQEffects = []DQEffect{DQKeep, DQRemove, DQVoid}

// CheckDQEffect refuses an effect that is not one of DQEffects.
func CheckDQEffect(e DQEffect) error {
	if !slices.Contains(DQEffects, e) {
		return violation("unknown-dq-effect", fmt.Sprintf("unknown disqualification effect %q (want one of %v)", e, DQEffects),
			map[string]any{"Effect": string(e)})
	}
	return nil
}

// Disqualified returns game g as the standings count it after the
// disqualifications of dq (each disqualified player's effect), and false
// when the game no longer counts at all (docs/rules.md, Penalties):
//   - DQKeep leaves the game as played;
//   - DQRemove takes the player's placing out, and the others keep their
//     order with their places counted again among themselves, players
//     sharing a place still sharing it and the next place skipped as
//     before (1st, 2nd, 2nd, 4th without the 1st is 1st, 1st, 3rd); their
//     VP stand, and the table's VP share is that of a table of the players
//     left (Standings);
//   - DQVoid voids the game for everyone at the table: nobody is credited
//     with it, and it does not count as played.
//
// When several disqualified players sat at one table, a DQVoid of any of
// them voids the game, and every DQRemove takes its player out.
func Disqualified(g Game, dq map[string]DQEffect) (Game, bool) {
	var out []Placing
	removed := g.Removed
	for _, p := range g.Placings {
		switch dq[p.Player] {
		case DQVoid:
			return Game{}, false
		case DQRemove:
			removed++
		default:
			out = append(out, p)
		}
	}
	if removed == g.Removed {
		return g, true
	}
	placed := make([]Placing, len(out))
	for i, p := range out {
		// Competition ranking over the old places of those left: one more
		// than the number left who placed strictly better.
		p.Place = 1 + countBetter(out, p.Place)
		placed[i] = p
	}
	return Game{Placings: placed, Removed: removed}, true
}

// countBetter counts the placings with a place better than place.
func countBetter(ps []Placing, place int) int {
	n := 0
	for _, q := range ps {
		if q.Place < place {
			n++
		}
	}
	return n
}

// CheckUndoRound says whether round n can be undone (docs/rules.md,
// Undoing a round: a ruling of the project, the rulebook is silent):
// only the latest of the rounds paired (latest); while nothing was
// recorded at its tables any judge may, and once anything was
// (recorded) only a head judge (head), with a reason, so that the audit
// says why results were taken back.
func CheckUndoRound(n, latest int, recorded, head bool, reason string) error {
	switch {
	case latest == 0 || n != latest:
		return violation("undo-not-latest", fmt.Sprintf("only the latest round (%d) can be undone, not round %d", latest, n),
			map[string]any{"Round": n, "Latest": latest})
	case recorded && !head:
		return violation("undo-needs-head-judge", fmt.Sprintf("round %d has results or records at its tables: only a head judge may undo it", n),
			map[string]any{"Round": n})
	case recorded && reason == "":
		return violation("undo-reason-missing", fmt.Sprintf("round %d has results or records at its tables: undoing it needs a reason", n),
			map[string]any{"Round": n})
	}
	return nil
}

// UndoNeedsHead is the code of CheckUndoRound's refusal of a judge who
// is not a head judge, once the round has records.
const UndoNeedsHead = "undo-needs-head-judge"
