package web_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// staticVersion is the content hash in a static file's address, which
// changes with every edit of the file, not of the page.
var staticVersion = regexp.MustCompile(`\?v=[0-9a-zA-Z_-]+`)

// The pages a judge and the players look at most, whole, in the middle of
// a round: the round, a table, a score sheet, a table's game record, and
// the kiosk (its page, its live parts, the projector in English, a table's
// board); a player's page and their person's, the results before they are
// published, and the registry's console pages. A change to a template, a view
// model or a message shows here as a diff; run go test -update after
// checking that it is the change meant.
func TestPagesGolden(t *testing.T) {
	var now atomic.Pointer[time.Time]
	start := time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
	now.Store(&start)
	env := webtest.New(t, webtest.AtClock(func() time.Time { return *now.Load() }), webtest.InZone(time.UTC))
	cl := webtest.APIClient{T: t, Env: env}
	tr, _ := env.SeedTournament(8)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.ClockAction(env.Ctx, "setup", tr.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	// Table 2's game is recorded: its placements and a roll.
	if _, err := env.Service.SetSeating(env.Ctx, "setup", tr.ID, 1, 2, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.SetBoard(env.Ctx, "setup", tr.ID, 1, 2, tournament.BoardInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	game := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1/tables/2/game/moves", tr.ID)
	for i, m := range append(recordPlacements, `{"do":"roll","dice":[1,1]}`) {
		cl.Call("POST", game, withExpected(m, i), 201, nil)
	}
	later := start.Add(4*time.Minute + 5*time.Second)
	now.Store(&later)
	cl.Save(tr.ID, 1, 2, 0, []int{10, 6, 5, 4}, 0, "")
	judge := env.Browser()
	judge.Login("山田")
	anon := env.Browser()
	round := fmt.Sprintf("/judge/t/%d/rounds/1", tr.ID)
	kiosk := fmt.Sprintf("/kiosk/%d", tr.ID)
	// A player of the table with a result, for their page and their person's.
	v, err := env.Service.RoundView(env.Ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := env.Service.GetPlayer(env.Ctx, tr.ID, v.Tables[1].Players[0].PlayerID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		name, path string
		b          *webtest.Browser
	}{
		{"round.html", round, judge},
		{"table.html", round + "/tables/1", judge},
		{"score.html", round + "/tables/2/score", judge},
		{"kiosk.html", kiosk, anon},
		{"kiosk-live.html", kiosk + "/live", anon},
		{"kiosk-projector.en.html", kiosk + "?view=projector&lang=en", anon},
		{"kiosk-player.html", fmt.Sprintf("%s/players/%d", kiosk, p2.ID), anon},
		{"person-page.html", fmt.Sprintf("/people/%d", p2.PersonID), anon},
		{"results-not-yet.html", fmt.Sprintf("/results/%d", tr.ID), anon},
		{"people.html", "/judge/people", judge},
		{"person.html", fmt.Sprintf("/judge/people/%d", p2.PersonID), judge},
		{"record.html", round + "/tables/2/game", judge},
		{"kiosk-game.html", kiosk + "/rounds/1/tables/2/game", anon},
		{"kiosk-game-projector.en.html", kiosk + "/rounds/1/tables/2/game?view=projector&lang=en", anon},
	} {
		res := p.b.Get(p.path)
		if res.Status != 200 {
			t.Fatalf("GET %s = %d\n%s", p.path, res.Status, res.Body)
		}
		tournamenttest.Golden(t, filepath.Join("testdata", "pages", p.name), staticVersion.ReplaceAllString(res.Body, "?v=…"), *update)
	}
}
