package recordfile

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// TeamJSON is a team of a team event: its players, in the order the team
// registered them, and the line-ups it named, by round.
type TeamJSON struct {
	ID      int64        `json:"id"` // the writing server's
	Name    string       `json:"name"`
	Players []int64      `json:"players"`
	Lineups []LineupJSON `json:"lineups,omitempty"`
}

// LineupJSON is the players a team named for a round, in the order named.
// A round a team named no line-up for plays the players the pairing took
// (docs/rules.md, Team events): the round's tables say whom.
type LineupJSON struct {
	Round   int        `json:"round"`
	Players []int64    `json:"players"`
	Judge   string     `json:"judge,omitempty"`
	At      *time.Time `json:"at,omitempty"`
}

// TeamStandingJSON is a team's line in the team standings (derived).
type TeamStandingJSON struct {
	Rank   int     `json:"rank"`
	Team   int64   `json:"team"`
	Name   string  `json:"name"`
	Points int     `json:"points"`
	VP     int     `json:"vp"`
	Firsts int     `json:"firsts"`
	Share  float64 `json:"share"`
	Played int     `json:"played"`
}

// teamsJSON writes the team event and division of r into f: nothing for
// an event of neither, so that its file stays as it was.
func teamsJSON(r tournament.Record, f *File) {
	f.Tournament.Team, f.Tournament.Division = r.Tournament.Team, r.Tournament.Division
	for _, t := range r.Teams {
		tj := TeamJSON{ID: t.ID, Name: t.Name, Players: nonNil(t.Players)}
		for _, l := range t.Lineups {
			tj.Lineups = append(tj.Lineups, LineupJSON{Round: l.Round, Players: nonNil(l.Players), Judge: l.Judge, At: timeOf(l.At)})
		}
		f.Teams = append(f.Teams, tj)
	}
	if r.TeamStandings != nil {
		st := []TeamStandingJSON{}
		for _, s := range r.TeamStandings {
			st = append(st, TeamStandingJSON{Rank: s.Rank, Team: s.TeamID, Name: s.Name, Points: s.Points, VP: s.VP, Firsts: s.Firsts,
				Share: s.Share, Played: s.Played})
		}
		f.TeamStandings = &st
	}
}

// teamsOf reads the team event and division of the file into r, whose
// players are read. An error names what cannot be: teams of an event that
// is no team event, a team's ID or name given twice, a team's player who
// is not a player of the record or is of another team too, a line-up of a
// round the event does not have, named twice, or of a player not of the
// team, a team standing of a team the record does not have.
func (f File) teamsOf(r *tournament.Record) error {
	r.Tournament.Team, r.Tournament.Division = f.Tournament.Team, f.Tournament.Division
	if !f.Tournament.Team && (len(f.Teams) > 0 || f.TeamStandings != nil) {
		return fmt.Errorf(`the record gives teams, but the tournament is no team event (it says no "team": true)`)
	}
	names := map[int64]string{}
	for _, p := range r.Players {
		names[p.ID] = p.Name
	}
	player := func(id int64) string {
		if n, ok := names[id]; ok {
			return fmt.Sprintf("%s (%d)", n, id)
		}
		return fmt.Sprintf("player %d", id)
	}
	ids, teamOf := map[int64]bool{}, map[int64]string{}
	for _, tj := range f.Teams {
		where := fmt.Sprintf("team %q", tj.Name)
		switch {
		case tj.ID <= 0 || ids[tj.ID]:
			return fmt.Errorf("%s: its ID %d is not a positive number of one team", where, tj.ID)
		case strings.TrimSpace(tj.Name) == "":
			return fmt.Errorf("team %d has no name", tj.ID)
		}
		ids[tj.ID] = true
		t := tournament.Team{ID: tj.ID, TournamentID: r.Tournament.ID, Name: tj.Name, Players: slices.Clone(tj.Players)}
		for _, id := range tj.Players {
			if _, ok := names[id]; !ok {
				return fmt.Errorf("%s: player %d is not a player of the record", where, id)
			}
			if other, ok := teamOf[id]; ok {
				return fmt.Errorf("%s: %s is of team %q too: a player is of one team at most", where, player(id), other)
			}
			teamOf[id] = tj.Name
		}
		for _, lj := range tj.Lineups {
			which := fmt.Sprintf("%s, its line-up of round %d", where, lj.Round)
			if lj.Round < 1 || lj.Round > f.Tournament.Rounds {
				return fmt.Errorf("%s: the tournament has rounds 1 to %d", which, f.Tournament.Rounds)
			}
			if _, twice := t.Lineup(lj.Round); twice {
				return fmt.Errorf("%s: the team names two line-ups for the round", which)
			}
			for _, id := range lj.Players {
				if !slices.Contains(tj.Players, id) {
					return fmt.Errorf("%s: %s is not a player of the team", which, player(id))
				}
			}
			t.Lineups = append(t.Lineups, tournament.Lineup{TeamID: tj.ID, Round: lj.Round, Players: slices.Clone(lj.Players), Judge: lj.Judge, At: at(lj.At)})
		}
		r.Teams = append(r.Teams, t)
	}
	for _, tj := range f.Teams {
		for _, o := range f.Teams {
			if o.ID != tj.ID && o.Name == tj.Name {
				return fmt.Errorf("two teams are named %q", tj.Name)
			}
		}
	}
	if f.TeamStandings == nil {
		return nil
	}
	r.TeamStandings = []tournament.TeamStanding{}
	for _, s := range *f.TeamStandings {
		if !ids[s.Team] {
			return fmt.Errorf("the team standings rank team %d (%s), which the record does not have", s.Team, s.Name)
		}
		r.TeamStandings = append(r.TeamStandings, tournament.TeamStanding{Rank: s.Rank, TeamID: s.Team, Name: s.Name, Points: s.Points, VP: s.VP,
			Firsts: s.Firsts, Share: s.Share, Played: s.Played})
	}
	return nil
}
