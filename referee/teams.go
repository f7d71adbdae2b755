package referee

import (
	"cmp"
	"fmt"
	"slices"
)

// TeamRules are a ruleset's settings for team events (docs/rules.md, Team
// events). Neither the rulebook nor the national rules speak of teams; the
// project's ruling follows the Catan Club Japan Cup: teams of 4 to 6
// players, 4 of whom play each round, team-mates never at one table, and
// the teams ranked by the sum of their players' placement points, then VP.
type TeamRules struct {
	MinSize int // the fewest players a team registers (4)
	MaxSize int // the most players a team registers (6)
	Plays   int // the players a team names for each round (4)
	// Order ranks the teams: the sums of their players' KeyPoints, KeyVP,
	// KeyFirsts or KeyShare, in order (points, then VP).
	Order []StandingsKey
	// HideIndividual leaves the players' own standings off the players'
	// pages and prints: only the team standings are shown there.
	HideIndividual bool
}

// TeamKeys are the keys a team's standing can be ranked by.
var TeamKeys = []StandingsKey{KeyPoints, KeyVP, KeyFirsts, KeyShare}

func (t TeamRules) withDefaults() TeamRules {
	if t.MinSize == 0 {
		t.MinSize = 4
	}
	if t.MaxSize == 0 {
		t.MaxSize = 6
	}
	if t.Plays == 0 {
		t.Plays = 4
	}
	return t
}

// teamOrder is the default order of the team standings: placement points,
// then VP (docs/rules.md, Team events); a ruleset that gives no placement
// points ranks the teams by their 1st places, then VP.
func teamOrder(placementPoints int) []StandingsKey {
	if placementPoints == 4 {
		return []StandingsKey{KeyPoints, KeyVP}
	}
	return []StandingsKey{KeyFirsts, KeyVP}
}

func (t TeamRules) validate(placementPoints int) error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Field: "teams." + field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case t.Plays < 2 || t.Plays > 4:
		return bad("plays", "must be between 2 and 4 (a table seats at most 4), got %d", t.Plays)
	case t.MinSize < t.Plays:
		return bad("min_size", "must be at least plays (%d), got %d", t.Plays, t.MinSize)
	case t.MaxSize < t.MinSize || t.MaxSize > 12:
		return bad("max_size", "must be between min_size (%d) and 12, got %d", t.MinSize, t.MaxSize)
	}
	for i, k := range t.Order {
		if !slices.Contains(TeamKeys, k) || slices.Index(t.Order, k) != i {
			return bad(fmt.Sprintf("order[%d]", i), "unknown or repeated key %q (want one of %v)", k, TeamKeys)
		}
		if k == KeyPoints && placementPoints != 4 {
			return bad(fmt.Sprintf("order[%d]", i), "ranks by %q but placement_points gives no points", k)
		}
	}
	return nil
}

// CheckTeam refuses a team the ruleset does not take: one of fewer than
// rules.MinSize or more than rules.MaxSize players (docs/rules.md, Team
// events: 4 to 6), or naming a player twice.
func CheckTeam(rules TeamRules, players []string) error {
	rules = rules.withDefaults()
	n := len(players)
	args := map[string]any{"Count": n, "Min": rules.MinSize, "Max": rules.MaxSize}
	switch {
	case n < rules.MinSize:
		return violation("team-too-small", fmt.Sprintf("a team has %d to %d players, got %d", rules.MinSize, rules.MaxSize, n), args)
	case n > rules.MaxSize:
		return violation("team-too-large", fmt.Sprintf("a team has %d to %d players, got %d", rules.MinSize, rules.MaxSize, n), args)
	}
	if p, ok := repeated(players); ok {
		return violation("team-player-repeated", fmt.Sprintf("player %q is named twice", p), map[string]any{"Player": p})
	}
	return nil
}

// CheckLineup refuses a team's line-up for a round that breaks
// docs/rules.md, Team events: exactly rules.Plays players, each a member of
// the team (members) who plays the round (active), none twice.
func CheckLineup(rules TeamRules, lineup, members []string, active func(string) bool) error {
	rules = rules.withDefaults()
	if len(lineup) != rules.Plays {
		return violation("lineup-size", fmt.Sprintf("a line-up names %d players, got %d", rules.Plays, len(lineup)),
			map[string]any{"Count": len(lineup), "Plays": rules.Plays})
	}
	if p, ok := repeated(lineup); ok {
		return violation("lineup-player-repeated", fmt.Sprintf("player %q is named twice", p), map[string]any{"Player": p})
	}
	for _, p := range lineup {
		if !slices.Contains(members, p) {
			return violation("lineup-not-member", fmt.Sprintf("player %q is not a member of the team", p), map[string]any{"Player": p})
		}
		if !active(p) {
			return violation("lineup-player-inactive", fmt.Sprintf("player %q does not play the round", p), map[string]any{"Player": p})
		}
	}
	return nil
}

func repeated(ids []string) (string, bool) {
	seen := make(map[string]bool, len(ids))
	for _, p := range ids {
		if seen[p] {
			return p, true
		}
		seen[p] = true
	}
	return "", false
}

// TeamApart returns the pairs of team-mates among the players of a round,
// each team given as its players: docs/rules.md, Team events, team-mates
// never sit at one table, a hard constraint of the pairing (its keep-apart
// pairs).
func TeamApart(teams [][]string) [][2]string {
	var out [][2]string
	for _, t := range teams {
		for i, a := range t {
			for _, b := range t[i+1:] {
				out = append(out, [2]string{a, b})
			}
		}
	}
	return out
}

// Team is a team as its standing counts it: its name (unique in the event)
// and every player it registered.
type Team struct {
	Name    string
	Players []string
}

// TeamStanding is one team's line in the team standings.
type TeamStanding struct {
	Rank   int
	Team   string
	Points int     // the sum of its players' placement points
	VP     int     // the sum of its players' VP
	Firsts int     // the sum of its players' 1st places
	Share  float64 // the sum of its players' VP shares
	Played int     // the games its players played
}

// TeamStandings ranks teams from the players' standings (Standings, with
// every effect of drops, byes and disqualifications already in them):
// docs/rules.md, Team events, every game a team's player played counts for
// the team (a player plays only in a round the team named them for), and
// the teams are ranked by the sums rules.Order names (placement points,
// then VP), equal teams sharing a rank (1, 2, 2, 4), then by name.
func TeamStandings(rules TeamRules, players []Standing, teams []Team) []TeamStanding {
	rules = rules.withDefaults()
	if len(rules.Order) == 0 {
		rules.Order = teamOrder(4)
	}
	by := make(map[string]Standing, len(players))
	for _, s := range players {
		by[s.Player] = s
	}
	out := make([]TeamStanding, len(teams))
	for i, t := range teams {
		out[i].Team = t.Name
		for _, p := range t.Players {
			s := by[p]
			out[i].Points += s.Points
			out[i].VP += s.VP
			out[i].Firsts += s.Firsts
			out[i].Share += s.Share
			out[i].Played += s.Played
		}
	}
	compare := func(a, b TeamStanding) int {
		for _, k := range rules.Order {
			var c int
			switch k {
			case KeyPoints:
				c = cmp.Compare(a.Points, b.Points)
			case KeyVP:
				c = cmp.Compare(a.VP, b.VP)
			case KeyFirsts:
				c = cmp.Compare(a.Firsts, b.Firsts)
			case KeyShare:
				c = cmp.Compare(a.Share, b.Share)
			}
			if c != 0 {
				return -c
			}
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b TeamStanding) int {
		return cmp.Or(compare(a, b), cmp.Compare(a.Team, b.Team))
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && compare(out[i], out[i-1]) == 0 {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}
