package tournament

import "time"

// TurnLimit returns the limit on every turn at round r's tables once
// their game time is over (national rules: a final table's turns, 2
// minutes each), or 0 when they play none: a round that is not a final's,
// or a ruleset without one (proshop-2003).
func (t Tournament) TurnLimit(r Round) time.Duration { return gameTime(t, r).TurnLimit }
