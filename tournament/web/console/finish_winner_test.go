package console_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// finishedFinal is a shop event of 8 players played to its end: one
// qualifying round, a top-4 final ended by time in which the qualifying
// leader is second, and the close.
type finishedFinal struct {
	*webtest.Env
	t              tournament.Tournament
	leader, winner tournament.Player // the qualifying leader; the final's winner
	finalists      []int64           // best qualified first
}

// makeFinal is a shop event of 8 players (proshop-2003) up to its top-4
// final, made: one qualifying round, table 2's winner leading.
func makeFinal(t *testing.T, env *webtest.Env) (tournament.Tournament, []tournament.Player, tournament.Round) {
	t.Helper()
	tr, err := env.Service.CreateTournament(env.Ctx, "setup", tournament.TournamentInput{Name: "土曜カタン大会", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	var ps []tournament.Player
	for _, name := range []string{"加藤 陽介/かとう ようすけ", "田中 健/たなか けん", "青木/あおき", "井上/いのうえ", "上田/うえだ", "江藤/えとう", "大野/おおの", "木村/きむら"} {
		name, kana, _ := strings.Cut(name, "/")
		p, err := env.Service.AddPlayer(env.Ctx, "setup", tr.ID, tournament.PlayerInput{Name: name, Kana: kana, CheckedIn: true})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	r, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Table 2's winner leads on the VP share (10 of 24 against 10 of 28).
	for i, tb := range r.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for k, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: [][]int{{10, 8, 6, 4}, {10, 7, 5, 2}}[i][k]})
		}
		if _, err := env.Service.SaveResult(env.Ctx, "setup", tr.ID, 1, tb.Number, in); err != nil {
			t.Fatal(err)
		}
	}
	final, err := env.Service.MakeFinal(env.Ctx, "setup", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	return tr, ps, final
}

// playFinal plays the event up to the final's result and closes it unless
// open; the final table's players score vp, best qualified first.
func playFinal(t *testing.T, env *webtest.Env, open bool, vp ...int) finishedFinal {
	t.Helper()
	tr, ps, final := makeFinal(t, env)
	env.TimeUp(tr.ID, 2)
	fp := final.Tables[0].Players
	var in tournament.ResultInput // ended by time: nobody declared
	for k, id := range fp {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: vp[k]})
	}
	if _, err := env.Service.SaveResult(env.Ctx, "setup", tr.ID, 2, 1, in); err != nil {
		t.Fatal(err)
	}
	if !open {
		if _, err := env.Service.CloseTournament(env.Ctx, "setup", tr.ID); err != nil {
			t.Fatal(err)
		}
	}
	player := func(id int64) tournament.Player {
		i := slices.IndexFunc(ps, func(p tournament.Player) bool { return p.ID == id })
		return ps[i]
	}
	best := slices.Index(vp, slices.Max(vp))
	return finishedFinal{Env: env, t: tr, leader: player(fp[0]), winner: player(fp[best]), finalists: fp}
}

// Issue 24, defect 1: the final ended by time with the qualifying leader
// second. Once closed, every page, the API and the workbook name the
// final's winner: the overview, the standings page, the kiosk, the
// projector, the results page, GET .../{id} ("winners", empty before the
// close), the live read and the workbook's first sheet.
func TestEveryPageNamesTheFinalsWinner(t *testing.T) {
	env := webtest.New(t)
	f := playFinal(t, env, true, 8, 9, 7, 5)
	cl := webtest.APIClient{T: t, Env: env}
	base := fmt.Sprintf("/api/v1/tournaments/%d", f.t.ID)
	var got struct {
		Winners []int64 `json:"winners"`
	}
	cl.Call("GET", base, nil, 200, &got)
	if got.Winners == nil || len(got.Winners) != 0 || !strings.Contains(webtest.Do(env.Handler, "GET", base, "").Body.String(), `"winners":[]`) {
		t.Errorf("GET %s before the close: winners %v, want an empty array", base, got.Winners)
	}
	cl.Call("POST", base+"/close", nil, 200, &got)
	if !slices.Equal(got.Winners, []int64{f.winner.ID}) {
		t.Errorf("POST close: winners %v, want [%d] (%s)", got.Winners, f.winner.ID, f.winner.Name)
	}
	cl.Call("GET", base, nil, 200, &got)
	if !slices.Equal(got.Winners, []int64{f.winner.ID}) {
		t.Errorf("GET %s: winners %v, want [%d] (%s, the final's winner, not %s, the qualifying leader)", base, got.Winners, f.winner.ID, f.winner.Name, f.leader.Name)
	}
	var live api.LiveJSON
	cl.Call("GET", base+"/live", nil, 200, &live)
	if len(live.Winners) != 1 || live.Winners[0].Player != f.winner.ID {
		t.Errorf("GET live: winners %+v, want %s", live.Winners, f.winner.Name)
	}

	b := env.Browser()
	b.Login("山田")
	right, wrong := "優勝: "+f.winner.Name, "優勝: "+f.leader.Name
	for _, page := range []struct{ what, path string }{
		{"the overview", fmt.Sprintf("/judge/t/%d", f.t.ID)},
		{"the standings page", fmt.Sprintf("/judge/t/%d/standings", f.t.ID)},
		{"the kiosk", fmt.Sprintf("/kiosk/%d", f.t.ID)},
		{"the projector", fmt.Sprintf("/kiosk/%d?view=projector", f.t.ID)},
		{"the kiosk's live parts", fmt.Sprintf("/kiosk/%d/live", f.t.ID)},
		{"the results", fmt.Sprintf("/results/%d", f.t.ID)},
	} {
		res := b.Get(page.path)
		webtest.MustSee(t, page.what, res, http.StatusOK, right)
		if strings.Contains(res.Body, wrong) {
			t.Errorf("%s names the qualifying leader %s the winner", page.what, f.leader.Name)
		}
	}

	res := b.Get(base + "/export.xlsx")
	if res.Status != http.StatusOK {
		t.Fatalf("GET export.xlsx = %d", res.Status)
	}
	wb, err := excelize.OpenReader(strings.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	note, err := wb.GetCellValue(wb.GetSheetName(0), "A2")
	if err != nil || !strings.HasPrefix(note, right+"。") {
		t.Errorf("the workbook's first sheet (%s) says %q (%v), want it to start with %q", wb.GetSheetName(0), note, err, right+"。")
	}
}

// Without a final the standings' 1st wins; players sharing the final's
// 1st place are both named.
func TestWinnersWithoutAFinalAndShared(t *testing.T) {
	p := webtest.NewPaired(t)
	p.SaveAll(1)
	if _, err := p.Service.CloseTournament(p.Ctx, "setup", p.Tournament.ID); err != nil {
		t.Fatal(err)
	}
	st, err := p.Service.Standings(p.Ctx, p.Tournament.ID)
	if err != nil {
		t.Fatal(err)
	}
	var firsts []string
	for _, s := range st {
		if s.Rank == 1 {
			firsts = append(firsts, s.Name)
		}
	}
	webtest.MustSee(t, "the overview without a final", p.B.Get(fmt.Sprintf("/judge/t/%d", p.Tournament.ID)), http.StatusOK, "優勝: "+strings.Join(firsts, "、"))

	env := webtest.New(t)
	f := playFinal(t, env, false, 9, 9, 7, 5)
	var got struct {
		Winners []int64 `json:"winners"`
	}
	webtest.APIClient{T: t, Env: env}.Call("GET", fmt.Sprintf("/api/v1/tournaments/%d", f.t.ID), nil, 200, &got)
	if len(got.Winners) != 2 || !slices.Contains(got.Winners, f.finalists[0]) || !slices.Contains(got.Winners, f.finalists[1]) {
		t.Errorf("winners of a final shared at 9 VP = %v, want both players of 9 VP, %v", got.Winners, f.finalists[:2])
	}
}
