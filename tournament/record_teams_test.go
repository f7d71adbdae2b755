package tournament_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// playedTeamEvent plays the team event of 6 teams over 3 rounds: the
// teams of 5 and 6 name a rotating line-up each round, but for 東京 in
// round 3, which plays its round-2 line-up again; the teams of 4 play
// their four.
func playedTeamEvent(t *testing.T, c *console) tournament.Tournament {
	t.Helper()
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	tour, teams := c.teamEvent(rs, 3)
	for n := 1; n <= 3; n++ {
		for _, tm := range teams {
			if len(tm.Players) > 4 && (n < 3 || tm.Name != "東京") {
				var l []int64
				for i := range 4 {
					l = append(l, tm.Players[(i+n)%len(tm.Players)])
				}
				must(c.Svc.NameLineup(c.Ctx, "judge-a", tour.ID, tm.ID, n, l)).OK(t)
			}
		}
		c.playTeamRound(tour, n)
	}
	return tour
}

// teamStandingsText is the event's team standings, a line a team with
// its players' names.
func teamStandingsText(t *testing.T, c *console, id int64) string {
	t.Helper()
	st := must(must(c.Svc.Snapshot(c.Ctx, id)).OK(t).TeamStandings()).OK(t)
	var b strings.Builder
	for _, x := range st {
		fmt.Fprintf(&b, "%d %s points %d vp %d firsts %d share %.4f played %d:", x.Rank, x.Name, x.Points, x.VP, x.Firsts, x.Share, x.Played)
		for _, p := range x.Players {
			fmt.Fprintf(&b, " %s", p.Name)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// The record of a team event carries its teams, their members and the
// line-ups they named, and its team standings: it checks (team-mates
// apart, the team standings derived again), and imported into another
// database it is the same event, whose team standings are the original's
// and whose record is the same file.
func TestRecordOfATeamEventChecksAndImports(t *testing.T) {
	c := newConsole(t)
	tour := playedTeamEvent(t, c)
	text := recordText(t, c, tour.ID)
	for _, want := range []string{`"team": true`, `"teams": [`, `"lineups": [`, `"team_standings": [`} {
		if !strings.Contains(text, want) {
			t.Fatalf("the team event's record has no %s:\n%s", want, text)
		}
	}
	rec := readRecordText(t, text)
	check := tournament.CheckRecord(rec)
	if len(check.Disagreements) > 0 || !check.Checked.TeamStandings {
		t.Fatalf("the team event's record: disagreements %v, team standings checked %v; want none, checked", check.Disagreements, check.Checked.TeamStandings)
	}
	c.recordChecksAndImports(t, tour)

	other := newConsole(t)
	imported := must(other.Svc.ImportRecord(other.Ctx, "審判長", "team.json", rec)).OK(t)
	if !imported.Team {
		t.Errorf("the imported tournament is no team event")
	}
	if got, want := teamStandingsText(t, other, imported.ID), teamStandingsText(t, c, tour.ID); got != want || want == "" {
		t.Errorf("the imported team standings:\n%s\nwant\n%s", got, want)
	}
	if diff := cmp.Diff(text, recordText(t, other, imported.ID)); diff != "" {
		t.Errorf("the imported team event's record differs from the file it came from (-file +imported):\n%s", diff)
	}
	snap := must(other.Svc.Snapshot(other.Ctx, imported.ID)).OK(t)
	orig := must(c.Svc.Snapshot(c.Ctx, tour.ID)).OK(t)
	if got, want := len(snap.Teams()), len(orig.Teams()); got != want {
		t.Fatalf("the imported event has %d teams, want %d", got, want)
	}
	for i, tm := range orig.Teams() {
		got := snap.Teams()[i]
		if got.Name != tm.Name || len(got.Players) != len(tm.Players) || len(got.Lineups) != len(tm.Lineups) {
			t.Errorf("imported team %d = %s of %d players, %d line-ups; want %s of %d, %d", i+1, got.Name, len(got.Players), len(got.Lineups),
				tm.Name, len(tm.Players), len(tm.Lineups))
		}
	}
}

// A record edited so that two team-mates share a table does not check,
// the disagreement naming the round and table, even when the record gives
// no team standings; it is not imported.
func TestRecordOfTeamMatesAtOneTableFails(t *testing.T) {
	c := newConsole(t)
	tour := playedTeamEvent(t, c)
	text := recordText(t, c, tour.ID)
	rec := readRecordText(t, text)
	teamOf := map[int64]string{}
	for _, tm := range rec.Teams {
		for _, id := range tm.Players {
			teamOf[id] = tm.Name
		}
	}
	// Round 2: a team-mate of table 1's first player, at another table,
	// trades places with table 1's second player.
	tables := rec.Rounds[1].Round.Tables
	first := tables[0].Players[0]
	var k, j int
	for k = 1; k < len(tables); k++ {
		if j = slices.IndexFunc(tables[k].Players, func(id int64) bool { return teamOf[id] == teamOf[first] }); j >= 0 {
			break
		}
	}
	if k == len(tables) {
		t.Fatalf("no team-mate of player %d plays round 2", first)
	}
	one, two := slices.Clone(tables[0].Players), slices.Clone(tables[k].Players)
	one[1], two[j] = two[j], one[1]
	tables[0].Players, tables[k].Players = one, two
	for _, standings := range []bool{true, false} {
		if !standings {
			rec.TeamStandings = nil
		}
		check := tournament.CheckRecord(rec)
		i := slices.IndexFunc(check.Disagreements, func(f tournament.Finding) bool {
			return f.Round == 2 && f.Table == 1 && f.What == "teams" && strings.Contains(f.Text, "team "+teamOf[first])
		})
		if i < 0 {
			t.Errorf("team-mates at round 2 table 1 (team standings given: %v): disagreements %v, want one naming round 2 table 1 and team %s",
				standings, check.Disagreements, teamOf[first])
		}
	}
	other := newConsole(t)
	_, err := other.Svc.ImportRecord(other.Ctx, "審判長", "team.json", rec)
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != "record-disagrees" {
		t.Errorf("ImportRecord(team-mates at one table) = %v, want record-disagrees", err)
	}
	if n := len(must(other.Svc.ListTournaments(other.Ctx)).OK(t)); n != 0 {
		t.Errorf("a refused import left %d tournaments, want none", n)
	}
}

// A record whose team names a player the record does not have, or whose
// line-up names a player of another team, is refused naming them, and
// nothing is imported.
func TestRecordWithABadTeamMemberIsRefused(t *testing.T) {
	c := newConsole(t)
	tour := playedTeamEvent(t, c)
	text := recordText(t, c, tour.ID)
	good := must(recordfile.Read(strings.NewReader(text))).OK(t)
	edit := func(change func(f *recordfile.File)) error {
		f := must(recordfile.Read(strings.NewReader(text))).OK(t)
		change(&f)
		_, _, err := f.Record()
		return err
	}
	stranger := func(f *recordfile.File) { f.Teams[0].Players = append(f.Teams[0].Players, 9999) }
	if err := edit(stranger); err == nil || !strings.Contains(err.Error(), "player 9999 is not a player of the record") ||
		!strings.Contains(err.Error(), good.Teams[0].Name) {
		t.Errorf("a team with player 9999 = %v, want it refused naming the team and the player", err)
	}
	var lineup int
	for lineup = range good.Teams {
		if len(good.Teams[lineup].Lineups) > 0 {
			break
		}
	}
	outsider := good.Teams[(lineup+1)%len(good.Teams)].Players[0]
	name := ""
	for _, p := range good.Players {
		if p.ID == outsider {
			name = p.Name
		}
	}
	other := func(f *recordfile.File) { f.Teams[lineup].Lineups[0].Players[0] = outsider }
	if err := edit(other); err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "is not a player of the team") {
		t.Errorf("a line-up with %s of another team = %v, want it refused naming them", name, err)
	}
	twice := func(f *recordfile.File) { f.Teams[1].Players = append(f.Teams[1].Players, f.Teams[0].Players[0]) }
	if err := edit(twice); err == nil || !strings.Contains(err.Error(), "of one team at most") {
		t.Errorf("a player of two teams = %v, want it refused", err)
	}
	// Given to the service as such, the import writes nothing.
	rec := readRecordText(t, text)
	rec.Teams[0].Players = append(slices.Clone(rec.Teams[0].Players), 9999)
	to := newConsole(t)
	if _, err := to.Svc.ImportRecord(to.Ctx, "審判長", "team.json", rec); !errors.Is(err, tournament.ErrInvalid) || !strings.Contains(err.Error(), "9999") {
		t.Errorf("ImportRecord(a team with player 9999) = %v, want it refused naming the player", err)
	}
	if n := len(must(to.Svc.ListTournaments(to.Ctx)).OK(t)); n != 0 {
		t.Errorf("a refused import left %d tournaments, want none", n)
	}
}

// A division's record says its division, and imports as a tournament of
// that division of its own; an ordinary event's record says none.
func TestRecordOfADivisionNamesIt(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	c := newConsole(t)
	open, kid, _ := c.twoDivisions(rs)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", kid.ID)).OK(t)
	c.Save(kid, 1, 1, 0, []int{10, 7, 6, 4}, 0, "")
	c.Save(kid, 1, 2, 0, []int{10, 8, 5, 3}, 0, "")
	text := recordText(t, c, kid.ID)
	if !strings.Contains(text, `"division": "小学生の部"`) || strings.Contains(text, `"team"`) {
		t.Fatalf("the division's record does not name 小学生の部 alone:\n%s", text)
	}
	other := newConsole(t)
	imported := must(other.Svc.ImportRecord(other.Ctx, "審判長", "kids.json", readRecordText(t, text))).OK(t)
	if imported.Division != "小学生の部" || imported.IsDivision() {
		t.Errorf("the imported division is %q of event %d, want 小学生の部 of its own", imported.Division, imported.EventID)
	}
	// The record as the service reads it, the source's event with it, is
	// still imported as a division of its own.
	direct := must(other.Svc.ImportRecord(other.Ctx, "審判長", "kids", must(c.Svc.Record(c.Ctx, kid.ID)).OK(t))).OK(t)
	if direct.Division != "小学生の部" || direct.IsDivision() {
		t.Errorf("the division imported from its record is %q of event %d, want 小学生の部 of its own", direct.Division, direct.EventID)
	}
	c.recordChecksAndImports(t, kid)
	if main := recordText(t, c, open.ID); !strings.Contains(main, `"division": "一般の部"`) {
		t.Errorf("the main division's record does not name 一般の部")
	}
}

// A record edited so that a team's named line-up is not who played the
// round does not check, naming the round and the team.
func TestRecordOfALineupNotPlayedFails(t *testing.T) {
	c := newConsole(t)
	tour := playedTeamEvent(t, c)
	rec := readRecordText(t, recordText(t, c, tour.ID))
	i := slices.IndexFunc(rec.Teams, func(tm tournament.Team) bool { return len(tm.Players) == 6 && len(tm.Lineups) > 0 })
	tm := rec.Teams[i]
	l := slices.Clone(tm.Lineups[0].Players)
	bench := slices.IndexFunc(tm.Players, func(id int64) bool { return !slices.Contains(l, id) })
	l[0] = tm.Players[bench]
	tm.Lineups = slices.Clone(tm.Lineups)
	tm.Lineups[0].Players = l
	rec.Teams = slices.Clone(rec.Teams)
	rec.Teams[i] = tm
	check := tournament.CheckRecord(rec)
	n := tm.Lineups[0].Round
	if !slices.ContainsFunc(check.Disagreements, func(f tournament.Finding) bool {
		return f.Round == n && f.What == "teams" && strings.Contains(f.Text, "team "+tm.Name+" plays")
	}) {
		t.Errorf("a line-up of round %d not played: disagreements %v, want one naming round %d and team %s", n, check.Disagreements, n, tm.Name)
	}
}

// A record whose team has fewer players than the ruleset takes does not
// check, naming the team.
func TestRecordOfATeamTooSmallFails(t *testing.T) {
	c := newConsole(t)
	tour := playedTeamEvent(t, c)
	rec := readRecordText(t, recordText(t, c, tour.ID))
	rec.Teams = slices.Clone(rec.Teams)
	rec.Teams[0].Players = rec.Teams[0].Players[:3]
	check := tournament.CheckRecord(rec)
	if !slices.ContainsFunc(check.Disagreements, func(f tournament.Finding) bool {
		return f.Round == 0 && f.What == "teams" && strings.Contains(f.Text, "team "+rec.Teams[0].Name+": a team has 4 to 6 players, got 3")
	}) {
		t.Errorf("a team of 3: disagreements %v, want one naming team %s", check.Disagreements, rec.Teams[0].Name)
	}
}
