package console

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
)

// boardScale is the drawn size, in SVG units, of the hex circumradius that
// referee geometry uses as its unit.
const boardScale = 50

// boardView is the board of §3 as the table page draws it in SVG. Every
// value is a number, a fixed colour or a translated label of a known enum:
// nothing typed by a user reaches the drawing.
type boardView struct {
	// ID is the drawing's id, unique on its page (a page may draw several
	// boards: the board sheets, a table's board and its refused deal). The
	// ids of its parts start with it.
	ID          string
	Title       string // translated description of the board
	RobberLabel string
	ViewBox     string
	Hexes       []hexView
	Harbors     []harborView
	Robber      *pointView
	Redeal      bool // the deal breaks the dango rule (§3 ウ) and must be dealt again
	// Play is what the ruling view draws over the board: the pieces, the
	// longest trails and the corners and edges a judge taps; nil elsewhere.
	Play *playLayer
}

type hexView struct {
	Points  string // the polygon's corners
	Fill    string
	Terrain string // translated terrain name
	X, Y    string // centre
	Number  int    // 0 for none
	Red     bool   // a 6 or an 8 (§3 ウ)
	Pips    string // the probability dots under the number
	Clump   bool   // part of a red clump the dango rule rejects
	DotY    string
	NumberY string
}

type harborView struct {
	Pier  string // the polyline from one corner to the harbour and back to the other
	X, Y  string
	Fill  string
	Ratio string // "3:1" or "2:1"
	Short string // the resource's initial, "" for a 3:1 harbour
	Label string // translated kind, for the title
}

type pointView struct{ X, Y string }

var terrainFill = map[referee.Terrain]string{
	referee.Hills:     "#c8643b",
	referee.Forest:    "#2e7d32",
	referee.Mountains: "#8a8f98",
	referee.Fields:    "#e8c12c",
	referee.Pasture:   "#9ccc65",
	referee.Desert:    "#e8d7a9",
}

var harborFill = map[referee.HarborKind]string{
	referee.GenericHarbor: "#ffffff",
	referee.BrickHarbor:   "#c8643b",
	referee.LumberHarbor:  "#2e7d32",
	referee.OreHarbor:     "#8a8f98",
	referee.GrainHarbor:   "#e8c12c",
	referee.WoolHarbor:    "#9ccc65",
}

func num(f float64) string { return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64) }

// newBoardView draws b as the drawing id; clumps are the red clumps of a
// dealt board that must be re-dealt, or nil.
func (s *Pages) newBoardView(id, lang string, b referee.Board, clumps [][]referee.Hex) boardView {
	title := s.i18n.Text(lang, "board.title", map[string]any{"White": b.Roll.White, "Blue": b.Roll.Blue, "Redeals": b.Redeals})
	if sp := s.spiralText(lang, b); sp.Corner != 0 {
		title = s.i18n.Text(lang, "board.title_spiral", map[string]any{"Corner": sp.Corner, "Start": sp.Start, "Seed": sp.Seed})
	}
	v := boardView{
		ID:          id,
		Title:       title,
		RobberLabel: s.i18n.Text(lang, "board.robber", nil),
		ViewBox:     "-280 -265 560 530",
		Redeal:      len(clumps) > 0,
	}
	for _, t := range b.Tiles {
		cx, cy := t.Hex.Center()
		var pts []string
		for _, vx := range t.Hex.Vertices() {
			x, y := vx.Point()
			pts = append(pts, num(x*boardScale)+","+num(y*boardScale))
		}
		h := hexView{
			Points:  strings.Join(pts, " "),
			Fill:    terrainFill[t.Terrain],
			Terrain: s.i18n.Text(lang, "terrain."+string(t.Terrain), nil),
			X:       num(cx * boardScale),
			Y:       num(cy * boardScale),
			NumberY: num(cy*boardScale + 6),
			DotY:    num(cy*boardScale + 15),
			Number:  t.Number,
			Red:     referee.RedNumber(t.Number),
		}
		if t.Number != 0 {
			h.Pips = strings.Repeat("•", referee.Pips(t.Number))
		}
		for _, cl := range clumps {
			if slices.Contains(cl, t.Hex) {
				h.Clump = true
			}
		}
		v.Hexes = append(v.Hexes, h)
	}
	for _, hb := range b.Harbors {
		ax, ay := hb.Edge.A.Point()
		bx, by := hb.Edge.B.Point()
		mx, my := (ax+bx)/2, (ay+by)/2
		// The harbour sits out to sea, away from the board's centre.
		d := math.Hypot(mx, my)
		px, py := mx+0.75*mx/d, my+0.75*my/d
		hv := harborView{
			Pier: fmt.Sprintf("%s,%s %s,%s %s,%s",
				num(ax*boardScale), num(ay*boardScale), num(px*boardScale), num(py*boardScale), num(bx*boardScale), num(by*boardScale)),
			X:     num(px * boardScale),
			Y:     num(py * boardScale),
			Fill:  harborFill[hb.Kind],
			Ratio: "2:1",
			Label: s.i18n.Text(lang, "harbor."+string(hb.Kind), nil),
		}
		if hb.Kind == referee.GenericHarbor {
			hv.Ratio = "3:1"
		} else {
			hv.Short = s.i18n.Text(lang, "harbor_short."+string(hb.Kind), nil)
		}
		v.Harbors = append(v.Harbors, hv)
	}
	if b.HasRobber {
		x, y := b.Robber.Center()
		v.Robber = &pointView{X: num(x*boardScale + 22), Y: num(y*boardScale - 14)}
	}
	return v
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
		// the top and the place in it from the left, or the centre.
		place := s.places(lang, b).place(h)
		cell.Label, cell.Shown = place, place
		if cell.Terrain != "" {
			cell.Shown = s.i18n.Text(lang, "terrain."+cell.Terrain, nil)
			cell.Label = s.places(lang, b).Hex(h)
			cell.Rest = strings.TrimPrefix(cell.Label, cell.Shown)
		}
		r.Cells = append(r.Cells, cell)
	}
	return rows
}

// chipField names the form field of the chip on h.
func chipField(h referee.Hex) string { return fmt.Sprintf("chip_%d_%d", h.Q, h.R) }
