package referee

import (
	"fmt"
	"slices"
)

// Breakdown is a player's VP on a score sheet by where they come from
// (§11): settlements and cities on the board, whether the player holds
// each 2-point card (§10), and the one-point cards (§9 オ).
type Breakdown struct {
	Settlements int
	Cities      int
	LongestRoad bool
	LargestArmy bool
	PointCards  int
}

// VP returns the VP the breakdown gives, before the cap: settlement 1,
// city 2, each 2-point card 2, each one-point card 1 (§11).
func (b Breakdown) VP() int {
	vp := b.Settlements + 2*b.Cities + b.PointCards
	if b.LongestRoad {
		vp += 2
	}
	if b.LargestArmy {
		vp += 2
	}
	return vp
}

// Recorded returns the VP the breakdown records under rs: VP capped at
// rs.VPCap (§11).
func (b Breakdown) Recorded(rs Ruleset) int { return min(b.VP(), rs.VPCap) }

// SheetLine is one player's line of a score sheet as a judge typed it: the
// VP written, the breakdown, or both.
type SheetLine struct {
	Player    string
	VP        *int       // the VP written, before the cap; nil when only the breakdown is given
	Breakdown *Breakdown // nil when only the VP is given
}

// The fields of a sheet line a violation of CheckSheet names in
// Args["Field"], as the score sheet's API names them.
const (
	FieldVP          = "vp"
	FieldSettlements = "settlements"
	FieldCities      = "cities"
	FieldLongestRoad = "longest_road"
	FieldLargestArmy = "largest_army"
	FieldPointCards  = "point_cards"
	FieldDeclared    = "declared"
)

// CheckSheet checks what a table's score sheet says with its breakdowns,
// and returns each player's VP as counted (before the cap: the breakdown's
// where there is one, else the VP written), in the order of the lines, for
// Place, with every rule the sheet breaks. Each violation names in
// Args["Player"] (or Args["Group"] for several) the players and in
// Args["Field"] the field at fault (FieldVP, ...), so that a form can show
// it next to the field; they come line by line, then the table's.
//
// On each line: counts are not negative; a breakdown has at most 5
// settlements and 4 cities (§8); a VP written with a breakdown is what it
// gives, capped or not (§11); a line gives one or the other. At the table:
// one holder for each 2-point card (§10), at most 5 one-point cards (§9
// オ), and a declared winner with a breakdown has the VP to declare (§11).
// Where some lines give only a VP, what the breakdowns claim bounds them:
// the VP those players report above what buildings give (13) come from
// the 2-point and one-point cards the breakdowns leave (docs/rules.md §12).
//
// A ruleset that requires breakdowns (rs.RequireBreakdown) refuses a line
// without one.
//
// The checks Place makes of every sheet (the table's size, its players,
// VP in range, the declared winner at the table) remain Place's. A sheet
// without breakdowns is left to Place entirely.
func CheckSheet(rs Ruleset, lines []SheetLine, declared string) ([]Score, []*Violation) {
	scores := make([]Score, len(lines))
	var bad []*Violation
	for i, l := range lines {
		scores[i] = Score{Player: l.Player}
		switch {
		case rs.RequireBreakdown && l.Breakdown == nil:
			bad = append(bad, violation("sheet-breakdown-required", fmt.Sprintf("player %q: the ruleset requires the VP breakdown", l.Player),
				map[string]any{"Player": l.Player, "Field": FieldSettlements}))
			if l.VP != nil {
				scores[i].VP = *l.VP
			}
		case l.Breakdown != nil:
			scores[i].VP = l.Breakdown.VP()
			bad = append(bad, checkBreakdown(rs, l)...)
		case l.VP != nil:
			scores[i].VP = *l.VP
		default:
			bad = append(bad, violation("sheet-line-empty", fmt.Sprintf("player %q has neither VP nor a breakdown", l.Player),
				map[string]any{"Player": l.Player, "Field": FieldVP}))
		}
	}
	if !slices.ContainsFunc(lines, func(l SheetLine) bool { return l.Breakdown != nil }) {
		return scores, bad
	}
	var longest, army, points []string
	var bare []Score
	pointCards, claimed := 0, 0
	for i, l := range lines {
		b := l.Breakdown
		if b == nil {
			if l.VP != nil {
				bare = append(bare, scores[i])
			}
			continue
		}
		if b.LongestRoad {
			longest = append(longest, l.Player)
			claimed += 2
		}
		if b.LargestArmy {
			army = append(army, l.Player)
			claimed += 2
		}
		if b.PointCards > 0 {
			points = append(points, l.Player)
			pointCards += b.PointCards
			claimed += b.PointCards
		}
	}
	// §10: one longest road card and one largest army card in the game.
	if len(longest) > 1 {
		bad = append(bad, violation("sheet-longest-road-twice", fmt.Sprintf("players %v all claim the longest road card", longest),
			map[string]any{"Group": longest, "Field": FieldLongestRoad}))
	}
	if len(army) > 1 {
		bad = append(bad, violation("sheet-largest-army-twice", fmt.Sprintf("players %v all claim the largest army card", army),
			map[string]any{"Group": army, "Field": FieldLargestArmy}))
	}
	// §9 オ: 5 one-point cards in the game.
	if pointCards > maxPointCards {
		bad = append(bad, violation("sheet-point-cards-over", fmt.Sprintf("players %v claim %d one-point cards; the game has %d", points, pointCards, maxPointCards),
			map[string]any{"Group": points, "Count": pointCards, "Max": maxPointCards, "Field": FieldPointCards}))
	}
	// docs/rules.md §12, as Place applies it to VP alone (checkTableVP): the
	// lines with only a VP share the card VP the breakdowns leave.
	if over, extra, left := cardVPAbove(bare, claimed); extra > left {
		bad = append(bad, violation("sheet-table-vp-impossible",
			fmt.Sprintf("the VP above %d of players %v add up to %d, more than the %d the cards the breakdowns leave give", MaxBuildingVP, over, extra, left),
			map[string]any{"Group": over, "Extra": extra, "Buildings": MaxBuildingVP, "Max": left, "Field": FieldVP}))
	}
	if i := slices.IndexFunc(lines, func(l SheetLine) bool { return l.Player == declared }); declared != "" && i >= 0 && lines[i].Breakdown != nil {
		// §11: only a player with 10 or more VP (rs.WinVP) may declare victory.
		if vp := scores[i].VP; vp < rs.WinVP {
			bad = append(bad, violation("winner-under-win-vp",
				fmt.Sprintf("declared winner %q has %d VP, fewer than the %d needed to declare", declared, vp, rs.WinVP),
				map[string]any{"Player": declared, "VP": vp, "Need": rs.WinVP, "Field": FieldDeclared}))
		}
	}
	return scores, bad
}

// checkBreakdown checks one line with a breakdown.
func checkBreakdown(rs Ruleset, l SheetLine) []*Violation {
	var bad []*Violation
	b := l.Breakdown
	for _, c := range []struct {
		field string
		n     int
	}{{FieldSettlements, b.Settlements}, {FieldCities, b.Cities}, {FieldPointCards, b.PointCards}} {
		if c.n < 0 {
			bad = append(bad, violation("sheet-count-negative", fmt.Sprintf("player %q has %d %s", l.Player, c.n, c.field),
				map[string]any{"Player": l.Player, "Count": c.n, "Field": c.field}))
		}
	}
	// §8: 5 settlements and 4 cities of each colour. One-point cards are
	// counted for the whole table.
	if b.Settlements > maxSettlements {
		bad = append(bad, violation("sheet-over-settlements", fmt.Sprintf("player %q has %d settlements; a colour has %d", l.Player, b.Settlements, maxSettlements),
			map[string]any{"Player": l.Player, "Count": b.Settlements, "Max": maxSettlements, "Field": FieldSettlements}))
	}
	if b.Cities > maxCities {
		bad = append(bad, violation("sheet-over-cities", fmt.Sprintf("player %q has %d cities; a colour has %d", l.Player, b.Cities, maxCities),
			map[string]any{"Player": l.Player, "Count": b.Cities, "Max": maxCities, "Field": FieldCities}))
	}
	if l.VP != nil {
		// §11: the VP written is the breakdown's, or the breakdown's
		// capped at rs.VPCap, the VP recorded.
		if vp := b.VP(); *l.VP != vp && *l.VP != b.Recorded(rs) {
			bad = append(bad, violation("sheet-vp-mismatch", fmt.Sprintf("player %q wrote %d VP, but the breakdown gives %d", l.Player, *l.VP, vp),
				map[string]any{"Player": l.Player, "VP": *l.VP, "Counted": vp, "Field": FieldVP}))
		}
	}
	return bad
}
