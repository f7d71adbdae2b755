package store

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// The row types. Foreign keys come from the belongs-to pointers, which are
// only ever nil: rows are written with associations omitted.

type tournamentRow struct {
	ID             int64  `gorm:"primaryKey"`
	Name           string `gorm:"not null"`
	Date           string `gorm:"not null"` // YYYY-MM-DD or ""
	Venue          string `gorm:"not null"`
	Shop           string `gorm:"not null;default:'';index"` // the shop that ran it (schema version 13)
	Imported       string `gorm:"not null;default:''"`       // what a past event was imported from (schema version 13)
	RulesetName    string `gorm:"not null"`
	RulesetVersion string `gorm:"not null"`
	Ruleset        string `gorm:"not null"` // the full copy: json.Marshal of referee.Ruleset
	Rounds         int    `gorm:"not null"`
	GameMinutes    int    `gorm:"not null"`
	SelfCheckIn    bool   `gorm:"not null;default:false"`
	SelfReport     string `gorm:"not null;default:''"` // "" is off
	CreatedAt      time.Time
	ClosedAt       *time.Time // nil while the tournament is open
	ClosedBy       string     `gorm:"not null;default:''"`
	ArchivedAt     *time.Time // nil while the tournament is listed
	ArchivedBy     string     `gorm:"not null;default:''"`
	// ConfirmResults is the two-person rule (schema version 18): a result
	// counts once a second account confirmed it.
	ConfirmResults bool `gorm:"not null;default:false"`
	// TeamEvent makes the tournament a team event (schema version 22).
	TeamEvent bool `gorm:"not null;default:false"`
	// Divisions in one event (schema version 23): the event's main
	// tournament on each of its divisions (0 for an event of one), and
	// the division's name.
	EventID  int64  `gorm:"not null;default:0;index"`
	Division string `gorm:"not null;default:''"`
}

func (tournamentRow) TableName() string { return "tournaments" }

// tournamentVersionRow is a tournament's version (schema version 15): one
// more with every transaction that changes the tournament (bumpVersions),
// which a Snapshot is keyed by. It is a row of its own rather than a
// column of the tournament's so that on PostgreSQL the changes at tables,
// which share the tournament's row lock (Tx.lockTable), bump it without
// taking that lock for themselves.
type tournamentVersionRow struct {
	TournamentID int64          `gorm:"primaryKey;autoIncrement:false"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Version      int64          `gorm:"not null"`
}

func (tournamentVersionRow) TableName() string { return "tournament_versions" }

type playerRow struct {
	ID             int64          `gorm:"primaryKey"`
	TournamentID   int64          `gorm:"not null;index;uniqueIndex:idx_player_person,priority:1"`
	Tournament     *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Name           string         `gorm:"not null"`
	Kana           string         `gorm:"not null"`
	CheckedIn      bool           `gorm:"not null"`
	LateEntryRound int            `gorm:"not null"`
	DroppedRound   int            `gorm:"not null"`
	FixedTable     int            `gorm:"not null"`
	// CodeHash is the salted hash of the player's code, "" for none.
	CodeHash string `gorm:"not null;default:''"`
	// PersonID is the player's person of the registry (schema version 8):
	// one person is one player of a tournament at most. It has no foreign
	// key, which SQLite cannot add to a table it has; the store writes it
	// under the person's lock (lockPerson), and removes a person only once
	// no player names them (MergePeople).
	PersonID *int64 `gorm:"index:idx_players_person;uniqueIndex:idx_player_person,priority:2"`
	// DQEffect and DQReason are a disqualification's effect and reason
	// (schema version 20), "" for none.
	DQEffect string `gorm:"not null;default:''"`
	DQReason string `gorm:"not null;default:''"`
}

func (playerRow) TableName() string { return "players" }

// personRow is a person of the registry of people across events (schema
// version 8). NameKey and KanaKey are the name and reading folded as
// tournament.FoldReading folds them, which registration compares and the
// registry's search and order use.
type personRow struct {
	ID         int64      `gorm:"primaryKey"`
	Name       string     `gorm:"not null"`
	Kana       string     `gorm:"not null"`
	NameKey    string     `gorm:"not null;index"`
	KanaKey    string     `gorm:"not null;index"`
	Member     *string    `gorm:"uniqueIndex"` // nil for none
	CreatedAt  time.Time  `gorm:"not null"`
	ArchivedAt *time.Time // nil while the person is listed
	ArchivedBy string     `gorm:"not null;default:''"`
}

func (personRow) TableName() string { return "people" }

func newPersonRow(p tournament.Person) personRow {
	row := personRow{ID: p.ID, Name: p.Name, Kana: p.Kana, NameKey: tournament.FoldReading(p.Name), KanaKey: tournament.FoldReading(p.Kana),
		CreatedAt: p.CreatedAt.UTC()}
	if p.Member != "" {
		row.Member = &p.Member
	}
	if a := p.Archived; a != nil {
		at := a.At.UTC()
		row.ArchivedAt, row.ArchivedBy = &at, a.Judge
	}
	return row
}

func (r personRow) person() tournament.Person {
	p := tournament.Person{ID: r.ID, Name: r.Name, Kana: r.Kana, CreatedAt: r.CreatedAt}
	if r.Member != nil {
		p.Member = *r.Member
	}
	if r.ArchivedAt != nil {
		p.Archived = &tournament.Archival{Judge: r.ArchivedBy, At: *r.ArchivedAt}
	}
	return p
}

// keepApartRow is one keep-apart request; it holds both ways, so it is
// stored once with PlayerID < OtherID.
type keepApartRow struct {
	ID           int64      `gorm:"primaryKey"`
	TournamentID int64      `gorm:"not null;index"`
	PlayerID     int64      `gorm:"not null;uniqueIndex:idx_keep_apart_pair,priority:1"`
	Player       *playerRow `gorm:"constraint:OnDelete:CASCADE"`
	OtherID      int64      `gorm:"not null;uniqueIndex:idx_keep_apart_pair,priority:2;index"`
	Other        *playerRow `gorm:"constraint:OnDelete:CASCADE"`
}

func (keepApartRow) TableName() string { return "keep_aparts" }

type roundRow struct {
	ID           int64          `gorm:"primaryKey"`
	TournamentID int64          `gorm:"not null;uniqueIndex:idx_round_number,priority:1"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Number       int            `gorm:"not null;uniqueIndex:idx_round_number,priority:2"`
	Mode         string         `gorm:"not null"`
	Seed         int64          `gorm:"not null"` // the uint64 seed's bits: SQLite integers are signed
	// The pairing's cost, component by component (pairing.Cost).
	CostMeetings  int64     `gorm:"not null"`
	CostExposure  int64     `gorm:"not null"`
	CostStandings int64     `gorm:"not null"`
	Repeats       int       `gorm:"not null"`
	PairedBy      string    `gorm:"not null"`
	PairedAt      time.Time `gorm:"not null"`
	// Cut is a final stage's cut, JSON of cutJSON; "" for every other
	// round (a column of schema version 2).
	Cut string `gorm:"not null;default:''"`
}

func (roundRow) TableName() string { return "rounds" }

type tableRow struct {
	ID      int64     `gorm:"primaryKey"`
	RoundID int64     `gorm:"not null;uniqueIndex:idx_table_number,priority:1"`
	Round   *roundRow `gorm:"constraint:OnDelete:CASCADE"`
	Number  int       `gorm:"not null;uniqueIndex:idx_table_number,priority:2"`
	Seating string    `gorm:"not null"` // JSON of seatingJSON, or "" before seating
	Board   string    `gorm:"not null"` // JSON of boardJSON, or "" before the board is set
}

func (tableRow) TableName() string { return "round_tables" }

// tablePlayerRow puts a player at a table; a player sits at one table per round.
type tablePlayerRow struct {
	ID       int64      `gorm:"primaryKey"`
	RoundID  int64      `gorm:"not null;uniqueIndex:idx_table_player_round,priority:1"`
	Round    *roundRow  `gorm:"constraint:OnDelete:CASCADE"`
	TableID  int64      `gorm:"not null;index"`
	Table    *tableRow  `gorm:"constraint:OnDelete:CASCADE"`
	PlayerID int64      `gorm:"not null;uniqueIndex:idx_table_player_round,priority:2;index"`
	Player   *playerRow `gorm:"constraint:OnDelete:RESTRICT"`
	Position int        `gorm:"not null"` // pairing order at the table, from 0
}

func (tablePlayerRow) TableName() string { return "table_players" }

type byeRow struct {
	ID       int64      `gorm:"primaryKey"`
	RoundID  int64      `gorm:"not null;uniqueIndex:idx_bye_player,priority:1"`
	Round    *roundRow  `gorm:"constraint:OnDelete:CASCADE"`
	PlayerID int64      `gorm:"not null;uniqueIndex:idx_bye_player,priority:2;index"`
	Player   *playerRow `gorm:"constraint:OnDelete:RESTRICT"`
}

func (byeRow) TableName() string { return "round_byes" }

// amendmentRow is a judge's change to a pairing; BID is nil for a move to TableNumber.
type amendmentRow struct {
	ID          int64      `gorm:"primaryKey"`
	RoundID     int64      `gorm:"not null;index"`
	Round       *roundRow  `gorm:"constraint:OnDelete:CASCADE"`
	AID         int64      `gorm:"not null"`
	A           *playerRow `gorm:"foreignKey:AID;constraint:OnDelete:RESTRICT"`
	BID         *int64
	B           *playerRow `gorm:"foreignKey:BID;constraint:OnDelete:RESTRICT"`
	TableNumber int        `gorm:"not null"`
	Reason      string     `gorm:"not null"`
	Judge       string     `gorm:"not null"`
	At          time.Time  `gorm:"not null"`
}

func (amendmentRow) TableName() string { return "amendments" }

// resultRow is one revision of a table's result. The unique index on
// (table_id, version) is what lets only one of two concurrent saves of the
// same version win.
type resultRow struct {
	ID         int64      `gorm:"primaryKey"`
	TableID    int64      `gorm:"not null;uniqueIndex:idx_result_version,priority:1"`
	Table      *tableRow  `gorm:"constraint:OnDelete:RESTRICT"`
	Version    int        `gorm:"not null;uniqueIndex:idx_result_version,priority:2"`
	DeclaredID *int64     // nil when nobody declared
	Declared   *playerRow `gorm:"foreignKey:DeclaredID;constraint:OnDelete:RESTRICT"`
	EndedBy    string     `gorm:"not null"`
	Judge      string     `gorm:"not null"`
	At         time.Time  `gorm:"not null"`
	Reason     string     `gorm:"not null"`
	LateReason string     `gorm:"not null;default:''"`
	EndedEarly bool       `gorm:"not null;default:false"`
	ReportID   int64      `gorm:"not null;default:0"` // the players' report it was saved from
	GameMoves  int        `gorm:"not null;default:0"` // the moves of the recorded game it was saved from
	// The two-person rule (schema version 18): a revision saved under it
	// waits for another account's confirmation.
	NeedsConfirm  bool       `gorm:"not null;default:false"`
	ConfirmedBy   string     `gorm:"not null;default:''"`
	ConfirmedAt   *time.Time // nil until confirmed
	ConfirmReason string     `gorm:"not null;default:''"` // a head's own result confirmed
}

func (resultRow) TableName() string { return "results" }

type scoreRow struct {
	ID       int64      `gorm:"primaryKey"`
	ResultID int64      `gorm:"not null;uniqueIndex:idx_score_player,priority:1"`
	Result   *resultRow `gorm:"constraint:OnDelete:RESTRICT"`
	PlayerID int64      `gorm:"not null;uniqueIndex:idx_score_player,priority:2"`
	Player   *playerRow `gorm:"constraint:OnDelete:RESTRICT"`
	Position int        `gorm:"not null"` // order on the score sheet, from 0
	VP       int        `gorm:"not null"`
	// The VP breakdown, when the sheet gave one (schema version 2): all
	// set, or all NULL.
	Settlements *int
	Cities      *int
	LongestRoad *bool
	LargestArmy *bool
	PointCards  *int
}

// newScoreRow is the row of score sc, the position-th on its sheet.
func newScoreRow(resultID int64, position int, sc tournament.Score) scoreRow {
	row := scoreRow{ResultID: resultID, PlayerID: sc.PlayerID, Position: position, VP: sc.VP}
	if b := sc.Breakdown; b != nil {
		row.Settlements, row.Cities, row.PointCards = &b.Settlements, &b.Cities, &b.PointCards
		row.LongestRoad, row.LargestArmy = &b.LongestRoad, &b.LargestArmy
	}
	return row
}

// score is the score the row records.
func (s scoreRow) score() tournament.Score {
	sc := tournament.Score{PlayerID: s.PlayerID, VP: s.VP}
	if s.Settlements != nil && s.Cities != nil && s.PointCards != nil && s.LongestRoad != nil && s.LargestArmy != nil {
		sc.Breakdown = &referee.Breakdown{Settlements: *s.Settlements, Cities: *s.Cities, LongestRoad: *s.LongestRoad,
			LargestArmy: *s.LargestArmy, PointCards: *s.PointCards}
	}
	return sc
}

func (scoreRow) TableName() string { return "result_scores" }

type penaltyRow struct {
	ID           int64          `gorm:"primaryKey"`
	TournamentID int64          `gorm:"not null;index"`
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	PlayerID     int64          `gorm:"not null;index"`
	Player       *playerRow     `gorm:"constraint:OnDelete:RESTRICT"`
	Round        int            `gorm:"not null"`
	TableNumber  int            `gorm:"not null"`
	Offence      string         `gorm:"not null"`
	Level        string         `gorm:"not null"`
	Judge        string         `gorm:"not null"`
	At           time.Time      `gorm:"not null"`
	Note         string         `gorm:"not null"`
	RevokedBy    string         `gorm:"not null"`
	RevokedAt    *time.Time     // nil while the penalty stands
	RevokeReason string         `gorm:"not null"`
}

func (penaltyRow) TableName() string { return "penalties" }

// rulingRow is a judge's ruling at a table (schema version 3): the
// position's steps and the engine's answer as JSON.
type rulingRow struct {
	ID      int64     `gorm:"primaryKey"`
	TableID int64     `gorm:"not null;index"`
	Table   *tableRow `gorm:"constraint:OnDelete:CASCADE"`
	Players string    `gorm:"not null"` // the player ids in play order, as JSON
	Steps   string    `gorm:"not null"`
	Answer  string    `gorm:"not null"`
	Note    string    `gorm:"not null"`
	Judge   string    `gorm:"not null"`
	At      time.Time `gorm:"not null"`
}

func (rulingRow) TableName() string { return "rulings" }

// clockEventRow is one fact of a round's clock; the clock's state is
// computed from them.
type clockEventRow struct {
	ID      int64     `gorm:"primaryKey"`
	RoundID int64     `gorm:"not null;index"`
	Round   *roundRow `gorm:"constraint:OnDelete:CASCADE"`
	TableID *int64    // nil for the whole round
	Table   *tableRow `gorm:"constraint:OnDelete:RESTRICT"`
	Kind    string    `gorm:"not null"`
	Seconds int       `gorm:"not null"`
	// PlayerID is whose turn a "turn" event begins; 0 for none (a column
	// added with the turn limit: older rows read 0).
	PlayerID int64     `gorm:"not null;default:0"`
	Reason   string    `gorm:"not null;default:''"`
	Judge    string    `gorm:"not null"`
	At       time.Time `gorm:"not null"`
}

func (clockEventRow) TableName() string { return "clock_events" }

type auditRow struct {
	ID           int64          `gorm:"primaryKey"`
	TournamentID *int64         `gorm:"index"` // nil for a change outside any tournament
	Tournament   *tournamentRow `gorm:"constraint:OnDelete:CASCADE"`
	Judge        string         `gorm:"not null"`
	At           time.Time      `gorm:"not null"`
	Action       string         `gorm:"not null"`
	Subject      string         `gorm:"not null"`
	Before       string         `gorm:"not null"`
	After        string         `gorm:"not null"`
}

func (auditRow) TableName() string { return "audit_entries" }

type settingRow struct {
	Key   string `gorm:"primaryKey"`
	Value string `gorm:"not null"`
}

func (settingRow) TableName() string { return "settings" }

// endedSessionRow is a judge session logged out before its cookie expires.
type endedSessionRow struct {
	ID      string    `gorm:"primaryKey"`
	Expires time.Time `gorm:"not null;index"`
}

func (endedSessionRow) TableName() string { return "ended_sessions" }

// Mapping between rows and domain types.

func newTournamentRow(t tournament.Tournament) (tournamentRow, error) {
	rs, err := json.Marshal(t.Ruleset)
	if err != nil {
		return tournamentRow{}, fmt.Errorf("encode ruleset: %w", err)
	}
	return tournamentRow{
		ID:             t.ID,
		Name:           t.Name,
		Date:           t.Date,
		Venue:          t.Venue,
		Shop:           t.Shop,
		Imported:       t.Imported,
		RulesetName:    t.Ruleset.Name,
		RulesetVersion: t.Ruleset.Version,
		Ruleset:        string(rs),
		Rounds:         t.Rounds,
		GameMinutes:    t.GameMinutes,
		SelfCheckIn:    t.SelfCheckIn,
		SelfReport:     t.SelfReport,
		ConfirmResults: t.ConfirmResults,
		TeamEvent:      t.Team,
		CreatedAt:      t.CreatedAt.UTC(),
		EventID:        t.EventID,
		Division:       t.Division,
	}, nil
}

func (r tournamentRow) tournament() (tournament.Tournament, error) {
	rs, err := decodeRuleset(r.Ruleset)
	if err != nil {
		return tournament.Tournament{}, fmt.Errorf("tournament %d: decode ruleset: %w", r.ID, err)
	}
	return r.tournamentWith(rs), nil
}

// tournamentWith is the tournament of the row with its ruleset rs,
// decoded already.
func (r tournamentRow) tournamentWith(rs referee.Ruleset) tournament.Tournament {
	return tournament.Tournament{
		ID:    r.ID,
		Name:  r.Name,
		Date:  r.Date,
		Venue: r.Venue,
		// A copy stored before a setting existed leaves it unset: it
		// keeps the behaviour the tournament had.
		Ruleset:     rs,
		Shop:        r.Shop,
		Imported:    r.Imported,
		Rounds:      r.Rounds,
		GameMinutes: r.GameMinutes,
		SelfCheckIn: r.SelfCheckIn,
		SelfReport:  r.SelfReport,
		// The two-person rule (issue 27).
		ConfirmResults: r.ConfirmResults,
		Team:           r.TeamEvent,
		CreatedAt:      r.CreatedAt,
		Closed:         r.closure(),
		Archived:       r.archival(),
		EventID:        r.EventID,
		Division:       r.Division,
	}
}

// rulesets are the rulesets decoded, by their text: a tournament's copy
// never changes, and every change at a table reads its tournament's, so
// each text is decoded once. A few presets and their edits at most are
// kept.
var rulesets struct {
	sync.Mutex
	byText map[string]referee.Ruleset
}

const maxRulesets = 64

// decodeRuleset decodes a tournament's copy of its ruleset, with the
// defaults of the settings it predates (referee.Ruleset.WithDefaults).
func decodeRuleset(text string) (referee.Ruleset, error) {
	rulesets.Lock()
	rs, ok := rulesets.byText[text]
	rulesets.Unlock()
	if ok {
		return rs, nil
	}
	if err := json.Unmarshal([]byte(text), &rs); err != nil {
		return referee.Ruleset{}, err
	}
	rs = rs.WithDefaults()
	rulesets.Lock()
	defer rulesets.Unlock()
	if rulesets.byText == nil || len(rulesets.byText) >= maxRulesets {
		rulesets.byText = map[string]referee.Ruleset{}
	}
	rulesets.byText[text] = rs
	return rs, nil
}

func (r tournamentRow) archival() *tournament.Archival {
	if r.ArchivedAt == nil {
		return nil
	}
	return &tournament.Archival{Judge: r.ArchivedBy, At: *r.ArchivedAt}
}

func (r tournamentRow) closure() *tournament.Closure {
	if r.ClosedAt == nil {
		return nil
	}
	return &tournament.Closure{Judge: r.ClosedBy, At: *r.ClosedAt}
}

func newPlayerRow(p tournament.Player) playerRow {
	return playerRow{
		ID:             p.ID,
		TournamentID:   p.TournamentID,
		Name:           p.Name,
		Kana:           p.Kana,
		CheckedIn:      p.CheckedIn,
		LateEntryRound: p.LateEntryRound,
		DroppedRound:   p.DroppedRound,
		FixedTable:     p.FixedTable,
		CodeHash:       p.CodeHash,
		PersonID:       nullID(p.PersonID),
		DQEffect:       string(p.DQEffect),
		DQReason:       p.DQReason,
	}
}

func (r playerRow) player(keepApart []int64) tournament.Player {
	return tournament.Player{
		ID:             r.ID,
		TournamentID:   r.TournamentID,
		Name:           r.Name,
		Kana:           r.Kana,
		CheckedIn:      r.CheckedIn,
		LateEntryRound: r.LateEntryRound,
		DroppedRound:   r.DroppedRound,
		FixedTable:     r.FixedTable,
		KeepApart:      keepApart,
		CodeHash:       r.CodeHash,
		PersonID:       idOf(r.PersonID),
		DQEffect:       referee.DQEffect(r.DQEffect),
		DQReason:       r.DQReason,
	}
}

func (r resultRow) result(scores []scoreRow) tournament.Result {
	res := tournament.Result{
		TableID:    r.TableID,
		Version:    r.Version,
		Declared:   idOf(r.DeclaredID),
		EndedBy:    r.EndedBy,
		Judge:      r.Judge,
		At:         r.At,
		Reason:     r.Reason,
		LateReason: r.LateReason,
		EndedEarly: r.EndedEarly,
		ReportID:   r.ReportID,
		GameMoves:  r.GameMoves,
		// The two-person rule (issue 27).
		NeedsConfirm:  r.NeedsConfirm,
		ConfirmedBy:   r.ConfirmedBy,
		ConfirmedAt:   r.ConfirmedAt,
		ConfirmReason: r.ConfirmReason,
	}
	for _, s := range scores {
		res.Scores = append(res.Scores, s.score())
	}
	return res
}

func (r penaltyRow) penalty() tournament.Penalty {
	p := tournament.Penalty{
		ID:           r.ID,
		TournamentID: r.TournamentID,
		PlayerID:     r.PlayerID,
		Round:        r.Round,
		Table:        r.TableNumber,
		Offence:      r.Offence,
		Level:        referee.Level(r.Level),
		Judge:        r.Judge,
		At:           r.At,
		Note:         r.Note,
	}
	if r.RevokedAt != nil {
		p.Revoked = &tournament.Revocation{Judge: r.RevokedBy, At: *r.RevokedAt, Reason: r.RevokeReason}
	}
	return p
}

func (r auditRow) entry() tournament.AuditEntry {
	return tournament.AuditEntry{
		ID:           r.ID,
		TournamentID: idOf(r.TournamentID),
		Judge:        r.Judge,
		At:           r.At,
		Action:       r.Action,
		Subject:      r.Subject,
		Before:       r.Before,
		After:        r.After,
	}
}

func (r clockEventRow) event() tournament.ClockEvent {
	return tournament.ClockEvent{
		ID:       r.ID,
		RoundID:  r.RoundID,
		TableID:  idOf(r.TableID),
		Kind:     r.Kind,
		Seconds:  r.Seconds,
		PlayerID: r.PlayerID,
		Reason:   r.Reason,
		Judge:    r.Judge,
		At:       r.At,
	}
}

// seatingJSON is the stored shape of a tournament.Seating, with its own
// field names so a rename in the domain does not break stored data.
type seatingJSON struct {
	// Version is missing from seatings stored before versions: a stored
	// seating is then version 1.
	Version int          `json:"version,omitempty"`
	Rolls   [][]rollJSON `json:"rolls"`
	Seats   []seatJSON   `json:"seats"`
	Auto    bool         `json:"auto"`
	Seed    uint64       `json:"seed"`
	Judge   string       `json:"judge"`
	At      time.Time    `json:"at"`
}

type rollJSON struct {
	Player int64 `json:"player"`
	White  int   `json:"white"`
	Blue   int   `json:"blue"`
}

type seatJSON struct {
	Player int64  `json:"player"`
	Order  int    `json:"order"`
	Color  string `json:"color"`
}

func encodeSeating(s tournament.Seating) (string, error) {
	j := seatingJSON{Version: s.Version, Auto: s.Auto, Seed: s.Seed, Judge: s.Judge, At: s.At.UTC()}
	for _, round := range s.Rolls {
		rolls := make([]rollJSON, len(round))
		for i, r := range round {
			rolls[i] = rollJSON{Player: r.PlayerID, White: r.White, Blue: r.Blue}
		}
		j.Rolls = append(j.Rolls, rolls)
	}
	for _, st := range s.Seats {
		j.Seats = append(j.Seats, seatJSON{Player: st.PlayerID, Order: st.Order, Color: string(st.Color)})
	}
	b, err := json.Marshal(j)
	if err != nil {
		return "", fmt.Errorf("encode seating: %w", err)
	}
	return string(b), nil
}

func decodeSeating(text string) (*tournament.Seating, error) {
	if text == "" {
		return nil, nil
	}
	var j seatingJSON
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return nil, fmt.Errorf("decode seating: %w", err)
	}
	s := &tournament.Seating{Version: max(j.Version, 1), Auto: j.Auto, Seed: j.Seed, Judge: j.Judge, At: j.At}
	for _, round := range j.Rolls {
		rolls := make([]tournament.Roll, len(round))
		for i, r := range round {
			rolls[i] = tournament.Roll{PlayerID: r.Player, CapsuleRoll: referee.CapsuleRoll{White: r.White, Blue: r.Blue}}
		}
		s.Rolls = append(s.Rolls, rolls)
	}
	for _, st := range j.Seats {
		s.Seats = append(s.Seats, tournament.Seat{PlayerID: st.Player, Order: st.Order, Color: referee.Color(st.Color)})
	}
	return s, nil
}

// boardJSON is the stored shape of a tournament.BoardRecord.
type boardJSON struct {
	Version  int        `json:"version,omitempty"` // missing before versions: version 1
	White    int        `json:"white"`
	Blue     int        `json:"blue"`
	Corner   int        `json:"corner,omitempty"` // a spiral board's corner die; absent for a capsule roll
	RollAuto bool       `json:"roll_auto"`
	Seed     uint64     `json:"seed"`
	Deal     []chipJSON `json:"deal,omitempty"`
	Judge    string     `json:"judge"`
	At       time.Time  `json:"at"`
}

type chipJSON struct {
	Q      int `json:"q"`
	R      int `json:"r"`
	Number int `json:"number"`
}

func encodeBoard(b tournament.BoardRecord) (string, error) {
	j := boardJSON{
		Version: b.Version,
		White:   b.Roll.White, Blue: b.Roll.Blue, Corner: b.Corner, RollAuto: b.RollAuto,
		Seed: b.Seed, Judge: b.Judge, At: b.At.UTC(),
	}
	for _, c := range b.Deal {
		j.Deal = append(j.Deal, chipJSON{Q: c.Hex.Q, R: c.Hex.R, Number: c.Number})
	}
	out, err := json.Marshal(j)
	if err != nil {
		return "", fmt.Errorf("encode board: %w", err)
	}
	return string(out), nil
}

func decodeBoard(text string) (*tournament.BoardRecord, error) {
	if text == "" {
		return nil, nil
	}
	var j boardJSON
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return nil, fmt.Errorf("decode board: %w", err)
	}
	b := &tournament.BoardRecord{
		Version:  max(j.Version, 1),
		Roll:     referee.CapsuleRoll{White: j.White, Blue: j.Blue},
		Corner:   j.Corner,
		RollAuto: j.RollAuto, Seed: j.Seed, Judge: j.Judge, At: j.At,
	}
	for _, c := range j.Deal {
		b.Deal = append(b.Deal, referee.Chip{Hex: referee.Hex{Q: c.Q, R: c.R}, Number: c.Number})
	}
	return b, nil
}

// cutJSON is a final stage's cut (tournament.Cut) as stored.
type cutJSON struct {
	Stage     int     `json:"stage"`
	Advancing []int64 `json:"advancing"`
	Draw      []int64 `json:"draw,omitempty"`
	Seed      uint64  `json:"seed"`
}

func encodeCut(c *tournament.Cut) (string, error) {
	if c == nil {
		return "", nil
	}
	out, err := json.Marshal(cutJSON{Stage: c.Stage, Advancing: c.Advancing, Draw: c.Draw, Seed: c.Seed})
	if err != nil {
		return "", fmt.Errorf("encode cut: %w", err)
	}
	return string(out), nil
}

func decodeCut(text string) (*tournament.Cut, error) {
	if text == "" {
		return nil, nil
	}
	var j cutJSON
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return nil, fmt.Errorf("decode cut: %w", err)
	}
	return &tournament.Cut{Stage: j.Stage, Advancing: j.Advancing, Draw: j.Draw, Seed: j.Seed}, nil
}
