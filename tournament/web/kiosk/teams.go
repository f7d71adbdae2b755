package kiosk

import (
	"strings"

	"github.com/catanjudge/catanjudge/tournament"
)

// kioskTeam is a team's line of the kiosk's team standings (issue 30).
type kioskTeam struct {
	Rank    int
	Name    string
	Points  int
	VP      int
	Played  int
	Members string // the team's players, by their own rank
}

// fillTeams lists a team event's standings, those the kiosk's player
// standings count (after the complete rounds, or every result so far),
// and leaves the players' own standings off when the ruleset hides them.
func fillTeams(vm *kioskPage, live tournament.Live) {
	teams := live.Teams
	if vm.LiveStandings {
		teams = live.LiveTeams
	}
	rules := live.Tournament.Ruleset.WithDefaults().Teams
	vm.TeamEvent = live.Tournament.Team
	for _, t := range teams {
		line := kioskTeam{Rank: t.Rank, Name: t.Name, Points: t.Points, VP: t.VP, Played: t.Played}
		if !rules.HideIndividual {
			names := make([]string, len(t.Players))
			for i, p := range t.Players {
				names[i] = p.Label
			}
			line.Members = strings.Join(names, "・")
		}
		vm.Teams = append(vm.Teams, line)
	}
	if live.Tournament.Team && rules.HideIndividual {
		vm.Standings = nil
	}
}
