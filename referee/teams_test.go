package referee_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

func teamIDs(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}

func code(err error) string {
	var v *referee.Violation
	if errors.As(err, &v) {
		return v.Code
	}
	return ""
}

func TestCheckTeam(t *testing.T) {
	rules := referee.Ruleset{PlacementPoints: []int{4, 3, 2, 1}}.WithDefaults().Teams
	for _, tc := range []struct {
		players []string
		want    string
	}{
		{teamIDs("a", 3), "team-too-small"},
		{teamIDs("a", 4), ""},
		{teamIDs("a", 6), ""},
		{teamIDs("a", 7), "team-too-large"},
		{[]string{"a", "b", "c", "a"}, "team-player-repeated"},
	} {
		if got := code(referee.CheckTeam(rules, tc.players)); got != tc.want {
			t.Errorf("CheckTeam(%v) = %q, want %q", tc.players, got, tc.want)
		}
	}
}

func TestCheckLineup(t *testing.T) {
	rules := referee.Ruleset{}.WithDefaults().Teams
	members := teamIDs("a", 6)
	active := func(p string) bool { return p != "a6" }
	for _, tc := range []struct {
		lineup []string
		want   string
	}{
		{teamIDs("a", 4), ""},
		{teamIDs("a", 3), "lineup-size"},
		{teamIDs("a", 5), "lineup-size"},
		{[]string{"a1", "a2", "a3", "b1"}, "lineup-not-member"},
		{[]string{"a1", "a2", "a3", "a1"}, "lineup-player-repeated"},
		{[]string{"a1", "a2", "a3", "a6"}, "lineup-player-inactive"},
	} {
		if got := code(referee.CheckLineup(rules, tc.lineup, members, active)); got != tc.want {
			t.Errorf("CheckLineup(%v) = %q, want %q", tc.lineup, got, tc.want)
		}
	}
}

func TestTeamApart(t *testing.T) {
	got := referee.TeamApart([][]string{{"a", "b", "c"}, {"d"}, {"e", "f"}})
	want := [][2]string{{"a", "b"}, {"a", "c"}, {"b", "c"}, {"e", "f"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TeamApart (-want +got):\n%s", diff)
	}
}

// The teams rank by the sum of their players' placement points, then VP;
// teams equal on both share a rank; a player who played nothing adds 0.
func TestTeamStandings(t *testing.T) {
	rules := referee.Ruleset{PlacementPoints: []int{4, 3, 2, 1}}.WithDefaults().Teams
	players := []referee.Standing{
		{Player: "a1", Points: 8, VP: 20}, {Player: "a2", Points: 4, VP: 10},
		{Player: "b1", Points: 6, VP: 15}, {Player: "b2", Points: 6, VP: 16},
		{Player: "c1", Points: 12, VP: 25},
		{Player: "d1", Points: 10, VP: 26}, {Player: "d2", Points: 2, VP: 4},
	}
	teams := []referee.Team{{Name: "A", Players: []string{"a1", "a2"}}, {Name: "B", Players: []string{"b1", "b2", "b3"}},
		{Name: "C", Players: []string{"c1"}}, {Name: "D", Players: []string{"d1", "d2"}}}
	got := referee.TeamStandings(rules, players, teams)
	order := []string{}
	for _, s := range got {
		order = append(order, fmt.Sprintf("%d %s %d %d", s.Rank, s.Team, s.Points, s.VP))
	}
	wantOrder := []string{"1 B 12 31", "2 A 12 30", "2 D 12 30", "4 C 12 25"}
	if diff := cmp.Diff(wantOrder, order); diff != "" {
		t.Errorf("TeamStandings (-want +got):\n%s", diff)
	}
	// By 1sts alone (none given here) every team ties.
	rules.Order = []referee.StandingsKey{referee.KeyFirsts}
	for _, s := range referee.TeamStandings(rules, players, teams) {
		if s.Rank != 1 {
			t.Errorf("by 1sts alone, team %s ranks %d, want all 1st", s.Team, s.Rank)
		}
	}
}

// A ruleset without placement points ranks teams by 1sts, then VP; one
// that names points without them is refused.
func TestTeamRulesDefaults(t *testing.T) {
	if got := (referee.Ruleset{}).WithDefaults().Teams.Order; !cmp.Equal(got, []referee.StandingsKey{referee.KeyFirsts, referee.KeyVP}) {
		t.Errorf("order without placement points = %v, want firsts, vp", got)
	}
	got := referee.Ruleset{PlacementPoints: []int{4, 3, 2, 1}}.WithDefaults().Teams
	want := referee.TeamRules{MinSize: 4, MaxSize: 6, Plays: 4, Order: []referee.StandingsKey{referee.KeyPoints, referee.KeyVP}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("default team rules (-want +got):\n%s", diff)
	}
}
