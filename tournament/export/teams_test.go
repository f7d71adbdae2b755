package export_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// teamEvent is a team event of 4 teams of 4 with round 1 played.
func teamEvent(t *testing.T) tournament.ExportData {
	t.Helper()
	ctx := context.Background()
	svc, _ := tournamenttest.NewService(t, tournamenttest.Clock(time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC), time.Minute))
	tr, err := svc.CreateTournament(ctx, "山田", tournament.TournamentInput{Name: "ジャパンカップ予選", Date: "2025-11-22", Venue: "秋葉原店", Rounds: 3, Team: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tn := range []string{"東京", "大阪", "名古屋", "福岡"} {
		var ids []int64
		for i := range 4 {
			p, err := svc.AddPlayer(ctx, "山田", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("%s%d", tn, i+1), CheckedIn: true})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		if _, err := svc.RegisterTeam(ctx, "山田", tr.ID, tournament.TeamInput{Name: tn, Players: ids}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := svc.PairNextRound(ctx, "山田", tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range r.Tables {
		in := tournament.ResultInput{Declared: tb.Players[0]}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8, 6, 4}[i]})
		}
		if _, err := svc.SaveResult(ctx, "山田", tr.ID, 1, tb.Number, in); err != nil {
			t.Fatal(err)
		}
	}
	d, err := svc.ExportData(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A team event's workbook opens on the team standings: every team with
// its sums and its members with their own ranks, as the service ranks them.
func TestWorkbookOfATeamEvent(t *testing.T) {
	d := teamEvent(t)
	for _, lang := range []string{"ja", "en"} {
		var buf bytes.Buffer
		if err := export.Workbook(&buf, d, lang); err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenReader(&buf)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"ja": "チーム順位表", "en": "Team standings"}[lang]
		if got := f.GetSheetName(0); got != want {
			t.Fatalf("%s: first sheet %q, want %q", lang, got, want)
		}
		rows, err := f.GetRows(want)
		if err != nil {
			t.Fatal(err)
		}
		// Title, note, header, then the 4 teams.
		if len(rows) != 3+len(d.Teams) {
			t.Fatalf("%s: %d rows, want %d:\n%v", lang, len(rows), 3+len(d.Teams), rows)
		}
		for i, s := range d.Teams {
			row := rows[3+i]
			if row[0] != fmt.Sprint(s.Rank) || row[2] != s.Name || row[3] != fmt.Sprint(s.Points) || row[4] != fmt.Sprint(s.VP) {
				t.Errorf("%s: row %v, want team %+v", lang, row, s)
			}
			if !strings.Contains(row[len(row)-1], s.Players[0].Name) {
				t.Errorf("%s: row %v does not list the members", lang, row)
			}
		}
		f.Close()
	}
}

// The team standings print on one A4 page in LibreOffice, with the teams.
func TestTeamWorkbookPrintsInLibreOffice(t *testing.T) {
	soffice, pdftotext, _ := printTools(t)
	d := teamEvent(t)
	dir := t.TempDir()
	if *pdfDir != "" {
		dir = *pdfDir
	}
	var buf bytes.Buffer
	if err := export.Workbook(&buf, d, "ja"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "teams.ja.xlsx")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pages := pdfPages(t, pdftotext, printToPDF(t, soffice, path)[0])
	var on []string
	for _, p := range pages {
		if strings.Contains(p, "ジャパンカップ予選 — チーム順位表") {
			on = append(on, p)
		}
	}
	if len(on) != 1 {
		t.Fatalf("the team standings print on %d pages, want 1", len(on))
	}
	for _, w := range []string{"チーム", "順位点", "東京", "大阪", "名古屋", "福岡", "（1位）"} {
		if !strings.Contains(on[0], w) {
			t.Errorf("the printed team standings lack %q:\n%s", w, on[0])
		}
	}
}
