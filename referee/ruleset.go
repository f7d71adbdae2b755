package referee

import (
	"fmt"
	"slices"
)

// Terrain is the kind of a land hex.
type Terrain string

// The six terrains of the base game.
const (
	Hills     Terrain = "hills"
	Forest    Terrain = "forest"
	Mountains Terrain = "mountains"
	Fields    Terrain = "fields"
	Pasture   Terrain = "pasture"
	Desert    Terrain = "desert"
)

// Terrains lists every terrain in a fixed order.
var Terrains = []Terrain{Hills, Forest, Mountains, Fields, Pasture, Desert}

// HarborKind is what a harbour trades: "generic" (3:1) or one resource (2:1).
type HarborKind string

// The harbour kinds (§7 ウ).
const (
	GenericHarbor HarborKind = "generic"
	BrickHarbor   HarborKind = "brick"
	LumberHarbor  HarborKind = "lumber"
	OreHarbor     HarborKind = "ore"
	GrainHarbor   HarborKind = "grain"
	WoolHarbor    HarborKind = "wool"
)

// HarborKinds lists every harbour kind in a fixed order.
var HarborKinds = []HarborKind{GenericHarbor, BrickHarbor, LumberHarbor, OreHarbor, GrainHarbor, WoolHarbor}

// DangoPolicy decides which red-chip clumps force a re-deal (§3 ウ).
type DangoPolicy string

// The dango policies a ruleset may choose.
const (
	// DangoConnected rejects three or more red hexes connected through shared
	// edges: the project's ruling on §3 ウ.
	DangoConnected DangoPolicy = "connected"
	// DangoTriangle rejects only three red hexes meeting at one corner.
	DangoTriangle DangoPolicy = "triangle"
	// DangoNoAdjacentReds rejects any two red hexes sharing an edge (the base game's almanac).
	DangoNoAdjacentReds DangoPolicy = "no-adjacent-reds"
	// DangoOff never re-deals.
	DangoOff DangoPolicy = "off"
)

// DangoPolicies lists every dango policy.
var DangoPolicies = []DangoPolicy{DangoConnected, DangoTriangle, DangoNoAdjacentReds, DangoOff}

// LongestRoadTiePolicy decides who holds the longest road when the holder's
// road is cut and several players share the new longest length (§10 ア).
type LongestRoadTiePolicy string

// The longest-road tie policies.
const (
	// LongestRoadVacate returns the card to the bank, even when the former
	// holder is among those tied: the rulebook's text.
	LongestRoadVacate LongestRoadTiePolicy = "vacate"
	// LongestRoadHolderKeeps lets a tied former holder keep it (the base game).
	LongestRoadHolderKeeps LongestRoadTiePolicy = "holder-keeps"
)

// BankShortagePolicy decides production when the bank runs short (§6 ア).
type BankShortagePolicy string

// The bank-shortage policies.
const (
	// BankShortageAllOrNothing pays nobody a resource the bank cannot pay in
	// full; other resources are paid normally: the project's ruling on §6 ア.
	BankShortageAllOrNothing BankShortagePolicy = "all-or-nothing"
	// BankShortageSingleTakesRest lets a single recipient take what is left.
	BankShortageSingleTakesRest BankShortagePolicy = "single-takes-rest"
)

// Color is a player's piece colour.
type Color string

// The four piece colours (§3 カ).
const (
	Red    Color = "red"
	Blue   Color = "blue"
	Yellow Color = "yellow"
	Green  Color = "green"
)

// Level is a penalty level, mildest first.
type Level string

// The penalty ladder (RULINGS.md, Penalties).
const (
	Caution          Level = "caution"
	Warning          Level = "warning"
	VPDeduction      Level = "vp_deduction"
	GameLoss         Level = "game_loss"
	Disqualification Level = "disqualification"
)

// Levels is the default ladder, mildest first.
var Levels = []Level{Caution, Warning, VPDeduction, GameLoss, Disqualification}

// StandingsKey is one key of the standings order.
type StandingsKey string

// The standings keys a ruleset may order.
const (
	KeyFirsts StandingsKey = "firsts" // number of 1st places, shared 1sts included
	KeyVP     StandingsKey = "vp"     // total VP, capped per game
	KeyShare  StandingsKey = "share"  // VP share with the virtual 4th player at 3-player tables
	KeyPoints StandingsKey = "points" // placement points
)

// StandingsKeys lists every standings key.
var StandingsKeys = []StandingsKey{KeyFirsts, KeyVP, KeyShare, KeyPoints}

// Layout is the fixed board of §3 ア (図1): the terrain of each land hex in
// row order (top row first, west to east: 3, 4, 5, 4, 3 hexes) and the kind
// of each of the 9 harbour sites, clockwise from the north-west site.
type Layout struct {
	Terrain [19]Terrain
	Harbors [9]HarborKind
}

// Offence is one entry of the ruleset's penalty catalogue.
type Offence struct {
	Code    string // stable identifier used in the API and files
	Section string // rulebook section, e.g. "§13"
	NameJA  string
	NameEN  string
	Level   Level // default level of a first offence
	// Remedy names the rulebook's fixed remedy for an in-game procedural
	// error ("card-void", "trade-void", "no-card", "re-roll"), or "".
	Remedy string
	// Escalates says whether repeats of this offence climb the ladder.
	Escalates bool
}

// Bye says how a bye (no table for the round) scores in the standings.
type Bye struct {
	Firsts int     // 1st places credited
	VP     int     // VP credited
	Share  float64 // VP share credited, as a fraction
	Points int     // placement points credited
	Played bool    // whether the bye counts as a game played
}

// Ruleset holds every setting the rulebook fixes and a shop may change.
// The built-in preset "proshop-2003" holds the rulebook's values.
type Ruleset struct {
	Name    string
	Version string

	GameMinutes int // §12: 7 in the rulebook
	VPCap       int // §11: VP are recorded capped at 10
	WinVP       int // §11: VP needed to declare victory

	Dango          DangoPolicy          // §3 ウ
	LongestRoadTie LongestRoadTiePolicy // §10 ア
	BankShortage   BankShortagePolicy   // §6 ア
	RobberOnDesert bool                 // §3 エ
	Colors         []Color              // §3 カ: colour by play order

	Layout Layout // §3 ア

	StandingsOrder  []StandingsKey
	PlacementPoints []int // points by place: index 0 = 1st
	Bye             Bye

	Penalties []Offence
	Ladder    []Level
	// EscalateFrom is the mildest level whose repeat climbs the ladder:
	// by default the second warning for the same offence becomes the next level.
	EscalateFrom Level
	// DeductVP is the VP a vp_deduction takes off that game's recorded VP.
	DeductVP int
}

// FieldError reports a ruleset setting that is missing or invalid.
type FieldError struct {
	Field string // the setting's name in the ruleset file, e.g. "layout.terrain[3]"
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("ruleset field %s: %s", e.Field, e.Msg) }

// CapVP returns the VP a score sheet's vp are recorded as, before any
// penalty: §11, VP are recorded with a cap of 10 (rs.VPCap).
func (rs Ruleset) CapVP(vp int) int { return min(vp, rs.VPCap) }

// Offence returns the catalogue entry with the given code.
func (rs Ruleset) Offence(code string) (Offence, bool) {
	i := slices.IndexFunc(rs.Penalties, func(o Offence) bool { return o.Code == code })
	if i < 0 {
		return Offence{}, false
	}
	return rs.Penalties[i], true
}

// Validate checks every setting and returns a *FieldError naming the first bad one.
func (rs Ruleset) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case rs.Name == "":
		return bad("name", "must not be empty")
	case rs.Version == "":
		return bad("version", "must not be empty")
	case rs.GameMinutes < 1 || rs.GameMinutes > 240:
		return bad("game_minutes", "must be between 1 and 240, got %d", rs.GameMinutes)
	case rs.VPCap < 1 || rs.VPCap > 30:
		return bad("vp_cap", "must be between 1 and 30, got %d", rs.VPCap)
	case rs.WinVP < 1 || rs.WinVP > rs.VPCap:
		return bad("win_vp", "must be between 1 and vp_cap (%d), got %d", rs.VPCap, rs.WinVP)
	case !slices.Contains(DangoPolicies, rs.Dango):
		return bad("dango", "unknown policy %q (want one of %v)", rs.Dango, DangoPolicies)
	case rs.LongestRoadTie != LongestRoadVacate && rs.LongestRoadTie != LongestRoadHolderKeeps:
		return bad("longest_road_tie", "unknown policy %q (want %q or %q)", rs.LongestRoadTie, LongestRoadVacate, LongestRoadHolderKeeps)
	case rs.BankShortage != BankShortageAllOrNothing && rs.BankShortage != BankShortageSingleTakesRest:
		return bad("bank_shortage", "unknown policy %q (want %q or %q)", rs.BankShortage, BankShortageAllOrNothing, BankShortageSingleTakesRest)
	case len(rs.Colors) != 4:
		return bad("colors", "must list 4 colours, got %d", len(rs.Colors))
	}
	seen := map[Color]bool{}
	for i, c := range rs.Colors {
		if c == "" || seen[c] {
			return bad(fmt.Sprintf("colors[%d]", i), "empty or repeated colour %q", c)
		}
		seen[c] = true
	}
	if err := rs.Layout.validate(); err != nil {
		return err
	}
	if len(rs.StandingsOrder) == 0 {
		return bad("standings_order", "must list at least one key")
	}
	keys := map[StandingsKey]bool{}
	for i, k := range rs.StandingsOrder {
		if !slices.Contains(StandingsKeys, k) || keys[k] {
			return bad(fmt.Sprintf("standings_order[%d]", i), "unknown or repeated key %q (want one of %v)", k, StandingsKeys)
		}
		keys[k] = true
	}
	if keys[KeyPoints] && len(rs.PlacementPoints) != 4 {
		return bad("placement_points", "must give points for places 1 to 4 when standings_order uses %q", KeyPoints)
	}
	if len(rs.PlacementPoints) != 0 && len(rs.PlacementPoints) != 4 {
		return bad("placement_points", "must give points for places 1 to 4, got %d", len(rs.PlacementPoints))
	}
	if rs.Bye.Share < 0 || rs.Bye.Share > 1 {
		return bad("bye.share", "must be a fraction between 0 and 1, got %g", rs.Bye.Share)
	}
	if rs.Bye.VP < 0 || rs.Bye.VP > rs.VPCap {
		return bad("bye.vp", "must be between 0 and vp_cap, got %d", rs.Bye.VP)
	}
	if len(rs.Ladder) == 0 {
		return bad("ladder", "must list at least one level")
	}
	for i, l := range rs.Ladder {
		if !slices.Contains(Levels, l) || slices.Index(rs.Ladder, l) != i {
			return bad(fmt.Sprintf("ladder[%d]", i), "unknown or repeated level %q (want levels from %v)", l, Levels)
		}
	}
	if !slices.Contains(rs.Ladder, rs.EscalateFrom) {
		return bad("escalate_from", "level %q is not on the ladder", rs.EscalateFrom)
	}
	if rs.DeductVP < 0 || rs.DeductVP > rs.VPCap {
		return bad("deduct_vp", "must be between 0 and vp_cap, got %d", rs.DeductVP)
	}
	if len(rs.Penalties) == 0 {
		return bad("penalties", "the catalogue must list at least one offence")
	}
	codes := map[string]bool{}
	for i, o := range rs.Penalties {
		f := fmt.Sprintf("penalties[%d]", i)
		switch {
		case o.Code == "" || codes[o.Code]:
			return bad(f+".code", "empty or repeated code %q", o.Code)
		case o.Section == "":
			return bad(f+".section", "must cite the rulebook section")
		case o.NameJA == "" || o.NameEN == "":
			return bad(f+".name_ja", "needs a Japanese and an English name")
		case !slices.Contains(rs.Ladder, o.Level):
			return bad(f+".level", "level %q is not on the ladder", o.Level)
		}
		codes[o.Code] = true
	}
	return nil
}

func (l Layout) validate() error {
	// §3 ア with the base game's 19 land hexes: 3 hills, 4 forest, 3 mountains,
	// 4 fields, 4 pasture, 1 desert, so the 18 number chips fit the 18 others.
	want := map[Terrain]int{Hills: 3, Forest: 4, Mountains: 3, Fields: 4, Pasture: 4, Desert: 1}
	got := map[Terrain]int{}
	for i, t := range l.Terrain {
		if _, ok := want[t]; !ok {
			return &FieldError{Field: fmt.Sprintf("layout.terrain[%d]", i), Msg: fmt.Sprintf("unknown terrain %q (want one of %v)", t, Terrains)}
		}
		got[t]++
	}
	for _, t := range Terrains {
		if got[t] != want[t] {
			return &FieldError{Field: "layout.terrain", Msg: fmt.Sprintf("needs %d %s hexes, got %d", want[t], t, got[t])}
		}
	}
	for i, h := range l.Harbors {
		if !slices.Contains(HarborKinds, h) {
			return &FieldError{Field: fmt.Sprintf("layout.harbors[%d]", i), Msg: fmt.Sprintf("unknown harbour kind %q (want one of %v)", h, HarborKinds)}
		}
	}
	return nil
}
