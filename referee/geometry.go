package referee

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Hex is a hex of the board in axial coordinates: pointy-top, Q growing
// eastward along a row, R growing southward. The land of §3 ア is the 19 hexes
// with max(|Q|, |R|, |Q+R|) <= 2; (0,0) is the centre hex.
type Hex struct {
	Q, R int
}

// String returns the hex as "(q,r)".
func (h Hex) String() string { return fmt.Sprintf("(%d,%d)", h.Q, h.R) }

// Land reports whether h is one of the 19 land hexes.
func (h Hex) Land() bool {
	_, ok := geo.hexIndex[h]
	return ok
}

// Compare orders hexes row by row, north to south, then west to east: the
// order of Layout.Terrain. It returns -1, 0 or +1 like cmp.Compare.
func (h Hex) Compare(o Hex) int {
	if c := cmp.Compare(h.R, o.R); c != 0 {
		return c
	}
	return cmp.Compare(h.Q, o.Q)
}

// Center returns the centre of h in units of the hex's circumradius, with
// the board's centre at the origin and y growing southward, for drawing.
func (h Hex) Center() (x, y float64) {
	return math.Sqrt(3) * (float64(h.Q) + float64(h.R)/2), 1.5 * float64(h.R)
}

// Rotate returns h turned clockwise about the centre hex by k sixths of a
// turn, as seen from above with the board drawn north-up (§3 イ).
func (h Hex) Rotate(k int) Hex {
	// With R growing southward, (q,r) -> (-r, q+r) takes the north-east
	// neighbour (1,-1) to the east one (1,0): clockwise on the drawn board.
	for range sixths(k) {
		h = Hex{Q: -h.R, R: h.Q + h.R}
	}
	return h
}

// Vertices returns the six corners of h clockwise from its top corner N(q,r).
func (h Hex) Vertices() [6]Vertex {
	var vs [6]Vertex
	for c := range vs {
		vs[c] = cornerOf(h, c)
	}
	return vs
}

// Edges returns the six sides of h clockwise from the one between its top
// and upper-right corners.
func (h Hex) Edges() [6]Edge {
	var es [6]Edge
	for c := range es {
		es[c] = edgeOf(cornerOf(h, c), cornerOf(h, c+1))
	}
	return es
}

// Vertex is a corner where hexes meet. Every corner has exactly one name
// N(q,r), the top corner of hex (q,r), or S(q,r), its bottom corner; the
// hex named may be a sea hex, as in S(0,-3).
type Vertex struct {
	Hex   Hex
	South bool // S(q,r), the bottom corner; false means N(q,r), the top corner
}

// String returns the vertex's name, e.g. "N(0,-2)" or "S(0,-3)".
func (v Vertex) String() string {
	if v.South {
		return "S" + v.Hex.String()
	}
	return "N" + v.Hex.String()
}

// Land reports whether v is one of the 54 corners of the land hexes.
func (v Vertex) Land() bool {
	_, ok := geo.vertexIndex[v]
	return ok
}

// Compare orders vertices as they are read on the drawn board: north to
// south, then west to east. It returns -1, 0 or +1 like cmp.Compare.
func (v Vertex) Compare(w Vertex) int {
	vy, vx := v.grid()
	wy, wx := w.grid()
	if c := cmp.Compare(vy, wy); c != 0 {
		return c
	}
	return cmp.Compare(vx, wx)
}

// grid returns v's position in whole half-units: y in halves of the
// circumradius, x in halves of a hex's width.
func (v Vertex) grid() (y, x int) {
	y = 3*v.Hex.R - 2
	if v.South {
		y = 3*v.Hex.R + 2
	}
	return y, 2*v.Hex.Q + v.Hex.R
}

// Point returns the position of v in the units of Hex.Center.
func (v Vertex) Point() (x, y float64) {
	x, y = v.Hex.Center()
	if v.South {
		return x, y + 1
	}
	return x, y - 1
}

// Rotate returns v turned clockwise about the centre hex by k sixths of a turn.
func (v Vertex) Rotate(k int) Vertex {
	c := 0
	if v.South {
		c = 3
	}
	return cornerOf(v.Hex.Rotate(k), c+sixths(k))
}

// Hexes returns the land hexes that have v as a corner, in Compare order.
func (v Vertex) Hexes() []Hex {
	i, ok := geo.vertexIndex[v]
	if !ok {
		return nil
	}
	return slices.Clone(geo.vertexHexes[i])
}

// Neighbors returns the land vertices one edge away from v, in Compare order.
func (v Vertex) Neighbors() []Vertex {
	i, ok := geo.vertexIndex[v]
	if !ok {
		return nil
	}
	return slices.Clone(geo.vertexNeighbors[i])
}

// Edges returns the land edges ending at v, in Compare order.
func (v Vertex) Edges() []Edge {
	i, ok := geo.vertexIndex[v]
	if !ok {
		return nil
	}
	return slices.Clone(geo.vertexEdges[i])
}

// adjacent returns the three vertices one edge away from v, land or sea.
func (v Vertex) adjacent() [3]Vertex {
	q, r := v.Hex.Q, v.Hex.R
	if v.South {
		return [3]Vertex{{Hex: Hex{q, r + 1}}, {Hex: Hex{q - 1, r + 1}}, {Hex: Hex{q - 1, r + 2}}}
	}
	return [3]Vertex{{Hex: Hex{q, r - 1}, South: true}, {Hex: Hex{q + 1, r - 1}, South: true}, {Hex: Hex{q + 1, r - 2}, South: true}}
}

// Edge is a side of a hex, named by its two end vertices with A before B in
// Vertex.Compare order. NewEdge builds one from its ends in either order.
type Edge struct {
	A, B Vertex
}

// NewEdge returns the edge between the adjacent vertices a and b, given in
// either order. It returns an error wrapping ErrInvalid if they are not adjacent.
func NewEdge(a, b Vertex) (Edge, error) {
	if adj := a.adjacent(); !slices.Contains(adj[:], b) {
		return Edge{}, violation("edge-not-adjacent", fmt.Sprintf("%v and %v are not the ends of one edge", a, b),
			map[string]any{"A": a.String(), "B": b.String()})
	}
	return edgeOf(a, b), nil
}

// edgeOf names the edge between adjacent vertices a and b.
func edgeOf(a, b Vertex) Edge {
	if a.Compare(b) > 0 {
		a, b = b, a
	}
	return Edge{A: a, B: b}
}

// String returns the edge as its two vertices, e.g. "N(0,-2)-S(0,-3)".
func (e Edge) String() string { return e.A.String() + "-" + e.B.String() }

// Land reports whether e is one of the 72 sides of the land hexes.
func (e Edge) Land() bool {
	_, ok := geo.edgeIndex[e]
	return ok
}

// Compare orders edges by A, then by B, in Vertex.Compare order.
func (e Edge) Compare(f Edge) int {
	if c := e.A.Compare(f.A); c != 0 {
		return c
	}
	return e.B.Compare(f.B)
}

// Rotate returns e turned clockwise about the centre hex by k sixths of a turn.
func (e Edge) Rotate(k int) Edge { return edgeOf(e.A.Rotate(k), e.B.Rotate(k)) }

// Hexes returns the land hexes on either side of e, in Compare order: one
// for a coastal edge, two for an inland one.
func (e Edge) Hexes() []Hex {
	i, ok := geo.edgeIndex[e]
	if !ok {
		return nil
	}
	return slices.Clone(geo.edgeHexes[i])
}

// LandHexes returns the 19 land hexes in Compare order, the order of
// Layout.Terrain and Board.Tiles.
func LandHexes() []Hex { return slices.Clone(geo.hexes) }

// LandVertices returns the 54 corners of the land hexes in Compare order.
func LandVertices() []Vertex { return slices.Clone(geo.vertices) }

// LandEdges returns the 72 sides of the land hexes in Compare order.
func LandEdges() []Edge { return slices.Clone(geo.edges) }

// HarborSites returns the 9 harbour sites of the sea frame before it is
// turned (§3 ア), clockwise from the north-west one: site i holds the
// harbour Layout.Harbors[i].
func HarborSites() []Edge { return slices.Clone(geo.sites[:]) }

// harborGaps are the steps along the coast (geo.coast) from one harbour site to the
// next. §3 ア: the rulebook's figure 1 is missing, so the sites are the base
// game's frame (docs/rules.md §3 lists them by vertex): a harbour on every other
// frame hex; where a harbour's frame hex touches two land hexes it faces the
// one that is not a corner hex of the island. That puts the sites at coastal
// edges 0, 3, 7, 10, 13, 17, 20, 23, 27.
var harborGaps = [9]int{3, 4, 3, 3, 4, 3, 3, 4, 3}

// geometry holds the tables of the board, generated once from the
// coordinates so that no table is typed by hand.
type geometry struct {
	hexes    []Hex // Compare order; the index of a hex is its place here
	hexIndex map[Hex]int
	vertices []Vertex
	// vertexIndex and edgeIndex look up table rows; no decision ranges over them.
	vertexIndex map[Vertex]int
	edges       []Edge
	edgeIndex   map[Edge]int

	hexNeighbors    [][]Hex
	vertexHexes     [][]Hex
	vertexNeighbors [][]Vertex
	vertexEdges     [][]Edge
	edgeHexes       [][]Hex

	coast []Edge
	sites [9]Edge

	// neighborMask[i] has bit j set when land hexes i and j share an edge.
	neighborMask []uint32
	// triangles holds, for each vertex with three land hexes, their bits.
	triangles []uint32
	// turned[k][i] is where the inner piece turned by k sixths carries
	// land hex i; the centre and the outer ring stay (§3 イ).
	turned [6][]int
	// spiral lists the land hexes counter-clockwise from the north-west
	// corner towards the centre: the outer ring, the inner ring from the hex
	// inside the corner, then the centre (national rules, Board set-up).
	spiral []Hex
}

var geo = newGeometry()

func newGeometry() *geometry {
	g := &geometry{hexIndex: map[Hex]int{}, vertexIndex: map[Vertex]int{}, edgeIndex: map[Edge]int{}}
	for r := -2; r <= 2; r++ {
		for q := -2; q <= 2; q++ {
			if max(-q, q, -r, r, -q-r, q+r) <= 2 {
				g.hexIndex[Hex{q, r}] = len(g.hexes)
				g.hexes = append(g.hexes, Hex{q, r})
			}
		}
	}
	for _, h := range g.hexes {
		vs := h.Vertices()
		g.vertices = append(g.vertices, vs[:]...)
		es := h.Edges()
		g.edges = append(g.edges, es[:]...)
	}
	slices.SortFunc(g.vertices, Vertex.Compare)
	g.vertices = slices.Compact(g.vertices)
	slices.SortFunc(g.edges, Edge.Compare)
	g.edges = slices.Compact(g.edges)
	for i, v := range g.vertices {
		g.vertexIndex[v] = i
	}
	for i, e := range g.edges {
		g.edgeIndex[e] = i
	}

	g.hexNeighbors = make([][]Hex, len(g.hexes))
	g.vertexHexes = make([][]Hex, len(g.vertices))
	g.vertexNeighbors = make([][]Vertex, len(g.vertices))
	g.vertexEdges = make([][]Edge, len(g.vertices))
	g.edgeHexes = make([][]Hex, len(g.edges))
	for _, h := range g.hexes {
		for _, v := range h.Vertices() {
			i := g.vertexIndex[v]
			g.vertexHexes[i] = append(g.vertexHexes[i], h)
		}
		for _, e := range h.Edges() {
			i := g.edgeIndex[e]
			g.edgeHexes[i] = append(g.edgeHexes[i], h)
		}
	}
	for i, e := range g.edges {
		a, b := g.vertexIndex[e.A], g.vertexIndex[e.B]
		g.vertexNeighbors[a] = append(g.vertexNeighbors[a], e.B)
		g.vertexNeighbors[b] = append(g.vertexNeighbors[b], e.A)
		g.vertexEdges[a] = append(g.vertexEdges[a], e)
		g.vertexEdges[b] = append(g.vertexEdges[b], e)
		if hs := g.edgeHexes[i]; len(hs) == 2 {
			x, y := g.hexIndex[hs[0]], g.hexIndex[hs[1]]
			g.hexNeighbors[x] = append(g.hexNeighbors[x], hs[1])
			g.hexNeighbors[y] = append(g.hexNeighbors[y], hs[0])
		}
	}
	for _, list := range g.hexNeighbors {
		slices.SortFunc(list, Hex.Compare)
	}
	for i := range g.vertices {
		slices.SortFunc(g.vertexHexes[i], Hex.Compare)
		slices.SortFunc(g.vertexNeighbors[i], Vertex.Compare)
		slices.SortFunc(g.vertexEdges[i], Edge.Compare)
	}
	for _, list := range g.edgeHexes {
		slices.SortFunc(list, Hex.Compare)
	}

	g.coast = g.walkCoast()
	at := 0
	for i, gap := range harborGaps {
		g.sites[i] = g.coast[at]
		at += gap
	}

	g.neighborMask = make([]uint32, len(g.hexes))
	for i, list := range g.hexNeighbors {
		for _, n := range list {
			g.neighborMask[i] |= 1 << g.hexIndex[n]
		}
	}
	for _, hs := range g.vertexHexes {
		if len(hs) == 3 {
			g.triangles = append(g.triangles, g.mask(hs))
		}
	}
	for k := range g.turned {
		g.turned[k] = make([]int, len(g.hexes))
		for i, h := range g.hexes {
			g.turned[k][i] = i
			if max(-h.Q, h.Q, -h.R, h.R, -h.Q-h.R, h.Q+h.R) == 1 {
				g.turned[k][i] = g.hexIndex[h.Rotate(k)]
			}
		}
	}
	g.spiral = spiralFromNorthWest()
	return g
}

// spiralFromNorthWest walks each ring counter-clockwise, outer ring first,
// from its north-west corner: south-west along the island's upper-left
// side, then each next side a sixth of a turn counter-clockwise.
func spiralFromNorthWest() []Hex {
	var path []Hex
	for r := 2; r >= 1; r-- {
		h, step := Hex{Q: 0, R: -r}, Hex{Q: -1, R: 1}
		for range 6 {
			for range r {
				path = append(path, h)
				h = Hex{Q: h.Q + step.Q, R: h.R + step.R}
			}
			step = step.Rotate(-1)
		}
	}
	return append(path, Hex{})
}

// walkCoast lists the coastal edges (those with one land hex) clockwise
// from the upper-left side of hex (0,-2), each sharing a vertex with the next.
func (g *geometry) walkCoast() []Edge {
	from, at := Vertex{Hex: Hex{0, -3}, South: true}, Vertex{Hex: Hex{0, -2}}
	coast := []Edge{edgeOf(from, at)}
	for {
		var next Edge
		for _, e := range g.vertexEdges[g.vertexIndex[at]] {
			if len(g.edgeHexes[g.edgeIndex[e]]) == 1 && e != coast[len(coast)-1] {
				next = e
			}
		}
		if next == coast[0] {
			return coast
		}
		coast = append(coast, next)
		if next.A == at {
			at = next.B
		} else {
			at = next.A
		}
	}
}

// mask returns the bits of the given land hexes.
func (g *geometry) mask(hs []Hex) uint32 {
	var m uint32
	for _, h := range hs {
		m |= 1 << g.hexIndex[h]
	}
	return m
}

// hexesOf returns the land hexes whose bits are set in m, in Compare order.
func (g *geometry) hexesOf(m uint32) []Hex {
	var hs []Hex
	for i, h := range g.hexes {
		if m&(1<<i) != 0 {
			hs = append(hs, h)
		}
	}
	return hs
}

// cornerOf returns corner c of hex h, counted clockwise from its top
// corner (0) to its upper-left one (5), under the corner's canonical name.
func cornerOf(h Hex, c int) Vertex {
	switch sixths(c) {
	case 0:
		return Vertex{Hex: h}
	case 1:
		return Vertex{Hex: Hex{h.Q + 1, h.R - 1}, South: true}
	case 2:
		return Vertex{Hex: Hex{h.Q, h.R + 1}}
	case 3:
		return Vertex{Hex: h, South: true}
	case 4:
		return Vertex{Hex: Hex{h.Q - 1, h.R + 1}}
	default:
		return Vertex{Hex: Hex{h.Q, h.R - 1}, South: true}
	}
}

// sixths reduces a number of sixths of a turn to 0..5; 6 pips are a full turn (§3 イ).
func sixths(k int) int { return (k%6 + 6) % 6 }
