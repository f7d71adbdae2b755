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

// TestBrowserDisqualifyShowsTheEffect disqualifies a player from their
// page in Chromium: the form offers the ruleset's effect first; choosing
// another and giving a reason shows what it does to which table before
// anything is recorded, and only the confirmation records it.
func TestBrowserDisqualifyShowsTheEffect(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	tr, err := svc.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: "土曜カタン大会", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, nm := range []string{"青木", "井上", "上田", "江藤"} {
		if _, err := svc.AddPlayer(ctx, "受付", tr.ID, tournament.PlayerInput{Name: nm, CheckedIn: true}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := svc.PairNextRound(ctx, "受付", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	ids := r.Tables[0].Players
	in := tournament.ResultInput{Declared: ids[0]}
	for i, id := range ids {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8, 6, 4}[i]})
	}
	if _, err := svc.SaveResult(ctx, "受付", tr.ID, 1, 1, in); err != nil {
		t.Fatal(err)
	}
	cheat := ids[0]

	b := sitetest.NewBrowser(t)
	var checked, ruleset, preview, flash, standings string
	err = chromedp.Run(b, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/players/%d", base, tr.ID, cheat)),
		chromedp.WaitVisible(`#dq-open`),
		chromedp.Click(`#dq-open`),
		chromedp.WaitVisible(`#dq-form`),
		chromedp.Evaluate(`document.querySelector('input[name=effect]:checked').value`, &checked),
		chromedp.Text(`#dq-form .tag`, &ruleset),
		sitetest.Screenshot("dq-form"),
		chromedp.Click(`input[name=effect][value=remove]`),
		chromedp.SendKeys(`#reason`, "サイコロの細工"),
		chromedp.Click(`#dq-form button[type=submit]`),
		chromedp.WaitVisible(`#dq-preview`),
		chromedp.Text(`#dq-preview`, &preview),
		sitetest.Screenshot("dq-preview"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if checked != "keep" || ruleset != "ルールセットの設定" {
		t.Errorf("the form starts on %q marked %q, want the ruleset's keep", checked, ruleset)
	}
	for _, want := range []string{"これまでの対戦の扱い: この参加者の順位を除く", "次の1卓から", "第1回戦 1卓", "第2回戦から組み合わせに入りません", "理由: サイコロの細工"} {
		if !strings.Contains(preview, want) {
			t.Errorf("the preview says %q, want %q", preview, want)
		}
	}
	if p, _ := svc.GetPlayer(ctx, tr.ID, cheat); p.DQEffect != "" {
		t.Fatalf("the preview disqualified the player: %+v", p)
	}
	err = chromedp.Run(b,
		chromedp.Click(`#dq-confirm button[type=submit]`),
		chromedp.WaitVisible(`#dq-state`),
		chromedp.Text(`.flash`, &flash),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/standings", base, tr.ID)),
		chromedp.WaitVisible(`table`),
		chromedp.Text(`table`, &standings),
		sitetest.Screenshot("dq-standings"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(flash, "本人の順位を除いて") {
		t.Errorf("after confirming the page says %q", flash)
	}
	if !strings.Contains(standings, "失格・この参加者の順位を除く") {
		t.Errorf("the standings show %q, want the disqualification with its effect", standings)
	}
	if p, _ := svc.GetPlayer(ctx, tr.ID, cheat); p.DQEffect != "remove" {
		t.Errorf("after confirming the player is %+v, want disqualified with remove", p)
	}
}
