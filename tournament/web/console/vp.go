package console

import (
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/sheet"
)

// vpShown is a player's VP in one game as every page shows them: what
// counts, and, when the sheet said otherwise, how it came to that. docs/rules.md,
// Penalties: a deduction shows as such (6 − 2 = 4), not just the lower
// number, with the penalty it comes from.
type vpShown struct {
	VP  int    // what counts: capped (§11) and after penalties
	Sum string // "6 − 2 = 4", "12 → 10" (the cap), "6 → 0" (a game loss); "" when the sheet's VP stand
	Why string // the penalties that changed it: "勝利点減点（メモを取った）"
}

// showVP words pl's VP in lang; rs names the offences.
func (s *Pages) showVP(lang string, rs referee.Ruleset, pl tournament.Placing) vpShown {
	out := vpShown{VP: pl.VP, Sum: pl.Sum()}
	var why []string
	for _, p := range pl.Penalties {
		name := p.Offence
		if o, ok := rs.Offence(p.Offence); ok {
			name = o.NameJA
			if lang == "en" {
				name = o.NameEN
			}
		}
		why = append(why, s.i18n.Text(lang, "score.penalty_why", map[string]any{"Level": s.i18n.In(lang).Level(p.Level), "Offence": name}))
	}
	sep := "、"
	if lang == "en" {
		sep = "; "
	}
	out.Why = strings.Join(why, sep)
	return out
}

// breakdownText says a score sheet's VP breakdown (§11) in lang, or ""
// for none.
func (s *Pages) breakdownText(lang string, b *referee.Breakdown) string {
	return sheet.Said(s.i18n.In(lang), b)
}

// breakdowns maps each player of a result to the breakdown the sheet gave.
func breakdowns(r *tournament.Result) map[int64]*referee.Breakdown {
	out := map[int64]*referee.Breakdown{}
	if r != nil {
		for _, sc := range r.Scores {
			out[sc.PlayerID] = sc.Breakdown
		}
	}
	return out
}
