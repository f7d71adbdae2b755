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
	"math"
	"strconv"
	"strings"
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
//
// Every sheet opens with a title row (the tournament, its date and venue,
// and what the sheet shows) and a line that explains its columns, then the
// header row, frozen and filtered, then the rows. Every sheet prints on A4,
// one page wide (the results at about full size, over pages across), with
// the header row on every page.
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
	if len(d.Teams) > 0 {
		// A team event's standings are the teams' (issue 30).
		sheets = append(sheets, teamsTable(d, lang))
	}
	sheets = append(sheets,
		standingsTable(d, lang),
		resultsTable(d, lang),
		playersTable(d, lang),
		penaltiesTable(d, lang),
		settingsTable(d, lang),
	)
	sheets[0].note = winnersNote(d.Winners, lang) + sheets[0].note
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
		if t.title == "" {
			t.title = name
		}
		t.title = t.titled(d.Tournament, lang)
		if err := writeTable(f, name, t, st, lang, d.Tournament.Name); err != nil {
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

// table is one sheet: its title and the line explaining its columns, its
// columns, its number of data rows, and a function that fills a row's
// values. The values a row may hold are string, int, time.Time, percent,
// tied, fromRound, or nil for an empty cell.
type table struct {
	name  text
	title string // what the sheet shows, in the title row after the tournament; the sheet's name when ""
	note  string // one line explaining the columns
	cols  []text
	wrap  []bool // by column: long text wraps rather than widening the column
	wide  bool   // printed landscape
	n     int
	row   func(i int, dst []any)

	// split, when not 0, prints the sheet at full size over pages across
	// (printAcross): the columns from split on start a page of their own,
	// with the first keep columns, which say whose line it is, repeated.
	split, keep int
}

// percent is a number shown as a percentage (0.25 shows as 25.00%): the
// VP share, in the one format docs/glossary.md gives it.
type percent float64

// tied is how many players share a rank: a number shown as such.
type tied int

// fromRound is the round a late entry or a drop counts from: a number
// shown as such.
type fromRound int

// The rows above a sheet's data: the title, the note, the header.
const (
	titleRow  = 1
	noteRow   = 2
	headerRow = 3
)

// Column widths, in Excel's units (the width of a digit).
const (
	minWidth  = 6
	maxWidth  = 60
	wrapWidth = 40 // the widest a wrapping column grows
)

// Row heights in points: a line of the body text, and of the note.
const (
	lineHeight     = 16
	noteLineHeight = 13
)

// title is what a sheet's title row says: the tournament, its date and
// venue, and what the sheet shows.
func title(t tournament.Tournament, what, lang string) string {
	parts := []string{t.Name}
	if t.Date != "" {
		date := t.Date
		if d, err := time.Parse(time.DateOnly, t.Date); err == nil {
			date = d.Format(dateFormat.in(lang))
		}
		parts = append(parts, date)
	}
	if t.Venue != "" {
		parts = append(parts, t.Venue)
	}
	return strings.Join(append(parts, what), titleSep.in(lang))
}

// printSetup sets a sheet to print on A4, one page wide and as many pages
// down as it takes, the header row repeated on each, and the tournament,
// the sheet and the page number in each page's footer. The stream writer
// writes what is set here with the rows.
func printSetup(f *excelize.File, name string, t table, widths []int, tournamentName string) error {
	if t.split > 0 {
		return printAcross(f, name, t, widths, tournamentName)
	}
	fit := true
	if err := f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return err
	}
	a4, wide, down, orientation := 9, 1, 0, "portrait"
	if t.wide {
		orientation = "landscape"
	}
	if err := f.SetPageLayout(name, &excelize.PageLayoutOptions{Size: &a4, Orientation: &orientation, FitToWidth: &wide, FitToHeight: &down}); err != nil {
		return err
	}
	return printMargins(f, name, tournamentName, "")
}

// printMargins sets a sheet's margins, its footer (the tournament, the
// sheet and the page number) and the rows and columns (cols, "" for none)
// printed on every page: the header row.
func printMargins(f *excelize.File, name, tournamentName, cols string) error {
	side, top, bottom, edge := 0.4, 0.5, 0.6, 0.3
	if err := f.SetPageMargins(name, &excelize.PageLayoutMarginsOptions{Left: &side, Right: &side, Top: &top, Bottom: &bottom, Header: &edge, Footer: &edge}); err != nil {
		return err
	}
	// A footer holds 255 characters at most, and "&" starts a code: &L and
	// &R align, &A is the sheet's name, &P the page and &N the pages.
	tn := []rune(tournamentName)
	if len(tn) > 80 {
		tn = append(tn[:80], '…')
	}
	footer := "&L" + strings.ReplaceAll(string(tn), "&", "&&") + " — &A&R&P / &N"
	if err := f.SetHeaderFooter(name, &excelize.HeaderFooterOptions{OddFooter: footer}); err != nil {
		return err
	}
	header := strconv.Itoa(headerRow)
	titles := "'" + name + "'!$" + header + ":$" + header
	if cols != "" {
		titles = "'" + name + "'!" + cols + "," + titles
	}
	return f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: titles, Scope: name})
}

// styles holds the workbook's cell style IDs.
type styles struct {
	title, note, header                         int
	titleWrap                                   int // the title of a sheet printed across pages
	text, wrap, number, percent, time, tied, in int
}

func newStyles(f *excelize.File, lang string) (styles, error) {
	var st styles
	var err error
	timeFormat := "yyyy-mm-dd hh:mm"
	tiedFmt, inFmt := tiedFormat.in(lang), fromRoundFormat.in(lang)
	// Thin grey lines around every cell: the grid on paper.
	grid := []excelize.Border{
		{Type: "left", Color: "A6A6A6", Style: 1}, {Type: "right", Color: "A6A6A6", Style: 1},
		{Type: "top", Color: "A6A6A6", Style: 1}, {Type: "bottom", Color: "A6A6A6", Style: 1},
	}
	top := &excelize.Alignment{Vertical: "top"}
	// The workbook's own font, named: a font without a name is the
	// reader's default, a serif one in LibreOffice.
	font, err := f.GetDefaultFont()
	if err != nil {
		return st, err
	}
	for _, s := range []struct {
		id    *int
		style excelize.Style
	}{
		{&st.title, excelize.Style{Font: &excelize.Font{Family: font, Bold: true, Size: 14}, Alignment: &excelize.Alignment{Vertical: "center"}}},
		{&st.titleWrap, excelize.Style{Font: &excelize.Font{Family: font, Bold: true, Size: 14}, Alignment: &excelize.Alignment{Vertical: "center", WrapText: true}}},
		{&st.note, excelize.Style{Font: &excelize.Font{Family: font, Size: 9, Color: "404040"}, Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}}},
		{&st.header, excelize.Style{
			Font:      &excelize.Font{Family: font, Bold: true, Size: 11},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDE5EE"}},
			Border:    append(grid[:3:3], excelize.Border{Type: "bottom", Color: "5A6575", Style: 1}),
			Alignment: &excelize.Alignment{Vertical: "center", WrapText: true},
		}},
		// Text cells keep the text format "@", so a name that looks like a
		// formula stays text even when someone edits the cell in Excel.
		{&st.text, excelize.Style{NumFmt: 49, Border: grid, Alignment: top}},
		{&st.wrap, excelize.Style{NumFmt: 49, Border: grid, Alignment: &excelize.Alignment{Vertical: "top", WrapText: true}}},
		{&st.number, excelize.Style{Border: grid, Alignment: top}},
		{&st.percent, excelize.Style{NumFmt: 10, Border: grid, Alignment: top}},
		{&st.time, excelize.Style{CustomNumFmt: &timeFormat, Border: grid, Alignment: top}},
		{&st.tied, excelize.Style{CustomNumFmt: &tiedFmt, Border: grid, Alignment: top}},
		{&st.in, excelize.Style{CustomNumFmt: &inFmt, Border: grid, Alignment: top}},
	} {
		if *s.id, err = f.NewStyle(&s.style); err != nil {
			return st, fmt.Errorf("export: style: %w", err)
		}
	}
	return st, nil
}

// writeTable streams t into the sheet name: the title and the note, the
// header row frozen and filtered, then the rows in order, set up to print. Column widths
// come from a first pass over the rows, as the stream writer needs them
// before the first row.
func writeTable(f *excelize.File, name string, t table, st styles, lang, tournamentName string) error {
	ncols := len(t.cols)
	first, err := excelize.CoordinatesToCellName(1, headerRow)
	if err != nil {
		return err
	}
	last, err := excelize.CoordinatesToCellName(ncols, headerRow+t.n)
	if err != nil {
		return err
	}
	wraps := func(j int) bool { return j < len(t.wrap) && t.wrap[j] }
	vals := make([]any, ncols)
	widths := make([]int, ncols)
	for i := range t.n {
		clear(vals)
		t.row(i, vals)
		for j, v := range vals {
			widths[j] = max(widths[j], valueWidth(v))
		}
	}
	// A column is as wide as its widest value and its header, with room
	// for the filter button next to the header; an English header may
	// wrap at its spaces onto two lines, a Japanese one only where its
	// label breaks the line.
	total, headerLines := 0, 1
	for j, h := range t.cols {
		widest := maxWidth
		switch {
		case wraps(j) && t.split > 0:
			widest = acrossWrapWidth
		case wraps(j):
			widest = wrapWidth
		}
		label := h.in(lang)
		need := 0
		for line := range strings.SplitSeq(label, "\n") {
			w := textWidth(line)
			if strings.Contains(line, " ") {
				w = max((w+1)/2, longestWord(line)*6/5)
			}
			need = max(need, w)
		}
		widths[j] = min(max(widths[j]+2, need+3, minWidth), widest)
		n := 0
		for line := range strings.SplitSeq(label, "\n") {
			n++
			if textWidth(line)+3 > widths[j] {
				n++
			}
		}
		headerLines = max(headerLines, n)
		total += widths[j]
	}
	// The stream writer has no autofilter of its own; one set on the empty
	// sheet before streaming is written out with the streamed rows.
	if err := f.AutoFilter(name, first+":"+last, nil); err != nil {
		return err
	}
	// After the autofilter, which sets the sheet's properties anew.
	if err := printSetup(f, name, t, widths, tournamentName); err != nil {
		return fmt.Errorf("print setup: %w", err)
	}
	sw, err := f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	if t.split > 0 {
		// The columns from split on print on pages of their own.
		brk, err := excelize.CoordinatesToCellName(t.split+1, 1)
		if err != nil {
			return err
		}
		if err := sw.InsertPageBreak(brk); err != nil {
			return err
		}
		total = sumWidths(widths[:t.keep])
	}
	// Each call puts its column first in the sheet's list, and Excel wants
	// the list in column order: set them from the last.
	for j := len(widths) - 1; j >= 0; j-- {
		if err := sw.SetColWidth(j+1, j+1, float64(widths[j])); err != nil {
			return err
		}
	}
	top, err := excelize.CoordinatesToCellName(1, headerRow+1)
	if err != nil {
		return err
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: headerRow, TopLeftCell: top, ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	// The title and the note span the table: on paper they wrap within its
	// width rather than run off the page.
	for _, r := range []struct {
		row    int
		text   string
		style  int
		height float64
	}{
		{titleRow, t.title, t.titleStyle(st), t.titleHeight(total)},
		{noteRow, t.note, st.note, float64(noteLineHeight*lines(t.note, total*10/9) + 3)},
	} {
		from, _ := excelize.CoordinatesToCellName(1, r.row)
		to, _ := excelize.CoordinatesToCellName(t.titleSpan(), r.row)
		if err := sw.SetRow(from, []any{excelize.Cell{StyleID: r.style, Value: r.text}}, excelize.RowOpts{Height: r.height}); err != nil {
			return err
		}
		if t.titleSpan() > 1 {
			if err := sw.MergeCell(from, to); err != nil {
				return err
			}
		}
	}
	cells := make([]excelize.Cell, ncols)
	out := make([]any, ncols)
	for j, h := range t.cols {
		cells[j] = excelize.Cell{StyleID: st.header, Value: h.in(lang)}
		out[j] = &cells[j]
	}
	if err := sw.SetRow(first, out, excelize.RowOpts{Height: float64(4 + lineHeight*headerLines)}); err != nil {
		return err
	}
	for i := range t.n {
		clear(vals)
		t.row(i, vals)
		height := 1
		for j, v := range vals {
			cells[j] = st.cell(v)
			if s, ok := v.(string); ok && wraps(j) {
				cells[j].StyleID = st.wrap
				height = max(height, lines(s, widths[j]))
			}
			out[j] = &cells[j]
		}
		cell, err := excelize.CoordinatesToCellName(1, headerRow+1+i)
		if err != nil {
			return err
		}
		var opts []excelize.RowOpts
		if height > 1 {
			opts = append(opts, excelize.RowOpts{Height: float64(lineHeight * height)})
		}
		if err := sw.SetRow(cell, out, opts...); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// lines is about how many lines s takes wrapped in a column width wide.
// It counts a wide character as two digits, as Excel's Japanese fonts
// show it beside a Calibri digit, and other characters as 0.85 of a digit,
// their average width in Calibri; the column's padding takes one digit.
func lines(s string, width int) int {
	n := 0
	for line := range strings.SplitSeq(s, "\n") {
		wide := textWidth(line) - utf8.RuneCountInString(line)
		narrow := utf8.RuneCountInString(line) - wide
		w := 2*float64(wide) + 0.85*float64(narrow)
		n += max(1, int(math.Ceil(w/float64(width-1))))
	}
	return n
}

// longestWord is the width of the longest run of narrow characters in s:
// a line breaks at a space or beside a wide (CJK) character.
func longestWord(s string) int {
	longest, n := 0, 0
	for _, r := range s {
		switch k := width.LookupRune(r).Kind(); {
		case r == ' ' || k == width.EastAsianWide || k == width.EastAsianFullwidth:
			n = 0
		default:
			n++
			longest = max(longest, n)
		}
	}
	return longest
}

// cell is the styled cell of a row value; an empty cell keeps the grid.
func (st styles) cell(v any) excelize.Cell {
	switch v := v.(type) {
	case string:
		return excelize.Cell{StyleID: st.text, Value: v}
	case percent:
		return excelize.Cell{StyleID: st.percent, Value: float64(v)}
	case tied:
		return excelize.Cell{StyleID: st.tied, Value: int(v)}
	case fromRound:
		return excelize.Cell{StyleID: st.in, Value: int(v)}
	case time.Time:
		return excelize.Cell{StyleID: st.time, Value: v}
	}
	return excelize.Cell{StyleID: st.number, Value: v}
}

// valueWidth is the width in Excel's units (the width of a digit) a value
// needs.
func valueWidth(v any) int {
	switch v := v.(type) {
	case string:
		return textWidth(v)
	case int:
		return len(strconv.Itoa(v))
	case tied:
		return len(strconv.Itoa(int(v))) + 8
	case fromRound:
		return len(strconv.Itoa(int(v))) + 10
	case percent:
		return 8
	case time.Time:
		return 16
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
