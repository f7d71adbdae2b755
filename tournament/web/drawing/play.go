package drawing

import (
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
)

// PieceFill are the colours pieces are drawn in, by colour id.
var PieceFill = map[referee.Color]string{
	referee.Red: "#d32f2f", referee.Blue: "#1565c0", referee.Yellow: "#f9c80e", referee.Green: "#2e7d32",
	"white": "#ffffff", "orange": "#ef6c00",
}

// Play is what is drawn over a board: each player's longest trail, the
// pieces, and the targets a judge taps, each named as the rules engine
// names it (a corner "N(0,0)", an edge by its two corners, a hex "(0,0)"),
// and labelled as the board is read (Places).
type Play struct {
	Trails    []Trail
	Roads     []Road
	Buildings []Building
	Corners   []Corner
	Edges     []EdgeTarget
	Hexes     []HexTarget
}

// Trail is a longest road highlighted.
type Trail struct{ Points, Fill, Label string }

// Road is a road piece.
type Road struct{ Name, Label, Fill, X1, Y1, X2, Y2 string }

// Building is a settlement or a city: drawn as a house, or a larger
// two-storey house, so that from across the room neither reads as a
// road's end; the owner's seat number is written on it, so that colour is
// never the only cue.
type Building struct {
	Name, Label, Fill, X, Y string
	City                    bool
	Seat                    int    // the owner's place in play order, 1 to 4
	Ink                     string // the seat number's colour, readable on Fill
}

// inkOn is the colour text reads in on a piece of colour fill: dark on
// the light colours, white on the others.
func inkOn(fill string) string {
	switch fill {
	case PieceFill[referee.Yellow], PieceFill["white"], PieceFill["orange"]:
		return "#111"
	}
	return "#fff"
}

// Corner is a corner to tap.
type Corner struct{ Name, Label, X, Y string }

// EdgeTarget is an edge to tap.
type EdgeTarget struct{ Name, Label, X1, Y1, X2, Y2 string }

// HexTarget is a hex to tap, with what it is (its terrain and number).
type HexTarget struct{ Name, Label, Points string }

// Seat is a player as the pieces are drawn: by name, in their colour.
type Seat struct {
	Name  string
	Color string // colour id
}

// Targets says what a judge may tap on the drawing.
type Targets struct {
	Board bool // the corners and the edges
	Hexes bool // the land hexes (where the robber goes)
}

// NewPlay draws the pieces of an evaluated position (its players in
// seats' order), each player's longest trail, and the targets to tap on
// board b, each labelled as named says the board's places.
func NewPlay(named Places, ev *game.Evaluation, seats []Seat, b Board, targets Targets) *Play {
	p := named.p
	pt := func(v referee.Vertex) (string, string) {
		x, y := v.Point()
		return num(x * Scale), num(y * Scale)
	}
	pl := &Play{}
	for i, pe := range ev.Players {
		if len(pe.Trail.Corners) < 2 {
			continue
		}
		var pts []string
		for _, v := range pe.Trail.Corners {
			x, y := pt(v)
			pts = append(pts, x+","+y)
		}
		pl.Trails = append(pl.Trails, Trail{Points: strings.Join(pts, " "), Fill: PieceFill[referee.Color(seats[i].Color)],
			Label: p.Text("ruling.trail", map[string]any{"Player": seats[i].Name, "N": pe.Road})})
	}
	for _, pc := range ev.Pieces() {
		st := seats[pc.Player]
		fill := PieceFill[referee.Color(st.Color)]
		if pc.Road {
			x1, y1 := pt(pc.Edge.A)
			x2, y2 := pt(pc.Edge.B)
			pl.Roads = append(pl.Roads, Road{Name: pc.Edge.A.String() + " " + pc.Edge.B.String(), Fill: fill, X1: x1, Y1: y1, X2: x2, Y2: y2,
				Label: p.Text("ruling.do.road", map[string]any{"Player": st.Name, "Where": named.Side(pc.Edge)})})
			continue
		}
		x, y := pt(pc.Vertex)
		do := "settlement"
		if pc.City {
			do = "city"
		}
		pl.Buildings = append(pl.Buildings, Building{Name: pc.Vertex.String(), Fill: fill, X: x, Y: y, City: pc.City, Seat: pc.Player + 1, Ink: inkOn(fill),
			Label: p.Text("ruling.do."+do, map[string]any{"Player": st.Name, "Where": named.Corner(pc.Vertex)})})
	}
	if targets.Hexes {
		for _, h := range b.Hexes {
			pl.Hexes = append(pl.Hexes, HexTarget{Name: h.Name, Points: h.Points, Label: named.Name(h.Name)})
		}
	}
	if targets.Board {
		for _, e := range referee.LandEdges() {
			x1, y1 := pt(e.A)
			x2, y2 := pt(e.B)
			pl.Edges = append(pl.Edges, EdgeTarget{Name: e.A.String() + " " + e.B.String(), Label: named.Side(e), X1: x1, Y1: y1, X2: x2, Y2: y2})
		}
		for _, v := range referee.LandVertices() {
			x, y := pt(v)
			pl.Corners = append(pl.Corners, Corner{Name: v.String(), Label: named.Corner(v), X: x, Y: y})
		}
	}
	return pl
}
