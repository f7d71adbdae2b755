package roster_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/roster"
)

// rawWorkbook zips the smallest workbook excelize opens: one sheet whose
// sheetData holds rows (XML), and any more parts, with their relations
// from the workbook (name: relation type).
func rawWorkbook(tb testing.TB, rows string, parts map[string]string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string) {
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write([]byte(body))
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	const ns = `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"`
	const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	add("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`)
	add("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships `+ns+`><Relationship Id="rId1" Type="`+rel+`officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	add("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="`+strings.TrimSuffix(rel, "/")+`"><sheets><sheet name="名簿" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	rels := `<Relationship Id="rId1" Type="` + rel + `worksheet" Target="worksheets/sheet1.xml"/>`
	i := 2
	for name, body := range parts {
		kind, file, _ := strings.Cut(name, ":")
		rels += fmt.Sprintf(`<Relationship Id="rId%d" Type="%s%s" Target="%s"/>`, i, rel, kind, file)
		add("xl/"+file, body)
		i++
	}
	add("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships `+ns+`>`+rels+`</Relationships>`)
	add("xl/worksheets/sheet1.xml", `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`+
		`<row r="1"><c r="A1" t="inlineStr"><is><t>名前</t></is></c></row>`+rows+`</sheetData></worksheet>`)
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// repeat writes format for each row number from first to last.
func repeat(first, last int, format string) string {
	var b strings.Builder
	for i := first; i <= last; i++ {
		fmt.Fprintf(&b, format, i, i)
	}
	return b.String()
}

// hostileWorkbooks are the workbooks of the attack on the import preview
// (each row holds a value in the last column, XFD) and its relatives.
func hostileWorkbooks(tb testing.TB) map[string][]byte {
	tb.Helper()
	xfd := `<row r="%d"><c r="XFD%d" t="inlineStr"><is><t>x</t></is></c></row>`
	player := `<row r="%d"><c r="A%d" t="inlineStr"><is><t>選手</t></is></c></row>`
	return map[string][]byte{
		"2,000 rows in XFD":   rawWorkbook(tb, repeat(2, 2001, xfd), nil),
		"200,000 rows in XFD": rawWorkbook(tb, repeat(2, 200001, xfd), nil),
		"XFD after the players": rawWorkbook(tb, repeat(2, roster.MaxRows+1, player)+
			fmt.Sprintf(xfd, roster.MaxRows+2, roster.MaxRows+2), nil),
	}
}

// The bounds are checked on the worksheet's XML as it streams, before
// excelize allocates a row: a value beyond the last column a roster uses,
// too many rows, cells, shared strings or elements, or a workbook that
// unpacks to more than a roster could are refused with what is wrong.
func TestReadRefusesHostileWorkbooks(t *testing.T) {
	player := `<row r="%d"><c r="A%d" t="inlineStr"><is><t>選手</t></is></c></row>`
	var sst, styles strings.Builder
	sst.WriteString(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
	for i := range 3*roster.MaxRows + 1 {
		fmt.Fprintf(&sst, "<si><t>%d</t></si>", i)
	}
	sst.WriteString("</sst>")
	styles.WriteString(`<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs>` +
		strings.Repeat(`<xf numFmtId="14"/>`, 60_000) + `</cellXfs></styleSheet>`)
	hostile := hostileWorkbooks(t)
	tests := []struct {
		name   string
		data   []byte
		code   string
		line   int
		column string
	}{
		{"2,000 rows in XFD", hostile["2,000 rows in XFD"], roster.CodeTooWide, 2, "XFD"},
		{"200,000 rows in XFD", hostile["200,000 rows in XFD"], roster.CodeTooWide, 2, "XFD"},
		{"XFD after the players", hostile["XFD after the players"], roster.CodeTooWide, roster.MaxRows + 2, "XFD"},
		{"a value in column 65", rawWorkbook(t, `<row r="2"><c r="A2" t="inlineStr"><is><t>青木</t></is></c><c r="BM2"><v>1</v></c></row>`, nil),
			roster.CodeTooWide, 2, "BM"},
		{"a formula in XFD", rawWorkbook(t, `<row r="2"><c r="XFD2"><f>1+1</f></c></row>`, nil), roster.CodeTooWide, 2, "XFD"},
		{"a value in XFD without a row number", rawWorkbook(t, `<row><c r="A2"><v>1</v></c><c r="XFD2"><v>1</v></c></row>`, nil),
			roster.CodeTooWide, 2, "XFD"},
		{"too many players", rawWorkbook(t, repeat(2, roster.MaxRows+2, player), nil), roster.CodeTooMany, roster.MaxRows + 2, ""},
		{"too many empty rows", rawWorkbook(t, strings.Repeat(`<row/>`, 4*roster.MaxRows+1), nil), roster.CodeTooLarge, 0, ""},
		{"too many empty cells", rawWorkbook(t, `<row r="2">`+strings.Repeat(`<c r="A2" s="1"/>`, 20*roster.MaxRows+1)+`</row>`, nil), roster.CodeTooLarge, 0, ""},
		{"too many shared strings", rawWorkbook(t, `<row r="2"><c r="A2" t="s"><v>0</v></c></row>`,
			map[string]string{"sharedStrings:sharedStrings.xml": sst.String()}), roster.CodeTooLarge, 0, ""},
		{"a styles bomb", rawWorkbook(t, `<row r="2"><c r="A2" s="59999"><v>45000</v></c></row>`,
			map[string]string{"styles:styles.xml": styles.String()}), roster.CodeTooLarge, 0, ""},
		{"17 MB unpacked", rawWorkbook(t, `<row r="2"><c r="A2" t="inlineStr"><is><t>青木</t></is></c></row>`,
			map[string]string{"styles:styles.xml": `<styleSheet>` + strings.Repeat(" ", 17<<20) + `</styleSheet>`}), roster.CodeTooLarge, 0, ""},
		{"a CSV value in column 65", []byte("名前" + strings.Repeat(",", 70) + "\n青木" + strings.Repeat(",", 64) + "x\n"), roster.CodeTooWide, 2, "65"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := roster.Read(tt.data)
			var e *roster.Error
			if !errors.As(err, &e) || e.Code != tt.code || e.Line != tt.line || e.Column != tt.column {
				t.Errorf("Read error = %v, want %s at line %d, column %q", err, tt.code, tt.line, tt.column)
			}
		})
	}
}

// What a roster may hold is still read: values up to the last column, a
// CSV whose trailing separators run on, formatting in empty cells far to
// the right, and a row at the bottom of the sheet.
func TestReadTakesWhatRostersHold(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		rows int
	}{
		{"a value in column 64", rawWorkbook(t, `<row r="2"><c r="A2" t="inlineStr"><is><t>青木</t></is></c><c r="BL2"><v>1</v></c></row>`, nil), 1},
		{"an empty styled cell in XFD", rawWorkbook(t, `<row r="2"><c r="A2" t="inlineStr"><is><t>青木</t></is></c><c r="XFD2" s="1"/></row>`, nil), 1},
		{"the last row of the sheet", rawWorkbook(t, `<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>青木</t></is></c></row>`, nil), 1},
		{"every player", rawWorkbook(t, repeat(2, roster.MaxRows+1, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>選手</t></is></c></row>`), nil), roster.MaxRows},
		{"a CSV with empty columns after the last", []byte("名前" + strings.Repeat(",", 200) + "\n青木" + strings.Repeat(",", 200) + "\n"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := roster.Read(tt.data)
			if err != nil || len(r.Rows) != tt.rows {
				t.Errorf("Read = %d rows, %v; want %d", len(r.Rows), err, tt.rows)
			}
		})
	}
}

// The attack's files are refused before anything is allocated for their
// rows: the 2,000-row file made excelize allocate 2.3 GB. The bound here is
// far above what refusing costs (about 0.1 MB) and far below the attack;
// BenchmarkReadHostile measures it.
func TestReadRefusesHostileWorkbooksCheaply(t *testing.T) {
	for name, data := range hostileWorkbooks(t) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := roster.Read(data)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s: read, want refused", name)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Errorf("%s: refusing it allocated %d MB, want a few", name, alloc>>20)
		}
	}
}

// BenchmarkReadHostile measures refusing the attack's files, and reading
// the largest roster there may be, for memory (B/op) and time.
func BenchmarkReadHostile(b *testing.B) {
	files := hostileWorkbooks(b)
	files["20,000 players (accepted)"] = rawWorkbook(b, repeat(2, roster.MaxRows+1,
		`<row r="%d"><c r="A%d" t="inlineStr"><is><t>選手</t></is></c><c r="B2" t="inlineStr"><is><t>せんしゅ</t></is></c><c r="C2"><v>3</v></c></row>`), nil)
	for name, data := range files {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = roster.Read(data)
			}
		})
	}
}
