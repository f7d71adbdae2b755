package tournament

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// Snapshot is one tournament's recorded facts as they stood at one version
// of it: its settings, players, rounds with their tables (seatings,
// boards, latest results), the rounds' clocks, the penalties and the
// players' reports. It is read from the store in one consistent read once
// per change of the tournament (Service.Snapshot), and shared by every
// reader on the server until the next change: the console's pages, the
// JSON API's reads, the kiosk and the players' pages all ask it, and none
// of its methods touches the database.
//
// A Snapshot never changes. What its methods derive from the facts (a
// round's view, the standings, the live state, the players' record) is
// computed once, on first use, and shared too: callers must not modify
// what they are given. Methods that show a clock take the moment to show
// it at; everything else of a snapshot changes only with a recorded change.
//
// Version is the tournament's version the facts were read at: the store
// bumps it with every transaction that changes the tournament, so two
// snapshots of one version hold the same facts, and a snapshot of a higher
// version holds every change of the lower ones. A page keyed by
// (tournament, version) is the same page until the version moves.
type Snapshot struct {
	version int64
	e       record

	players   lazy[[]Player]
	standings lazy[[]Standing]
	live      lazy[Live]
	results   lazy[EventResults]
	final     lazy[[]FinalStanding]
	views     []lazy[RoundView] // by round number - 1
	byTable   lazy[map[int64][]Report]
	// teamStandings are a team event's standings (TeamStandings).
	teamStandings lazy[[]TeamStanding]
}

// lazy is a value computed once, on first use, by whichever reader asks
// first; the others wait for it.
type lazy[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (l *lazy[T]) get(f func() (T, error)) (T, error) {
	l.once.Do(func() { l.v, l.err = f() })
	return l.v, l.err
}

// EventRecord is a tournament's recorded facts as one consistent read of
// the store gives them (Store.Event): everything a Snapshot is made from.
type EventRecord struct {
	// Version is the tournament's version the facts were read at.
	Version    int64
	Tournament Tournament
	Players    []Player // as Store.Players orders them
	Rounds     []Round  // by number, as Store.Rounds gives them
	Penalties  []Penalty
	// Clocks are the rounds' clock events by round ID, oldest first.
	Clocks  map[int64][]ClockEvent
	Reports []Report // oldest first
	// Teams are a team event's teams, in the order registered, with their
	// line-ups (Team).
	Teams []Team
}

// NewSnapshot makes the snapshot of a tournament's facts as read; the
// snapshot keeps them, so the caller must not change them after.
func NewSnapshot(r EventRecord) *Snapshot {
	e := newRecord(r.Tournament, r.Players, r.Rounds, r.Penalties)
	e.clocks = r.Clocks
	if e.clocks == nil {
		e.clocks = map[int64][]ClockEvent{}
	}
	e.reports = r.Reports
	e.teams = r.Teams
	for _, t := range e.teams {
		for _, id := range t.Players {
			if i, ok := e.byID[id]; ok {
				e.players[i].Team = &PlayerTeam{ID: t.ID, Name: t.Name}
			}
		}
	}
	return &Snapshot{version: r.Version, e: e, views: make([]lazy[RoundView], len(r.Rounds))}
}

// newRecord indexes a tournament's facts for the use cases that decide
// from them (record).
func newRecord(t Tournament, players []Player, rounds []Round, penalties []Penalty) record {
	e := record{t: t, players: players, rounds: rounds, penalties: penalties}
	e.byID = make(map[int64]int, len(e.players))
	for i, p := range e.players {
		e.byID[p.ID] = i
	}
	e.labels = Labels(e.players)
	e.sanctions = map[entry][]referee.Sanction{}
	e.gamePenalties = map[entry][]Penalty{}
	for _, p := range e.penalties {
		if p.Revoked == nil && p.Round != 0 {
			k := entry{p.Round, p.PlayerID}
			e.sanctions[k] = append(e.sanctions[k], referee.Sanction{Player: pid(p.PlayerID), Level: p.Level})
			e.gamePenalties[k] = append(e.gamePenalties[k], p)
		}
	}
	return e
}

// Version returns the tournament's version the snapshot was read at.
func (s *Snapshot) Version() int64 { return s.version }

// Tournament returns the tournament's settings, with its closure and
// archival.
func (s *Snapshot) Tournament() Tournament { return s.e.t }

// Players lists the tournament's players by reading, as CollationKey
// orders them (Service.Players).
func (s *Snapshot) Players() []Player {
	ps, _ := s.players.get(func() ([]Player, error) {
		ps := slices.Clone(s.e.players)
		sortPlayers(ps)
		return ps, nil
	})
	return ps
}

// Player returns a player of the tournament; ErrNotFound for a player of
// another tournament or none.
func (s *Snapshot) Player(id int64) (Player, error) {
	p, ok := s.e.player(id)
	if !ok {
		return Player{}, fmt.Errorf("player %d of tournament %d: %w", id, s.e.t.ID, ErrNotFound)
	}
	return p, nil
}

// Labels returns the players' labels by ID (Labels).
func (s *Snapshot) Labels() map[int64]string { return s.e.labels }

// Rounds returns every round as recorded, by number.
func (s *Snapshot) Rounds() []Round { return slices.Clip(s.e.rounds) }

// Round returns round n as recorded.
func (s *Snapshot) Round(n int) (Round, error) { return s.e.round(n) }

// RoundView returns round n with its tables' players, boards and
// placings, its clock as of now (Service.RoundView).
func (s *Snapshot) RoundView(n int, now time.Time) (RoundView, error) {
	if n < 1 || n > len(s.views) {
		return RoundView{}, fmt.Errorf("round %d: %w", n, ErrNotFound)
	}
	v, err := s.views[n-1].get(func() (RoundView, error) { return s.e.roundView(n, now) })
	if err != nil {
		return RoundView{}, err
	}
	return v.At(s.e.t, now), nil
}

// Clock returns round n's clock as of now, with the events it is computed
// from.
func (s *Snapshot) Clock(n int, now time.Time) (Clock, []ClockEvent, error) {
	r, err := s.e.round(n)
	if err != nil {
		return Clock{}, nil, err
	}
	return s.e.clockOf(r, now), s.e.clocks[r.ID], nil
}

// Standings ranks every player from the latest result of every table of
// the qualifying rounds (Service.Standings).
func (s *Snapshot) Standings() ([]Standing, error) {
	return s.standings.get(s.e.standings)
}

// StandingsAfter ranks the players as they stood after round n
// (Service.StandingsAfter).
func (s *Snapshot) StandingsAfter(n int) ([]Standing, error) {
	if n < 1 || n > len(s.e.rounds) {
		return nil, invalid("round-not-paired", fmt.Sprintf("round %d is not paired", n), map[string]any{"Round": n})
	}
	if n == len(s.e.rounds) {
		return s.Standings()
	}
	return s.e.after(n).standings()
}

// FinalStandings returns the event's final results once its final is
// played, or nil before (Service.FinalStandings).
func (s *Snapshot) FinalStandings() ([]FinalStanding, error) {
	return s.final.get(s.e.finalStandings)
}

// Final returns the event's final as the console shows it (Service.Final).
func (s *Snapshot) Final() (FinalView, error) { return s.e.final() }

// CanPair reports whether the next round can be paired now (Service.CanPair).
func (s *Snapshot) CanPair() bool {
	return s.e.t.checkOpen() == nil && nextRound(s.e.t, s.e.rounds) == nil
}

// Live returns what the kiosk shows of the tournament, its clock as of now
// (Service.Live).
func (s *Snapshot) Live(now time.Time) (Live, error) {
	l, err := s.live.get(func() (Live, error) { return s.live0(now) })
	if err != nil {
		return Live{}, err
	}
	return l.At(now), nil
}

// Results returns the tournament's whole record as the players' pages show
// it (Service.EventResults).
func (s *Snapshot) Results() (EventResults, error) {
	return s.results.get(s.e.results)
}

// Penalties lists the tournament's penalties, revoked ones included,
// oldest first.
func (s *Snapshot) Penalties() []Penalty { return slices.Clip(s.e.penalties) }

// PenaltySuggestion returns the level the escalation rules suggest for a
// new penalty of offence given to a player (Service.PenaltySuggestion).
func (s *Snapshot) PenaltySuggestion(playerID int64, offence string) (referee.Suggestion, error) {
	if _, ok := s.e.player(playerID); !ok {
		return referee.Suggestion{}, notInTournament(playerID)
	}
	return s.e.suggest(playerID, offence)
}

// Reports lists the tournament's players' reports, oldest first.
func (s *Snapshot) Reports() []Report { return slices.Clip(s.e.reports) }

// TableReports lists the reports of the table with ID tableID, oldest
// first; none for a table of another tournament.
func (s *Snapshot) TableReports(tableID int64) []Report {
	byTable, _ := s.byTable.get(func() (map[int64][]Report, error) {
		out := map[int64][]Report{}
		for _, r := range s.e.reports {
			out[r.TableID] = append(out[r.TableID], r)
		}
		return out, nil
	})
	return byTable[tableID]
}

// Report returns a report of the tournament.
func (s *Snapshot) Report(id int64) (Report, error) {
	for _, r := range s.e.reports {
		if r.ID == id {
			return r, nil
		}
	}
	return Report{}, fmt.Errorf("report %d of tournament %d: %w", id, s.e.t.ID, ErrNotFound)
}

// ExportData returns what the Excel export shows of the tournament
// (Service.ExportData).
func (s *Snapshot) ExportData() (ExportData, error) { return s.e.exportData() }
