// Package export writes a tournament to an Excel workbook for the shop and
// the players: the standings, every game's results, the players, the
// penalties and the settings the event ran under, one sheet each, headed in
// Japanese or English.
//
// Every sheet goes through excelize's stream writer, row by row, so a large
// event does not hold its sheets in memory; text is written as inline
// strings, so a name like "=1+1" stays text and is never a formula.
package export

import (
	"fmt"
	"io"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/width"

	"github.com/catanjudge/catanjudge/tournament"
)

// ContentType is the media type of the workbooks Workbook writes.
const ContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// Workbook writes d to w as an .xlsx workbook with sheet names, headers and
// words in lang: "en" for English, anything else for Japanese. Times are
// shown in the local time zone, which is the shop's.
func Workbook(w io.Writer, d tournament.ExportData, lang string) error {
	f := excelize.NewFile()
	defer f.Close()
	st, err := newStyles(f, lang)
	if err != nil {
		return err
	}
	var sheets []table
	if len(d.Final) > 0 {
		sheets = append(sheets, finalTable(d, lang))
	}
	sheets = append(sheets,
		standingsTable(d, lang),
		resultsTable(d, lang),
		playersTable(d, lang),
		penaltiesTable(d, lang),
		settingsTable(d, lang),
	)
	for i, t := range sheets {
		name := t.name.in(lang)
		if i == 0 {
			err = f.SetSheetName(f.GetSheetName(0), name)
		} else {
			_, err = f.NewSheet(name)
		}
		if err != nil {
			return fmt.Errorf("export: sheet %s: %w", name, err)
		}
		if err := writeTable(f, name, t, st, lang); err != nil {
			return fmt.Errorf("export: sheet %s: %w", name, err)
		}
	}
	// The first sheet is the active one already: SetActiveSheet would read
	// every streamed sheet back into memory.
	language := "ja-JP"
	if lang == "en" {
		language = "en-US"
	}
	if err := f.SetDocProps(&excelize.DocProperties{Title: d.Tournament.Name, Creator: "Catan Judge", Language: language}); err != nil {
		return fmt.Errorf("export: properties: %w", err)
	}
	if err := f.Write(w); err != nil {
		return fmt.Errorf("export: write workbook: %w", err)
	}
	return nil
}

// table is one sheet: its columns, its number of data rows, and a function
// that fills a row's values. The values a row may hold are string, int,
// bool, time.Time, percent, sharedRank, or nil for an empty cell.
type table struct {
	name text
	cols []text
	n    int
	row  func(i int, dst []any)
}

// percent is a number shown as a percentage (0.25 shows as 25.00%).
type percent float64

// sharedRank is a rank another player shares: a number shown as shared.
type sharedRank int

// styles holds the workbook's cell style IDs.
type styles struct {
	header, text, percent, time, shared int
}

func newStyles(f *excelize.File, lang string) (styles, error) {
	var st styles
	var err error
	timeFormat := "yyyy-mm-dd hh:mm"
	shared := sharedRankFormat.in(lang)
	for _, s := range []struct {
		id    *int
		style excelize.Style
	}{
		{&st.header, excelize.Style{
			Font:      &excelize.Font{Bold: true},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDE5EE"}},
			Border:    []excelize.Border{{Type: "bottom", Color: "5A6575", Style: 1}},
			Alignment: &excelize.Alignment{Vertical: "center"},
		}},
		// Text cells keep the text format "@", so a name that looks like a
		// formula stays text even when someone edits the cell in Excel.
		{&st.text, excelize.Style{NumFmt: 49}},
		{&st.percent, excelize.Style{NumFmt: 10}},
		{&st.time, excelize.Style{CustomNumFmt: &timeFormat}},
		{&st.shared, excelize.Style{CustomNumFmt: &shared}},
	} {
		if *s.id, err = f.NewStyle(&s.style); err != nil {
			return st, fmt.Errorf("export: style: %w", err)
		}
	}
	return st, nil
}

// writeTable streams t into the sheet name: the header row frozen and
// filtered, then the rows in order. Column widths come from a first pass
// over the rows, as the stream writer needs them before the first row.
func writeTable(f *excelize.File, name string, t table, st styles, lang string) error {
	last, err := excelize.CoordinatesToCellName(len(t.cols), t.n+1)
	if err != nil {
		return err
	}
	// The stream writer has no autofilter of its own; one set on the empty
	// sheet before streaming is written out with the streamed rows.
	if err := f.AutoFilter(name, "A1:"+last, nil); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	vals := make([]any, len(t.cols))
	widths := make([]int, len(t.cols))
	for j, h := range t.cols {
		// Room for the filter button next to the header.
		widths[j] = textWidth(h.in(lang)) + 3
	}
	for i := range t.n {
		clear(vals)
		t.row(i, vals)
		for j, v := range vals {
			widths[j] = max(widths[j], valueWidth(v))
		}
	}
	// Each call puts its column first in the sheet's list, and Excel wants
	// the list in column order: set them from the last.
	for j := len(widths) - 1; j >= 0; j-- {
		if err := sw.SetColWidth(j+1, j+1, float64(min(max(widths[j]+2, 6), 60))); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	cells := make([]excelize.Cell, len(t.cols))
	out := make([]any, len(t.cols))
	for j, h := range t.cols {
		cells[j] = excelize.Cell{StyleID: st.header, Value: h.in(lang)}
		out[j] = &cells[j]
	}
	if err := sw.SetRow("A1", out, excelize.RowOpts{Height: 20}); err != nil {
		return err
	}
	for i := range t.n {
		clear(vals)
		t.row(i, vals)
		for j, v := range vals {
			if v == nil {
				out[j] = nil
				continue
			}
			cells[j] = st.cell(v)
			out[j] = &cells[j]
		}
		cell, err := excelize.CoordinatesToCellName(1, i+2)
		if err != nil {
			return err
		}
		if err := sw.SetRow(cell, out); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// cell is the styled cell of a row value.
func (st styles) cell(v any) excelize.Cell {
	switch v := v.(type) {
	case string:
		return excelize.Cell{StyleID: st.text, Value: v}
	case percent:
		return excelize.Cell{StyleID: st.percent, Value: float64(v)}
	case sharedRank:
		return excelize.Cell{StyleID: st.shared, Value: int(v)}
	case time.Time:
		return excelize.Cell{StyleID: st.time, Value: v}
	}
	return excelize.Cell{Value: v}
}

// valueWidth is the width in Excel's units (the width of a digit) a value
// needs.
func valueWidth(v any) int {
	switch v := v.(type) {
	case string:
		return textWidth(v)
	case int:
		return len(strconv.Itoa(v))
	case sharedRank:
		return len(strconv.Itoa(int(v))) + 8
	case percent:
		return 8
	case time.Time:
		return 16
	case bool:
		return 5
	}
	return 0
}

// textWidth counts a wide (CJK) character as two digits' width, others as one.
func textWidth(s string) int {
	n := 0
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
