package console

import (
	"fmt"
	"math"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/web/drawing"
)

// boardView is the board of §3 as a page draws it in SVG (drawing.Board).
type boardView = drawing.Board

// newBoardView draws b as the drawing id; clumps are the red clumps of a
// dealt board that must be re-dealt, or nil.
func (s *Pages) newBoardView(id, lang string, b referee.Board, clumps [][]referee.Hex) boardView {
	return drawing.NewBoard(s.i18n.In(lang), id, b, clumps)
}

// dealRow is one row of the hand-dealt chip entry, laid out like the board
// (3, 4, 5, 4, 3 hexes, centred), so the judge types what they see.
type dealRow struct {
	Cells []dealCell
}

type dealCell struct {
	Name string // form field: "chip_q_r"
	ID   string
	// Label names the hex as a judge would: its terrain and its place on
	// the board as drawn ("山地（1段目・左から1）"). The label shows Shown
	// (the terrain, or the place while the terrain is not known) and
	// keeps Rest for screen readers and the tooltip: the grid is the board.
	Label   string
	Shown   string
	Rest    string
	Value   string // as typed
	Desert  bool
	Error   string
	Hex     string // the hex as the rules name it, "(q,r)"
	Invalid bool   // a refusal of the whole deal speaks of this hex
	Terrain string // CSS class: the terrain id
	Mine    string // after a conflict: the chip this judge typed, when not the saved one
	// Was is the chip the form showed when it was opened, carried in a
	// hidden field: what this judge changed is what differs from it.
	Was string
}

// dealRows lays out the chip inputs for the board turned by white (0 when
// the board roll is not known yet: then no hex is marked the desert).
func (s *Pages) dealRows(lang string, b *referee.Board, values map[string]string, errs map[string]string) []dealRow {
	var rows []dealRow
	lastR := math.MinInt
	for _, h := range referee.LandHexes() {
		if h.R != lastR {
			rows = append(rows, dealRow{})
			lastR = h.R
		}
		r := &rows[len(rows)-1]
		name := chipField(h)
		cell := dealCell{Name: name, ID: name, Value: values[name], Error: errs[name], Hex: h.String()}
		if b != nil {
			if t, ok := b.TileAt(h); ok {
				cell.Terrain = string(t.Terrain)
				cell.Desert = t.Terrain == referee.Desert
			}
		}
		// The hex by its place as the judge sees the board: the row from
		// the top and the place in it from the left, or the centre; the
		// terrain, not the chip, which is what the judge enters.
		named := drawing.NewPlaces(s.i18n.In(lang), b)
		place := named.Place(h)
		cell.Label, cell.Shown = place, place
		if cell.Terrain != "" {
			cell.Shown = s.i18n.Text(lang, "terrain."+cell.Terrain, nil)
			cell.Label = s.i18n.Text(lang, "deal.cell", map[string]any{"Terrain": cell.Shown, "Place": place})
			cell.Rest = strings.TrimPrefix(cell.Label, cell.Shown)
		}
		r.Cells = append(r.Cells, cell)
	}
	return rows
}

// chipField names the form field of the chip on h.
func chipField(h referee.Hex) string { return fmt.Sprintf("chip_%d_%d", h.Q, h.R) }
