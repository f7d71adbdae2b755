package console

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
)

// The rules engine names a hex by its coordinates, "(0,-2)", a corner as
// the top or bottom corner of a hex, "N(0,-2)", and a side by its two
// corners. Those names are for the API and for typing; a judge reads the
// board as drawn, so every page names them by terrain and place instead:
// 「山地（1段目・左から1）」, the corner 「山地（1段目・左から1）の右上の角」
// and the side 「山地（1段目・左から1）の右の辺」.

// placeOf is where a corner or a side lies: the first land hex, in the
// board's reading order (rows from the top, each from the left), that has
// it, and which of that hex's six corners or sides it is, counted
// clockwise from the top corner or the upper-right side.
type placeOf struct {
	hex referee.Hex
	at  int
}

// boardPlaces are the rows and places of the land hexes and where each
// corner and side lies, the same for every board: the geometry does not
// change, only the terrain on it.
var boardPlaces = func() (p struct {
	row, n  map[referee.Hex]int
	corners map[referee.Vertex]placeOf
	sides   map[referee.Edge]placeOf
}) {
	p.row, p.n = map[referee.Hex]int{}, map[referee.Hex]int{}
	p.corners, p.sides = map[referee.Vertex]placeOf{}, map[referee.Edge]placeOf{}
	row, n, lastR := 0, 0, 0
	for i, h := range referee.LandHexes() {
		if i == 0 || h.R != lastR {
			row, n, lastR = row+1, 0, h.R
		}
		n++
		p.row[h], p.n[h] = row, n
		for c, v := range h.Vertices() {
			if _, ok := p.corners[v]; !ok {
				p.corners[v] = placeOf{h, c}
			}
		}
		for c, e := range h.Edges() {
			if _, ok := p.sides[e]; !ok {
				p.sides[e] = placeOf{h, c}
			}
		}
	}
	return p
}()

// places names the hexes, corners and sides of one board in one language.
type places struct {
	s     *Pages
	lang  string
	board *referee.Board // nil: the hexes are named by place alone
}

func (s *Pages) places(lang string, b *referee.Board) places {
	return places{s: s, lang: lang, board: b}
}

// place is where hex h is on the board as drawn: 「1段目・左から1」 or 「中央」.
func (p places) place(h referee.Hex) string {
	if h == (referee.Hex{}) {
		return p.s.i18n.Text(p.lang, "deal.centre", nil)
	}
	return p.s.i18n.Text(p.lang, "deal.place", map[string]any{"Row": boardPlaces.row[h], "N": boardPlaces.n[h]})
}

// terrain is the terrain on hex h, "" when the board does not say.
func (p places) terrain(h referee.Hex) string {
	if p.board == nil {
		return ""
	}
	if t, ok := p.board.TileAt(h); ok && t.Terrain != "" {
		return p.s.i18n.Text(p.lang, "terrain."+string(t.Terrain), nil)
	}
	return ""
}

// Hex names a land hex by its terrain and place.
func (p places) Hex(h referee.Hex) string {
	place := p.place(h)
	if t := p.terrain(h); t != "" {
		return p.s.i18n.Text(p.lang, "deal.cell", map[string]any{"Terrain": t, "Place": place})
	}
	return place
}

// Corner names a corner of the land as a corner of a hex.
func (p places) Corner(v referee.Vertex) string {
	at, ok := boardPlaces.corners[v]
	if !ok {
		return v.String()
	}
	return p.s.i18n.Text(p.lang, "place.corner", map[string]any{"Hex": p.Hex(at.hex), "Corner": p.s.i18n.Text(p.lang, cornerKeys[at.at], nil)})
}

// Side names a side of the land as a side of a hex.
func (p places) Side(e referee.Edge) string {
	at, ok := boardPlaces.sides[e]
	if !ok {
		return e.String()
	}
	return p.s.i18n.Text(p.lang, "place.side", map[string]any{"Hex": p.Hex(at.hex), "Side": p.s.i18n.Text(p.lang, sideKeys[at.at], nil)})
}

// The six corners of a hex clockwise from the top, and its six sides
// clockwise from the upper right (referee.Hex.Vertices, Edges).
var (
	cornerKeys = [6]string{"place.top", "place.upper_right", "place.lower_right", "place.bottom", "place.lower_left", "place.upper_left"}
	sideKeys   = [6]string{"place.upper_right", "place.right", "place.lower_right", "place.lower_left", "place.left", "place.upper_left"}
)

// engineName matches the names the rules engine writes: a side
// "N(0,0)-S(1,-1)", a corner "N(0,0)" or a hex "(0,0)".
var engineName = regexp.MustCompile(`^(?:([NS])\((-?\d+),(-?\d+)\)-([NS])\((-?\d+),(-?\d+)\)|([NS])\((-?\d+),(-?\d+)\)|\((-?\d+),(-?\d+)\))$`)

// Name names what the engine calls name (a hex, a corner or a side) as a
// judge reads it off the board; any other text is returned as it is.
func (p places) Name(name string) string {
	m := engineName.FindStringSubmatch(strings.ReplaceAll(name, " ", ""))
	switch {
	case m == nil:
		return name
	case m[1] != "":
		e, err := referee.NewEdge(vertexOf(m[1], m[2], m[3]), vertexOf(m[4], m[5], m[6]))
		if err != nil {
			return name
		}
		return p.Side(e)
	case m[7] != "":
		return p.Corner(vertexOf(m[7], m[8], m[9]))
	}
	h := referee.Hex{Q: atoi(m[10]), R: atoi(m[11])}
	if !h.Land() {
		return name
	}
	return p.Hex(h)
}

// Violation is v with the hexes, corners and sides its message names
// written as Name writes them.
func (p places) Violation(v *referee.Violation) *referee.Violation {
	args := make(map[string]any, len(v.Args))
	for k, a := range v.Args {
		switch k {
		case "Hex", "Vertex", "Edge", "Place", "A", "B":
			if s, ok := a.(string); ok {
				a = p.Name(s)
			}
		case "Hexes":
			if list, ok := a.([]string); ok {
				named := make([]string, len(list))
				for i, s := range list {
					named[i] = p.Name(s)
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

// error is err with the names in its broken rule written as Name writes
// them, when it is one of the rules engine's; any other error as it is.
func (p places) error(err error) error {
	var ge *game.Error
	if !errors.As(err, &ge) {
		return err
	}
	named := *ge
	named.Violation = p.Violation(ge.Violation)
	return &named
}

func vertexOf(ns, q, r string) referee.Vertex {
	return referee.Vertex{Hex: referee.Hex{Q: atoi(q), R: atoi(r)}, South: ns == "S"}
}

// atoi reads the digits engineName matched.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
