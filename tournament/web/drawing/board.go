// Package drawing draws a table's board (§3) and the pieces on it as the
// view models of the templates' SVG ("board" and "play" in
// templates/partials/board.html): the judges' pages and the kiosk's draw
// the same board. Every value it gives a template is a number, a fixed
// colour or a translated label of a known enum: nothing typed by a user
// reaches the drawing.
package drawing

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// Scale is the drawn size, in SVG units, of the hex circumradius that
// referee geometry uses as its unit.
const Scale = 50

// Board is the board of §3 drawn in SVG.
type Board struct {
	// ID is the drawing's id, unique on its page (a page may draw several
	// boards: the board sheets, a table's board and its refused deal). The
	// ids of its parts start with it.
	ID          string
	Title       string // translated description of the board
	RobberLabel string
	ViewBox     string
	Hexes       []Hex
	Harbors     []Harbor
	Robber      *Point
	Redeal      bool // the deal breaks the dango rule (§3 ウ) and must be dealt again
	// Play is what is drawn over the board: the pieces, the longest
	// trails and the corners, edges and hexes a judge taps; nil for the
	// board alone.
	Play *Play
}

// Hex is a land hex as drawn.
type Hex struct {
	Name    string // the hex as the rules name it, "(q,r)"
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

// Harbor is a harbour as drawn.
type Harbor struct {
	Pier  string // the polyline from one corner to the harbour and back to the other
	X, Y  string
	Fill  string
	Ratio string // "3:1" or "2:1"
	Short string // the resource's initial, "" for a 3:1 harbour
	Label string // translated kind, for the title
}

// Point is a place on the drawing.
type Point struct{ X, Y string }

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

// NewBoard draws b as the drawing id, its words in p's language; clumps
// are the red clumps of a dealt board that must be re-dealt, or nil.
func NewBoard(p i18n.Printer, id string, b referee.Board, clumps [][]referee.Hex) Board {
	title := p.Text("board.title", map[string]any{"White": b.Roll.White, "Blue": b.Roll.Blue, "Redeals": b.Redeals})
	if b.Method == referee.SpiralBoard && b.Corner != 0 {
		title = p.Text("board.title_spiral", map[string]any{"Corner": b.Corner,
			"Start": p.Text("rulesets.corner."+string(b.Start), nil), "Seed": strconv.FormatUint(b.Seed, 10)})
	}
	v := Board{
		ID:          id,
		Title:       title,
		RobberLabel: p.Text("board.robber", nil),
		ViewBox:     "-280 -265 560 530",
		Redeal:      len(clumps) > 0,
	}
	for _, t := range b.Tiles {
		cx, cy := t.Hex.Center()
		var pts []string
		for _, vx := range t.Hex.Vertices() {
			x, y := vx.Point()
			pts = append(pts, num(x*Scale)+","+num(y*Scale))
		}
		h := Hex{
			Name:    t.Hex.String(),
			Points:  strings.Join(pts, " "),
			Fill:    terrainFill[t.Terrain],
			Terrain: p.Text("terrain."+string(t.Terrain), nil),
			X:       num(cx * Scale),
			Y:       num(cy * Scale),
			NumberY: num(cy*Scale + 6),
			DotY:    num(cy*Scale + 15),
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
		hv := Harbor{
			Pier: fmt.Sprintf("%s,%s %s,%s %s,%s",
				num(ax*Scale), num(ay*Scale), num(px*Scale), num(py*Scale), num(bx*Scale), num(by*Scale)),
			X:     num(px * Scale),
			Y:     num(py * Scale),
			Fill:  harborFill[hb.Kind],
			Ratio: "2:1",
			Label: p.Text("harbor."+string(hb.Kind), nil),
		}
		if hb.Kind == referee.GenericHarbor {
			hv.Ratio = "3:1"
		} else {
			hv.Short = p.Text("harbor_short."+string(hb.Kind), nil)
		}
		v.Harbors = append(v.Harbors, hv)
	}
	if b.HasRobber {
		v.PutRobber(b.Robber)
	}
	return v
}

// PutRobber draws the robber on hex h, where a game moved it (§6 イ).
func (v *Board) PutRobber(h referee.Hex) {
	x, y := h.Center()
	v.Robber = &Point{X: num(x*Scale + 22), Y: num(y*Scale - 14)}
}
