package tournament

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// Record is a tournament's whole record, as the record file holds it
// (docs/record.md; package recordfile reads and writes the file): the
// facts the server keeps (the settings with the tournament's copy of its
// ruleset, the players, every round with its tables' seatings, boards,
// result revisions, players' reports and recorded games, its amendments,
// cut and clock, the penalties) and, beside them, what the server derives
// from those facts (each board, each table's placings, the standings, the
// final results), so that someone without the server reads both and
// CheckRecord can derive them again and compare.
//
// A record that another program wrote, or a hand-made one, may leave out
// what it cannot give: a derived value left out is nil and is not
// compared; a fact left out leaves what is derived from it unchecked.
type Record struct {
	Tournament Tournament
	Players    []Player // by ID
	// Members are the players' member numbers in the registry, by player
	// ID; a player without one is left out.
	Members   map[int64]string
	Rounds    []RecordRound // by number
	Penalties []Penalty     // oldest first, revoked ones included
	// Standings are the standings over the qualifying rounds, by rank
	// (Service.Standings), and Final the final results, empty before the
	// final is played (Service.FinalStandings); either is nil when the
	// record does not give it.
	Standings []Standing
	Final     []FinalStanding
	WrittenAt time.Time
	// Teams are a team event's teams (Tournament.Team) with their members
	// and the line-ups they named, in the order registered; TeamStandings
	// are its team standings over Standings (Snapshot.TeamStandings),
	// derived, nil when the record does not give them.
	Teams         []Team
	TeamStandings []TeamStanding
}

// RecordRound is one round of a Record: the round as recorded, with each
// table's latest result revision in Table.Result, its clock's facts and
// each table's history.
type RecordRound struct {
	Round
	Clock  []ClockEvent  // oldest first; TableID is the table's ID in Round.Tables
	Tables []RecordTable // as Round.Tables, table by table
	// Unscored says the record does not give the round's repeats
	// (Round.Repeats), and Uncosted its cost (Round.Cost): CheckRecord
	// counts them, and an import records what it counts.
	Unscored, Uncosted bool
}

// RecordTable is the history of one table of a RecordRound and what the
// server derives from it.
type RecordTable struct {
	Revisions []Result   // every revision, oldest first: the last is Table.Result
	Reports   []Report   // the players' reports of the table, oldest first
	Moves     []GameMove // the table's recorded game, first move first
	// Board is the board the table's BoardRecord makes, and Places the
	// placings of its latest revision (Service.RoundView): derived, nil
	// when the record does not give them.
	Board  *referee.Board
	Places []Placing
}

// Record reads a tournament's whole record for the record file
// (GET /api/v1/tournaments/{id}/record).
func (s *Service) Record(ctx context.Context, tournamentID int64) (Record, error) {
	// The record is read in several reads; a change between them (a
	// result saved meanwhile) would mix two states of a table, so a read
	// that saw one is made again.
	for attempt := 1; ; attempt++ {
		r, consistent, err := s.readRecord(ctx, tournamentID)
		if err != nil || consistent {
			return r, err
		}
		if attempt == 3 {
			return Record{}, Conflict("record-changing", fmt.Sprintf("tournament %d changed while its record was read, three times: try again", tournamentID), nil)
		}
	}
}

// readRecord reads the record once; consistent is false when a table's
// history read after the rounds is newer than the rounds as read.
func (s *Service) readRecord(ctx context.Context, tournamentID int64) (Record, bool, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Record{}, false, err
	}
	r := Record{Tournament: e.t, Players: slices.Clone(e.players), Penalties: slices.Clone(e.penalties), WrittenAt: s.now().UTC()}
	slices.SortFunc(r.Players, func(a, b Player) int { return cmp.Compare(a.ID, b.ID) })
	if r.Members, err = s.store.Members(ctx, tournamentID); err != nil {
		return Record{}, false, err
	}
	reports, err := s.store.Reports(ctx, tournamentID)
	if err != nil {
		return Record{}, false, err
	}
	if r.Standings, err = e.standings(); err != nil {
		return Record{}, false, err
	}
	if r.Final, err = e.finalStandings(); err != nil {
		return Record{}, false, err
	}
	// A record gives both, empty when there are none (nil is "not given").
	if r.Standings == nil {
		r.Standings = []Standing{}
	}
	if r.Final == nil {
		r.Final = []FinalStanding{}
	}
	if e.t.Team {
		r.Teams = slices.Clone(e.teams)
		r.TeamStandings = append([]TeamStanding{}, e.teamStandingsOf(r.Standings)...)
	}
	for _, round := range e.rounds {
		rr := RecordRound{Round: round}
		if rr.Clock, err = s.store.ClockEvents(ctx, round.ID); err != nil {
			return Record{}, false, err
		}
		for _, t := range round.Tables {
			tv, err := e.tableView(round, t)
			if err != nil {
				return Record{}, false, err
			}
			rt := RecordTable{Board: tv.Board, Places: tv.Places}
			if t.Result != nil {
				if rt.Revisions, err = s.store.Revisions(ctx, t.ID); err != nil {
					return Record{}, false, err
				}
				if len(rt.Revisions) == 0 || rt.Revisions[len(rt.Revisions)-1].Version != t.Result.Version {
					return Record{}, false, nil
				}
			}
			if t.Moves > 0 {
				if rt.Moves, err = s.store.GameMoves(ctx, t.ID); err != nil {
					return Record{}, false, err
				}
				if len(rt.Moves) != t.Moves {
					return Record{}, false, nil
				}
			}
			for _, rep := range reports {
				if rep.TableID == t.ID {
					rt.Reports = append(rt.Reports, rep)
				}
			}
			rr.Tables = append(rr.Tables, rt)
		}
		r.Rounds = append(r.Rounds, rr)
	}
	return r, true, nil
}
