package export_test

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// docs/rules.md, Penalties: the export shows a deduction as such, the sheet's
// VP, what was taken off and what counts (8, 2, 6), with the penalty.
func TestWorkbookShowsDeductions(t *testing.T) {
	e := newEvent(t)
	who := e.four.Players[1]
	if _, err := e.svc.RecordPenalty(context.Background(), "佐藤", e.tid, tournament.PenaltyInput{
		PlayerID: who, Round: 1, Offence: "note-taking", Level: "vp_deduction"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ lang, sheet, why string }{
		{"ja", "対戦結果", "勝利点減点: メモを取った"},
		{"en", "Results", "VP deduction: Took notes"},
	} {
		f, _ := e.workbook(t, tc.lang)
		var got []string
		for _, r := range data(t, f, tc.sheet) {
			if r[4] == itoa(who) {
				got = r[6:10]
				if len(r) > 13 {
					got = append(got, r[13])
				}
			}
		}
		if want := []string{"8", "2", "6", "3", tc.why}; !slices.Equal(got, want) {
			t.Errorf("%s: the deducted player's results (sheet, deducted, VP, place, why) = %q, want %q", tc.lang, got, want)
		}
	}
}

// A national-rules event's workbook records its spiral settings and, for
// each table, the corner die and the terrain seed that replay its board.
func TestWorkbookOfASpiralEvent(t *testing.T) {
	rulesets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := rulesets.Get("national-2025")
	d := tournamenttest.LargeEvent(rs, 4, 1)
	d.Rounds[0].Tables[0].Table.Board = &tournament.BoardRecord{Corner: 3, Seed: 987654321}
	var buf bytes.Buffer
	if err := export.Workbook(&buf, d, "en"); err != nil {
		t.Fatalf("Workbook: %v", err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The setting as the ruleset file writes it, where the words differ.
	got := map[string]string{}
	for _, r := range data(t, f, "Settings") {
		got[r[3]] = r[2]
		if len(r) > 4 {
			got[r[3]] = r[4]
		}
	}
	want := map[string]string{
		"board.method":                          "spiral",
		"board.corners":                         "north-west, north-east, east, south-east, south-west, west",
		"board.chips":                           "5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11",
		"time.placement_seconds_per_settlement": "60",
		"rounds.1.tables.1.board_corner":        "3",
		"rounds.1.tables.1.board_seed":          "987654321",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Settings %s = %q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["rounds.1.tables.1.board_roll"]; ok {
		t.Error("a spiral board is recorded with a capsule roll")
	}
}

// TestWorkbookFollowsTheGlossary reads the Japanese workbook's own words
// (titles, notes, headers, the words it writes for values, the settings)
// as a Japanese judge would: no word docs/glossary.md avoids, no "VP" in
// Japanese text, no half-width parentheses.
func TestWorkbookFollowsTheGlossary(t *testing.T) {
	e := newEvent(t)
	f, _ := e.workbook(t, "ja")
	// The columns holding the workbook's words rather than the event's
	// (names, notes, seeds), by sheet.
	words := map[string][]string{
		"順位表":   {"B"},
		"対戦結果":  {"D", "K", "N"},
		"参加者":   {"D", "E", "F"},
		"ペナルティ": {"F", "H"},
		"設定":    {"A", "B", "C"},
	}
	var texts []string
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			if r < headerRow {
				texts = append(texts, row...)
				continue
			}
			if sheet == "設定" && len(row) > 3 && strings.HasPrefix(row[3], "tournament.") {
				continue // the tournament's name and venue, as the organizer typed them
			}
			for _, col := range words[sheet] {
				i, _ := excelize.ColumnNameToNumber(col)
				if i <= len(row) {
					texts = append(texts, row[i-1])
				}
			}
		}
	}
	bad := tournamenttest.AvoidedWords(t, filepath.Join("..", ".."))
	for _, s := range texts {
		for _, w := range bad {
			if strings.Contains(s, w) {
				t.Errorf("%q says %q, which docs/glossary.md avoids", s, w)
			}
		}
		if strings.Contains(s, "VP") {
			t.Errorf("%q says VP in Japanese: 勝利点, or 点 after a number", s)
		}
		if strings.ContainsAny(s, "()") {
			t.Errorf("%q has half-width parentheses in Japanese", s)
		}
	}
	if len(texts) < 200 {
		t.Errorf("read %d texts of the workbook, want every title, header and setting", len(texts))
	}
}

// TestWorkbookStandingsSayWhatTheyCount names in the standings' title the
// results they count, as the kiosk does.
func TestWorkbookStandingsSayWhatTheyCount(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	for _, tc := range []struct {
		name   string
		change func(d *tournament.ExportData)
		ja, en string
	}{
		{"every result in", func(d *tournament.ExportData) {}, "順位表（第2回戦終了時点）", "Standings after round 2"},
		{"a round being entered", func(d *tournament.ExportData) { d.Rounds[1].Tables[0].Result = nil },
			"順位表（途中経過: 第2回戦の入力済みの成績を含む）", "Standings so far (with the results entered in round 2)"},
		{"a round just paired", func(d *tournament.ExportData) {
			for i := range d.Rounds[1].Tables {
				d.Rounds[1].Tables[i].Result = nil
			}
		}, "順位表（第1回戦終了時点）", "Standings after round 1"},
		{"no round yet", func(d *tournament.ExportData) { d.Rounds = nil }, "順位表", "Standings"},
		{"closed", func(d *tournament.ExportData) { d.Tournament.Closed = &tournament.Closure{Judge: "山田"} }, "最終順位", "Final standings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tournamenttest.LargeEvent(rs, 8, 2)
			tc.change(&d)
			for lang, want := range map[string]string{"ja": tc.ja, "en": tc.en} {
				var buf bytes.Buffer
				if err := export.Workbook(&buf, d, lang); err != nil {
					t.Fatal(err)
				}
				f, err := excelize.OpenReader(&buf)
				if err != nil {
					t.Fatal(err)
				}
				if got := shown(t, f, f.GetSheetName(0), "A1"); !strings.HasSuffix(got, want) || !strings.HasPrefix(got, "全国大会") {
					t.Errorf("%s title = %q, want 全国大会 … %q", lang, got, want)
				}
				f.Close()
			}
		})
	}
}

// Once a final is played the workbook opens on the final results (最終順位):
// the final table's players first, saying the final decided them, then
// everyone else by the qualifying standings, which keep their 順位表 sheet;
// the settings record the cut's advancing players, draw and seed.
func TestWorkbookShowsTheFinal(t *testing.T) {
	e, final := finalEvent(t)
	for _, lang := range []string{"ja", "en"} {
		f, d := e.workbook(t, lang)
		sheets := f.GetSheetList()
		want := map[string][]string{"ja": {"最終順位", "順位表"}, "en": {"Final results", "Standings"}}[lang]
		if len(sheets) < 2 || sheets[0] != want[0] || sheets[1] != want[1] {
			t.Fatalf("%s: sheets %v, want %v first", lang, sheets, want)
		}
		rows := data(t, f, sheets[0])
		if len(rows) != 8 || rows[0][2] != name(d, final.Tables[0].Players[0]) || rows[0][4] != map[string]string{"ja": "決勝卓", "en": "final table"}[lang] ||
			rows[4][4] != map[string]string{"ja": "予選順位", "en": "qualifying standings"}[lang] {
			t.Errorf("%s: the final results sheet = %v", lang, rows)
		}
		settings := sheets[len(sheets)-1]
		if got := raw(t, f, settings, "C"+strconv.Itoa(rowOf(t, f, settings, 4, "rounds.2.cut_seed"))); got != strconv.FormatUint(final.Cut.Seed, 10) {
			t.Errorf("%s: rounds.2.cut_seed = %q, want %d", lang, got, final.Cut.Seed)
		}
		if got := raw(t, f, settings, "C"+strconv.Itoa(rowOf(t, f, settings, 4, "rounds.2.cut_draw"))); strings.Count(got, ",") != 1 {
			t.Errorf("%s: rounds.2.cut_draw = %q, want the two players drawn", lang, got)
		}
	}
}
