package tournament_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// teamNames are the six teams of the team event, with their sizes.
var teamNames = []struct {
	name string
	size int
}{{"札幌", 4}, {"仙台", 5}, {"東京", 6}, {"名古屋", 4}, {"大阪", 5}, {"福岡", 6}}

// teamEvent creates a team event of rounds rounds under rs with the six
// teams of teamNames, every player checked in: the tournament, and each
// team with its players.
func (c *console) teamEvent(rs referee.Ruleset, rounds int) (tournament.Tournament, []tournament.Team) {
	c.T.Helper()
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{
		Name: "カタン・クラブ・ジャパンカップ", Date: "2025-11-22", Venue: "公民館", Rounds: rounds, Ruleset: rs.Name, Team: true,
	})).OK(c.T)
	var teams []tournament.Team
	for _, tn := range teamNames {
		var ids []int64
		for i := range tn.size {
			p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: fmt.Sprintf("%s%d", tn.name, i+1), CheckedIn: true})).OK(c.T)
			ids = append(ids, p.ID)
		}
		teams = append(teams, must(c.Svc.RegisterTeam(c.Ctx, "judge-a", tour.ID, tournament.TeamInput{Name: tn.name, Players: ids})).OK(c.T))
	}
	return tour, teams
}

// playTeamRound pairs round n and saves a declared win at every table,
// the VP varying with the table so that the teams' sums differ.
func (c *console) playTeamRound(tour tournament.Tournament, n int) tournament.Round {
	c.T.Helper()
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(c.T)
	r := must(c.Svc.RoundView(c.Ctx, tour.ID, n)).OK(c.T).Round
	for _, tb := range r.Tables {
		k := (tb.Number + n) % 3
		c.Save(tour, n, tb.Number, 0, []int{10, 7 + k, 5 + k%2, 3}, 0, "")
	}
	return r
}

// teamMatesApart fails the test for a table of round r seating two
// players of one team.
func teamMatesApart(t *testing.T, snap *tournament.Snapshot, r tournament.Round) {
	t.Helper()
	for _, tb := range r.Tables {
		seen := map[int64]bool{}
		for _, id := range tb.Players {
			team, ok := snap.TeamOf(id)
			if !ok {
				t.Errorf("round %d table %d seats player %d of no team", r.Number, tb.Number, id)
				continue
			}
			if seen[team.ID] {
				t.Errorf("round %d table %d seats two players of team %s: %v", r.Number, tb.Number, team.Name, tb.Players)
			}
			seen[team.ID] = true
		}
	}
}

// A team event of 6 teams (of 4, 5 and 6 players) over 3 rounds: the
// teams of 5 and 6 name their line-ups, a team of 4 plays its four, a
// team that names none for round 3 plays its round-2 line-up again;
// team-mates never meet; the team standings (placement points, then VP)
// and the players' own standings are testdata/teams-6x3.golden.
func TestTeamEvent(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	c := newConsole(t)
	tour, teams := c.teamEvent(rs, 3)
	// The line-ups: round 1 the first four, round 2 the last four; round
	// 3 Tokyo names its first, third, fifth and sixth, the others play
	// their round-2 line-up again.
	for n := 1; n <= 3; n++ {
		for _, tm := range teams {
			var l []int64
			switch {
			case len(tm.Players) == 4:
				continue
			case n == 1:
				l = tm.Players[:4]
			case n == 2:
				l = tm.Players[len(tm.Players)-4:]
			case n == 3 && tm.Name == "東京":
				l = []int64{tm.Players[0], tm.Players[2], tm.Players[4], tm.Players[5]}
			default:
				continue
			}
			must(c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tm.ID, n, l)).OK(t)
		}
	}
	var b strings.Builder
	for n := 1; n <= 3; n++ {
		r := c.playTeamRound(tour, n)
		snap := must(c.Svc.Snapshot(c.Ctx, tour.ID)).OK(t)
		teamMatesApart(t, snap, r)
		if len(r.Tables) != 6 || len(r.Byes) != 0 {
			t.Errorf("round %d: %d tables, byes %v; want the 24 players of the line-ups at 6 tables", n, len(r.Tables), r.Byes)
		}
		fmt.Fprintf(&b, "round %d\n", n)
		for _, tb := range r.Tables {
			var who []string
			for _, id := range tb.Players {
				p := must(snap.Player(id)).OK(t)
				who = append(who, p.Name)
			}
			fmt.Fprintf(&b, "  table %d: %s\n", tb.Number, strings.Join(who, " "))
		}
	}
	snap := must(c.Svc.Snapshot(c.Ctx, tour.ID)).OK(t)
	b.WriteString("\nteams\nrank  team    points   vp  firsts  played\n")
	st := must(snap.TeamStandings()).OK(t)
	for _, x := range st {
		fmt.Fprintf(&b, "%4d  %-6s %6d  %3d  %6d  %6d\n", x.Rank, x.Name, x.Points, x.VP, x.Firsts, x.Played)
		for _, p := range x.Players {
			fmt.Fprintf(&b, "        %-5s rank %2d  points %2d  vp %2d  played %d\n", p.Name, p.Rank, p.Points, p.VP, p.Played)
		}
	}
	b.WriteString("\nplayers\n")
	b.WriteString(c.standingsText(tour))
	tournamenttest.Golden(t, filepath.Join("testdata", "teams-6x3.golden"), b.String(), *update)
	// Every team played 4 games a round: 12 in all.
	for _, x := range st {
		if x.Played != 12 {
			t.Errorf("team %s played %d games, want 12", x.Name, x.Played)
		}
	}
}

// Team-mates never meet, whatever the seed: twenty events of 6 teams over
// 3 rounds, each drawn from other seeds.
func TestTeamMatesNeverMeet(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	for seed := range uint64(20) {
		c := newConsole(t)
		next := seed * 1000
		c.Svc = tournament.NewService(c.St, rulesetSource{rs.Name: rs}, func() time.Time {
			c.At = c.At.Add(time.Minute)
			return c.At
		}, tournament.WithSeeds(func() uint64 { next++; return next }))
		tour, teams := c.teamEvent(rs, 3)
		for n := 1; n <= 3; n++ {
			for _, tm := range teams {
				if len(tm.Players) > 4 {
					// Each round another four: the players rotate.
					var l []int64
					for i := range 4 {
						l = append(l, tm.Players[(i+n)%len(tm.Players)])
					}
					must(c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tm.ID, n, l)).OK(t)
				}
			}
			r := c.playTeamRound(tour, n)
			teamMatesApart(t, must(c.Svc.Snapshot(c.Ctx, tour.ID)).OK(t), r)
		}
	}
}

// checkRefused fails the test unless err is the violation code, and the
// event is as it was before.
func checkRefused(t *testing.T, c *console, tid int64, before int64, err error, code string) {
	t.Helper()
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != code {
		t.Errorf("error = %v, want %s", err, code)
	}
	if got := must(c.Svc.Snapshot(c.Ctx, tid)).OK(t).Version(); got != before {
		t.Errorf("version = %d after a refused change, want %d (nothing changed)", got, before)
	}
}

// Bad teams and line-ups are refused with their codes, and change nothing.
func TestTeamRefusals(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	c := newConsole(t)
	tour, teams := c.teamEvent(rs, 3)
	var loose []int64
	for i := range 8 {
		p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: fmt.Sprintf("個人%d", i+1), CheckedIn: true})).OK(t)
		loose = append(loose, p.ID)
	}
	version := func() int64 { return must(c.Svc.Snapshot(c.Ctx, tour.ID)).OK(t).Version() }
	tokyo, sendai := teams[2], teams[1]
	cases := []struct {
		name string
		do   func() error
		code string
	}{
		{"a team of 3", func() error {
			_, err := c.Svc.RegisterTeam(c.Ctx, "judge-a", tour.ID, tournament.TeamInput{Name: "京都", Players: loose[:3]})
			return err
		}, "team-too-small"},
		{"a team of 7", func() error {
			_, err := c.Svc.RegisterTeam(c.Ctx, "judge-a", tour.ID, tournament.TeamInput{Name: "京都", Players: loose[:7]})
			return err
		}, "team-too-large"},
		{"a player of another team", func() error {
			_, err := c.Svc.RegisterTeam(c.Ctx, "judge-a", tour.ID, tournament.TeamInput{Name: "京都", Players: append(slices.Clone(loose[:3]), tokyo.Players[0])})
			return err
		}, "player-in-team"},
		{"a name taken", func() error {
			_, err := c.Svc.RegisterTeam(c.Ctx, "judge-a", tour.ID, tournament.TeamInput{Name: "東京", Players: loose[:4]})
			return err
		}, "team-name-taken"},
		{"no name", func() error {
			_, err := c.Svc.RegisterTeam(c.Ctx, "judge-a", tour.ID, tournament.TeamInput{Name: "  ", Players: loose[:4]})
			return err
		}, "team-name-missing"},
		{"a line-up of 3", func() error {
			_, err := c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tokyo.ID, 1, tokyo.Players[:3])
			return err
		}, "lineup-size"},
		{"a line-up of 5", func() error {
			_, err := c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tokyo.ID, 1, tokyo.Players[:5])
			return err
		}, "lineup-size"},
		{"a line-up with another team's player", func() error {
			_, err := c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tokyo.ID, 1, append(slices.Clone(tokyo.Players[:3]), sendai.Players[0]))
			return err
		}, "lineup-not-member"},
		{"a line-up naming a player twice", func() error {
			_, err := c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tokyo.ID, 1, []int64{tokyo.Players[0], tokyo.Players[0], tokyo.Players[1], tokyo.Players[2]})
			return err
		}, "lineup-player-repeated"},
		{"a round past the last", func() error {
			_, err := c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tokyo.ID, 4, tokyo.Players[:4])
			return err
		}, "lineup-round-unknown"},
		{"a round without the line-ups of the teams of 5 and 6", func() error {
			_, err := c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)
			return err
		}, "lineup-missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := version()
			checkRefused(t, c, tour.ID, before, tc.do(), tc.code)
		})
	}
	// A team in an event that is no team event.
	plain, ps := c.enter(rs, 4, 3)
	_, err := c.Svc.RegisterTeam(c.Ctx, "judge-a", plain.ID, tournament.TeamInput{Name: "京都", Players: []int64{ps[0].ID, ps[1].ID, ps[2].ID, ps[3].ID}})
	checkRefused(t, c, plain.ID, must(c.Svc.Snapshot(c.Ctx, plain.ID)).OK(t).Version(), err, "not-a-team-event")
	// Once round 1 is paired, its line-ups stay, and the event stays a team event.
	for _, tm := range teams {
		if len(tm.Players) > 4 {
			must(c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tm.ID, 1, tm.Players[:4])).OK(t)
		}
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	before := version()
	_, err = c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tokyo.ID, 1, tokyo.Players[2:])
	checkRefused(t, c, tour.ID, before, err, "lineup-round-paired")
	off := false
	_, err = c.Svc.PatchTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentPatch{Team: &off})
	checkRefused(t, c, tour.ID, before, err, "team-event-started")
}
