package tournament

import "time"

// TurnLimit returns the limit on every turn at round r's tables once
// their game time is over (national rules: a final table's turns, 2
// minutes each), or 0 when they play none: a round that is not a final's,
// or a ruleset without one (proshop-2003).
func (t Tournament) TurnLimit(r Round) time.Duration { return gameTime(t, r).TurnLimit }

// InFinal reports whether t's latest round is a stage of its final: only
// a top-cut final's stages follow the qualifying rounds planned (a round
// more is refused, all-rounds-paired).
func (t Tournament) InFinal() bool { return t.Paired > t.Rounds }
