package tournament

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// The team event and division of a record (issue 30): what CheckRecord
// derives of the teams, and what ImportRecord checks of them.

var (
	fieldTeamName     = textField{name: "team-name", max: maxTeamName}
	fieldDivisionName = textField{name: "division-name", max: maxDivisionName}
)

// teamSizes checks that each team of a team event has as many players
// as the ruleset takes (referee.CheckTeam: 4 to 6).
func (c *checker) teamSizes() {
	if !c.r.Tournament.Team {
		return
	}
	for _, t := range c.e.teams {
		if err := referee.CheckTeam(c.e.t.Ruleset.Teams, pids(t.Players)); err != nil {
			c.fail(0, 0, "teams", "team %s: %v", t.Name, c.e.named(err))
		}
	}
}

// teamRound checks a qualifying round of a team event: each team plays
// its line-up, and team-mates sit apart.
func (c *checker) teamRound(rr RecordRound) {
	if !c.r.Tournament.Team || rr.Mode == ModeFinal {
		return
	}
	c.lineups(rr)
	c.teamMates(rr)
}

// lineups checks that each team plays in round rr the players its
// line-up makes (record.lineupOf, as the pairing took them): the one it
// named, else all its players when it has as many as a round takes, else
// its line-up of the round before.
func (c *checker) lineups(rr RecordRound) {
	played := map[int64]bool{}
	for _, t := range rr.Round.Tables {
		for _, id := range t.Players {
			played[id] = true
		}
	}
	for _, id := range rr.Byes {
		played[id] = true
	}
	for _, team := range c.e.teams {
		var got []int64
		for _, id := range team.Players {
			if played[id] {
				got = append(got, id)
			}
		}
		want, how := c.e.lineupOf(team, rr.Number)
		switch {
		case how == LineupMissing && len(got) > 0:
			c.fail(rr.Number, 0, "teams", "team %s plays %s, but its line-up for the round cannot be told: it named none", team.Name, c.list(got))
		case how != LineupMissing && !sameIDs(got, want):
			c.fail(rr.Number, 0, "teams", "team %s plays %s; its line-up (%s) is %s", team.Name, c.list(got), how, c.list(want))
		}
	}
}

func sameIDs(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// teamMates checks that no table of round rr seats two players of one
// team (docs/rules.md, Team events).
func (c *checker) teamMates(rr RecordRound) {
	for _, t := range rr.Round.Tables {
		first := map[int64]int64{} // team → its first player at the table
		for _, id := range t.Players {
			team, ok := c.e.teamOf(id)
			if !ok {
				continue
			}
			if mate, met := first[team.ID]; met {
				c.fail(rr.Number, t.Number, "teams", "%s and %s of team %s sit at the table: team-mates never play at one table",
					c.who(mate), c.who(id), team.Name)
				continue
			}
			first[team.ID] = id
		}
	}
}

// teamStandings derives a team event's team standings from the players'
// (record.teamStandingsOf over record.standings) and compares them with
// the record's.
func (c *checker) teamStandings() {
	if !c.r.Tournament.Team {
		return
	}
	if c.r.TeamStandings == nil {
		c.unchecked(0, 0, "team standings", "the record gives no team standings")
		return
	}
	st, err := c.e.standings()
	if err != nil {
		return // standings says why
	}
	c.out.Checked.TeamStandings = true
	want := map[int64]TeamStanding{}
	for _, s := range c.r.TeamStandings {
		want[s.TeamID] = s
	}
	for _, g := range c.e.teamStandingsOf(st) {
		w, ok := want[g.TeamID]
		delete(want, g.TeamID)
		if !ok {
			c.fail(0, 0, "team standings", "team %s is not in the record's team standings; the standings rank it %d", g.Name, g.Rank)
			continue
		}
		var d []string
		for _, f := range []struct {
			name      string
			rec, made int
		}{{"rank", w.Rank, g.Rank}, {"placement points", w.Points, g.Points}, {"VP", w.VP, g.VP}, {"1st places", w.Firsts, g.Firsts},
			{"games played", w.Played, g.Played}} {
			if f.rec != f.made {
				d = append(d, fmt.Sprintf("%s %d, the standings make %d", f.name, f.rec, f.made))
			}
		}
		if math.Abs(w.Share-g.Share) > 1e-6 {
			d = append(d, fmt.Sprintf("VP share %.4f, the standings make %.4f", w.Share, g.Share))
		}
		if len(d) > 0 {
			c.fail(0, 0, "team standings", "team %s: %s", g.Name, strings.Join(d, "; "))
		}
	}
	for _, w := range want {
		c.fail(0, 0, "team standings", "team %d (%s) is in the record's team standings but not a team of the event", w.TeamID, w.Name)
	}
}

// cleanTeams checks the team event's and division's texts of a record as
// cleanRecord does, and refuses teams in a record of no team event.
func cleanTeams(r *Record, text func(f textField, s *string, where string, optional bool)) []error {
	var errs []error
	if !r.Tournament.Team && len(r.Teams) > 0 {
		errs = append(errs, invalid("not-a-team-event", "the record gives teams, but the tournament is no team event", nil))
	}
	text(fieldDivisionName, &r.Tournament.Division, "the division", true)
	teams := make([]Team, len(r.Teams))
	for i, t := range r.Teams {
		where := fmt.Sprintf("team %d", t.ID)
		t.Name = strings.Join(strings.Fields(t.Name), " ")
		text(fieldTeamName, &t.Name, where, false)
		lineups := make([]Lineup, len(t.Lineups))
		for k, l := range t.Lineups {
			text(fieldJudge, &l.Judge, fmt.Sprintf("%s (its line-up of round %d)", where, l.Round), true)
			lineups[k] = l
		}
		t.Lineups, teams[i] = lineups, t
	}
	if r.Teams != nil {
		r.Teams = teams
	}
	return errs
}
