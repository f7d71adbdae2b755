package export_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// Issue 24, defect 10: once the event is closed, no two sheets print the
// same title; with a final the 順位表 is titled for what it ranks, the
// qualifying rounds (予選順位（第1回戦終了時点）), and the first sheet,
// the final results, names the final's winner.
func TestWorkbookTitlesSayWhatEachSheetShows(t *testing.T) {
	e, final := finalEvent(t)
	winner := final.Tables[0].Players[0]
	for _, closed := range []bool{false, true} {
		if closed {
			if _, err := e.svc.CloseTournament(context.Background(), "山田", e.tid); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct{ lang, standings, winner string }{
			{"ja", "予選順位（第1回戦終了時点）", "優勝: "},
			{"en", "Qualifying standings after round 1", "Winner: "},
		} {
			f, d := e.workbook(t, tc.lang)
			titles := map[string]string{}
			for _, sheet := range f.GetSheetList() {
				title := shown(t, f, sheet, "A1")
				if other, ok := titles[title]; ok {
					t.Errorf("%s (closed %v): sheets %s and %s print the same title %q", tc.lang, closed, other, sheet, title)
				}
				titles[title] = sheet
			}
			if got := shown(t, f, f.GetSheetList()[1], "A1"); !strings.HasSuffix(got, tc.standings) {
				t.Errorf("%s (closed %v): the standings' title = %q, want it to end %q", tc.lang, closed, got, tc.standings)
			}
			note := shown(t, f, f.GetSheetList()[0], "A2")
			if named := strings.HasPrefix(note, tc.winner+name(d, winner)); named != closed {
				t.Errorf("%s (closed %v): the final results' note = %q, want the winner %s named once closed", tc.lang, closed, note, name(d, winner))
			}
		}
	}
}

// finalEvent is a national event of 8 players through its top-4 final:
// one qualifying round with two players tied at the cut, then the final
// table, its 1st player declaring.
func finalEvent(t *testing.T) (event, tournament.Round) {
	t.Helper()
	ctx := context.Background()
	svc, _ := tournamenttest.NewService(t, tournamenttest.Clock(time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC), time.Minute))
	tr, err := svc.CreateTournament(ctx, "山田", tournament.TournamentInput{Name: "地区予選", Ruleset: "national-2025", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "工藤"} {
		if _, err := svc.AddPlayer(ctx, "山田", tr.ID, tournament.PlayerInput{Name: n, Kana: fmt.Sprintf("かな%d", i), CheckedIn: true}); err != nil {
			t.Fatal(err)
		}
	}
	save := func(n int, tb tournament.Table, vp []int) {
		t.Helper()
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: vp[i]})
		}
		if _, err := svc.SaveResult(ctx, "山田", tr.ID, n, tb.Number, in); err != nil {
			t.Fatal(err)
		}
	}
	r1, err := svc.PairNextRound(ctx, "山田", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	save(1, r1.Tables[0], []int{10, 8, 6, 4})
	save(1, r1.Tables[1], []int{10, 6, 6, 2}) // two tie at the cut
	final, err := svc.MakeFinal(ctx, "山田", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	save(2, final.Tables[0], []int{10, 7, 7, 4})
	return event{svc: svc, tid: tr.ID}, final
}
