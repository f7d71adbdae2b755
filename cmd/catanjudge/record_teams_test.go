package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server"
	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// teamRecord plays a team event of 6 teams (one of 5, naming its line-up
// each round) over 2 rounds and writes its record to a file in dir.
func teamRecord(t *testing.T, dir string) string {
	t.Helper()
	ctx := context.Background()
	svc, _ := tournamenttest.NewService(t, tournamenttest.Clock(time.Date(2025, 11, 22, 1, 0, 0, 0, time.UTC), time.Minute))
	ok := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	tour, err := svc.CreateTournament(ctx, "judge-a", tournament.TournamentInput{Name: "団体戦", Rounds: 2, Ruleset: config.DefaultRuleset, Team: true})
	ok(err)
	var five tournament.Team
	for k, name := range []string{"札幌", "仙台", "東京", "名古屋", "大阪", "福岡"} {
		var ids []int64
		for i := range 4 + k/5 {
			p, err := svc.AddPlayer(ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: fmt.Sprintf("%s%d", name, i+1), CheckedIn: true})
			ok(err)
			ids = append(ids, p.ID)
		}
		team, err := svc.RegisterTeam(ctx, "judge-a", tour.ID, tournament.TeamInput{Name: name, Players: ids})
		ok(err)
		if len(ids) == 5 {
			five = team
		}
	}
	for n := 1; n <= 2; n++ {
		_, err := svc.NameLineup(ctx, "judge-a", tour.ID, five.ID, n, five.Players[n-1:n+3])
		ok(err)
		r, err := svc.PairNextRound(ctx, "judge-a", tour.ID)
		ok(err)
		for _, tb := range r.Tables {
			in := tournament.ResultInput{Declared: tb.Players[0]}
			for i, p := range tb.Players {
				in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{10, 7 + tb.Number%3, 5, 3}[i]})
			}
			_, err := svc.SaveResult(ctx, "judge-a", tour.ID, n, tb.Number, in)
			ok(err)
		}
	}
	r, err := svc.Record(ctx, tour.ID)
	ok(err)
	f, err := recordfile.FromRecord(r, "catanjudge "+server.Version)
	ok(err)
	var b bytes.Buffer
	ok(recordfile.Write(&b, f))
	path := filepath.Join(dir, "teams.json")
	ok(os.WriteFile(path, b.Bytes(), 0o644))
	return path
}

// A team event's record checks, its team standings compared; imported
// with import-record it is a team event again. Edited so that two
// team-mates share a table, the check names the round and table.
func TestCheckAndImportATeamEventRecord(t *testing.T) {
	dir := t.TempDir()
	path := teamRecord(t, dir)
	stdout, _, err := runCommand(t, "check", path)
	if err != nil || !strings.Contains(stdout, "OK: every derived fact agrees") || !strings.Contains(stdout, "compared, 6 teams") {
		t.Fatalf("check of a team event's record = %v:\n%s\nwant OK, the team standings of 6 teams compared", err, stdout)
	}
	data := t.TempDir()
	dsn, err := store.FileDSN(data)
	if err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, err := runCommand(t, "import-record", "--data", data, "--judge", "審判長", path); err != nil ||
		!strings.Contains(stdout, "as tournament 1: 25 players in 6 teams, 2 rounds") {
		t.Fatalf("import-record = %v\n%s%s\nwant it to say 25 players in 6 teams", err, stdout, stderr)
	}
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := tournament.NewService(st, tournamenttest.Rulesets(t), time.Now)
	snap, err := svc.Snapshot(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if ts, err := snap.TeamStandings(); err != nil || len(ts) != 6 || !snap.Tournament().Team {
		t.Errorf("the imported event: team event %v, team standings %v (%v), want a team event of 6 teams", snap.Tournament().Team, ts, err)
	}

	// 札幌1 and 札幌2 at table 1 of round 1: trade 札幌2 with table 1's second player.
	f, err := recordfile.Read(bytes.NewReader(readFile(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	sapporo := f.Teams[0].Players
	tables := f.Rounds[0].Tables
	var k, j int
	for k = range tables {
		if j = slices.Index(tables[k].Players, sapporo[1]); j >= 0 {
			break
		}
	}
	var h int
	for h = range tables {
		if slices.Index(tables[h].Players, sapporo[0]) >= 0 {
			break
		}
	}
	if h == k {
		t.Fatalf("札幌1 and 札幌2 share table %d of round 1 as paired", tables[h].Number)
	}
	other := 0
	if tables[h].Players[0] == sapporo[0] {
		other = 1
	}
	tables[h].Players[other], tables[k].Players[j] = tables[k].Players[j], tables[h].Players[other]
	var b bytes.Buffer
	if err := recordfile.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "mates.json")
	if err := os.WriteFile(bad, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runCommand(t, "check", bad)
	want := fmt.Sprintf("round 1 table %d teams: ", tables[h].Number)
	if err == nil || !strings.Contains(stdout, want) || !strings.Contains(stdout, "team 札幌") {
		t.Errorf("check of team-mates at one table = %v:\n%s\nwant it to say %q", err, stdout, want)
	}
}
