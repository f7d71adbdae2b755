package tournament

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// Team is a team of a team event (Tournament.Team; docs/rules.md, Team
// events): 4 to 6 of the tournament's players, of whom the team names 4
// for each round.
type Team struct {
	ID           int64
	TournamentID int64
	Name         string
	// Players are the team's members, in the order the team registered
	// them. A player is of one team at most.
	Players   []int64
	Lineups   []Lineup // the line-ups named, by round
	CreatedAt time.Time
}

// Lineup is the players a team named for a round.
type Lineup struct {
	TeamID  int64
	Round   int
	Players []int64 // in the order named
	Judge   string  // who entered it
	At      time.Time
}

// Lineup returns the line-up the team named for round n, and false when
// it named none.
func (t Team) Lineup(n int) (Lineup, bool) {
	i := slices.IndexFunc(t.Lineups, func(l Lineup) bool { return l.Round == n })
	if i < 0 {
		return Lineup{}, false
	}
	return t.Lineups[i], true
}

// TeamStore is the part of the Store that keeps teams.
type TeamStore interface {
	// AddTeam inserts t with its members and sets t.ID. It is the Conflict
	// team-name-taken when the tournament has a team of that name, and
	// player-in-team when one of its players is in a team already (another
	// judge registered them meanwhile).
	AddTeam(ctx context.Context, t *Team, c Change) error
	// SetLineup records l as its team's line-up for round l.Round,
	// replacing one named before. from is the tournament's progress the
	// line-up was checked against: it is a conflict when it moved on (the
	// round was paired meanwhile).
	SetLineup(ctx context.Context, l *Lineup, from Progress, c Change) error
}

// TeamInput is a team's registration: its name and its players, already
// registered in the tournament.
type TeamInput struct {
	Name    string
	Players []int64
}

// maxTeamName is the longest team name taken, in characters.
const maxTeamName = 40

// RegisterTeam registers a team of the tournament's players in a team
// event. Refused (and nothing changed): a tournament that is no team
// event (not-a-team-event), a name missing, too long or taken
// (team-name-missing, team-name-too-long, team-name-taken), a team of too
// few or too many players (team-too-small, team-too-large: the ruleset's
// 4 to 6), a player named twice, not of the tournament (unknown-player),
// or of another team already (player-in-team).
func (s *Service) RegisterTeam(ctx context.Context, judge string, tournamentID int64, in TeamInput) (Team, error) {
	if err := checkJudge(judge); err != nil {
		return Team{}, err
	}
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Team{}, err
	}
	if err := e.checkTeamEvent(); err != nil {
		return Team{}, err
	}
	name := strings.Join(strings.Fields(in.Name), " ")
	switch {
	case name == "":
		return Team{}, invalid("team-name-missing", "a team needs a name", nil)
	case len([]rune(name)) > maxTeamName:
		return Team{}, invalid("team-name-too-long", fmt.Sprintf("a team name has at most %d characters", maxTeamName), map[string]any{"Max": maxTeamName})
	}
	for _, t := range e.teams {
		if strings.EqualFold(t.Name, name) {
			return Team{}, Conflict("team-name-taken", fmt.Sprintf("the tournament has a team %q", t.Name), map[string]any{"Team": t.Name})
		}
	}
	if err := referee.CheckTeam(e.t.Ruleset.WithDefaults().Teams, pids(in.Players)); err != nil {
		return Team{}, fmt.Errorf("%w: %w", ErrInvalid, e.named(err))
	}
	for _, id := range in.Players {
		p, ok := e.player(id)
		if !ok {
			return Team{}, invalid("team-player-unknown", fmt.Sprintf("player %d is not in tournament %d", id, tournamentID), map[string]any{"ID": id})
		}
		if t, ok := e.teamOf(id); ok {
			return Team{}, Conflict("player-in-team", fmt.Sprintf("%s plays for team %s", p.Name, t.Name), map[string]any{"Player": p.Name, "Team": t.Name})
		}
	}
	t := Team{TournamentID: tournamentID, Name: name, Players: slices.Clone(in.Players), CreatedAt: s.now().UTC()}
	c := s.change(judge, "team.register", "team "+name, nil, &t)
	if err := s.store.AddTeam(ctx, &t, c); err != nil {
		return Team{}, err
	}
	return t, nil
}

// NameLineup records the players a team plays in round n, named by the
// team or by a judge, before round n is paired. Refused (and nothing
// changed): an unknown team, a round already paired or past the
// tournament's rounds (lineup-round-paired, lineup-round-unknown), and
// what referee.CheckLineup refuses: the wrong number of players
// (lineup-size), a player of another team or none (lineup-not-member),
// named twice, or not playing the round (lineup-player-inactive).
func (s *Service) NameLineup(ctx context.Context, judge string, tournamentID, teamID int64, n int, players []int64) (Lineup, error) {
	e, err := s.loadOpen(ctx, judge, tournamentID)
	if err != nil {
		return Lineup{}, err
	}
	t, ok := e.team(teamID)
	if !ok {
		return Lineup{}, fmt.Errorf("team %d of tournament %d: %w", teamID, tournamentID, ErrNotFound)
	}
	paired := len(e.rounds)
	switch {
	case n >= 1 && n <= paired:
		return Lineup{}, Conflict("lineup-round-paired", fmt.Sprintf("round %d is paired; its line-ups stay as they were", n), map[string]any{"Round": n})
	case n < 1 || n > e.t.Rounds:
		return Lineup{}, invalid("lineup-round-unknown", fmt.Sprintf("the tournament has rounds 1 to %d, not %d", e.t.Rounds, n),
			map[string]any{"Round": n, "Rounds": e.t.Rounds})
	}
	active := func(id string) bool {
		p, ok := e.player(fromPID(id))
		return ok && p.Active(n)
	}
	if err := referee.CheckLineup(e.t.Ruleset.WithDefaults().Teams, pids(players), pids(t.Players), active); err != nil {
		return Lineup{}, fmt.Errorf("%w: %w", ErrInvalid, e.named(err))
	}
	l := Lineup{TeamID: t.ID, Round: n, Players: slices.Clone(players), Judge: judge, At: s.now().UTC()}
	before, _ := t.Lineup(n)
	c := s.change(judge, "team.lineup", fmt.Sprintf("team %s round %d", t.Name, n), before, &l)
	prog, err := s.store.Progress(ctx, tournamentID)
	if err != nil {
		return Lineup{}, err
	}
	if prog.Paired != paired {
		return Lineup{}, Conflict("tournament-progressed", "the tournament moved on since the line-up was checked", map[string]any{"Paired": prog.Paired})
	}
	if err := s.store.SetLineup(ctx, &l, prog, c); err != nil {
		return Lineup{}, err
	}
	return l, nil
}

// checkTeamEventChange refuses making a tournament a team event, or no
// longer one, once round 1 is paired: who plays each round follows from it.
func checkTeamEventChange(t Tournament, team bool, prog Progress) error {
	if t.Team != team && prog.Paired > 0 {
		return invalid("team-event-started", "a tournament becomes a team event, or stops being one, only before round 1 is paired", nil)
	}
	return nil
}

// checkTeamEvent refuses a team's registration in a tournament that is
// no team event, or is closed.
func (e record) checkTeamEvent() error {
	if err := e.t.checkOpen(); err != nil {
		return err
	}
	if !e.t.Team {
		return invalid("not-a-team-event", fmt.Sprintf("tournament %d is not a team event", e.t.ID), nil)
	}
	return nil
}

// team returns a team of the event.
func (e record) team(id int64) (Team, bool) {
	i := slices.IndexFunc(e.teams, func(t Team) bool { return t.ID == id })
	if i < 0 {
		return Team{}, false
	}
	return e.teams[i], true
}

// teamOf returns the team a player plays for.
func (e record) teamOf(player int64) (Team, bool) {
	for _, t := range e.teams {
		if slices.Contains(t.Players, player) {
			return t, true
		}
	}
	return Team{}, false
}

// How a team's line-up for a round was decided (Snapshot.PlannedLineup).
const (
	LineupNamed    = "named"    // the team (or a judge) named it
	LineupAll      = "all"      // the team has exactly the players a round takes
	LineupPrevious = "previous" // the line-up it played last, all still playing
	LineupMissing  = "missing"  // none: the round cannot be paired yet
)

// lineupOf returns the players team t plays in round n and how that was
// decided (docs/rules.md, Team events): the line-up the team named; else,
// for a team with exactly the players a round takes who play it, those
// players; else the line-up the team named for the latest round before n,
// when its players all still play; else none (LineupMissing).
func (e record) lineupOf(t Team, n int) ([]int64, string) {
	if l, ok := t.Lineup(n); ok {
		return l.Players, LineupNamed
	}
	playing := func(id int64) bool {
		p, ok := e.player(id)
		return ok && p.Active(n)
	}
	var active []int64
	for _, id := range t.Players {
		if playing(id) {
			active = append(active, id)
		}
	}
	if len(active) == e.t.Ruleset.WithDefaults().Teams.Plays {
		return active, LineupAll
	}
	for k := n - 1; k >= 1; k-- {
		if prev, ok := t.Lineup(k); ok {
			if slices.ContainsFunc(prev.Players, func(id int64) bool { return !playing(id) }) {
				break
			}
			return prev.Players, LineupPrevious
		}
	}
	return nil, LineupMissing
}

// lineups returns the players each team plays in round n of a team event,
// by team (lineupOf). A team without a line-up is refused
// (lineup-missing), as is a line-up's player who is not checked in
// (lineup-not-checked-in): the judge names the round's line-up on the
// team's page.
func (e record) lineups(n int) ([][]int64, error) {
	plays := e.t.Ruleset.WithDefaults().Teams.Plays
	var out [][]int64
	for _, t := range e.teams {
		ids, how := e.lineupOf(t, n)
		if how == LineupMissing {
			return nil, invalid("lineup-missing", fmt.Sprintf("team %s has named no line-up for round %d", t.Name, n),
				map[string]any{"Team": t.Name, "Round": n, "Plays": plays})
		}
		for _, id := range ids {
			if p, ok := e.player(id); !ok || !p.CheckedIn {
				return nil, invalid("lineup-not-checked-in", fmt.Sprintf("%s of team %s is not checked in", p.Name, t.Name),
					map[string]any{"Team": t.Name, "Player": p.Name, "Round": n})
			}
		}
		out = append(out, ids)
	}
	return out, nil
}

// PlannedLineup returns the players team plays in round n as the pairing
// would take them now, and how that was decided (LineupNamed, LineupAll,
// LineupPrevious, or LineupMissing with no players).
func (s *Snapshot) PlannedLineup(team Team, n int) ([]int64, string) { return s.e.lineupOf(team, n) }

// teamApart returns the pairs of team-mates among the players in, as the
// pairing's keep-apart pairs: docs/rules.md, Team events.
func (e record) teamApart(in map[int64]bool) [][2]string {
	if !e.t.Team {
		return nil
	}
	teams := make([][]string, 0, len(e.teams))
	for _, t := range e.teams {
		var ids []int64
		for _, id := range t.Players {
			if in[id] {
				ids = append(ids, id)
			}
		}
		teams = append(teams, pids(ids))
	}
	return referee.TeamApart(teams)
}

// TeamStanding is a team's line in the team standings.
type TeamStanding struct {
	Rank   int
	TeamID int64
	Name   string
	Points int     // its players' placement points
	VP     int     // its players' VP
	Firsts int     // its players' 1st places
	Share  float64 // its players' VP shares
	Played int     // games its players played
	// Players are the team's players' own standings, by the team's order.
	Players []Standing
}

// Teams lists the event's teams, in the order registered.
func (s *Snapshot) Teams() []Team { return s.e.teams }

// Team returns a team of the event.
func (s *Snapshot) Team(id int64) (Team, error) {
	t, ok := s.e.team(id)
	if !ok {
		return Team{}, fmt.Errorf("team %d of tournament %d: %w", id, s.e.t.ID, ErrNotFound)
	}
	return t, nil
}

// TeamOf returns the team a player plays for, and false for none.
func (s *Snapshot) TeamOf(player int64) (Team, bool) { return s.e.teamOf(player) }

// TeamStandings ranks the event's teams by the ruleset's formula
// (referee.TeamStandings: placement points, then VP) over the players'
// standings (Standings). Empty for an event without teams.
func (s *Snapshot) TeamStandings() ([]TeamStanding, error) {
	return s.teamStandings.get(func() ([]TeamStanding, error) {
		if len(s.e.teams) == 0 {
			return nil, nil
		}
		st, err := s.Standings()
		if err != nil {
			return nil, err
		}
		return s.e.teamStandingsOf(st), nil
	})
}

// TeamStandingsOf ranks the event's teams over the players' standings
// st (Standings, or StandingsAfter a round): the team standings of that
// moment.
func (s *Snapshot) TeamStandingsOf(st []Standing) []TeamStanding { return s.e.teamStandingsOf(st) }

// teamStandingsOf ranks the event's teams over the players' standings st.
func (e record) teamStandingsOf(st []Standing) []TeamStanding {
	if len(e.teams) == 0 {
		return nil
	}
	ref := make([]referee.Standing, 0, len(st))
	byID := make(map[int64]Standing, len(st))
	for _, x := range st {
		ref = append(ref, referee.Standing{Player: pid(x.PlayerID), Firsts: x.Firsts, VP: x.VP, Share: x.Share, Points: x.Points, Played: x.Played, Byes: x.Byes})
		byID[x.PlayerID] = x
	}
	teams := make([]referee.Team, len(e.teams))
	byName := make(map[string]Team, len(e.teams))
	for i, t := range e.teams {
		teams[i] = referee.Team{Name: t.Name, Players: pids(t.Players)}
		byName[t.Name] = t
	}
	ranked := referee.TeamStandings(e.t.Ruleset.WithDefaults().Teams, ref, teams)
	out := make([]TeamStanding, len(ranked))
	for i, r := range ranked {
		t := byName[r.Team]
		out[i] = TeamStanding{Rank: r.Rank, TeamID: t.ID, Name: t.Name, Points: r.Points, VP: r.VP, Firsts: r.Firsts, Share: r.Share, Played: r.Played}
		for _, id := range t.Players {
			out[i].Players = append(out[i].Players, byID[id])
		}
		slices.SortStableFunc(out[i].Players, func(a, b Standing) int { return a.Rank - b.Rank })
	}
	return out
}
