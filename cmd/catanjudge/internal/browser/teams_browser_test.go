package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestBrowserTeamEvent runs a team event's pages in Chromium: the teams
// page says which line-up is missing, the team's page names it with four
// boxes, the round pairs the line-ups with no team-mates at one table, and
// the team standings rank the teams with their members under them.
func TestBrowserTeamEvent(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	tr, err := svc.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: "ジャパンカップ予選", Rounds: 3, Team: true})
	if err != nil {
		t.Fatal(err)
	}
	var tokyo tournament.Team
	for _, tn := range []struct {
		name string
		size int
	}{{"東京", 5}, {"大阪", 4}, {"名古屋", 4}, {"福岡", 4}, {"札幌", 4}} {
		var ids []int64
		for i := range tn.size {
			p, err := svc.AddPlayer(ctx, "受付", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("%s%d", tn.name, i+1), CheckedIn: true})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		team, err := svc.RegisterTeam(ctx, "受付", tr.ID, tournament.TeamInput{Name: tn.name, Players: ids})
		if err != nil {
			t.Fatal(err)
		}
		if tn.name == "東京" {
			tokyo = team
		}
	}

	b := sitetest.NewBrowser(t)
	var teams, lineups string
	err = chromedp.Run(b, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/teams", base, tr.ID)),
		chromedp.WaitVisible(`#teams`),
		chromedp.Text(`#teams`, &teams),
		sitetest.Screenshot("teams"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/teams/%d", base, tr.ID, tokyo.ID)),
		chromedp.WaitVisible(`#lineup-form`),
		chromedp.Click(fmt.Sprintf(`input[name=player][value="%d"]`, tokyo.Players[0])),
		chromedp.Click(fmt.Sprintf(`input[name=player][value="%d"]`, tokyo.Players[2])),
		chromedp.Click(fmt.Sprintf(`input[name=player][value="%d"]`, tokyo.Players[3])),
		chromedp.Click(fmt.Sprintf(`input[name=player][value="%d"]`, tokyo.Players[4])),
		chromedp.Click(`#lineup-form button[type=submit]`),
		chromedp.WaitVisible(`.flash`),
		chromedp.Text(`#lineups`, &lineups),
		sitetest.Screenshot("team-lineup"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(teams, "未登録") || !strings.Contains(teams, "大阪1・大阪2・大阪3・大阪4（メンバー全員）") {
		t.Errorf("the teams page says %q, want Tokyo's line-up missing and Osaka's four", teams)
	}
	if !strings.Contains(lineups, "東京1・東京3・東京4・東京5（登録済み）") {
		t.Errorf("the line-ups say %q, want Tokyo's four as named", lineups)
	}
	r, err := svc.PairNextRound(ctx, "受付", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8 - tb.Number%2, 6, 4}[i]})
		}
		if _, err := svc.SaveResult(ctx, "受付", tr.ID, 1, tb.Number, in); err != nil {
			t.Fatal(err)
		}
	}
	var standings string
	err = chromedp.Run(b,
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/teams/standings", base, tr.ID)),
		chromedp.WaitVisible(`#team-standings`),
		chromedp.Text(`#team-standings`, &standings),
		sitetest.Screenshot("team-standings"),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/standings/print", base, tr.ID)),
		chromedp.WaitVisible(`#team-standings-print`),
		sitetest.Screenshot("team-standings-print"),
		chromedp.Navigate(fmt.Sprintf("%s/kiosk/%d", base, tr.ID)),
		chromedp.WaitVisible(`#teams`),
		sitetest.Screenshot("kiosk-teams"),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"東京", "大阪", "名古屋", "福岡", "札幌", "個人1位"} {
		if !strings.Contains(standings, want) {
			t.Errorf("the team standings say %q, want %q", standings, want)
		}
	}
}
