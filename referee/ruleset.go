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

// InGameSettings names the in-game settings, as a ruleset file names them:
// how a game is played move by move (§6 ア production when the bank runs
// short, §10 ア the longest road after a cut). The rules engine
// (referee/game) applies them when it checks play; the tournament's score
// sheets do not read them, as the judge rules on play at the table. Every
// other setting is applied by the tournament software (the clock, score
// sheets, boards, seating, standings, penalties), and those a game needs by
// the rules engine too.
var InGameSettings = []string{"longest_road_tie", "bank_shortage"}

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

// The penalty ladder (docs/rules.md, Penalties).
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

// BoardMethod is how a table sets up its board.
type BoardMethod string

// The board set-up methods a ruleset may choose.
const (
	// CapsuleBoard is the rulebook's §3: the fixed layout turned by the
	// capsule roll (§3 イ), the number chips shuffled and dealt under the
	// dango rule (§3 ウ).
	CapsuleBoard BoardMethod = "capsule"
	// SpiralBoard is the national rules': the terrain tiles laid at random,
	// the number chips laid in letter order in a spiral from the corner one
	// die chooses (docs/rules.md (national rules), Board set-up).
	SpiralBoard BoardMethod = "spiral"
)

// BoardMethods lists every board set-up method.
var BoardMethods = []BoardMethod{CapsuleBoard, SpiralBoard}

// Corner is a corner hex of the island, named by its compass point on the
// board drawn north-up.
type Corner string

// The six corner hexes of the island, clockwise from the north-west one.
const (
	NorthWest Corner = "north-west"
	NorthEast Corner = "north-east"
	East      Corner = "east"
	SouthEast Corner = "south-east"
	SouthWest Corner = "south-west"
	West      Corner = "west"
)

// Corners lists the corner hexes clockwise from the north-west one: the
// national rules' documented default order of the numbers 1–6 on the frame.
var Corners = []Corner{NorthWest, NorthEast, East, SouthEast, SouthWest, West}

// Hex returns the corner's land hex, or false for an unknown name.
func (c Corner) Hex() (Hex, bool) {
	i := slices.Index(Corners, c)
	if i < 0 {
		return Hex{}, false
	}
	// The north-west corner turned clockwise by i sixths.
	return Hex{Q: 0, R: -2}.Rotate(i), true
}

// SpiralChips are the national rules' lettered number chips A..R, in letter
// order: A 5, B 2, C 6, D 3, E 8, F 10, G 9, H 12, I 11, J 4, K 8, L 10,
// M 9, N 4, O 5, P 6, Q 3, R 11.
var SpiralChips = [18]int{5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11}

// BoardSetup says how a table sets up its board and, for SpiralBoard, with
// which corners and chips.
type BoardSetup struct {
	Method BoardMethod // "" is CapsuleBoard, the rulebook's (§3)
	// Corners are the corner hexes in the order of the numbers 1–6 printed
	// on the sea frame (SpiralBoard): the die roll names the corner where
	// the spiral starts. The frame's numbering is not published, so it is a
	// setting; the default is Corners, 1 = the north-west corner, then clockwise.
	Corners [6]Corner
	// Chips are the numbers of the lettered chips A..R in letter order
	// (SpiralBoard); the default is SpiralChips.
	Chips [18]int
}

// RoundFormat is how a round's tables are drawn.
type RoundFormat string

// The round formats a ruleset may list.
const (
	// RandomRound is a seeded draw, as by lot at registration.
	RandomRound RoundFormat = "random"
	// ScheduleRound is drawn in advance with the other leading schedule
	// rounds by the whole-schedule solver, for the fewest repeat meetings
	// (what the national final called "round robin").
	ScheduleRound RoundFormat = "schedule"
	// SwissRound is drawn by the standings after the rounds before it.
	SwissRound RoundFormat = "swiss"
)

// RoundFormats lists every round format.
var RoundFormats = []RoundFormat{RandomRound, ScheduleRound, SwissRound}

// FinalFormat is how an event decides its final results.
type FinalFormat string

// The final formats a ruleset may choose.
const (
	// TopCut lets the judge make a final after the qualifying rounds: the
	// top players by standings play final tables (EventFormat.Cut); without
	// a final the standings decide.
	TopCut FinalFormat = "top-cut"
	// LeadersTable makes the last round's table 1 (the leaders' table of a
	// Swiss round) decide the champion.
	LeadersTable FinalFormat = "leaders-table"
	// NoFinal lets the standings alone decide.
	NoFinal FinalFormat = "none"
)

// FinalFormats lists every final format.
var FinalFormats = []FinalFormat{TopCut, LeadersTable, NoFinal}

// FinalTies says how players tied in a final game's placings are ranked.
type FinalTies string

// The final tie rules.
const (
	// FinalTiesShared lets equal VP share a place, as in every game (§11).
	FinalTiesShared FinalTies = "shared"
	// FinalTiesStandings breaks a tie by the qualifying standings.
	FinalTiesStandings FinalTies = "standings"
)

// SchedulePriority says what a schedule drawn in advance (ScheduleRound)
// puts first when both cannot be had: 3-player tables and byes spread
// evenly over its rounds, or the fewest repeat meetings. At 13 players
// over 4 rounds an even spread costs 6 repeats, the fewest repeats 1.
type SchedulePriority string

// The schedule priorities.
const (
	// SpreadFirst spreads 3-player tables and byes evenly (nobody has two
	// more than anyone else), then seats the fewest repeats.
	SpreadFirst SchedulePriority = "spread"
	// RepeatsFirst seats the fewest repeats, then spreads 3-player tables
	// and byes as evenly as that allows.
	RepeatsFirst SchedulePriority = "repeats"
)

// EventFormat is the shape of an event: how each round is drawn and how the
// final results are decided.
type EventFormat struct {
	// Rounds is the format of round 1, 2, ...; the last repeats for the
	// rounds after it. Schedule rounds come first, if at all.
	Rounds []RoundFormat
	Final  FinalFormat
	// Cut is, for TopCut, the players of each stage of the final: the first
	// is the top of the standings, each next the players advancing from the
	// tables of the one before (an equal number from each table), the last
	// one table. [4] is one final table of the top 4; [16, 4] is four
	// semi-final tables whose winners play the final.
	Cut       []int
	FinalTies FinalTies
	// SchedulePriority is what the schedule rounds put first.
	SchedulePriority SchedulePriority
}

// Timing divides a game's time into phases: initial placement, paced by
// settlement, then GameMinutes of play; and for final tables a limit on
// every turn once the game time is over.
type Timing struct {
	// PlacementSeconds paces the initial placement: each settlement (with
	// its road) has this long, the last player's included, and a placement
	// not made in its time is skipped (national rules: 60). 0 means no
	// placement phase: placement is played in the game time (§12).
	PlacementSeconds int
	// FinalTurnSeconds limits every turn of a final table after its game
	// time (national rules: 120); 0 means a final table ends at its time
	// signal like any other.
	FinalTurnSeconds int
	// EndNoticeMinutes is how long before the end time the judge sets for a
	// final table under the turn limit it is announced (national rules: 10).
	EndNoticeMinutes int
}

// PlacementFor returns the seconds of the initial placement at a table
// of seats players: two settlements each, every one paced by
// PlacementSeconds (national rules: 8 minutes at 4 players, 6 at 3); 0
// without a placement phase.
func (t Timing) PlacementFor(seats int) int { return 2 * seats * t.PlacementSeconds }

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
	Name        string
	Version     string
	Description string // what the ruleset is, for people

	GameMinutes int // §12: 7 in the rulebook; the play phase after any placement phase (Timing)
	VPCap       int // §11: VP are recorded capped at 10
	WinVP       int // §11: VP needed to declare victory
	Timing      Timing

	Dango          DangoPolicy          // §3 ウ
	LongestRoadTie LongestRoadTiePolicy // §10 ア
	BankShortage   BankShortagePolicy   // §6 ア
	RobberOnDesert bool                 // §3 エ
	// RequireBreakdown makes every line of a score sheet give the
	// player's VP breakdown (settlements, cities, the 2-point cards, the
	// one-point cards: §11), not only a VP: CheckSheet then counts the VP.
	RequireBreakdown bool
	Colors           []Color // §3 カ: colour by play order

	Layout Layout     // §3 ア; a SpiralBoard shuffles its terrain
	Board  BoardSetup // §3 イ, ウ, or the national rules' spiral

	Event EventFormat

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
	// Disqualification is what a disqualification does to the games the
	// player already played, unless the judge chooses otherwise for one
	// (DQEffect; docs/rules.md, Penalties): DQKeep when unset.
	Disqualification DQEffect

	// Teams are the settings of a team event (TeamRules; docs/rules.md,
	// Team events): the rulebook's defaults when unset.
	Teams TeamRules
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

// WithDefaults returns rs with the settings it leaves unset filled in: the
// rulebook's board set-up (§3), a spiral's documented corners and chips,
// round 1 drawn at random and Swiss rounds after it, and a final of the top
// 4 whose ties share a place. A ruleset written (or copied into a
// tournament) before a setting existed leaves it unset, so it keeps the
// behaviour it had; Timing's zero is already "no phases".
func (rs Ruleset) WithDefaults() Ruleset {
	if rs.Board.Method == "" {
		rs.Board.Method = CapsuleBoard
	}
	if rs.Board.Method == SpiralBoard {
		if rs.Board.Corners == [6]Corner{} {
			rs.Board.Corners = [6]Corner(Corners)
		}
		if rs.Board.Chips == [18]int{} {
			rs.Board.Chips = SpiralChips
		}
	}
	if len(rs.Event.Rounds) == 0 {
		rs.Event.Rounds = []RoundFormat{RandomRound, SwissRound}
	}
	if rs.Event.Final == "" {
		rs.Event.Final = TopCut
	}
	if rs.Event.Final == TopCut && len(rs.Event.Cut) == 0 {
		// docs/rules.md (national rules): the top 4 play a final table.
		rs.Event.Cut = []int{4}
	}
	if rs.Event.FinalTies == "" {
		rs.Event.FinalTies = FinalTiesShared
	}
	if rs.Disqualification == "" {
		rs.Disqualification = DQKeep
	}
	if rs.Event.SchedulePriority == "" {
		rs.Event.SchedulePriority = SpreadFirst
	}
	rs.Teams = rs.Teams.withDefaults()
	if len(rs.Teams.Order) == 0 {
		rs.Teams.Order = teamOrder(len(rs.PlacementPoints))
	}
	return rs
}

// RoundFormat returns the format of round n (1-based): the ruleset's entry
// for it, or the last entry for the rounds after the list.
func (rs Ruleset) RoundFormat(n int) RoundFormat {
	rounds := rs.WithDefaults().Event.Rounds
	return rounds[min(max(n, 1), len(rounds))-1]
}

// Validate checks every setting and returns a *FieldError naming the first
// bad one. Settings left unset take their defaults (WithDefaults).
func (rs Ruleset) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	rs = rs.WithDefaults()
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
	if err := rs.validateBoard(); err != nil {
		return err
	}
	if err := rs.Timing.validate(); err != nil {
		return err
	}
	if err := rs.Event.validate(); err != nil {
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
	if CheckDQEffect(rs.Disqualification) != nil {
		return bad("disqualification", "unknown effect %q (want one of %v)", rs.Disqualification, DQEffects)
	}
	if err := rs.Teams.validate(len(rs.PlacementPoints)); err != nil {
		return err
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

// validateBoard checks the board set-up of a ruleset with its defaults.
func (rs Ruleset) validateBoard() error {
	b := rs.Board
	switch b.Method {
	case CapsuleBoard:
		switch {
		case b.Corners != [6]Corner{}:
			return &FieldError{Field: "board.corners", Msg: fmt.Sprintf("only a %q board starts from a corner", SpiralBoard)}
		case b.Chips != [18]int{}:
			return &FieldError{Field: "board.chips", Msg: fmt.Sprintf("only a %q board lays lettered chips; a %q board deals them at random (§3 ウ)", SpiralBoard, CapsuleBoard)}
		}
		return nil
	case SpiralBoard:
	default:
		return &FieldError{Field: "board.method", Msg: fmt.Sprintf("unknown method %q (want one of %v)", b.Method, BoardMethods)}
	}
	for i, c := range b.Corners {
		if !slices.Contains(Corners, c) || slices.Index(b.Corners[:], c) != i {
			return &FieldError{Field: fmt.Sprintf("board.corners[%d]", i), Msg: fmt.Sprintf("unknown or repeated corner %q (want each of %v once)", c, Corners)}
		}
	}
	var got, want [13]int
	for i, n := range b.Chips {
		if n < 2 || n > 12 || n == 7 {
			return &FieldError{Field: fmt.Sprintf("board.chips[%d]", i), Msg: fmt.Sprintf("%d is not a number chip (2 to 12 but 7)", n)}
		}
		got[n]++
	}
	for _, n := range numberChips {
		want[n]++
	}
	for n := 2; n <= 12; n++ {
		if got[n] != want[n] {
			return &FieldError{Field: "board.chips", Msg: fmt.Sprintf("must be the 18 number chips of §1: %d chips numbered %d, want %d", got[n], n, want[n])}
		}
	}
	if rs.Dango != DangoOff {
		// docs/rules.md (national rules): the spiral never puts two red chips side by
		// side, so there is no re-deal rule.
		return &FieldError{Field: "dango", Msg: fmt.Sprintf("must be %q with board.method %q: the spiral lays the chips and nothing is dealt again", DangoOff, SpiralBoard)}
	}
	return nil
}

func (t Timing) validate() error {
	switch {
	case t.PlacementSeconds < 0 || t.PlacementSeconds > 600:
		return &FieldError{Field: "time.placement_seconds_per_settlement", Msg: fmt.Sprintf("must be between 0 (no placement phase) and 600, got %d", t.PlacementSeconds)}
	case t.FinalTurnSeconds < 0 || t.FinalTurnSeconds > 3600:
		return &FieldError{Field: "time.final_turn_seconds", Msg: fmt.Sprintf("must be between 0 (no turn limit) and 3600, got %d", t.FinalTurnSeconds)}
	case t.EndNoticeMinutes < 0 || t.EndNoticeMinutes > 120:
		return &FieldError{Field: "time.end_notice_minutes", Msg: fmt.Sprintf("must be between 0 and 120, got %d", t.EndNoticeMinutes)}
	}
	return nil
}

// maxCut bounds the players of a final's first stage.
const maxCut = 1024

func (e EventFormat) validate() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(e.Rounds) > 64 {
		return bad("event.rounds", "lists %d rounds, want at most 64", len(e.Rounds))
	}
	for i, f := range e.Rounds {
		field := fmt.Sprintf("event.rounds[%d]", i)
		switch {
		case !slices.Contains(RoundFormats, f):
			return bad(field, "unknown round format %q (want one of %v)", f, RoundFormats)
		case f == ScheduleRound && i > 0 && e.Rounds[i-1] != ScheduleRound:
			return bad(field, "%q rounds are drawn together in advance, before any standings: they must come first", ScheduleRound)
		}
	}
	switch e.Final {
	case TopCut:
		if err := checkCut(e.Cut); err != nil {
			return err
		}
	case LeadersTable, NoFinal:
		if len(e.Cut) != 0 {
			return bad("event.cut", "only a %q final has a cut", TopCut)
		}
		if e.Final == LeadersTable && e.Rounds[len(e.Rounds)-1] != SwissRound {
			return bad("event.final", "the leaders' table is table 1 of a Swiss round: the last of event.rounds must be %q", SwissRound)
		}
	default:
		return bad("event.final", "unknown final format %q (want one of %v)", e.Final, FinalFormats)
	}
	if e.FinalTies != FinalTiesShared && e.FinalTies != FinalTiesStandings {
		return bad("event.final_ties", "unknown rule %q (want %q or %q)", e.FinalTies, FinalTiesShared, FinalTiesStandings)
	}
	if e.SchedulePriority != SpreadFirst && e.SchedulePriority != RepeatsFirst {
		return bad("event.schedule_priority", "unknown priority %q (want %q or %q)", e.SchedulePriority, SpreadFirst, RepeatsFirst)
	}
	return nil
}

// Stage is one stage of a top-cut final (EventFormat.Cut): its players,
// the tables they fill, and how many advance from each table to the next
// stage (0 for the final table).
type Stage struct {
	Players, Tables, Advance int
}

// Stages returns the stages of a top-cut final, the first from the top of
// the standings, the last the final table; nil for another final.
func (e EventFormat) Stages() []Stage {
	if e.Final != TopCut {
		return nil
	}
	out := make([]Stage, len(e.Cut))
	for i, n := range e.Cut {
		out[i] = Stage{Players: n, Tables: tablesFor(n)}
		if i > 0 {
			out[i-1].Advance = n / out[i-1].Tables
		}
	}
	return out
}

// checkCut checks the stages of a top-cut final: each stage's players fit
// tables of 3 or 4, each next stage takes the same number from every table
// of the one before (fewer than a table holds), and the last is one table.
func checkCut(cut []int) error {
	if len(cut) == 0 || len(cut) > 8 {
		return &FieldError{Field: "event.cut", Msg: fmt.Sprintf("must list 1 to 8 stages, got %d", len(cut))}
	}
	for i, n := range cut {
		field := fmt.Sprintf("event.cut[%d]", i)
		last := i == len(cut)-1
		switch {
		case n < 3 || n > maxCut:
			return &FieldError{Field: field, Msg: fmt.Sprintf("must be between 3 and %d players, got %d", maxCut, n)}
		case n < 3*tablesFor(n):
			return &FieldError{Field: field, Msg: fmt.Sprintf("%d players do not fit tables of 3 or 4", n)}
		case last && n > 4:
			return &FieldError{Field: field, Msg: fmt.Sprintf("the last stage is the final: one table of 3 or 4 players, got %d", n)}
		case !last && n <= 4:
			return &FieldError{Field: field, Msg: fmt.Sprintf("%d players play one table: it must be the last stage", n)}
		}
		if i == 0 {
			continue
		}
		prev := cut[i-1]
		tables := tablesFor(prev)
		seats := 3 // the smallest table of the stage before
		if prev%4 == 0 {
			seats = 4
		}
		if n%tables != 0 || n/tables >= seats {
			return &FieldError{Field: field, Msg: fmt.Sprintf("%d players cannot advance equally from the %d tables of %d (want a multiple of %d, fewer than %d from each table)", n, tables, prev, tables, seats)}
		}
	}
	return nil
}

// tablesFor is the number of tables n players fill: tables of 4, some of 3
// when the numbers require (docs/rules.md (national rules), Event format).
func tablesFor(n int) int { return (n + 3) / 4 }
