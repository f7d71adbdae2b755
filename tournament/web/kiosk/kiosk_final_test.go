package kiosk_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// The kiosk through a national event's top-4 final with a tie at the cut:
// while the final is played, the round says it is the final, the cut shows
// who advanced and the draw that settled the line with its seed, a player
// who did not advance is told so (not that they have no table), and the
// final table's card shows whose turn it is with the turn's countdown and,
// within the ruleset's notice, the end's announcement; once the final's
// result is in, the final results come first, each line saying whether
// the final table or the qualifying standings decided it.
func TestKioskFinal(t *testing.T) {
	env := webtest.New(t)
	cl, tour, base := webtest.NationalEvent(t, env, 1, 8)
	cl.Call("POST", base+"/rounds", nil, 201, nil)
	// Table 2's 2nd and 3rd share 6 VP and the VP share: they tie for the
	// 4th place of the cut.
	cl.Save(tour.ID, 1, 1, 0, []int{10, 8, 6, 4}, 0, "")
	cl.Save(tour.ID, 1, 2, 0, []int{10, 6, 6, 2}, 0, "")
	final, err := env.Service.MakeFinal(env.Ctx, "山田", tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if final.Cut == nil || len(final.Cut.Draw) != 2 {
		t.Fatalf("the final's cut = %+v, want a draw of 2", final.Cut)
	}
	lv, err := env.Service.Live(env.Ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	names := map[int64]string{}
	for _, st := range lv.LiveStandings {
		names[st.PlayerID] = st.Name
	}
	drawn := names[final.Cut.Draw[0]] + "、" + names[final.Cut.Draw[1]]
	var out string // a player who did not advance
	for _, st := range lv.LiveStandings {
		if !strings.Contains(fmt.Sprint(final.Tables[0].Players), fmt.Sprint(st.PlayerID)) {
			out = st.Name
		}
	}
	anon := env.Browser()
	kiosk := fmt.Sprintf("/kiosk/%d", tour.ID)
	live := kiosk + "/live"
	res := anon.Get(live)
	webtest.MustSee(t, "the kiosk while the final is played", res, 200,
		"第2回戦・決勝", `id="cut"`, "決勝の進出者", "進出: ",
		fmt.Sprintf("進出の境目で %s が同じ順位だったため、記録された抽選でこの順に決まりました（抽選 seed %d）。", drawn, final.Cut.Seed),
		`class="kiosk has-finals has-final-table"`)
	if strings.Contains(res.Body, `<section id="final-results" class="k-panel k-final-results" aria-labelledby="final-results-h">`) {
		t.Errorf("the final results show before the final is played")
	}
	res = anon.Get(live + "?q=" + url.QueryEscape(out))
	webtest.MustSee(t, "a player out of the final searched", res, 200, "1人見つかりました", "決勝には進出していません（決勝卓で対戦中です）")
	if strings.Contains(res.Body, "不戦") {
		t.Errorf("a player out of the final is told they have no table this round\n%s", res.Body)
	}
	// The final does not count in the standings: no live view of them.
	webtest.MustSee(t, "the standings asked live during the final", anon.Get(live+"?standings=live"), 200,
		`<p class="k-switch" hidden>`, "順位（第1回戦終了時点）")
	webtest.MustSee(t, "the cut in English", anon.Get(live+"?lang=en"), 200, "Round 2: the final",
		fmt.Sprintf("(draw seed %d)", final.Cut.Seed))

	// The final's clock runs out its 8 minutes of placement and 60 of play
	// and a minute more: the turn under way has a minute of its 2 left.
	if _, err := env.Service.SetSeating(env.Ctx, "山田", tour.ID, 2, 1, tournament.SeatingInput{Auto: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.ClockAction(env.Ctx, "山田", tour.ID, 2, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		t.Fatal(err)
	}
	env.Ahead.Add(int64(69 * time.Minute))
	webtest.MustSee(t, "the projector under the turn limit", anon.Get(live+"?view=projector"), 200,
		`class="k-turns"`, `<p class="k-turn"><strong>手番のプレイヤーは未入力</strong>`, "（1手番 2:00）",
		`<p id="clock-time" class="k-clock-time" role="timer">手番制限中</p>`, `<p id="clock-label" class="k-clock-label">決勝卓 手番制限中</p>`)
	rv, err := env.Service.RoundView(env.Ctx, tour.ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	who := rv.Tables[0].Players[1]
	if _, err := env.Service.ClockAction(env.Ctx, "山田", tour.ID, 2, tournament.ClockInput{Action: tournament.ClockTurn, Table: 1, Player: who.PlayerID}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Service.ClockAction(env.Ctx, "山田", tour.ID, 2, tournament.ClockInput{Action: tournament.ClockEnd, Table: 1, Seconds: 15 * 60}); err != nil {
		t.Fatal(err)
	}
	res = anon.Get(live + "?view=projector")
	webtest.MustSee(t, "the projector after a pass, the end set in 15 minutes", res, 200,
		"1手番目: <strong>"+who.Name+"</strong>", `data-countdown="120" data-state="running"`,
		// Issue 24: the big clock counts the turn down, not 時間です in red.
		`<p id="clock-time" class="k-clock-time" role="timer" data-countdown="120" data-state="running" data-time="0:00" data-deadline="`, `">2:00</p>`,
		`<p id="clock-label" class="k-clock-label">決勝卓 手番制限中</p>`,
		// A hidden count to the announcement, 5 minutes on, makes the page ask again then.
		`class="k-notice" hidden data-countdown="300"`)
	if strings.Contains(res.Body, "k-announce") {
		t.Errorf("the end is announced 15 minutes before it, want 10\n%s", res.Body)
	}
	// Paused, the turn's count stands still.
	for _, action := range []string{tournament.ClockPause, tournament.ClockResume} {
		if _, err := env.Service.ClockAction(env.Ctx, "山田", tour.ID, 2, tournament.ClockInput{Action: action}); err != nil {
			t.Fatal(err)
		}
		if action == tournament.ClockPause {
			webtest.MustSee(t, "the projector paused", anon.Get(live+"?view=projector"), 200, `data-countdown="120" data-state="paused"`)
		}
	}
	env.Ahead.Add(int64(6 * time.Minute))
	res = anon.Get(live + "?view=projector")
	webtest.MustSee(t, "the projector within 10 minutes of the end", res, 200, `class="k-announce" role="alert"`, "まで10分を切りました。",
		`class="k-turns over"`, `<span class="k-turn-left">&#43;4:0`, `<p id="clock-time" class="k-clock-time" role="timer">&#43;4:0`)

	// The final's result is in: the final results, first.
	cl.Save(tour.ID, 2, 1, 0, []int{10, 7, 5, 5}, 0, "")
	res = anon.Get(live)
	webtest.MustSee(t, "the kiosk once the final is played", res, 200,
		`<section id="final-results" class="k-panel k-final-results" aria-labelledby="final-results-h">`,
		"最終順位", "決勝卓 1位", "予選順位", `class="k-from-final"`)
	if strings.Contains(res.Body, `<section id="cut" class="k-cut" aria-labelledby="cut-h">`) {
		t.Errorf("the cut still shows once the final results are in")
	}
	first := res.Body[strings.Index(res.Body, `id="final-rows"`):]
	if i := strings.Index(first, "決勝卓 1位"); i < 0 || strings.Index(first, "予選順位") < i {
		t.Errorf("the final results do not start with the final table's winner\n%s", first)
	}
	webtest.MustSee(t, "the final results in English", anon.Get(live+"?lang=en"), 200, "Final results", "final table, place 1", "qualifying standings")
}
