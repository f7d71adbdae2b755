package export

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/catanjudge/catanjudge/tournament"
)

// The words of the event's end: who won, and the standings of an event
// with a final, which rank its qualifying rounds.
var (
	tWinner          = text{"優勝: %s。", "Winner: %s. "}
	tWinners         = text{"優勝: %s。", "Winners: %s. "}
	tQualifying      = text{"予選順位", "Qualifying standings"}
	tQualifyingAfter = text{"予選順位（第%d回戦終了時点）", "Qualifying standings after round %d"}
	nFinal           = text{"決勝卓の参加者は決勝卓での順位、それ以外の参加者は予選順位（順位表のシート）で並びます。",
		"The final table's players are ranked by their places there, everyone else by the qualifying standings (the Standings sheet)."}
)

// winnersNote names who won the event (tournament.Service.Winners), to
// open the note of the workbook's first sheet; "" while nobody has.
func winnersNote(ws []tournament.Winner, lang string) string {
	if len(ws) == 0 {
		return ""
	}
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = w.Label
	}
	format := tWinner
	if len(ws) > 1 {
		format = tWinners
	}
	return fmt.Sprintf(format.in(lang), strings.Join(names, listSep.in(lang)))
}

// qualifyingTitle is the standings' title in an event whose final is
// made: they rank its qualifying rounds, every one of which is played
// before the final is made, so that no other sheet shares the title of
// the final results (最終順位); "" without a final.
func qualifyingTitle(d tournament.ExportData, lang string) string {
	i := slices.IndexFunc(d.Rounds, func(rv tournament.RoundView) bool { return rv.Round.Mode == tournament.ModeFinal })
	switch {
	case i < 0:
		return ""
	case i == 0:
		return tQualifying.in(lang)
	}
	return fmt.Sprintf(tQualifyingAfter.in(lang), d.Rounds[i-1].Round.Number)
}

// acrossWrapWidth is the widest a wrapping column grows on a sheet printed
// across pages (table.split), so that its text prints at about full size.
const acrossWrapWidth = 20

// Printed width: an A4 page across, landscape, inside the margins
// (printMargins), in points.
const landscapeWidth = 841.9 - 2*0.4*72

// columnPoints is about the printed width of a column of Excel's width w
// (the width of a digit of the body font), taken at its widest: 7 points a
// digit, as LibreOffice prints the workbook without Calibri; Excel, with
// it, prints narrower.
func columnPoints(w int) float64 { return 7 * float64(w) }

func sumWidths(ws []int) int {
	n := 0
	for _, w := range ws {
		n += w
	}
	return n
}

// titleSpan is the number of columns the title and the note span: the
// table, or for a sheet printed across pages (table.split) the columns
// repeated on every page, where they print whole on the first page of
// either part.
func (t table) titleSpan() int {
	if t.split > 0 {
		return t.keep
	}
	return len(t.cols)
}

// titled is what the sheet's title row says (title); a sheet printed
// across pages, whose title wraps, says what it shows on a line of its own.
func (t table) titled(tt tournament.Tournament, lang string) string {
	if t.split == 0 {
		return title(tt, t.title, lang)
	}
	return strings.TrimSuffix(title(tt, "", lang), titleSep.in(lang)) + "\n" + t.title
}

// titleStyle is the style of the sheet's title: one line over the table,
// or wrapping over the columns it spans on a sheet printed across pages.
func (t table) titleStyle(st styles) int {
	if t.split > 0 {
		return st.titleWrap
	}
	return st.title
}

// titleHeight is the height of the title row, in points, over columns of
// span widths: a line of the title's 14-point type, and a line more for
// each it wraps onto on a sheet printed across pages.
func (t table) titleHeight(span int) float64 {
	if t.split == 0 {
		return 24
	}
	return float64(4 + 20*lines(t.title, span*11/14))
}

// printAcross sets a wide sheet (table.split) to print on A4 landscape at
// full size, or as near it as the wider of its two parts allows: the
// columns before split on one page across, those from split on the next
// with the first keep columns repeated, page by page across and then
// down, the header row on every page. A sheet fitted to one page wide
// would print its text too small to read.
func printAcross(f *excelize.File, name string, t table, widths []int, tournamentName string) error {
	points := func(ws []int) float64 {
		p := 0.0
		for _, w := range ws {
			p += columnPoints(w)
		}
		return p
	}
	widest := max(points(widths[:t.split]), points(widths[:t.keep])+points(widths[t.split:]))
	scale := uint(min(100, math.Floor(100*landscapeWidth/widest)))
	a4, orientation, order := 9, "landscape", "overThenDown"
	if err := f.SetPageLayout(name, &excelize.PageLayoutOptions{Size: &a4, Orientation: &orientation, AdjustTo: &scale, PageOrder: &order}); err != nil {
		return err
	}
	last, err := excelize.ColumnNumberToName(t.keep)
	if err != nil {
		return err
	}
	return printMargins(f, name, tournamentName, "$A:$"+last)
}
