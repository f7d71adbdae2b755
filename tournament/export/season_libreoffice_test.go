package export_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// qualifyingSeason is a qualification over three past events of two
// shops (tables of 4 and 3), with a real name recorded, as the service
// reads it for the workbook.
func qualifyingSeason(t *testing.T) export.SeasonData {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2025, 12, 1, 10, 0, 0, 0, time.UTC)
	svc := tournamenttest.NewServiceOn(t, tournamenttest.NewStore(t), func() time.Time { at = at.Add(time.Minute); return at })
	names := [][2]string{{"青木", "あおき"}, {"井上", "いのうえ"}, {"上田", "うえだ"}, {"遠藤", "えんどう"}, {"岡田", "おかだ"}, {"加藤", "かとう"}, {"木村", "きむら"}}
	score := func(i, vp int) tournament.PastScore {
		return tournament.PastScore{Name: names[i][0], Kana: names[i][1], VP: vp}
	}
	for e, shop := range []string{"カードショップ東", "ボードゲームカフェ西", "カードショップ東"} {
		r := func(k int) int { return (k + e) % len(names) }
		_, err := svc.ImportPastEvents(ctx, "山田", []tournament.PastEvent{{Name: fmt.Sprintf("地区予選 第%d戦", e+1), Date: fmt.Sprintf("2025-%02d-15", 9+e), Shop: shop,
			Tables: []tournament.PastGame{
				{Round: 1, Table: 1, Scores: []tournament.PastScore{score(r(0), 10), score(r(1), 8), score(r(2), 8), score(r(3), 5)}},
				{Round: 1, Table: 2, Scores: []tournament.PastScore{score(r(4), 10), score(r(5), 7), score(r(6), 4)}},
			}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	se, err := svc.CreateSeason(ctx, "山田", tournament.SeasonInput{Name: "2025年 地区予選", From: "2025-09-01", To: "2025-12-31",
		Shops: []string{"カードショップ東", "ボードゲームカフェ西"}, Formula: season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5, 3, 2, 1}, Best: 2},
		Qualification: &tournament.Qualification{RealName: true}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := svc.SeasonStandings(ctx, se.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.RecordRealName(ctx, "山田", st.Lines[0].Person.ID, "本名 太郎"); err != nil {
		t.Fatal(err)
	}
	q, err := svc.Qualification(ctx, se.ID)
	if err != nil {
		t.Fatal(err)
	}
	return export.SeasonData{Standings: st, Qualification: &q}
}

// TestSeasonWorkbookPrintsInLibreOffice prints a season's workbook through
// LibreOffice and reads the pages: the standings with the counted results,
// the events, and the ledger with the real name, each on A4.
func TestSeasonWorkbookPrintsInLibreOffice(t *testing.T) {
	soffice, pdftotext, pdfinfo := printTools(t)
	d := qualifyingSeason(t)
	dir := t.TempDir()
	if *pdfDir != "" {
		dir = *pdfDir
	}
	wb := filepath.Join(dir, "season.xlsx")
	f, err := os.Create(wb)
	if err != nil {
		t.Fatal(err)
	}
	if err := export.SeasonWorkbook(f, d, "ja"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	pdf := printToPDF(t, soffice, wb)[0]
	pages := pdfPages(t, pdftotext, pdf)
	all := strings.Join(pages, "\f")
	top := d.Standings.Lines[0]
	for _, want := range []string{"2025年 地区予選", "シーズン順位", "算入した成績", top.Person.Name, "対象大会", "地区予選 第1戦", "ボードゲームカフェ西",
		"予選参加記録", "本名 太郎", "各自の上位2大会を合計。"} {
		if !strings.Contains(all, want) {
			t.Errorf("the season's PDF does not say %q:\n%s", want, all)
		}
	}
	for i, sz := range pageSizes(t, pdfinfo, pdf, len(pages)) {
		if a, b := min(sz[0], sz[1]), max(sz[0], sz[1]); a < 590 || a > 600 || b < 837 || b > 847 {
			t.Errorf("page %d is %.0f × %.0f points, want A4", i+1, sz[0], sz[1])
		}
	}
}
