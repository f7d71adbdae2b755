package roster_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/tournament/roster"
)

// codes are the error codes Read may return.
var codes = []string{
	roster.CodeEmpty, roster.CodeNoName, roster.CodeXLS, roster.CodeWorkbook, roster.CodeEncoding,
	roster.CodeCSV, roster.CodeTooMany, roster.CodeDuplicate, roster.CodeUnreadable,
	roster.CodeTooWide, roster.CodeTooLarge,
}

// fuzzWorkbook is a small desk list as an .xlsx file, the seed the fuzzer
// mutates into broken workbooks.
func fuzzWorkbook(tb testing.TB, rows [][]any) []byte {
	tb.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, rec := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &rec); err != nil {
			tb.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// FuzzRead throws arbitrary files at the import reader, which reads what an
// organizer uploads: it never panics, refuses with a *roster.Error naming a
// known code, and what it accepts is a bounded list of trimmed, valid UTF-8
// rows in file order. The checked-in corpus (testdata/fuzz/FuzzRead) holds
// CSV in each encoding and workbooks.
func FuzzRead(f *testing.F) {
	f.Add([]byte(desk))
	f.Add(append([]byte{0xEF, 0xBB, 0xBF}, desk...))
	f.Add([]byte("Name\tKana\tTable\nAoki\tあおき\t2\n"))
	f.Add([]byte("名前\n\"青木\n"))
	f.Add([]byte("PK\x03\x04"))
	f.Add(fuzzWorkbook(f, [][]any{{"名前", "ふりがな", "固定卓"}, {"青木", "あおき", 3}, {"=1+1", "", "x"}}))
	// The hostile shapes the bounds answer, small: a value in the last
	// column, one in column 65 of a CSV, and shared strings.
	f.Add(rawWorkbook(f, `<row r="2"><c r="A2" t="inlineStr"><is><t>青木</t></is></c><c r="XFD2"><v>1</v></c></row>`, nil))
	f.Add(rawWorkbook(f, `<row r="2"><c r="A2" t="s"><v>0</v></c><c r="BL2"><v>1</v></c></row>`,
		map[string]string{"sharedStrings:sharedStrings.xml": `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>青木</t></si></sst>`}))
	f.Add([]byte("名前" + strings.Repeat(",", 65) + "x\n青木\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := roster.Read(data)
		if err != nil {
			var e *roster.Error
			if !errors.As(err, &e) || !slices.Contains(codes, e.Code) {
				t.Fatalf("Read(%q) error = %v, want a *roster.Error with a known code", data, err)
			}
			return
		}
		if r.Format != "xlsx" && r.Format != "csv" {
			t.Errorf("Read(%q) format = %q, want xlsx or csv", data, r.Format)
		}
		if r.Format == "csv" && !slices.Contains([]string{"UTF-8", "Shift_JIS", "UTF-16"}, r.Encoding) {
			t.Errorf("Read(%q) encoding = %q, want UTF-8, Shift_JIS or UTF-16", data, r.Encoding)
		}
		if len(r.Rows) > roster.MaxRows {
			t.Errorf("Read(%q) = %d rows, want at most %d", data, len(r.Rows), roster.MaxRows)
		}
		if len(r.Ignored) > roster.MaxColumns {
			t.Errorf("Read(%q) ignores %d header cells, want at most %d columns", data, len(r.Ignored), roster.MaxColumns)
		}
		last := 0
		for _, row := range r.Rows {
			if row.Line <= last {
				t.Errorf("Read(%q): line %d after line %d, want lines in file order", data, row.Line, last)
			}
			last = row.Line
			for _, s := range []string{row.Name, row.Kana} {
				if !utf8.ValidString(s) || s != strings.TrimSpace(s) {
					t.Errorf("Read(%q): cell %q is not trimmed valid UTF-8", data, s)
				}
			}
			if row.Problem == "" && row.FixedTable < 0 {
				t.Errorf("Read(%q): fixed table %d without a problem", data, row.FixedTable)
			}
		}
		again, err := roster.Read(data)
		if err != nil {
			t.Fatalf("Read(%q) succeeded, then failed: %v", data, err)
		}
		if diff := cmp.Diff(r, again); diff != "" {
			t.Errorf("Read(%q) twice differs (-first +second):\n%s", data, diff)
		}
	})
}
