package drawing

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
)

// The rules engine names a hex by its coordinates, "(0,-2)", a corner as
// the top or bottom corner of a hex, "N(0,-2)", and a side by its two
// corners. Those names are for the API and for typing; a judge and the
// players read the board as drawn, so every page names them as Places
// does: a hex by its terrain, its number and its place on the board
// (「森林4（2段目・左から3）」), a corner by the land hexes around it
// (「丘陵6・森林4・畑9の角」) and a side by the two it parts
// (「丘陵6と森林4の間」). On the coast, where one land hex is not enough to
// tell a corner or a side, and wherever a board repeats a terrain and a
// number so that two corners or sides would read alike, it says which
// corner or side of its first hex in reading order it is
// (「森林4（1段目・左から3）の右上の角」).

// placeOf is where a corner or a side lies: the first land hex, in the
// board's reading order (rows from the top, each from the left), that has
// it, and which of that hex's six corners or sides it is, counted
// clockwise from the top corner or the upper-right side.
type placeOf struct {
	hex referee.Hex
	at  int
}

// geometry is the rows and places of the land hexes and where each corner
// and side lies, the same for every board.
var geometry = func() (g struct {
	row, n  map[referee.Hex]int
	corners map[referee.Vertex]placeOf
	sides   map[referee.Edge]placeOf
}) {
	g.row, g.n = map[referee.Hex]int{}, map[referee.Hex]int{}
	g.corners, g.sides = map[referee.Vertex]placeOf{}, map[referee.Edge]placeOf{}
	row, n, lastR := 0, 0, 0
	for i, h := range referee.LandHexes() {
		if i == 0 || h.R != lastR {
			row, n, lastR = row+1, 0, h.R
		}
		n++
		g.row[h], g.n[h] = row, n
		for c, v := range h.Vertices() {
			if _, ok := g.corners[v]; !ok {
				g.corners[v] = placeOf{h, c}
			}
		}
		for c, e := range h.Edges() {
			if _, ok := g.sides[e]; !ok {
				g.sides[e] = placeOf{h, c}
			}
		}
	}
	return g
}()

// The six corners of a hex clockwise from the top, and its six sides
// clockwise from the upper right (referee.Hex.Vertices, Edges).
var (
	cornerKeys = [6]string{"place.top", "place.upper_right", "place.lower_right", "place.bottom", "place.lower_left", "place.upper_left"}
	sideKeys   = [6]string{"place.upper_right", "place.right", "place.lower_right", "place.lower_left", "place.left", "place.upper_left"}
)

// Places names the hexes, corners and sides of one board in one language.
type Places struct {
	p     i18n.Printer
	board *referee.Board // nil: the hexes are named by place alone
	// corners and sides are the names by the hexes around them, kept
	// only where no other corner or side of the board reads alike.
	corners map[referee.Vertex]string
	sides   map[referee.Edge]string
}

// NewPlaces names the places of board b (nil for a board not known yet:
// hexes by their place alone) in p's language.
func NewPlaces(p i18n.Printer, b *referee.Board) Places {
	pl := Places{p: p, board: b, corners: map[referee.Vertex]string{}, sides: map[referee.Edge]string{}}
	if b == nil {
		return pl
	}
	seen := map[string]int{}
	corners := map[referee.Vertex]string{}
	for _, v := range referee.LandVertices() {
		var land []string
		for _, h := range v.Hexes() {
			if h.Land() {
				land = append(land, pl.Tile(h))
			}
		}
		if len(land) >= 2 {
			corners[v] = p.Text("place.corner_between", map[string]any{"Hexes": strings.Join(land, p.Text("place.corner_sep", nil))})
			seen[corners[v]]++
		}
	}
	for v, name := range corners {
		if seen[name] == 1 {
			pl.corners[v] = name
		}
	}
	sides := map[referee.Edge]string{}
	for _, e := range referee.LandEdges() {
		if hs := e.Hexes(); len(hs) == 2 && hs[0].Land() && hs[1].Land() {
			sides[e] = p.Text("place.side_between", map[string]any{"A": pl.Tile(hs[0]), "B": pl.Tile(hs[1])})
			seen[sides[e]]++
		}
	}
	for e, name := range sides {
		if seen[name] == 1 {
			pl.sides[e] = name
		}
	}
	return pl
}

// Lang is the language the places are named in.
func (pl Places) Lang() string { return pl.p.Lang }

// Place is where hex h is on the board as drawn: 「1段目・左から1」 or 「中央」.
func (pl Places) Place(h referee.Hex) string {
	if h == (referee.Hex{}) {
		return pl.p.Text("deal.centre", nil)
	}
	return pl.p.Text("deal.place", map[string]any{"Row": geometry.row[h], "N": geometry.n[h]})
}

// Terrain is the terrain on hex h, "" when the board does not say.
func (pl Places) Terrain(h referee.Hex) string {
	if pl.board == nil {
		return ""
	}
	if t, ok := pl.board.TileAt(h); ok && t.Terrain != "" {
		return pl.p.Text("terrain."+string(t.Terrain), nil)
	}
	return ""
}

// Tile says hex h as players name it: its terrain and number (森林4), or
// the desert; its place while the board does not say its terrain.
func (pl Places) Tile(h referee.Hex) string {
	s := pl.Terrain(h)
	if s == "" {
		return pl.Place(h)
	}
	if t, _ := pl.board.TileAt(h); t.Number != 0 {
		s = pl.p.Text("place.tile", map[string]any{"Terrain": s, "N": t.Number})
	}
	return s
}

// Hex names a land hex by its terrain, its number and its place.
func (pl Places) Hex(h referee.Hex) string {
	if pl.Terrain(h) == "" {
		return pl.Place(h)
	}
	return pl.p.Text("deal.cell", map[string]any{"Terrain": pl.Tile(h), "Place": pl.Place(h)})
}

// Corner names a corner of the land.
func (pl Places) Corner(v referee.Vertex) string {
	if name, ok := pl.corners[v]; ok {
		return name
	}
	at, ok := geometry.corners[v]
	if !ok {
		return v.String()
	}
	return pl.p.Text("place.corner", map[string]any{"Hex": pl.Hex(at.hex), "Corner": pl.p.Text(cornerKeys[at.at], nil)})
}

// Side names a side of a land hex.
func (pl Places) Side(e referee.Edge) string {
	if name, ok := pl.sides[e]; ok {
		return name
	}
	at, ok := geometry.sides[e]
	if !ok {
		return e.String()
	}
	return pl.p.Text("place.side", map[string]any{"Hex": pl.Hex(at.hex), "Side": pl.p.Text(sideKeys[at.at], nil)})
}

// engineName matches the names the rules engine writes: a side
// "N(0,0)-S(1,-1)" (or its two corners apart), a corner "N(0,0)" or a hex
// "(0,0)".
var engineName = regexp.MustCompile(`^(?:([NS])\((-?\d+),(-?\d+)\)[- ]?([NS])\((-?\d+),(-?\d+)\)|([NS])\((-?\d+),(-?\d+)\)|\((-?\d+),(-?\d+)\))$`)

// Name names what the engine calls name (a hex, a corner or a side) as
// the board is read; any other text is returned as it is.
func (pl Places) Name(name string) string {
	m := engineName.FindStringSubmatch(strings.ReplaceAll(name, " ", ""))
	switch {
	case m == nil:
		return name
	case m[1] != "":
		e, err := referee.NewEdge(vertexOf(m[1], m[2], m[3]), vertexOf(m[4], m[5], m[6]))
		if err != nil {
			return name
		}
		return pl.Side(e)
	case m[7] != "":
		return pl.Corner(vertexOf(m[7], m[8], m[9]))
	}
	h := referee.Hex{Q: atoi(m[10]), R: atoi(m[11])}
	if !h.Land() {
		return name
	}
	return pl.Hex(h)
}

// Violation is v with the hexes, corners and sides its message names
// written as Name writes them.
func (pl Places) Violation(v *referee.Violation) *referee.Violation {
	args := make(map[string]any, len(v.Args))
	for k, a := range v.Args {
		switch k {
		case "Hex", "Vertex", "Edge", "Place", "A", "B":
			if s, ok := a.(string); ok {
				a = pl.Name(s)
			}
		case "Hexes":
			if list, ok := a.([]string); ok {
				named := make([]string, len(list))
				for i, s := range list {
					named[i] = pl.Name(s)
				}
				a = named
			}
		}
		args[k] = a
	}
	out := *v
	out.Args = args
	return &out
}

// Error is err with the names in its broken rule written as Name writes
// them, when it is a broken rule; any other error as it is.
func (pl Places) Error(err error) error {
	var ge *game.Error
	if errors.As(err, &ge) {
		named := *ge
		named.Violation = pl.Violation(ge.Violation)
		return &named
	}
	var v *referee.Violation
	if errors.As(err, &v) {
		if err == error(v) {
			return pl.Violation(v)
		}
		// A rule wrapped as a conflict (a table's result, another judge's
		// change) stays one: the named rule first, the chain after it.
		return renamed{named: pl.Violation(v), err: err}
	}
	return err
}

// renamed is an error whose broken rule was named again: it says the
// named rule and is what it was before too.
type renamed struct {
	named *referee.Violation
	err   error
}

func (r renamed) Error() string   { return r.named.Error() }
func (r renamed) Unwrap() []error { return []error{r.named, r.err} }

func vertexOf(ns, q, r string) referee.Vertex {
	return referee.Vertex{Hex: referee.Hex{Q: atoi(q), R: atoi(r)}, South: ns == "S"}
}

// atoi reads the digits engineName matched.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
