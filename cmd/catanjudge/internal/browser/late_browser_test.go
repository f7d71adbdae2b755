package browser

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestBrowserLateEntryJoinsThePairedRound enters a player who came after
// round 1 was paired from the round page in Chromium: the card says the
// ruleset's way and lists the player, ticked; entering them seats them at
// the table of 3, which becomes a table of 4, and the page says so.
func TestBrowserLateEntryJoinsThePairedRound(t *testing.T) {
	base, dir := sitetest.BrowserSite(t)
	ctx := context.Background()
	svc := tournamenttest.NewServiceOn(t, tournamenttest.OpenStore(t, dir), time.Now)
	tr, err := svc.CreateTournament(ctx, "受付", tournament.TournamentInput{Name: "土曜カタン大会", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, nm := range []string{"青木", "井上", "上田", "江藤", "小野", "加藤", "木村"} {
		if _, err := svc.AddPlayer(ctx, "受付", tr.ID, tournament.PlayerInput{Name: nm, CheckedIn: true}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := svc.PairNextRound(ctx, "受付", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	short := r.Tables[slices.IndexFunc(r.Tables, func(tb tournament.Table) bool { return len(tb.Players) == 3 })].Number
	late, err := svc.AddPlayer(ctx, "受付", tr.ID, tournament.PlayerInput{Name: "工藤", CheckedIn: true})
	if err != nil {
		t.Fatal(err)
	}

	b := sitetest.NewBrowser(t)
	var card, button, flash, lines string
	var ticked bool
	err = chromedp.Run(b, logIn(base),
		chromedp.Navigate(fmt.Sprintf("%s/judge/t/%d/rounds/1", base, tr.ID)),
		chromedp.WaitVisible(`#late`),
		chromedp.ScrollIntoView(`#late`),
		chromedp.Text(`#late`, &card),
		chromedp.Text(`#late-submit`, &button),
		chromedp.Evaluate(fmt.Sprintf(`document.querySelector('#late input[name=player][value="%d"]').checked`, late.ID), &ticked),
		sitetest.Screenshot("late-card"),
		chromedp.Click(`#late-submit`),
		chromedp.WaitVisible(`#late-lines`),
		chromedp.Text(`.flash`, &flash),
		chromedp.Text(`#late-lines`, &lines),
		sitetest.Screenshot("late-seated"),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"遅れて来た参加者・助っ人・欠席", "回戦が始まる前なら3人卓に入って4人卓にします", "工藤"} {
		if !strings.Contains(card, want) {
			t.Errorf("the card says %q, want %q", card, want)
		}
	}
	if button != "第1回戦に入れる" || !ticked {
		t.Errorf("the button says %q with the late player ticked %v, want 第1回戦に入れる and ticked", button, ticked)
	}
	if !strings.Contains(flash, "遅れて来た参加者を組み合わせに入れました") {
		t.Errorf("after entering the page says %q", flash)
	}
	if want := fmt.Sprintf("工藤 さん: 遅れて来て%d卓に入りました（3人卓が4人卓に）。", short); !strings.Contains(lines, want) {
		t.Errorf("the round page says %q, want %q", lines, want)
	}
	v, err := svc.RoundView(ctx, tr.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tb := v.Round.Tables[short-1]; len(tb.Players) != 4 || !slices.Contains(tb.Players, late.ID) {
		t.Errorf("table %d = %v, want the late player at a table of 4", short, tb.Players)
	}
}
