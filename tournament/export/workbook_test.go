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
	"unicode/utf8"

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
