package export_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestWorkbookPrintSetup checks what a sheet needs to print well: A4, one
// page wide and as many down as it takes, landscape for the wide sheets,
// the header row repeated on every page, and a title row naming the
// tournament and its date above a line that explains the columns. The
// results sheet (issue 24) prints at about full size across pages
// instead: its player columns and the header row on every page.
func TestWorkbookPrintSetup(t *testing.T) {
	e := newEvent(t)
	for _, tc := range []struct {
		lang, date string
		sheets     []string
		landscape  []bool
	}{
		{"ja", "2025年11月22日", []string{"順位表", "対戦結果", "参加者", "ペナルティ", "設定"}, []bool{false, true, false, true, true}},
		{"en", "22 November 2025", []string{"Standings", "Results", "Players", "Penalties", "Settings"}, []bool{false, true, false, true, true}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			f, _ := e.workbook(t, tc.lang)
			titles := map[string]string{}
			for _, dn := range f.GetDefinedName() {
				if dn.Name == "_xlnm.Print_Titles" {
					titles[dn.Scope] = dn.RefersTo
				}
			}
			for i, sheet := range tc.sheets {
				layout, err := f.GetPageLayout(sheet)
				if err != nil {
					t.Fatal(err)
				}
				orientation := "portrait"
				if tc.landscape[i] {
					orientation = "landscape"
				}
				across := i == 1 // the results
				props, err := f.GetSheetProps(sheet)
				if err != nil {
					t.Fatal(err)
				}
				repeated := fmt.Sprintf("'%s'!$%d:$%d", sheet, headerRow, headerRow)
				switch {
				case across:
					if layout.Size == nil || *layout.Size != 9 || layout.Orientation == nil || *layout.Orientation != orientation ||
						layout.AdjustTo == nil || *layout.AdjustTo < 75 || *layout.AdjustTo > 100 || layout.PageOrder == nil || *layout.PageOrder != "overThenDown" {
						t.Errorf("%s page layout = %s, want A4 (9) %s at 75%% to 100%%, across then down", sheet, describe(layout), orientation)
					}
					if props.FitToPage != nil && *props.FitToPage {
						t.Errorf("%s is fitted to its pages: its text prints too small to read", sheet)
					}
					repeated = fmt.Sprintf("'%s'!$A:$F,%s", sheet, repeated)
				case layout.Size == nil || *layout.Size != 9 || layout.FitToWidth == nil || *layout.FitToWidth != 1 ||
					layout.FitToHeight == nil || *layout.FitToHeight != 0 || layout.Orientation == nil || *layout.Orientation != orientation:
					t.Errorf("%s page layout = %s, want A4 (9) %s, 1 page wide, any number down", sheet, describe(layout), orientation)
				case props.FitToPage == nil || !*props.FitToPage:
					t.Errorf("%s does not fit its pages: the page layout's fit is ignored", sheet)
				}
				if titles[sheet] != repeated {
					t.Errorf("%s prints %q on every page, want %s", sheet, titles[sheet], repeated)
				}
				hf, err := f.GetHeaderFooter(sheet)
				if err != nil || hf == nil || !strings.Contains(hf.OddFooter, "土曜カタン大会 — &A") || !strings.Contains(hf.OddFooter, "&P / &N") {
					t.Errorf("%s footer = %+v (%v), want the tournament, the sheet and the page", sheet, hf, err)
				}
				rows, err := f.GetRows(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) < headerRow {
					t.Fatalf("%s has %d rows, want a title, a note and a header", sheet, len(rows))
				}
				title := rows[0]
				if len(title) != 1 || !strings.HasPrefix(title[0], "土曜カタン大会") || !strings.Contains(title[0], tc.date) || !strings.Contains(title[0], "秋葉原店") {
					t.Errorf("%s title row = %q, want the tournament, %s and the venue", sheet, title, tc.date)
				}
				if note := rows[1]; len(note) != 1 || utf8.RuneCountInString(note[0]) < 20 {
					t.Errorf("%s row 2 = %q, want a line explaining the columns", sheet, note)
				}
				merged, err := f.GetMergeCells(sheet)
				if err != nil {
					t.Fatal(err)
				}
				last, _ := excelize.ColumnNumberToName(len(rows[headerRow-1]))
				if across {
					last = "F" // the columns on every page
				}
				var spans []string
				for _, m := range merged {
					spans = append(spans, m.GetStartAxis()+":"+m.GetEndAxis())
				}
				if want := []string{"A1:" + last + "1", "A2:" + last + "2"}; !slices.Equal(spans, want) {
					t.Errorf("%s merged cells = %v, want the title and the note across the table, %v", sheet, spans, want)
				}
			}
		})
	}
	// A tournament's name is text in the footer, never a code.
	var buf bytes.Buffer
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	d := tournament.ExportData{Tournament: tournament.Tournament{Name: "2025 春&秋 &P大会", Ruleset: rs}}
	if err := export.Workbook(&buf, d, "ja"); err != nil {
		t.Fatal(err)
	}
	named, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer named.Close()
	if hf, err := named.GetHeaderFooter("順位表"); err != nil || hf == nil || hf.OddFooter != "&L2025 春&&秋 &&P大会 — &A&R&P / &N" {
		t.Errorf("footer of 「2025 春&秋 &P大会」 = %+v (%v), want its & doubled", hf, err)
	}
	// The standings' title says which results they count.
	f, _ := e.workbook(t, "ja")
	if got := shown(t, f, "順位表", "A1"); !strings.HasSuffix(got, "順位表（第1回戦終了時点）") {
		t.Errorf("standings title = %q, want it to say they are after round 1", got)
	}
}

func describe(l excelize.PageLayoutOptions) string {
	var b strings.Builder
	for _, f := range []struct {
		name string
		v    any
	}{{"size", l.Size}, {"orientation", l.Orientation}, {"fit to width", l.FitToWidth}, {"fit to height", l.FitToHeight}, {"scale", l.AdjustTo}, {"order", l.PageOrder}} {
		switch v := f.v.(type) {
		case *uint:
			if v != nil {
				fmt.Fprintf(&b, "%s %d ", f.name, *v)
			}
		case *int:
			if v != nil {
				fmt.Fprintf(&b, "%s %d ", f.name, *v)
			}
		case *string:
			if v != nil {
				fmt.Fprintf(&b, "%s %s ", f.name, *v)
			}
		}
	}
	return strings.TrimSpace(b.String())
}
