package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Team events (issue 30): teams of the tournament's players, each
// round's line-ups, and the team standings.

// TeamRulesJSON are a team event's rules, the ruleset's.
type TeamRulesJSON struct {
	MinSize int      `json:"min_size"`
	MaxSize int      `json:"max_size"`
	Plays   int      `json:"plays"`
	Order   []string `json:"order"`
	// IndividualStandings says whether the players' own standings are
	// shown beside the teams'.
	IndividualStandings bool `json:"individual_standings"`
}

func teamRulesJSON(t tournament.Tournament) *TeamRulesJSON {
	if !t.Team {
		return nil
	}
	r := t.Ruleset.WithDefaults().Teams
	out := &TeamRulesJSON{MinSize: r.MinSize, MaxSize: r.MaxSize, Plays: r.Plays, IndividualStandings: !r.HideIndividual}
	for _, k := range r.Order {
		out.Order = append(out.Order, string(k))
	}
	return out
}

// PlayerTeamJSON is a player's team.
type PlayerTeamJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

func toPlayerTeamJSON(t *tournament.PlayerTeam) *PlayerTeamJSON {
	if t == nil {
		return nil
	}
	return &PlayerTeamJSON{ID: t.ID, Name: t.Name}
}

// TeamJSON is a team with its players and the line-ups it named.
type TeamJSON struct {
	ID      int64        `json:"id"`
	Name    string       `json:"name"`
	Players []int64      `json:"players"`
	Lineups []LineupJSON `json:"lineups"`
}

// LineupJSON is the players a team named for a round.
type LineupJSON struct {
	Team    int64   `json:"team"`
	Round   int     `json:"round"`
	Players []int64 `json:"players"`
	Judge   string  `json:"judge"`
}

func toLineupJSON(l tournament.Lineup) LineupJSON {
	return LineupJSON{Team: l.TeamID, Round: l.Round, Players: l.Players, Judge: l.Judge}
}

func toTeamJSON(t tournament.Team) TeamJSON {
	out := TeamJSON{ID: t.ID, Name: t.Name, Players: t.Players, Lineups: []LineupJSON{}}
	for _, l := range t.Lineups {
		out.Lineups = append(out.Lineups, toLineupJSON(l))
	}
	return out
}

type teamRequest struct {
	Name    string  `json:"name"`
	Players []int64 `json:"players"`
}

// RegisterTeam registers a team of players already registered: 201 the team.
func (s *Handlers) RegisterTeam(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	var req teamRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	t, err := s.svc.RegisterTeam(c.Request.Context(), auth.Judge(c), tid, tournament.TeamInput(req))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, toTeamJSON(t), nil
}

// ListTeams lists the teams, in the order registered.
func (s *Handlers) ListTeams(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	snap, err := s.svc.Snapshot(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	out := []TeamJSON{}
	for _, t := range snap.Teams() {
		out = append(out, toTeamJSON(t))
	}
	return http.StatusOK, gin.H{"teams": out}, nil
}

type lineupRequest struct {
	Players []int64 `json:"players"`
}

// NameLineup names a team's players for a round not paired yet: 200 the line-up.
func (s *Handlers) NameLineup(c *gin.Context) (int, any, error) {
	tid, n, err := route.RoundParams(c)
	if err != nil {
		return 0, nil, err
	}
	team, err := route.ID(c, "team")
	if err != nil {
		return 0, nil, err
	}
	var req lineupRequest
	if err := decodeJSON(c, &req); err != nil {
		return 0, nil, err
	}
	l, err := s.svc.NameLineup(c.Request.Context(), auth.Judge(c), tid, team, n, req.Players)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, toLineupJSON(l), nil
}

// TeamStandingJSON is a team's line in the team standings.
type TeamStandingJSON struct {
	Rank    int                      `json:"rank"`
	Team    int64                    `json:"team"`
	Name    string                   `json:"name"`
	Points  int                      `json:"points"`
	VP      int                      `json:"vp"`
	Firsts  int                      `json:"firsts"`
	Share   float64                  `json:"share"`
	Played  int                      `json:"played"`
	Players []TournamentStandingJSON `json:"players,omitempty"`
}

// TeamStandingsJSON is the team standings, and the players' own when the
// ruleset shows them.
type TeamStandingsJSON struct {
	Order               []string           `json:"order"`
	IndividualStandings bool               `json:"individual_standings"`
	Teams               []TeamStandingJSON `json:"teams"`
}

// ShowTeamStandings answers the team standings, for anyone (the kiosk
// shows them).
func (s *Handlers) ShowTeamStandings(c *gin.Context) (int, any, error) {
	tid, err := route.ID(c, "id")
	if err != nil {
		return 0, nil, err
	}
	snap, err := s.svc.Snapshot(c.Request.Context(), tid)
	if err != nil {
		return 0, nil, err
	}
	st, err := snap.TeamStandings()
	if err != nil {
		return 0, nil, err
	}
	rules := snap.Tournament().Ruleset.WithDefaults().Teams
	out := TeamStandingsJSON{IndividualStandings: !rules.HideIndividual, Teams: []TeamStandingJSON{}}
	for _, k := range rules.Order {
		out.Order = append(out.Order, string(k))
	}
	for _, x := range st {
		line := TeamStandingJSON{Rank: x.Rank, Team: x.TeamID, Name: x.Name, Points: x.Points, VP: x.VP, Firsts: x.Firsts, Share: roundShare(x.Share), Played: x.Played}
		if out.IndividualStandings {
			line.Players = toStandingsJSON(x.Players)
		}
		out.Teams = append(out.Teams, line)
	}
	return http.StatusOK, out, nil
}
