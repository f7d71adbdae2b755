package roster_test

import (
	"errors"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/roster"
)

func TestReadResultsGroupsEventsAndTables(t *testing.T) {
	sheet := "日付,店舗,大会名,回戦,卓,名前,よみがな,勝利点\n" +
		"2025-09-20,カードショップ東,9月定例会,1,1,青木,あおき,10\n" +
		"2025-09-20,カードショップ東,9月定例会,1,1,井上,いのうえ,７\n" +
		"2025-09-20,カードショップ東,9月定例会,1,1,上田,うえだ,5\n" +
		"\n" +
		"2025-09-20,カードショップ東,9月定例会,2,1,上田,うえだ,10\n" +
		"2025-10-04,ボードゲームカフェ西,,,,井上,いのうえ,10\n"
	events, err := roster.ReadResults([]byte("\xEF\xBB\xBF" + sheet))
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || events[0].Name != "9月定例会" || len(events[0].Tables) != 2 || len(events[0].Tables[0].Scores) != 3 {
		t.Fatalf("events = %+v, want September's two tables and October's", events)
	}
	if sc := events[0].Tables[0].Scores[1]; sc.Name != "井上" || sc.VP != 7 || sc.Line != 3 {
		t.Errorf("line 3 = %+v, want 井上 with 7 (full width) on line 3", sc)
	}
	if oct := events[1]; oct.Shop != "ボードゲームカフェ西" || oct.Tables[0].Round != 1 || oct.Tables[0].Table != 1 || oct.Source != "results-sheet" {
		t.Errorf("October = %+v, want round 1 table 1 by default, from a results sheet", oct)
	}
	_, err = roster.ReadResults([]byte("日付,名前,勝利点\n2025-09-20,青木,十\n"))
	var e *roster.Error
	if !errors.As(err, &e) || e.Code != roster.CodeBadValue || e.Line != 2 {
		t.Errorf("VP 十 = %v, want bad_value at line 2", err)
	}
	if _, err := roster.ReadResults([]byte("名前,よみがな\n青木,あおき\n")); !errors.As(err, &e) || e.Code != roster.CodeNoResults {
		t.Errorf("a roster read as results = %v, want no_results", err)
	}
}
