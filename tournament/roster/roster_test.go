package roster_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/roster"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// desk is the desk list every format below holds: a header, three
// players, a blank line, and a row with a bad fixed table.
const desk = "氏名,フリガナ,固定卓,メモ\n青木 一郎,あおき いちろう,,\n井上,いのうえ,３,車椅子\n\"上田, 花子\",うえだ はなこ,,\n\n江藤,えとう,abc,\n"

var deskRows = []tournament.ImportRow{
	{Line: 2, Name: "青木 一郎", Kana: "あおき いちろう"},
	{Line: 3, Name: "井上", Kana: "いのうえ", FixedTable: 3},
	{Line: 4, Name: "上田, 花子", Kana: "うえだ はなこ"},
	{Line: 6, Name: "江藤", Kana: "えとう", Problem: tournament.ProblemFixedTable},
}

func shiftJIS(t *testing.T, s string) []byte {
	t.Helper()
	b, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf16(t *testing.T, s string) []byte {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// workbook is desk as an .xlsx file, as Excel would save it: the fixed
// table a number cell, the blank line an empty row, on the second sheet
// after an empty one.
func workbook(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if _, err := f.NewSheet("参加者"); err != nil {
		t.Fatal(err)
	}
	for i, rec := range [][]any{
		{"名前", "ふりがな", "固定卓", "メモ"},
		{"青木 一郎", "あおき いちろう"},
		{"井上", "いのうえ", 3, "車椅子"},
		{"上田, 花子", "うえだ はなこ"},
		nil,
		{"江藤", "えとう", "abc"},
	} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("参加者", cell, &rec); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name           string
		data           []byte
		format, encode string
	}{
		{"utf-8 csv", []byte(desk), "csv", "UTF-8"},
		{"utf-8 csv with a bom", append([]byte{0xEF, 0xBB, 0xBF}, desk...), "csv", "UTF-8"},
		{"crlf utf-8 csv", []byte(strings.ReplaceAll(desk, "\n", "\r\n")), "csv", "UTF-8"},
		{"shift_jis csv", shiftJIS(t, desk), "csv", "Shift_JIS"},
		{"utf-16 tab-separated text", utf16(t, strings.NewReplacer(`"上田, 花子"`, "上田, 花子", ",", "\t").Replace(desk)), "csv", "UTF-16"},
		{"xlsx", workbook(t), "xlsx", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := roster.Read(tc.data)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if r.Format != tc.format || r.Encoding != tc.encode {
				t.Errorf("Read format %q encoding %q, want %q %q", r.Format, r.Encoding, tc.format, tc.encode)
			}
			if diff := cmp.Diff(deskRows, r.Rows); diff != "" {
				t.Errorf("Read rows (-want +got):\n%s", diff)
			}
			if len(r.Ignored) != 1 || r.Ignored[0] != "メモ" {
				t.Errorf("Read ignored columns %q, want [メモ]", r.Ignored)
			}
		})
	}
}

func TestReadHeaders(t *testing.T) {
	for _, tc := range []struct {
		csv  string
		want []tournament.ImportRow
	}{
		{"Name,Kana,Fixed table\nAoki,あおき,2\n", []tournament.ImportRow{{Line: 2, Name: "Aoki", Kana: "あおき", FixedTable: 2}}},
		{"ＮＡＭＥ , reading\nAoki,あおき\n", []tournament.ImportRow{{Line: 2, Name: "Aoki", Kana: "あおき"}}},
		{"\n\n選手名\n青木\n", []tournament.ImportRow{{Line: 4, Name: "青木"}}},
		{"名前,よみ\n青木\n", []tournament.ImportRow{{Line: 2, Name: "青木"}}},
		// A title and a note of one cell each above the header, as Catan
		// Judge's own workbook has them.
		{"土曜カタン大会　参加者\n\n参加者番号は共通です。\n番号,名前,よみがな\n1,青木,あおき\n", []tournament.ImportRow{{Line: 5, Name: "青木", Kana: "あおき"}}},
		{"名簿\n名前\n青木\n", []tournament.ImportRow{{Line: 3, Name: "青木"}}},
		{"参加者,ふりがな\n青木,あおき\n", []tournament.ImportRow{{Line: 2, Name: "青木", Kana: "あおき"}}},
	} {
		r, err := roster.Read([]byte(tc.csv))
		if err != nil {
			t.Errorf("Read(%q): %v", tc.csv, err)
			continue
		}
		if diff := cmp.Diff(tc.want, r.Rows); diff != "" {
			t.Errorf("Read(%q) rows (-want +got):\n%s", tc.csv, diff)
		}
	}
}

// TestReadTheExportedWorkbook imports the players of a workbook Catan
// Judge exported, in either language: its first sheet, the standings,
// under their title and note.
func TestReadTheExportedWorkbook(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	d := tournamenttest.LargeEvent(rs, 8, 1)
	for _, lang := range []string{"ja", "en"} {
		var buf bytes.Buffer
		if err := export.Workbook(&buf, d, lang); err != nil {
			t.Fatal(err)
		}
		r, err := roster.Read(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: Read: %v", lang, err)
		}
		var want []tournament.ImportRow
		for i, s := range d.Standings {
			want = append(want, tournament.ImportRow{Line: 4 + i, Name: s.Name, Kana: s.Kana})
		}
		if diff := cmp.Diff(want, r.Rows); diff != "" {
			t.Errorf("%s: the exported players (-want +got):\n%s", lang, diff)
		}
	}
}

func TestReadRefusesFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		code string
		line int
	}{
		{"empty", nil, roster.CodeEmpty, 0},
		{"blank lines only", []byte("\n,,\n"), roster.CodeEmpty, 0},
		{"no name column", []byte("kana,table\nあおき,1\n"), roster.CodeNoName, 0},
		{"no name column under a title", []byte("名簿\nkana,table\nあおき,1\n"), roster.CodeNoName, 0},
		{"one column, no name", []byte("名簿\n青木\n井上\n上田\n"), roster.CodeNoName, 0},
		{"three rows of one cell above the header", []byte("大会\n名簿\nメモ\n名前\n青木\n"), roster.CodeNoName, 0},
		{"a column named twice", []byte("名前,氏名\n青木,青木\n"), roster.CodeDuplicate, 0},
		{"an old .xls workbook", []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, roster.CodeXLS, 0},
		{"a zip that is not a workbook", []byte("PK\x03\x04 not really"), roster.CodeWorkbook, 0},
		{"a stray quote", []byte("名前\n青木\n\"井上\n"), roster.CodeCSV, 3},
		{"neither utf-8 nor shift_jis", append([]byte("name\n"), 0x82, 0xff, 0x0a), roster.CodeEncoding, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := roster.Read(tc.data)
			var e *roster.Error
			if !errors.As(err, &e) || e.Code != tc.code || e.Line != tc.line {
				t.Errorf("Read error = %v, want code %s at line %d", err, tc.code, tc.line)
			}
		})
	}
}

func TestReadRefusesTooManyRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("name\n")
	for range roster.MaxRows + 1 {
		b.WriteString("x\n")
	}
	_, err := roster.Read([]byte(b.String()))
	var e *roster.Error
	if !errors.As(err, &e) || e.Code != roster.CodeTooMany || e.Line != roster.MaxRows+2 {
		t.Errorf("Read(%d rows) error = %v, want too_many at line %d", roster.MaxRows+1, err, roster.MaxRows+2)
	}
}

// newService is the service over a real SQLite file, with a tournament.
func newService(t *testing.T) (*tournament.Service, int64) {
	t.Helper()
	svc, _ := tournamenttest.NewService(t, time.Now)
	tr, err := svc.CreateTournament(context.Background(), "山田", tournament.TournamentInput{Name: "土曜カタン大会", Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	return svc, tr.ID
}

type verdict struct {
	Line    int
	Action  string
	Problem string
}

func verdicts(p tournament.ImportPlan) []verdict {
	var out []verdict
	for _, l := range p.Lines {
		out = append(out, verdict{l.Line, l.Action, l.Problem})
	}
	return out
}

// TestImportFromEachFormat reads the desk list in every format, previews
// it (nothing is stored), imports it, and imports it again: the second
// import adds nobody.
func TestImportFromEachFormat(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"xlsx", workbook(t)},
		{"utf-8 csv", []byte(desk)},
		{"shift_jis csv", shiftJIS(t, desk)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, tid := newService(t)
			r, err := roster.Read(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := svc.PlanImport(ctx, tid, r.Rows)
			if err != nil {
				t.Fatal(err)
			}
			want := []verdict{{2, tournament.ImportAdd, ""}, {3, tournament.ImportAdd, ""}, {4, tournament.ImportAdd, ""}, {6, tournament.ImportRefuse, tournament.ProblemFixedTable}}
			if diff := cmp.Diff(want, verdicts(plan)); diff != "" {
				t.Errorf("PlanImport (-want +got):\n%s", diff)
			}
			if ps, _ := svc.Players(ctx, tid); len(ps) != 0 {
				t.Fatalf("after the preview %d players are registered, want none", len(ps))
			}
			done, err := svc.ImportPlayers(ctx, "山田", tid, r.Rows)
			if err != nil {
				t.Fatal(err)
			}
			if done.Add != 3 || len(done.Added) != 3 || done.Refused != 1 {
				t.Errorf("ImportPlayers added %d (%d players), refused %d; want 3, 3, 1", done.Add, len(done.Added), done.Refused)
			}
			for _, p := range done.Added {
				if got, err := svc.GetPlayer(ctx, p.TournamentID, p.ID); err != nil || got.Name != p.Name {
					t.Errorf("imported player %d %q reads back as %q (%v)", p.ID, p.Name, got.Name, err)
				}
			}
			ps, err := svc.Players(ctx, tid)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.Name+"/"+p.Kana+"/"+string(rune('0'+p.FixedTable)))
			}
			if diff := cmp.Diff([]string{"青木 一郎/あおき いちろう/0", "井上/いのうえ/3", "上田, 花子/うえだ はなこ/0"}, got); diff != "" {
				t.Errorf("players after the import (-want +got):\n%s", diff)
			}

			again, err := svc.ImportPlayers(ctx, "山田", tid, r.Rows)
			if err != nil {
				t.Fatal(err)
			}
			if again.Add != 0 || again.Skip != 3 || len(again.Added) != 0 {
				t.Errorf("importing the file again: add %d, skip %d; want 0 and 3", again.Add, again.Skip)
			}
			if ps, _ := svc.Players(ctx, tid); len(ps) != 3 {
				t.Errorf("after importing the file twice %d players are registered, want 3", len(ps))
			}
		})
	}
}

// TestImportBadRows gives each bad row its line and problem; the good rows
// still import.
func TestImportBadRows(t *testing.T) {
	ctx := context.Background()
	svc, tid := newService(t)
	if _, err := svc.AddPlayer(ctx, "山田", tid, tournament.PlayerInput{Name: "青木", Kana: "あおき"}); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("長", tournament.MaxNameRunes+1)
	csv := "名前,ふりがな,固定卓\n" +
		"青木,あおき,\n" + // 2: already registered
		",すずき,\n" + // 3: no name
		long + ",,\n" + // 4: too long
		"佐藤,さとう,101\n" + // 5: no such table
		"田中,たなか,\n" + // 6: fine
		" 田中 ,たなか,\n" + // 7: the same as line 6
		"田中,たなか2,\n" + // 8: a namesake with another reading is someone else
		"伊藤," + long + ",\n" // 9: kana too long
	r, err := roster.Read([]byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := svc.ImportPlayers(ctx, "山田", tid, r.Rows)
	if err != nil {
		t.Fatal(err)
	}
	want := []verdict{
		{2, tournament.ImportSkip, ""},
		{3, tournament.ImportRefuse, tournament.ProblemNameMissing},
		{4, tournament.ImportRefuse, tournament.ProblemNameTooLong},
		{5, tournament.ImportRefuse, tournament.ProblemFixedTable},
		{6, tournament.ImportAdd, ""},
		{7, tournament.ImportRefuse, tournament.ProblemDuplicateRow},
		{8, tournament.ImportAdd, ""},
		{9, tournament.ImportRefuse, tournament.ProblemKanaTooLong},
	}
	if diff := cmp.Diff(want, verdicts(plan)); diff != "" {
		t.Errorf("ImportPlayers (-want +got):\n%s", diff)
	}
	if plan.Lines[5].SameLine != 6 {
		t.Errorf("the duplicate of line 6 names line %d", plan.Lines[6].SameLine)
	}
	if ps, _ := svc.Players(ctx, tid); len(ps) != 3 {
		t.Errorf("%d players registered, want 青木 and the two 田中", len(ps))
	}
	entries, err := svc.AuditLog(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if entries[0].Action != "player.import" || entries[0].Subject != "2 players" {
		t.Errorf("latest audit entry = %s %q, want one player.import of 2 players", entries[0].Action, entries[0].Subject)
	}
}

// TestImportAfterPairingMakesLateEntries treats imported players like
// players registered by hand once round 1 is paired.
func TestImportAfterPairingMakesLateEntries(t *testing.T) {
	ctx := context.Background()
	svc, tid := newService(t)
	for _, n := range []string{"青木", "井上", "上田"} {
		p, err := svc.AddPlayer(ctx, "山田", tid, tournament.PlayerInput{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.CheckIn(ctx, "山田", p.TournamentID, p.ID, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.PairNextRound(ctx, "山田", tid); err != nil {
		t.Fatal(err)
	}
	plan, err := svc.ImportPlayers(ctx, "山田", tid, []tournament.ImportRow{{Line: 2, Name: "江藤"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Added) != 1 || plan.Added[0].LateEntryRound != 1 || plan.Added[0].CheckedIn {
		t.Errorf("imported after pairing round 1: %+v, want a late entry from round 1, not checked in", plan.Added)
	}
}
