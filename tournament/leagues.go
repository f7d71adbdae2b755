package tournament

import (
	"context"
	"time"

	"github.com/catanjudge/catanjudge/referee/season"
)

// Beyond one event (issue 29): the ratings of the people of the registry
// from every finished event's games, seasons (leagues) that gather events
// by date and shop, past events imported from before the software, and the
// qualification ledger. Their reads cross events, so they keep to their
// own service methods and store queries (LeagueStore), apart from one
// event's read model.

// Season is a league: the events of a date range (and of some shops), or
// the events it names, scored by a formula.
type Season struct {
	ID       int64
	Name     string
	From, To string // YYYY-MM-DD, both days included
	// Shops are the shops whose events the season gathers; none, every
	// shop's.
	Shops []string
	// Events, when given, are the season's events whatever their date and
	// shop (the organizer's list); else the dates and shops decide.
	Events  []int64
	Formula season.Formula
	// Qualification makes the season's events attempts at qualifying; nil
	// for a league alone.
	Qualification *Qualification
	CreatedBy     string
	CreatedAt     time.Time
}

// Qualification is a season's qualifying rule (season.Qualification), its
// counting events named by tournament ID.
type Qualification struct {
	Attempts int
	Rank     int
	RealName bool
	Events   []int64 // the events that count as attempts; none, every event of the season
}

// Holds reports whether event t belongs to the season: named by it, or,
// when it names none, dated within it and run by one of its shops.
func (s Season) Holds(t EventStamp) bool {
	if len(s.Events) > 0 {
		for _, id := range s.Events {
			if id == t.ID {
				return true
			}
		}
		return false
	}
	if t.Date == "" || t.Date < s.From || t.Date > s.To {
		return false
	}
	if len(s.Shops) == 0 {
		return true
	}
	for _, shop := range s.Shops {
		if shop == t.Shop {
			return true
		}
	}
	return false
}

// EventStamp is what a cross-event read knows of an event before it reads
// its record: enough to order events, gather a season's and tell that an
// event changed (a finished event changes only by being reopened, which
// clears Closed; closing it again stamps it anew).
type EventStamp struct {
	ID        int64
	Name      string
	Date      string
	Shop      string
	Imported  string
	CreatedAt time.Time
	Closed    *time.Time // nil while the event is open
}

// RealName is a person's real name as recorded for a qualification's
// prizes and final, shown to judges only.
type RealName struct {
	PersonID   int64
	Name       string
	RecordedBy string
	At         time.Time
}

// What an imported event was imported from (Tournament.Imported).
const (
	// ImportedFromSheet marks an event imported from a results sheet
	// (date, shop, each table's players and VP).
	ImportedFromSheet = "results-sheet"
	// ImportedFromRecord marks an event restored from its record file
	// (Service.ImportRecord).
	ImportedFromRecord = "record-file"
)

// PastEventWrite is a past event as the store writes it in one
// transaction: the tournament (finished, marked imported), its players
// with their people as the registry decided (Player.Person), and its games.
type PastEventWrite struct {
	Tournament *Tournament
	Players    []*Player
	// Rounds hold the tables, each seating players by their index in
	// Players; the store sets the IDs.
	Rounds []PastRound
	Judge  string
	At     time.Time
}

// PastRound is one round of a past event.
type PastRound struct {
	Number int
	Tables []PastTable
}

// PastTable is one game of a past event: the players by index in
// PastEventWrite.Players with their VP, and the declarer's index (-1 when
// the game ended by time).
type PastTable struct {
	Number   int
	Players  []int
	VP       []int
	Declared int
}

// LeagueStore is the store of the reads and writes across events. Store
// includes it.
type LeagueStore interface {
	// EventStamps lists every tournament's stamp, by ID.
	EventStamps(ctx context.Context) ([]EventStamp, error)
	// MergeCount counts the merges of people ever made: a merge moves a
	// finished event's players to another person, which no event's stamp
	// shows.
	MergeCount(ctx context.Context) (int64, error)
	// Entrants lists, per tournament of ids, the people who took part in
	// it: checked in, or with a score on record.
	Entrants(ctx context.Context, ids []int64) (map[int64][]int64, error)
	// PeopleByID lists the people of ids that the registry has, archived
	// ones too, by ID.
	PeopleByID(ctx context.Context, ids []int64) ([]Person, error)

	// CreateSeason inserts s and sets s.ID and s.CreatedAt's stored value.
	CreateSeason(ctx context.Context, s *Season, c Change) error
	// Season returns a season.
	Season(ctx context.Context, id int64) (Season, error)
	// Seasons lists every season, newest first.
	Seasons(ctx context.Context) ([]Season, error)

	// RealNames returns the real names recorded of people, by person.
	RealNames(ctx context.Context, people []int64) (map[int64]RealName, error)
	// SetRealName records a person's real name (replacing one recorded),
	// with the audit entry c outside any tournament.
	SetRealName(ctx context.Context, r RealName, c Change) error

	// ImportPastEvent writes a past event whole, as w says, and sets the
	// IDs of its tournament and players: one transaction with the audit
	// entry c, the tournament finished once written.
	ImportPastEvent(ctx context.Context, w *PastEventWrite, c Change) error
}
