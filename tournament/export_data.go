package tournament

import (
	"context"
	"slices"
)

// ExportData is everything the Excel export shows of a tournament, read in
// one pass so the sheets agree with each other: the standings are computed
// from the same rounds and penalties the other sheets list.
type ExportData struct {
	Tournament Tournament
	Players    []Player   // by CollationKey
	Standings  []Standing // by rank, as Standings returns them
	// Final is the final results once a final is played (FinalStandings);
	// nil before.
	Final []FinalStanding
	// Winners are who won the event once it is finished (Winners).
	Winners []Winner
	// Rounds holds every round by number with its tables' players, boards
	// and placings. Clock, Missing and Withdrawn are left empty: the export
	// reports what was recorded, not what the console should do next.
	Rounds    []RoundView
	Penalties []Penalty // oldest first, revoked ones included
	// Teams are a team event's standings (Snapshot.TeamStandings); nil
	// for an event without teams.
	Teams []TeamStanding
}

// ExportData returns a tournament's players, standings, rounds and
// penalties for the Excel export (package export).
func (s *Service) ExportData(ctx context.Context, tournamentID int64) (ExportData, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return ExportData{}, err
	}
	return snap.ExportData()
}

// exportData computes the event's ExportData.
func (e record) exportData() (ExportData, error) {
	d := ExportData{Tournament: e.t, Players: slices.Clone(e.players), Penalties: e.penalties}
	sortPlayers(d.Players)
	var err error
	if d.Standings, err = e.standings(); err != nil {
		return ExportData{}, err
	}
	if d.Final, err = e.finalStandings(); err != nil {
		return ExportData{}, err
	}
	d.Winners = e.winners(d.Standings, d.Final)
	d.Teams = e.teamStandingsOf(d.Standings)
	for _, r := range e.rounds {
		v := RoundView{Round: r}
		for _, t := range r.Tables {
			tv, err := e.tableView(r, t)
			if err != nil {
				return ExportData{}, err
			}
			v.Tables = append(v.Tables, tv)
		}
		for _, id := range r.Byes {
			if p, ok := e.player(id); ok {
				v.Byes = append(v.Byes, p)
			}
		}
		d.Rounds = append(d.Rounds, v)
	}
	return d, nil
}
