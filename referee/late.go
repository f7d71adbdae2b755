package referee

import (
	"fmt"
	"slices"
)

// Events as they really go (issue 30): a player who comes after the round
// is paired, a helper who sits in at a short table, a player who does not
// come to their table. The rulebooks are silent on all three; each rule
// here is the project's ruling (docs/rules.md, Late entries, substitutes
// and no-shows), built on §2 (tables of 4, and of 3 where the numbers
// require it) and the standings' rules.

// LateJoin is how a player who arrives after a round was paired joins it
// (the ruleset's late_entry.join).
type LateJoin string

const (
	// LateFill seats a late player at a table of 3 of the round, which
	// becomes a table of 4 (§2: tables of 4 where the numbers allow).
	LateFill LateJoin = "fill"
	// LateNewTable seats the late players together at a new table of 3
	// (or 4) of their own, so that no table already seated is changed.
	LateNewTable LateJoin = "new-table"
	// LateNextRound never changes a round paired: a late player starts
	// from the next round.
	LateNextRound LateJoin = "next-round"
)

// LateJoins lists the ways a late player can join.
var LateJoins = []LateJoin{LateFill, LateNewTable, LateNextRound}

// Missed is how a round a player did not play counts for them: a round a
// late player missed (the ruleset's late_entry.missed), or the seat of a
// player who did not come to their table (no_show).
type Missed string

const (
	// MissedNotPlayed: the round is not counted for them at all, as a
	// round before their entry.
	MissedNotPlayed Missed = "not-played"
	// MissedLastPlace: the round counts as a game played, placed last
	// (4th) with 0 VP and no VP share.
	MissedLastPlace Missed = "last-place"
)

// Misseds lists how a missed round can count.
var Misseds = []Missed{MissedNotPlayed, MissedLastPlace}

// SubstituteCount is how the games of a substitute (a helper who sits in
// at a short table) count (the ruleset's substitute).
type SubstituteCount string

const (
	// SubstituteNobody: the substitute's games count for nobody's
	// standings (the substitute has no line); the others' places at the
	// table are as played.
	SubstituteNobody SubstituteCount = "nobody"
	// SubstituteFixed: the substitute has a line, and each game they sat
	// in counts for them as the ruleset's fixed place and VP, whatever
	// they scored; the others' places at the table are as played.
	SubstituteFixed SubstituteCount = "fixed"
)

// SubstituteCounts lists how a substitute's games can count.
var SubstituteCounts = []SubstituteCount{SubstituteNobody, SubstituteFixed}

// LateEntry is the ruleset's policy for players who arrive late.
type LateEntry struct {
	Join   LateJoin // how they join a round paired and not started
	Missed Missed   // how the rounds before their first count
}

// Substitutes is the ruleset's policy for substitutes.
type Substitutes struct {
	Count SubstituteCount
	// Place and VP are the fixed value of a game with SubstituteFixed:
	// by default last (4th) with 0 VP.
	Place, VP int
}

// LateNone is SeatLate's answer for a late player who cannot join the
// round: they start from the next one.
const LateNone = -1

// SeatLate seats the late players of a round paired and not started
// (docs/rules.md, Late entries: the project's ruling). sizes are the
// round's tables' sizes in table order, late the number of late players
// in the order the judge listed them, join the ruleset's choice. It
// returns, for each late player, the index of the table they join: an
// index below len(sizes) is a table of the round, len(sizes)+k the k-th
// new table; LateNone starts them from the next round. started (the round
// has a seating, a result or a clock event) seats nobody.
//
//   - LateFill: each late player in turn fills the first table of 3 (§2:
//     a table of 3 becomes 4); those left over, when three or more, sit
//     at new tables of 4 and 3 (as few tables of 3 as their number
//     allows); the rest start from the next round.
//   - LateNewTable: the late players sit at new tables of their own, of 4
//     and 3, when three or more; those left over fill tables of 3 as
//     LateFill does; the rest start from the next round.
//   - LateNextRound: nobody joins.
func SeatLate(sizes []int, late int, join LateJoin, started bool) []int {
	out := make([]int, late)
	for i := range out {
		out[i] = LateNone
	}
	if started || join == LateNextRound || late == 0 {
		return out
	}
	next := 0 // the next late player to seat
	fill := func() {
		for t, n := range sizes {
			if next < late && n == 3 && !slices.Contains(out[:next], t) {
				out[next] = t
				next++
			}
		}
	}
	newTables := func() {
		for k, n := range newTableSizes(late - next) {
			for range n {
				out[next] = len(sizes) + k
				next++
			}
		}
	}
	if join == LateNewTable {
		newTables()
		fill()
		return out
	}
	fill()
	newTables()
	return out
}

// newTableSizes splits n late players into new tables of 4 and 3 (§2),
// as few of 3 as possible, leaving out the fewest: 3 → [3], 4 → [4],
// 5 → [4] (one left), 6 → [3 3], 7 → [4 3], 8 → [4 4], and so on.
func newTableSizes(n int) []int {
	for seated := n; seated >= 3; seated-- {
		threes := (4 - seated%4) % 4 // tables of 3 needed so that the rest are 4s
		if 3*threes > seated {
			continue
		}
		var out []int
		for range (seated - 3*threes) / 4 {
			out = append(out, 4)
		}
		for range threes {
			out = append(out, 3)
		}
		return out
	}
	return nil
}

// MissedGame is how a round player did not play counts for them (m):
// with MissedLastPlace a credited game placed last (4th, §2's full
// table) with 0 VP, and false with MissedNotPlayed (no game at all).
func MissedGame(player string, m Missed) (Game, bool) {
	if m != MissedLastPlace {
		return Game{}, false
	}
	return Game{Placings: []Placing{{Player: player, Place: 4}}, Credited: true}, true
}

// SubstituteGame is game g with the substitutes subs (players who sat in
// at the table) counted as the ruleset says (docs/rules.md, Substitutes):
// every placing stays as played, so that the others' places and the
// table's totals are the game's; each substitute's placing is marked so
// that it is credited to nobody, and with SubstituteFixed each
// substitute is credited instead the fixed place and VP (the extra games
// returned, one per substitute at the table).
func SubstituteGame(g Game, subs map[string]bool, rule Substitutes) (Game, []Game) {
	var fixed []Game
	out := g
	out.Substitutes = slices.Clone(g.Substitutes)
	for _, p := range g.Placings {
		if !subs[p.Player] || slices.Contains(out.Substitutes, p.Player) {
			continue
		}
		out.Substitutes = append(out.Substitutes, p.Player)
		if rule.Count == SubstituteFixed {
			fixed = append(fixed, Game{Placings: []Placing{{Player: p.Player, Place: rule.Place, VP: rule.VP}}, Credited: true})
		}
	}
	return out, fixed
}

// checkCredited checks a credited game: one placing, a place of a table
// of 4 and VP within the cap.
func checkCredited(rs Ruleset, g Game) error {
	if len(g.Placings) != 1 || g.Removed != 0 {
		return violation("credited-game", fmt.Sprintf("a credited game has one placing, got %d", len(g.Placings)), nil)
	}
	p := g.Placings[0]
	switch {
	case p.Player == "":
		return emptyPlayer()
	case p.Place < 1 || p.Place > 4:
		return violation("place-out-of-range", fmt.Sprintf("player %q has place %d, want 1 to 4", p.Player, p.Place),
			map[string]any{"Player": p.Player, "Place": p.Place, "Max": 4})
	case p.VP < 0 || p.VP > rs.VPCap:
		return violation("vp-out-of-range", fmt.Sprintf("player %q has %d VP, want 0 to %d", p.Player, p.VP, rs.VPCap),
			map[string]any{"Player": p.Player, "VP": p.VP, "Max": rs.VPCap})
	}
	return nil
}

// lateDefaults fills in the late entry, substitute and no-show settings
// a ruleset leaves unset.
func (rs Ruleset) lateDefaults() Ruleset {
	if rs.LateEntry.Join == "" {
		rs.LateEntry.Join = LateFill
	}
	if rs.LateEntry.Missed == "" {
		rs.LateEntry.Missed = MissedNotPlayed
	}
	if rs.Substitutes.Count == "" {
		rs.Substitutes.Count = SubstituteNobody
	}
	if rs.Substitutes.Place == 0 {
		rs.Substitutes.Place = 4
	}
	if rs.NoShow == "" {
		rs.NoShow = MissedNotPlayed
	}
	return rs
}

// checkLate checks the late entry, substitute and no-show settings of rs
// with its defaults, naming the first bad one.
func (rs Ruleset) checkLate() *FieldError {
	bad := func(field, format string, args ...any) *FieldError {
		return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case !slices.Contains(LateJoins, rs.LateEntry.Join):
		return bad("late_entry.join", "unknown way %q (want one of %v)", rs.LateEntry.Join, LateJoins)
	case !slices.Contains(Misseds, rs.LateEntry.Missed):
		return bad("late_entry.missed", "unknown count %q (want one of %v)", rs.LateEntry.Missed, Misseds)
	case !slices.Contains(SubstituteCounts, rs.Substitutes.Count):
		return bad("substitutes.count", "unknown count %q (want one of %v)", rs.Substitutes.Count, SubstituteCounts)
	case rs.Substitutes.Place < 1 || rs.Substitutes.Place > 4:
		return bad("substitutes.place", "must be a place of a table of 4 (1 to 4), got %d", rs.Substitutes.Place)
	case rs.Substitutes.VP < 0 || rs.Substitutes.VP > rs.VPCap:
		return bad("substitutes.vp", "must be between 0 and vp_cap, got %d", rs.Substitutes.VP)
	case !slices.Contains(Misseds, rs.NoShow):
		return bad("no_show", "unknown count %q (want one of %v)", rs.NoShow, Misseds)
	}
	return nil
}
