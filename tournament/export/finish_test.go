package export_test

import (
	"context"
	"strings"
	"testing"
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
