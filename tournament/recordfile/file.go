// Package recordfile reads and writes the record file: a tournament's
// whole record as one JSON document (docs/record.md), for the record
// route (GET /api/v1/tournaments/{id}/record), catanjudge import-record,
// check and simulate. It maps the file to tournament.Record and back and
// decides nothing: the service builds the record, CheckRecord checks it.
//
// The file's shape is a contract kept by its "format" number: a reader
// refuses a format it does not know, and a change that an older reader
// would misread takes a new number.
package recordfile

import (
	"encoding/json"
	"time"

	"github.com/catanjudge/catanjudge/referee/game"
)

// Format is the format number this package writes and reads.
const Format = 1

// File is the record file. Players, tables and reports are named by the
// IDs the writing server gave them; everything the server derives (the
// seats, the boards' tiles, the placings, the standings, the final
// results, each round's repeats and cost, the cut) sits beside the facts
// it is derived from, for a reader without the server and for the check.
type File struct {
	Format int `json:"format"`
	// Generator names the program that wrote the file ("catanjudge v1.2").
	Generator  string         `json:"generator,omitempty"`
	WrittenAt  *time.Time     `json:"written_at,omitempty"`
	Tournament TournamentJSON `json:"tournament"`
	// Ruleset is the tournament's copy of its ruleset, as a ruleset file
	// writes it (docs/rulesets.md); a record made by hand may give only
	// {"name": ...} of a built-in ruleset.
	Ruleset   json.RawMessage `json:"ruleset"`
	Players   []PlayerJSON    `json:"players"`
	Rounds    []RoundJSON     `json:"rounds"`
	Penalties []PenaltyJSON   `json:"penalties"`
	// Standings and Final are given empty when there are none; left out,
	// the check says it could not compare them.
	Standings *[]StandingJSON `json:"standings,omitempty"`
	Final     *[]FinalJSON    `json:"final,omitempty"`
	// A team event's teams, each with its members and the line-ups it
	// named, and its team standings (derived; given empty when there are
	// none, left out the check says it could not compare them): teams.go.
	Teams         []TeamJSON          `json:"teams,omitempty"`
	TeamStandings *[]TeamStandingJSON `json:"team_standings,omitempty"`
}

// TournamentJSON is the tournament's settings.
type TournamentJSON struct {
	ID          int64       `json:"id,omitempty"` // the writing server's
	Name        string      `json:"name"`
	Date        string      `json:"date,omitempty"`
	Venue       string      `json:"venue,omitempty"`
	Rounds      int         `json:"rounds"`
	GameMinutes int         `json:"game_minutes"`
	SelfCheckIn bool        `json:"self_checkin,omitempty"`
	SelfReport  string      `json:"self_report,omitempty"`
	CreatedAt   *time.Time  `json:"created_at,omitempty"`
	Closed      *ActionJSON `json:"closed,omitempty"`
	// Team says the tournament is a team event (File.Teams), and Division
	// names the division of an event it is, "" for none.
	Team     bool   `json:"team,omitempty"`
	Division string `json:"division,omitempty"`
}

// ActionJSON is who did something when.
type ActionJSON struct {
	Judge string    `json:"judge"`
	At    time.Time `json:"at"`
}

// PlayerJSON is one entrant.
type PlayerJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Kana string `json:"kana,omitempty"`
	// Member is the member number of the player's person in the registry.
	Member         string  `json:"member,omitempty"`
	CheckedIn      bool    `json:"checked_in"`
	LateEntryRound int     `json:"late_entry_round,omitempty"`
	DroppedRound   int     `json:"dropped_round,omitempty"`
	FixedTable     int     `json:"fixed_table,omitempty"`
	KeepApart      []int64 `json:"keep_apart,omitempty"`
	// What the events' policies (issue 30) made of the player: their
	// disqualification with its effect on the games played, how they came
	// in after a round was paired, a substitute's mark, the round they did
	// not come to their table in. The standings depend on each.
	Disqualification *DisqualificationJSON `json:"disqualification,omitempty"`
	LateJoin         string                `json:"late_join,omitempty"`
	Substitute       bool                  `json:"substitute,omitempty"`
	NoShowRound      int                   `json:"no_show_round,omitempty"`
}

// DisqualificationJSON is a player's disqualification: its effect on the
// games already played ("keep", "remove" or "void") and why.
type DisqualificationJSON struct {
	Effect string `json:"effect"`
	Reason string `json:"reason"`
}

// RoundJSON is one round: a pairing (random, schedule, swiss) or a stage
// of the final (final), with its tables.
type RoundJSON struct {
	Number int    `json:"number"`
	Mode   string `json:"mode"`
	Seed   uint64 `json:"seed"`
	// Repeats and Cost are derived (pairing.Score); left out, the check
	// counts them and says so.
	Repeats    *int             `json:"repeats,omitempty"`
	Cost       *CostJSON        `json:"cost,omitempty"`
	PairedBy   string           `json:"paired_by,omitempty"`
	PairedAt   *time.Time       `json:"paired_at,omitempty"`
	Tables     []TableJSON      `json:"tables"`
	Byes       []int64          `json:"byes,omitempty"`
	Amendments []AmendmentJSON  `json:"amendments,omitempty"`
	Cut        *CutJSON         `json:"cut,omitempty"`
	Clock      []ClockEventJSON `json:"clock,omitempty"`
}

// CostJSON is a pairing's cost (pairing.Cost) as recorded.
type CostJSON struct {
	Meetings  int64 `json:"meetings"`
	Exposure  int64 `json:"exposure"`
	Standings int64 `json:"standings"`
}

// AmendmentJSON is a judge's change to a pairing: a and b traded places,
// or a moved to table (b 0).
type AmendmentJSON struct {
	A      int64     `json:"a"`
	B      int64     `json:"b,omitempty"`
	Table  int       `json:"table,omitempty"`
	Reason string    `json:"reason"`
	Judge  string    `json:"judge"`
	At     time.Time `json:"at"`
}

// CutJSON is how a stage of the final was chosen.
type CutJSON struct {
	Stage     int     `json:"stage"`
	Advancing []int64 `json:"advancing"`
	Draw      []int64 `json:"draw"`
	Seed      uint64  `json:"seed"`
}

// ClockEventJSON is one fact of the round's clock.
type ClockEventJSON struct {
	Kind    string    `json:"kind"`
	Table   int       `json:"table,omitempty"` // the table's number; 0 for the whole round
	Seconds int       `json:"seconds,omitempty"`
	Player  int64     `json:"player,omitempty"`
	Reason  string    `json:"reason,omitempty"`
	Judge   string    `json:"judge"`
	At      time.Time `json:"at"`
}

// TableJSON is one table of a round.
type TableJSON struct {
	Number  int          `json:"number"`
	Players []int64      `json:"players"` // pairing order
	Seating *SeatingJSON `json:"seating,omitempty"`
	Board   *BoardJSON   `json:"board,omitempty"`
	// Results are every revision of the score sheet, oldest first.
	Results []RevisionJSON `json:"results,omitempty"`
	// Placings are derived from the latest revision and the penalties
	// given in the game; left out, the check says so.
	Placings []PlacingJSON  `json:"placings,omitempty"`
	Reports  []ReportJSON   `json:"reports,omitempty"`
	Game     []GameMoveJSON `json:"game,omitempty"`
}

// SeatingJSON is the play order from the capsule rolls.
type SeatingJSON struct {
	Version int          `json:"version,omitempty"`
	Rolls   [][]RollJSON `json:"rolls,omitempty"`
	Auto    bool         `json:"auto,omitempty"`
	Seed    uint64       `json:"seed,omitempty"`
	Judge   string       `json:"judge,omitempty"`
	At      *time.Time   `json:"at,omitempty"`
	Seats   []SeatJSON   `json:"seats"` // derived from the rolls, by play order
}

// RollJSON is one player's capsule roll.
type RollJSON struct {
	Player int64 `json:"player"`
	White  int   `json:"white"`
	Blue   int   `json:"blue"`
}

// SeatJSON is a player's place in the play order and colour.
type SeatJSON struct {
	Player int64  `json:"player"`
	Order  int    `json:"order"`
	Color  string `json:"color"`
}

// BoardJSON is a table's board: the facts it is set up from, then the
// board they make (derived).
type BoardJSON struct {
	Version  int        `json:"version,omitempty"`
	White    int        `json:"white,omitempty"`
	Blue     int        `json:"blue,omitempty"`
	Corner   int        `json:"corner,omitempty"`
	RollAuto bool       `json:"roll_auto,omitempty"`
	Seed     *uint64    `json:"seed,omitempty"`
	Deal     []ChipJSON `json:"deal,omitempty"`
	Judge    string     `json:"judge,omitempty"`
	At       *time.Time `json:"at,omitempty"`
	// The board the facts make.
	Tiles   []TileJSON   `json:"tiles,omitempty"`
	Harbors []HarborJSON `json:"harbors,omitempty"`
	Robber  *HexJSON     `json:"robber,omitempty"`
}

// HexJSON is a hex in axial coordinates.
type HexJSON struct {
	Q int `json:"q"`
	R int `json:"r"`
}

// ChipJSON is a number chip on a hex.
type ChipJSON struct {
	Q      int `json:"q"`
	R      int `json:"r"`
	Number int `json:"number"`
}

// TileJSON is a land hex of the board.
type TileJSON struct {
	Q       int    `json:"q"`
	R       int    `json:"r"`
	Terrain string `json:"terrain"`
	Number  int    `json:"number"`
}

// HarborJSON is a harbour on the coastal edge between two corners.
type HarborJSON struct {
	Kind string    `json:"kind"`
	Edge [2]string `json:"edge"`
}

// RevisionJSON is one revision of a table's score sheet.
type RevisionJSON struct {
	Version    int         `json:"version"`
	Scores     []ScoreJSON `json:"scores"`
	Declared   int64       `json:"declared,omitempty"`
	EndedBy    string      `json:"ended_by"`
	Judge      string      `json:"judge"`
	At         time.Time   `json:"at"`
	Reason     string      `json:"reason,omitempty"`
	LateReason string      `json:"late_reason,omitempty"`
	EndedEarly bool        `json:"ended_early,omitempty"`
	Report     int64       `json:"report,omitempty"`     // the players' report it was saved from
	GameMoves  int         `json:"game_moves,omitempty"` // the moves of the recorded game it was saved from
}

// ScoreJSON is one line of a score sheet.
type ScoreJSON struct {
	Player    int64          `json:"player"`
	VP        int            `json:"vp"`
	Breakdown *BreakdownJSON `json:"breakdown,omitempty"`
}

// BreakdownJSON is a player's VP by where they come from (§11).
type BreakdownJSON struct {
	Settlements int  `json:"settlements"`
	Cities      int  `json:"cities"`
	LongestRoad bool `json:"longest_road"`
	LargestArmy bool `json:"largest_army"`
	PointCards  int  `json:"point_cards"`
}

// PlacingJSON is a player's place at the table (derived).
type PlacingJSON struct {
	Player     int64 `json:"player"`
	Place      int   `json:"place"`
	VP         int   `json:"vp"`
	ReportedVP int   `json:"reported_vp"`
	Deducted   int   `json:"deducted,omitempty"`
}

// ReportJSON is a players' report of the table's result.
type ReportJSON struct {
	ID         int64        `json:"id"`
	ReportedBy int64        `json:"reported_by"`
	Scores     []ScoreJSON  `json:"scores"`
	Declared   int64        `json:"declared,omitempty"`
	Reason     string       `json:"reason,omitempty"`
	LateReason string       `json:"late_reason,omitempty"`
	Confirmed  []int64      `json:"confirmed"`
	DisputedBy int64        `json:"disputed_by,omitempty"`
	Dispute    *DisputeJSON `json:"dispute,omitempty"`
	Status     string       `json:"status"`
	Version    int          `json:"version,omitempty"`
	At         time.Time    `json:"at"`
}

// DisputeJSON is a disputing player's version and note.
type DisputeJSON struct {
	Scores     []ScoreJSON `json:"scores,omitempty"`
	Declared   int64       `json:"declared,omitempty"`
	Reason     string      `json:"reason,omitempty"`
	LateReason string      `json:"late_reason,omitempty"`
	Note       string      `json:"note,omitempty"`
}

// GameMoveJSON is one move of the table's recorded game.
type GameMoveJSON struct {
	Number int           `json:"number"`
	Move   game.MoveSpec `json:"move"`
	Judge  string        `json:"judge"`
	At     time.Time     `json:"at"`
}

// PenaltyJSON is one penalty.
type PenaltyJSON struct {
	Player  int64           `json:"player"`
	Round   int             `json:"round,omitempty"`
	Table   int             `json:"table,omitempty"`
	Offence string          `json:"offence"`
	Level   string          `json:"level"`
	Judge   string          `json:"judge"`
	At      time.Time       `json:"at"`
	Note    string          `json:"note,omitempty"`
	Revoked *RevocationJSON `json:"revoked,omitempty"`
}

// RevocationJSON is why and by whom a penalty was revoked.
type RevocationJSON struct {
	Judge  string    `json:"judge"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
}

// StandingJSON is a player's line in the standings (derived).
type StandingJSON struct {
	Rank   int     `json:"rank"`
	Player int64   `json:"player"`
	Firsts int     `json:"firsts"`
	VP     int     `json:"vp"`
	Share  float64 `json:"share"`
	Points int     `json:"points"`
	Played int     `json:"played"`
	Byes   int     `json:"byes,omitempty"`
}

// FinalJSON is a player's line in the final results (derived).
type FinalJSON struct {
	Rank   int   `json:"rank"`
	Player int64 `json:"player"`
	Stage  int   `json:"stage,omitempty"`
	Place  int   `json:"place,omitempty"`
	Round  int   `json:"round,omitempty"`
	Table  int   `json:"table,omitempty"`
}
