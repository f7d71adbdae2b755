package export_test

import (
	"archive/zip"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The names a spreadsheet could take for formulas: each must stay text.
var formulaNames = []string{`=HYPERLINK("http://example.com","x")`, "+81-90-1234-5678", "-1", "@home"}

// event is a tournament of 7 players (a table of 4 and one of 3) with
// round 1 played: a declared win, a shared 2nd place that gives a shared
// standings rank, a correction, and penalties, one of them revoked.
type event struct {
	svc   *tournament.Service
	tid   int64
	four  tournament.Table // the table of 4 in round 1
	three tournament.Table // the table of 3
}

func newEvent(t *testing.T) event {
	t.Helper()
	ctx := context.Background()
	var seed uint64
	svc, _ := tournamenttest.NewService(t, tournamenttest.Clock(time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC), time.Minute),
		tournament.WithSeeds(func() uint64 { seed++; return seed * 0x9E3779B97F4A7C15 }))
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	tr, err := svc.CreateTournament(ctx, "山田", tournament.TournamentInput{Name: "土曜カタン大会", Date: "2025-11-22", Venue: "秋葉原店", Rounds: 3})
	check(err)
	names := append([]string{"青木", "井上", "上田"}, formulaNames...)
	for i, n := range names {
		p, err := svc.AddPlayer(ctx, "山田", tr.ID, tournament.PlayerInput{Name: n, Kana: fmt.Sprintf("かな%d", i)})
		check(err)
		_, err = svc.CheckIn(ctx, "山田", p.TournamentID, p.ID, true)
		check(err)
	}
	r, err := svc.PairNextRound(ctx, "山田", tr.ID)
	check(err)
	e := event{svc: svc, tid: tr.ID}
	for _, tb := range r.Tables {
		switch len(tb.Players) {
		case 4:
			e.four = tb
		case 3:
			e.three = tb
		}
	}
	if e.four.Number == 0 || e.three.Number == 0 {
		t.Fatalf("round 1 tables %+v, want one of 4 and one of 3", r.Tables)
	}
	save := func(tb tournament.Table, version int, vp []int, reason string, breakdowns ...*referee.Breakdown) {
		t.Helper()
		in := tournament.ResultInput{Declared: tb.Players[0], Version: version, Reason: reason}
		for i, id := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: vp[i]})
			if i < len(breakdowns) {
				in.Scores[i].Breakdown = breakdowns[i]
			}
		}
		_, err := svc.SaveResult(ctx, "山田", tr.ID, 1, tb.Number, in)
		check(err)
	}
	_, err = svc.SetSeating(ctx, "山田", tr.ID, 1, e.four.Number, tournament.SeatingInput{Auto: true})
	check(err)
	_, err = svc.SetBoard(ctx, "山田", tr.ID, 1, e.four.Number, tournament.BoardInput{Auto: true})
	check(err)
	// 10 declared, 8, 8, 5: the two 8s share 2nd place and, equal on every
	// key, a standings rank.
	save(e.four, 0, []int{10, 8, 8, 5}, "")
	save(e.three, 0, []int{10, 5, 4}, "")
	// The correction gives the winner's VP breakdown: the results sheet shows it.
	save(e.three, 1, []int{10, 6, 4}, "数え直し", &referee.Breakdown{Settlements: 2, Cities: 3, LongestRoad: true})
	_, err = svc.RecordPenalty(ctx, "佐藤", tr.ID, tournament.PenaltyInput{PlayerID: e.four.Players[3], Round: 1, Offence: "note-taking", Note: "ゲーム中にメモ"})
	check(err)
	wrong, err := svc.RecordPenalty(ctx, "佐藤", tr.ID, tournament.PenaltyInput{PlayerID: e.three.Players[1], Round: 1, Offence: "shamisen"})
	check(err)
	_, err = svc.RevokePenalty(ctx, "山田", wrong.TournamentID, wrong.ID, "別の選手と取り違えた")
	check(err)
	return e
}

// workbook exports the event in lang and opens the workbook again.
func (e event) workbook(t *testing.T, lang string) (*excelize.File, tournament.ExportData) {
	t.Helper()
	d, err := e.svc.ExportData(context.Background(), e.tid)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := export.Workbook(&buf, d, lang); err != nil {
		t.Fatalf("Workbook: %v", err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatalf("the exported workbook does not open: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f, d
}

// TestWorkbookXML checks what excelize reads back leniently but Excel
// does not: every sheet's <col> elements in column order.
func TestWorkbookXML(t *testing.T) {
	e := newEvent(t)
	d, err := e.svc.ExportData(context.Background(), e.tid)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := export.Workbook(&buf, d, "ja"); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	sheets := 0
	for _, zf := range z.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		sheets++
		r, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		xml, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		var mins []int
		for _, m := range regexp.MustCompile(`<col min="(\d+)"`).FindAllSubmatch(xml, -1) {
			n, _ := strconv.Atoi(string(m[1]))
			mins = append(mins, n)
		}
		if len(mins) == 0 || !slices.IsSorted(mins) {
			t.Errorf("%s: <col> elements for columns %v, want them in column order", zf.Name, mins)
		}
		if !bytes.Contains(xml, []byte("<autoFilter ref=")) || !bytes.Contains(xml, []byte(`state="frozen"`)) {
			t.Errorf("%s has no autofilter or no frozen pane", zf.Name)
		}
	}
	if sheets != 5 {
		t.Errorf("the workbook has %d sheets, want 5", sheets)
	}
}

func TestWorkbookSheetsAndHeaders(t *testing.T) {
	e := newEvent(t)
	for _, tc := range []struct {
		lang    string
		sheets  []string
		headers [][]string
	}{
		{"ja", []string{"順位表", "対戦結果", "選手", "ペナルティ", "設定"}, [][]string{
			{"順位", "名前", "ふりがな", "1位の回数", "勝利点合計", "勝利点シェア", "対戦数", "ペナルティ", "棄権（回戦から）"},
			{"回戦", "卓", "手番", "色", "選手番号", "選手", "成績表の勝利点", "ペナルティによる減点", "勝利点", "順位", "終了", "勝利宣言", "訂正回数", "減点の理由", "家", "街", "ロンゲストロード", "ラージェストアーマー", "1ポイントカード"},
			{"選手番号", "名前", "ふりがな", "受付", "途中参加（回戦から）", "棄権（回戦から）", "固定卓", "同卓不可"},
			{"日時", "回戦", "卓", "選手番号", "選手", "違反", "条項", "罰則", "ジャッジ", "メモ", "取消（ジャッジ）", "取消の理由"},
			{"区分", "項目", "キー", "値"},
		}},
		{"en", []string{"Standings", "Results", "Players", "Penalties", "Settings"}, [][]string{
			{"Rank", "Name", "Kana", "1st places", "Total VP", "VP share", "Games played", "Penalties", "Dropped from round"},
			{"Round", "Table", "Seat", "Colour", "Player no.", "Player", "VP on the sheet", "Deducted by penalties", "VP", "Place", "Ended by", "Declared winner", "Corrections", "Deducted for", "Settlements", "Cities", "Longest road", "Largest army", "One-point cards"},
			{"Player no.", "Name", "Kana", "Checked in", "Late entry from round", "Dropped from round", "Fixed table", "Keep apart from"},
			{"Time", "Round", "Table", "Player no.", "Player", "Offence", "Rulebook section", "Level", "Judge", "Note", "Revoked by", "Reason for revoking"},
			{"Group", "Setting", "Key", "Value"},
		}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			f, _ := e.workbook(t, tc.lang)
			if got := f.GetSheetList(); !slices.Equal(got, tc.sheets) {
				t.Fatalf("sheets = %v, want %v", got, tc.sheets)
			}
			filters := map[string]string{}
			for _, dn := range f.GetDefinedName() {
				if dn.Name == "_xlnm._FilterDatabase" {
					filters[dn.Scope] = dn.RefersTo
				}
			}
			for i, sheet := range tc.sheets {
				rows, err := f.GetRows(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) == 0 || !slices.Equal(rows[0], tc.headers[i]) {
					t.Errorf("%s headers = %q, want %q", sheet, rows[0], tc.headers[i])
				}
				panes, err := f.GetPanes(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if !panes.Freeze || panes.YSplit != 1 || panes.TopLeftCell != "A2" {
					t.Errorf("%s panes = %+v, want the header row frozen", sheet, panes)
				}
				last, _ := excelize.CoordinatesToCellName(len(tc.headers[i]), len(rows))
				if want := fmt.Sprintf("'%s'!$A$1:$%s", sheet, strings.Replace(last, strconv.Itoa(len(rows)), "$"+strconv.Itoa(len(rows)), 1)); filters[sheet] != want {
					t.Errorf("%s autofilter = %q, want %q", sheet, filters[sheet], want)
				}
				for j := range tc.headers[i] {
					col, _ := excelize.ColumnNumberToName(j + 1)
					w, err := f.GetColWidth(sheet, col)
					if err != nil || w < 6 || w > 60 {
						t.Errorf("%s column %s width = %v (%v), want 6 to 60", sheet, col, w, err)
					}
				}
			}
		})
	}
}

// cellAt is a standings cell of the row showing player id.
func rowOf(t *testing.T, f *excelize.File, sheet string, col int, value string) int {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if len(r) >= col && r[col-1] == value {
			return i + 1
		}
	}
	t.Fatalf("%s has no row with %q in column %d", sheet, value, col)
	return 0
}

func raw(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func shown(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// isNumber reports a cell holding a number rather than text.
func isNumber(t *testing.T, f *excelize.File, sheet, cell string) bool {
	t.Helper()
	ct, err := f.GetCellType(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	if ct != excelize.CellTypeUnset && ct != excelize.CellTypeNumber {
		return false
	}
	_, err = strconv.ParseFloat(raw(t, f, sheet, cell), 64)
	return err == nil
}

func TestWorkbookStandingsMatchTheService(t *testing.T) {
	e := newEvent(t)
	f, d := e.workbook(t, "ja")
	const sheet = "順位表"
	st, err := e.svc.Standings(context.Background(), e.tid)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(st, d.Standings); diff != "" {
		t.Fatalf("ExportData standings differ from Standings (-want +got):\n%s", diff)
	}
	shared := 0
	for i, s := range st {
		row := strconv.Itoa(i + 2)
		for col, want := range map[string]string{"A": strconv.Itoa(s.Rank), "B": s.Name, "D": strconv.Itoa(s.Firsts), "E": strconv.Itoa(s.VP), "G": strconv.Itoa(s.Played)} {
			if got := raw(t, f, sheet, col+row); got != want {
				t.Errorf("%s!%s%s = %q, want %q (%s)", sheet, col, row, got, want, s.Name)
			}
		}
		for _, col := range []string{"A", "D", "E", "F", "G", "H"} {
			if !isNumber(t, f, sheet, col+row) {
				t.Errorf("%s!%s%s is not a number", sheet, col, row)
			}
		}
		share, err := strconv.ParseFloat(raw(t, f, sheet, "F"+row), 64)
		if err != nil || math.Abs(share-s.Share) > 1e-12 {
			t.Errorf("%s!F%s = %v (%v), want the share %v", sheet, row, share, err, s.Share)
		}
		if i > 0 && st[i-1].Rank == s.Rank {
			shared++
			for _, r := range []string{strconv.Itoa(i + 1), row} {
				if got, want := shown(t, f, sheet, "A"+r), fmt.Sprintf("%d（同順位）", s.Rank); got != want {
					t.Errorf("shared rank %s!A%s shows %q, want %q", sheet, r, got, want)
				}
			}
		}
	}
	if shared != 1 {
		t.Errorf("%d shared ranks in the standings, want the one of the two 8-VP players", shared)
	}
	// The share shows as a percentage: own VP over the table's total, at
	// a 3-player table raised by the table's average (RULINGS.md): 6×3/(4×20).
	six := e.three.Players[1]
	i := slices.IndexFunc(st, func(s tournament.Standing) bool { return s.PlayerID == six })
	row := strconv.Itoa(i + 2)
	if got := raw(t, f, sheet, "F"+row); got != "0.225" {
		t.Errorf("3-player table share %s!F%s = %q, want 0.225", sheet, row, got)
	}
	if got := shown(t, f, sheet, "F"+row); got != "22.50%" {
		t.Errorf("3-player table share shows %q, want 22.50%%", got)
	}
	style, err := f.GetCellStyle(sheet, "F"+row)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := f.GetStyle(style); err != nil || s.NumFmt != 10 {
		t.Errorf("share cell style = %+v (%v), want the percentage format 10", s, err)
	}
	// The penalties column counts standing penalties; the revoked one does not count.
	noted := slices.IndexFunc(st, func(s tournament.Standing) bool { return s.PlayerID == e.four.Players[3] })
	revoked := slices.IndexFunc(st, func(s tournament.Standing) bool { return s.PlayerID == e.three.Players[1] })
	if got := raw(t, f, sheet, fmt.Sprintf("H%d", noted+2)); got != "1" {
		t.Errorf("penalties of the note-taker = %q, want 1", got)
	}
	if got := raw(t, f, sheet, fmt.Sprintf("H%d", revoked+2)); got != "0" {
		t.Errorf("penalties of the player whose penalty was revoked = %q, want 0", got)
	}
}

func TestWorkbookFormulaLookingNamesStayText(t *testing.T) {
	e := newEvent(t)
	f, _ := e.workbook(t, "ja")
	for _, sheet := range []string{"順位表", "選手"} {
		col := 2
		for _, name := range formulaNames {
			cell, _ := excelize.CoordinatesToCellName(col, rowOf(t, f, sheet, col, name))
			if got := raw(t, f, sheet, cell); got != name {
				t.Errorf("%s!%s = %q, want %q", sheet, cell, got, name)
			}
			if fm, err := f.GetCellFormula(sheet, cell); err != nil || fm != "" {
				t.Errorf("%s!%s (%q) has formula %q (%v), want none", sheet, cell, name, fm, err)
			}
			if ct, _ := f.GetCellType(sheet, cell); ct != excelize.CellTypeInlineString {
				t.Errorf("%s!%s (%q) has type %v, want an inline string", sheet, cell, name, ct)
			}
			style, _ := f.GetCellStyle(sheet, cell)
			if s, err := f.GetStyle(style); err != nil || s.NumFmt != 49 {
				t.Errorf("%s!%s (%q) style %+v, want the text format @", sheet, cell, name, s)
			}
		}
	}
}

func TestWorkbookResultsPenaltiesAndSettings(t *testing.T) {
	e := newEvent(t)
	f, d := e.workbook(t, "ja")
	rows, err := f.GetRows("対戦結果")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+7 {
		t.Fatalf("results has %d rows, want a header and 7 players' games", len(rows))
	}
	// The 3-player table: no seating, so no seat or colour; one correction.
	n := strconv.Itoa(e.three.Number)
	var lines [][]string
	for _, r := range rows[1:] {
		if r[1] == n {
			lines = append(lines, r)
		}
	}
	want := [][]string{
		{"1", n, "", "", itoa(e.three.Players[0]), name(d, e.three.Players[0]), "10", "", "10", "1", "勝利宣言", name(d, e.three.Players[0]), "1", "", "2", "3", "TRUE", "FALSE", "0"},
		{"1", n, "", "", itoa(e.three.Players[1]), name(d, e.three.Players[1]), "6", "", "6", "2", "勝利宣言", name(d, e.three.Players[0]), "1"},
		{"1", n, "", "", itoa(e.three.Players[2]), name(d, e.three.Players[2]), "4", "", "4", "3", "勝利宣言", name(d, e.three.Players[0]), "1"},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("results of the 3-player table (-want +got):\n%s", diff)
	}
	// The seated table of 4 lists its players in play order with colours.
	var colours []string
	for _, r := range rows[1:] {
		if r[1] == strconv.Itoa(e.four.Number) {
			colours = append(colours, r[2]+r[3])
		}
	}
	if !slices.Equal(colours, []string{"1赤", "2青", "3黄", "4緑"}) {
		t.Errorf("seats and colours of the table of 4 = %v, want 1赤 2青 3黄 4緑", colours)
	}

	pens, err := f.GetRows("ペナルティ")
	if err != nil {
		t.Fatal(err)
	}
	if len(pens) != 3 {
		t.Fatalf("penalties has %d rows, want a header and 2", len(pens))
	}
	if got, want := pens[1][1:], []string{"1", strconv.Itoa(e.four.Number), itoa(e.four.Players[3]), name(d, e.four.Players[3]), "メモを取った", "§13", "警告", "佐藤", "ゲーム中にメモ"}; !slices.Equal(got, want) {
		t.Errorf("penalty row = %q, want %q", got, want)
	}
	if got := pens[2][10:]; !slices.Equal(got, []string{"山田", "別の選手と取り違えた"}) {
		t.Errorf("revoked penalty's revocation = %q", got)
	}
	if at := d.Penalties[0].At.In(time.Local).Format("2006-01-02 15:04"); pens[1][0] != at {
		t.Errorf("penalty time shows %q, want %q", pens[1][0], at)
	}
	if !isNumber(t, f, "ペナルティ", "A2") {
		t.Error("penalty time is not a number (an Excel date)")
	}

	settings := map[string][]string{}
	srows, err := f.GetRows("設定")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range srows[1:] {
		settings[r[2]] = r
	}
	rs := d.Tournament.Ruleset
	for key, want := range map[string]string{
		"name": rs.Name, "version": rs.Version, "vp_cap": "10", "dango": "connected",
		"standings_order": "firsts, vp, share", "tournament.name": "土曜カタン大会",
		"rounds.1.pairing_seed": strconv.FormatUint(d.Rounds[0].Round.Seed, 10),
		fmt.Sprintf("rounds.1.tables.%d.board_seed", e.four.Number):   strconv.FormatUint(d.Rounds[0].Tables[e.four.Number-1].Table.Board.Seed, 10),
		fmt.Sprintf("rounds.1.tables.%d.seating_seed", e.four.Number): strconv.FormatUint(d.Rounds[0].Tables[e.four.Number-1].Table.Seating.Seed, 10),
		"penalties.note-taking": "§13 · 警告 · 繰り返しで重くなる",
	} {
		r, ok := settings[key]
		if !ok || r[3] != want {
			t.Errorf("setting %s = %q, want value %q", key, r, want)
		}
	}
	// Seeds keep every digit: they are text, not Excel numbers.
	for r, row := range srows {
		if strings.HasSuffix(row[2], "_seed") {
			cell := fmt.Sprintf("D%d", r+1)
			if ct, _ := f.GetCellType("設定", cell); ct != excelize.CellTypeInlineString {
				t.Errorf("seed %s is type %v, want text", row[2], ct)
			}
		}
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

func name(d tournament.ExportData, id int64) string {
	for _, p := range d.Players {
		if p.ID == id {
			return p.Name
		}
	}
	return fmt.Sprint("no player ", id)
}

// TestWorkbookGolden keeps every sheet's text in testdata/workbook.golden
// (penalty times left out: they are shown in the machine's time zone).
func TestWorkbookGolden(t *testing.T) {
	e := newEvent(t)
	for _, lang := range []string{"ja", "en"} {
		f, _ := e.workbook(t, lang)
		var b strings.Builder
		for i, sheet := range f.GetSheetList() {
			rows, err := f.GetRows(sheet)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "== %s\n", sheet)
			for r, row := range rows {
				if i == 3 && r > 0 {
					row[0] = "<time>"
				}
				b.WriteString(strings.Join(row, "\t") + "\n")
			}
		}
		path := filepath.Join("testdata", "workbook."+lang+".golden")
		if *update {
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if diff := cmp.Diff(string(want), b.String()); diff != "" {
			t.Errorf("%s workbook differs from %s (-want +got):\n%s", lang, path, diff)
		}
	}
}

// TestWorkbookOfANewTournament exports a tournament with nobody in it yet:
// every sheet is there with its header row.
func TestWorkbookOfANewTournament(t *testing.T) {
	rulesets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := rulesets.Get(config.DefaultRuleset)
	var buf bytes.Buffer
	if err := export.Workbook(&buf, tournament.ExportData{Tournament: tournament.Tournament{Name: "新しい大会", Ruleset: rs}}, "en"); err != nil {
		t.Fatalf("Workbook: %v", err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if sheet != "Settings" {
			if len(rows) != 1 {
				t.Errorf("%s has %d rows, want the header alone", sheet, len(rows))
			}
			continue
		}
		// The tournament, the ruleset (its board, time and event settings
		// included) and its catalogue; no seeds yet.
		if want := 1 + 5 + 31 + len(rs.Penalties); len(rows) != want {
			t.Errorf("%s has %d rows, want %d", sheet, len(rows), want)
		}
	}
}

// RULINGS.md, Penalties: the export shows a deduction as such, the sheet's
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
		rows, err := f.GetRows(tc.sheet)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows[1:] {
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
	rows, err := f.GetRows("Settings")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		if len(r) == 4 {
			got[r[2]] = r[3]
		}
	}
	want := map[string]string{
		"board.method":                          "spiral",
		"board.corners":                         "north-west, north-east, east, south-east, south-west, west",
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
