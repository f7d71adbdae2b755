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
		{"ja", []string{"順位表", "対戦結果", "参加者", "ペナルティ", "設定"}, [][]string{
			{"順位", "同順位", "名前", "よみがな", "1位の回数", "勝利点合計", "勝利点シェア", "対戦数", "ペナルティ数", "棄権"},
			{"回戦", "卓", "手番", "色", "参加者\n番号", "参加者", "成績表の\n勝利点", "ペナルティ\nによる減点", "勝利点", "順位", "終了のしかた", "勝利宣言した\nプレイヤー", "訂正回数", "減点の理由", "家", "街", "ロンゲスト\nロード", "ラージェスト\nアーマー", "1ポイント\nカード"},
			{"参加者\n番号", "名前", "よみがな", "受付", "途中参加", "棄権", "固定卓", "同卓不可"},
			{"日時", "回戦", "卓", "参加者\n番号", "参加者", "違反", "条項", "レベル", "ジャッジ", "メモ", "取り消した\nジャッジ", "取消の理由"},
			{"区分", "項目", "値", "キー", "ファイルでの値"},
		}},
		{"en", []string{"Standings", "Results", "Players", "Penalties", "Settings"}, [][]string{
			{"Rank", "Tied", "Name", "Kana", "1st places", "Total VP", "VP share", "Games played", "Penalties", "Dropped"},
			{"Round", "Table", "Seat", "Colour", "Player no.", "Player", "VP on the sheet", "Deducted by penalties", "VP", "Place", "Ended by", "Declared winner", "Corrections", "Deducted for", "Settlements", "Cities", "Longest road", "Largest army", "One-point cards"},
			{"Player no.", "Name", "Kana", "Checked in", "Late entry", "Dropped", "Fixed table", "Keep apart from"},
			{"Time", "Round", "Table", "Player no.", "Player", "Offence", "Rulebook section", "Level", "Judge", "Note", "Revoked by", "Reason for revoking"},
			{"Group", "Setting", "Value", "Key", "Value in the file"},
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
				if len(rows) < headerRow || !slices.Equal(rows[headerRow-1], tc.headers[i]) {
					t.Fatalf("%s headers = %q, want %q in row %d", sheet, rows, tc.headers[i], headerRow)
				}
				panes, err := f.GetPanes(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if !panes.Freeze || panes.YSplit != headerRow || panes.TopLeftCell != "A4" {
					t.Errorf("%s panes = %+v, want the rows down to the header frozen", sheet, panes)
				}
				last, _ := excelize.CoordinatesToCellName(len(tc.headers[i]), len(rows))
				if want := fmt.Sprintf("'%s'!$A$3:$%s", sheet, strings.Replace(last, strconv.Itoa(len(rows)), "$"+strconv.Itoa(len(rows)), 1)); filters[sheet] != want {
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

// headerRow is the row of a sheet's column headers, under the title and
// the line explaining the columns.
const headerRow = 3

// data returns a sheet's rows under its header row.
func data(t *testing.T, f *excelize.File, sheet string) [][]string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < headerRow {
		t.Fatalf("%s has %d rows, want a title, a note and a header at least", sheet, len(rows))
	}
	return rows[headerRow:]
}

// rowOf is the number of the row of sheet with value in column col.
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
	// The rank is a plain number, so sorting the sheet by it puts the
	// players back in order; a shared rank says how many share it in a
	// column of its own, a number too.
	shared := 0
	for i, s := range st {
		row := strconv.Itoa(headerRow + 1 + i)
		for col, want := range map[string]string{"A": strconv.Itoa(s.Rank), "C": s.Name, "E": strconv.Itoa(s.Firsts), "F": strconv.Itoa(s.VP), "H": strconv.Itoa(s.Played)} {
			if got := raw(t, f, sheet, col+row); got != want {
				t.Errorf("%s!%s%s = %q, want %q (%s)", sheet, col, row, got, want, s.Name)
			}
		}
		for _, col := range []string{"A", "E", "F", "G", "H", "I"} {
			if !isNumber(t, f, sheet, col+row) {
				t.Errorf("%s!%s%s is not a number", sheet, col, row)
			}
		}
		if got := shown(t, f, sheet, "A"+row); got != strconv.Itoa(s.Rank) {
			t.Errorf("rank %s!A%s shows %q, want %d", sheet, row, got, s.Rank)
		}
		share, err := strconv.ParseFloat(raw(t, f, sheet, "G"+row), 64)
		if err != nil || math.Abs(share-s.Share) > 1e-12 {
			t.Errorf("%s!G%s = %v (%v), want the share %v", sheet, row, share, err, s.Share)
		}
		sharing := (i > 0 && st[i-1].Rank == s.Rank) || (i+1 < len(st) && st[i+1].Rank == s.Rank)
		tie := shown(t, f, sheet, "B"+row)
		switch {
		case sharing:
			shared++
			if tie != "2人" || raw(t, f, sheet, "B"+row) != "2" || !isNumber(t, f, sheet, "B"+row) {
				t.Errorf("shared rank %s!B%s shows %q (%q), want the number 2 shown as 2人", sheet, row, tie, raw(t, f, sheet, "B"+row))
			}
		case tie != "":
			t.Errorf("%s!B%s shows %q for a rank nobody shares, want it empty", sheet, row, tie)
		}
	}
	if shared != 2 {
		t.Errorf("%d players share a rank in the standings, want the two 8-VP players", shared)
	}
	// The share shows as a percentage: own VP over the table's total, at
	// a 3-player table raised by the table's average (docs/rules.md): 6×3/(4×20).
	six := e.three.Players[1]
	i := slices.IndexFunc(st, func(s tournament.Standing) bool { return s.PlayerID == six })
	row := strconv.Itoa(headerRow + 1 + i)
	if got := raw(t, f, sheet, "G"+row); got != "0.225" {
		t.Errorf("3-player table share %s!G%s = %q, want 0.225", sheet, row, got)
	}
	if got := shown(t, f, sheet, "G"+row); got != "22.50%" {
		t.Errorf("3-player table share shows %q, want 22.50%%", got)
	}
	style, err := f.GetCellStyle(sheet, "G"+row)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := f.GetStyle(style); err != nil || s.NumFmt != 10 {
		t.Errorf("share cell style = %+v (%v), want the percentage format 10", s, err)
	}
	// The penalties column counts standing penalties; the revoked one does not count.
	noted := slices.IndexFunc(st, func(s tournament.Standing) bool { return s.PlayerID == e.four.Players[3] })
	revoked := slices.IndexFunc(st, func(s tournament.Standing) bool { return s.PlayerID == e.three.Players[1] })
	if got := raw(t, f, sheet, fmt.Sprintf("I%d", headerRow+1+noted)); got != "1" {
		t.Errorf("penalties of the note-taker = %q, want 1", got)
	}
	if got := raw(t, f, sheet, fmt.Sprintf("I%d", headerRow+1+revoked)); got != "0" {
		t.Errorf("penalties of the player whose penalty was revoked = %q, want 0", got)
	}
}

func TestWorkbookFormulaLookingNamesStayText(t *testing.T) {
	e := newEvent(t)
	f, _ := e.workbook(t, "ja")
	for sheet, col := range map[string]int{"順位表": 3, "参加者": 2} {
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
	rows := data(t, f, "対戦結果")
	if len(rows) != 7 {
		t.Fatalf("results has %d rows, want 7 players' games", len(rows))
	}
	// The 3-player table: no seating, so no seat or colour; one correction.
	n := strconv.Itoa(e.three.Number)
	var lines [][]string
	for _, r := range rows {
		if r[1] == n {
			lines = append(lines, r)
		}
	}
	want := [][]string{
		{"1", n, "", "", itoa(e.three.Players[0]), name(d, e.three.Players[0]), "10", "", "10", "1", "勝利宣言", name(d, e.three.Players[0]), "1", "", "2", "3", "あり", "なし", "0"},
		{"1", n, "", "", itoa(e.three.Players[1]), name(d, e.three.Players[1]), "6", "", "6", "2", "勝利宣言", name(d, e.three.Players[0]), "1"},
		{"1", n, "", "", itoa(e.three.Players[2]), name(d, e.three.Players[2]), "4", "", "4", "3", "勝利宣言", name(d, e.three.Players[0]), "1"},
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("results of the 3-player table (-want +got):\n%s", diff)
	}
	// The seated table of 4 lists its players in play order with colours.
	var colours []string
	for _, r := range rows {
		if r[1] == strconv.Itoa(e.four.Number) {
			colours = append(colours, r[2]+r[3])
		}
	}
	if !slices.Equal(colours, []string{"1赤", "2青", "3黄", "4緑"}) {
		t.Errorf("seats and colours of the table of 4 = %v, want 1赤 2青 3黄 4緑", colours)
	}

	pens := data(t, f, "ペナルティ")
	if len(pens) != 2 {
		t.Fatalf("penalties has %d rows, want 2", len(pens))
	}
	if got, want := pens[0][1:], []string{"1", strconv.Itoa(e.four.Number), itoa(e.four.Players[3]), name(d, e.four.Players[3]), "メモを取った", "§13", "警告", "佐藤", "ゲーム中にメモ"}; !slices.Equal(got, want) {
		t.Errorf("penalty row = %q, want %q", got, want)
	}
	if got := pens[1][10:]; !slices.Equal(got, []string{"山田", "別の選手と取り違えた"}) {
		t.Errorf("revoked penalty's revocation = %q", got)
	}
	if at := d.Penalties[0].At.In(time.Local).Format("2006-01-02 15:04"); pens[0][0] != at {
		t.Errorf("penalty time shows %q, want %q", pens[0][0], at)
	}
	if !isNumber(t, f, "ペナルティ", fmt.Sprintf("A%d", headerRow+1)) {
		t.Error("penalty time is not a number (an Excel date)")
	}

	// The settings in the workbook's language, and as the ruleset file
	// writes them where that differs.
	settings := map[string][]string{}
	srows := data(t, f, "設定")
	for _, r := range srows {
		settings[r[3]] = r
	}
	rs := d.Tournament.Ruleset
	for _, tc := range []struct{ key, shown, file string }{
		{"name", rs.Name, ""},
		{"version", rs.Version, ""},
		{"vp_cap", "10", ""},
		{"dango", "辺でつながった赤い数字（6・8）3つ以上で配り直し", "connected"},
		{"robber_on_desert", "はい", "true"},
		{"colors", "赤、青、黄、緑", "red, blue, yellow, green"},
		{"layout.harbors", "3:1、羊 2:1、3:1、3:1、土 2:1、木 2:1、3:1、麦 2:1、鉄 2:1", "generic, wool, generic, generic, brick, lumber, generic, grain, ore"},
		{"standings_order", "1位の回数 → 勝利点合計 → 勝利点シェア", "firsts, vp, share"},
		{"ladder", "注意 → 警告 → 勝利点減点 → 敗北 → 失格", "caution, warning, vp_deduction, game_loss, disqualification"},
		{"event.rounds", "抽選、スイス式", "random, swiss"},
		{"bye.share", "0.00%", ""},
		{"tournament.name", "土曜カタン大会", ""},
		{"rounds.1.pairing_seed", strconv.FormatUint(d.Rounds[0].Round.Seed, 10), ""},
		{fmt.Sprintf("rounds.1.tables.%d.board_seed", e.four.Number), strconv.FormatUint(d.Rounds[0].Tables[e.four.Number-1].Table.Board.Seed, 10), ""},
		{fmt.Sprintf("rounds.1.tables.%d.seating_seed", e.four.Number), strconv.FormatUint(d.Rounds[0].Tables[e.four.Number-1].Table.Seating.Seed, 10), ""},
		{"penalties.note-taking", "§13・警告・繰り返すと格上げ", "section: §13, level: warning, escalates: true"},
		{"penalties.void-dice-roll", "§6 ア・注意・処置: 振り直し", "section: §6 ア, level: caution, escalates: false, remedy: re-roll"},
	} {
		r, ok := settings[tc.key]
		if !ok || r[2] != tc.shown || tc.file != "" && (len(r) < 5 || r[4] != tc.file) || tc.file == "" && len(r) > 4 {
			t.Errorf("setting %s = %q, want %q in words and %q in the file", tc.key, r, tc.shown, tc.file)
		}
	}
	if r := settings["rounds.1.pairing_seed"]; r[1] != "第1回戦 組み合わせ（抽選）" {
		t.Errorf("round 1's seed is labelled %q, want the draw said in Japanese", r[1])
	}
	// Seeds keep every digit: they are text, not Excel numbers.
	for r, row := range srows {
		if strings.HasSuffix(row[3], "_seed") {
			cell := fmt.Sprintf("C%d", headerRow+1+r)
			if ct, _ := f.GetCellType("設定", cell); ct != excelize.CellTypeInlineString {
				t.Errorf("seed %s is type %v, want text", row[3], ct)
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

// TestWorkbookGolden keeps every sheet's text in testdata/workbook.*.golden
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
				if i == 3 && r >= headerRow {
					row[0] = "<time>"
				}
				// A header broken onto two lines keeps to one line here.
				b.WriteString(strings.ReplaceAll(strings.Join(row, "\t"), "\n", `\n`) + "\n")
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
		rows := data(t, f, sheet)
		if sheet != "Settings" {
			if len(rows) != 0 {
				t.Errorf("%s has %d rows under its header, want none", sheet, len(rows))
			}
			continue
		}
		// The tournament, the ruleset (its board, time and event settings
		// included) and its catalogue; no seeds yet.
		if want := 5 + 32 + len(rs.Penalties); len(rows) != want {
			t.Errorf("%s has %d rows, want %d", sheet, len(rows), want)
		}
	}
}
