package referee_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// geoN and geoS build vertex names as the rulebook's figure would read them.
func geoN(q, r int) referee.Vertex { return referee.Vertex{Hex: referee.Hex{Q: q, R: r}} }
func geoS(q, r int) referee.Vertex {
	return referee.Vertex{Hex: referee.Hex{Q: q, R: r}, South: true}
}

func geoEdge(t *testing.T, a, b referee.Vertex) referee.Edge {
	t.Helper()
	e, err := referee.NewEdge(a, b)
	if err != nil {
		t.Fatalf("NewEdge(%v, %v) = %v", a, b, err)
	}
	return e
}

// geoNear reports whether two points are within rounding error.
func geoNear(x1, y1, x2, y2 float64) bool { return math.Hypot(x1-x2, y1-y2) < 1e-9 }

// geoTurn turns a point clockwise on the drawn board (y southward) by k sixths.
func geoTurn(x, y float64, k int) (float64, float64) {
	a := float64(k) * math.Pi / 3
	return x*math.Cos(a) - y*math.Sin(a), x*math.Sin(a) + y*math.Cos(a)
}

func TestGeometryCounts(t *testing.T) {
	hexes, vertices, edges := referee.LandHexes(), referee.LandVertices(), referee.LandEdges()
	byHexes := map[int]int{}  // vertices by number of land hexes
	byDegree := map[int]int{} // vertices by number of land neighbours
	for _, v := range vertices {
		byHexes[len(v.Hexes())]++
		byDegree[len(v.Neighbors())]++
		if len(v.Edges()) != len(v.Neighbors()) {
			t.Errorf("%v has %d edges and %d neighbours, want equal", v, len(v.Edges()), len(v.Neighbors()))
		}
	}
	edgesByHexes := map[int]int{}
	for _, e := range edges {
		edgesByHexes[len(e.Hexes())]++
	}
	hexesByNeighbors := map[int]int{}
	for _, h := range hexes {
		hexesByNeighbors[len(h.Neighbors())]++
	}
	coastalVertices := 0
	for _, v := range vertices {
		if len(v.Hexes()) < 3 {
			coastalVertices++
		}
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"land hexes", len(hexes), 19},
		{"land vertices", len(vertices), 54},
		{"land edges", len(edges), 72},
		{"coastal edges", len(referee.CoastalEdges()), 30},
		{"edges by land hexes", edgesByHexes, map[int]int{1: 30, 2: 42}},
		{"coastal vertices", coastalVertices, 30},
		{"vertices by land hexes", byHexes, map[int]int{1: 18, 2: 12, 3: 24}},
		{"vertices by degree", byDegree, map[int]int{2: 18, 3: 36}},
		// The 6 corner hexes of the island have 3 land neighbours, the 6
		// others of the outer ring 4, the centre and the inner ring 6.
		{"hexes by neighbours", hexesByNeighbors, map[int]int{3: 6, 4: 6, 6: 7}},
		{"harbour sites", len(referee.HarborSites()), 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

func TestGeometryTables(t *testing.T) {
	hexes, vertices, edges := referee.LandHexes(), referee.LandVertices(), referee.LandEdges()
	for _, c := range []struct {
		name   string
		sorted bool
	}{
		{"LandHexes", slices.IsSortedFunc(hexes, referee.Hex.Compare)},
		{"LandVertices", slices.IsSortedFunc(vertices, referee.Vertex.Compare)},
		{"LandEdges", slices.IsSortedFunc(edges, referee.Edge.Compare)},
	} {
		if !c.sorted {
			t.Errorf("%s() is not in Compare order", c.name)
		}
	}
	for _, h := range hexes {
		if d := max(geoAbs(h.Q), geoAbs(h.R), geoAbs(h.Q+h.R)); d > 2 || !h.Land() {
			t.Errorf("LandHexes() holds %v, %d from the centre", h, d)
		}
	}
	// Row order, 3, 4, 5, 4, 3 hexes: the order of Layout.Terrain.
	rows := map[int]int{}
	for _, h := range hexes {
		rows[h.R]++
	}
	if diff := cmp.Diff(map[int]int{-2: 3, -1: 4, 0: 5, 1: 4, 2: 3}, rows); diff != "" {
		t.Errorf("hexes per row (-want +got):\n%s", diff)
	}
	if got, want := hexes[0], (referee.Hex{Q: 0, R: -2}); got != want {
		t.Errorf("LandHexes()[0] = %v, want %v", got, want)
	}

	for _, h := range hexes {
		t.Run(h.String(), func(t *testing.T) {
			vs, es := h.Vertices(), h.Edges()
			cx, cy := h.Center()
			for i, v := range vs {
				if !v.Land() || !slices.Contains(vertices, v) {
					t.Errorf("%v.Vertices()[%d] = %v, not a land vertex", h, i, v)
				}
				if !slices.Contains(v.Hexes(), h) {
					t.Errorf("%v.Hexes() = %v, want it to hold %v", v, v.Hexes(), h)
				}
				// Corners clockwise from the top, at distance 1 from the centre.
				x, y := v.Point()
				wx, wy := cx+math.Cos(-math.Pi/2+float64(i)*math.Pi/3), cy+math.Sin(-math.Pi/2+float64(i)*math.Pi/3)
				if !geoNear(x, y, wx, wy) {
					t.Errorf("%v.Point() = (%g, %g), want (%g, %g)", v, x, y, wx, wy)
				}
				e := es[i]
				if want := geoEdge(t, vs[i], vs[(i+1)%6]); e != want || !e.Land() || !slices.Contains(edges, e) {
					t.Errorf("%v.Edges()[%d] = %v, want land edge %v", h, i, e, want)
				}
				if !slices.Contains(e.Hexes(), h) {
					t.Errorf("%v.Hexes() = %v, want it to hold %v", e, e.Hexes(), h)
				}
			}
			if n := len(slices.Compact(slices.SortedFunc(slices.Values(vs[:]), referee.Vertex.Compare))); n != 6 {
				t.Errorf("%v has %d distinct vertices, want 6", h, n)
			}
			if n := len(slices.Compact(slices.SortedFunc(slices.Values(es[:]), referee.Edge.Compare))); n != 6 {
				t.Errorf("%v has %d distinct edges, want 6", h, n)
			}
			for _, n := range h.Neighbors() {
				if d := (referee.Hex{Q: n.Q - h.Q, R: n.R - h.R}); max(geoAbs(d.Q), geoAbs(d.R), geoAbs(d.Q+d.R)) != 1 {
					t.Errorf("%v.Neighbors() holds %v, not next to it", h, n)
				}
				shared := 0
				for _, e := range es {
					if slices.Contains(e.Hexes(), n) {
						shared++
					}
				}
				if shared != 1 {
					t.Errorf("%v and its neighbour %v share %d edges, want 1", h, n, shared)
				}
			}
		})
	}

	for _, e := range edges {
		ax, ay := e.A.Point()
		bx, by := e.B.Point()
		if d := math.Hypot(ax-bx, ay-by); math.Abs(d-1) > 1e-9 {
			t.Errorf("edge %v is %g long, want 1", e, d)
		}
		if !slices.Contains(e.A.Neighbors(), e.B) || !slices.Contains(e.B.Edges(), e) {
			t.Errorf("edge %v: its ends are not neighbours", e)
		}
	}
}

func TestGeometryNames(t *testing.T) {
	tests := []struct {
		name      string
		got, want any
	}{
		{"hex", referee.Hex{Q: 1, R: -2}.String(), "(1,-2)"},
		{"north vertex", geoN(0, -2).String(), "N(0,-2)"},
		{"south vertex", geoS(0, -3).String(), "S(0,-3)"},
		{"edge", geoEdge(t, geoS(0, -3), geoN(0, -2)).String(), "N(0,-2)-S(0,-3)"},
		// The identities of the issue: the other four corners of (q,r).
		{"top-left", referee.Hex{Q: 1, R: 0}.Vertices()[5], geoS(1, -1)},
		{"top-right", referee.Hex{Q: 1, R: 0}.Vertices()[1], geoS(2, -1)},
		{"bottom-left", referee.Hex{Q: 1, R: 0}.Vertices()[4], geoN(0, 1)},
		{"bottom-right", referee.Hex{Q: 1, R: 0}.Vertices()[2], geoN(1, 1)},
		{"vertex hexes", geoN(0, 0).Hexes(), []referee.Hex{{Q: 0, R: -1}, {Q: 1, R: -1}, {Q: 0, R: 0}}},
		{"coastal vertex hexes", geoS(0, -3).Hexes(), []referee.Hex{{Q: 0, R: -2}}},
		{"coastal vertex neighbours", geoS(0, -3).Neighbors(), []referee.Vertex{geoN(0, -2), geoN(-1, -1)}},
		{"sea vertex", geoN(0, -3).Land(), false},
		{"sea hex", referee.Hex{Q: 3, R: 0}.Land(), false},
		{"sea hex neighbours", referee.Hex{Q: 5, R: 5}.Neighbors(), []referee.Hex(nil)},
		{"centre neighbours", referee.Hex{}.Neighbors(), []referee.Hex{{Q: 0, R: -1}, {Q: 1, R: -1}, {Q: -1, R: 0}, {Q: 1, R: 0}, {Q: -1, R: 1}, {Q: 0, R: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.name, diff)
			}
		})
	}

	// Every point has one name: no two names share a position.
	vertices := referee.LandVertices()
	for i, v := range vertices {
		for _, w := range vertices[i+1:] {
			vx, vy := v.Point()
			wx, wy := w.Point()
			if geoNear(vx, vy, wx, wy) {
				t.Errorf("%v and %v are at the same point (%g, %g)", v, w, vx, vy)
			}
		}
	}
}

func TestGeometryNewEdgeErrors(t *testing.T) {
	tests := []struct{ a, b referee.Vertex }{
		{geoN(0, 0), geoN(0, 0)},
		{geoN(0, 0), geoS(0, 0)},
		{geoN(0, 0), geoN(1, 0)},
		{geoS(0, 0), geoS(0, 1)},
	}
	for _, tt := range tests {
		if e, err := referee.NewEdge(tt.a, tt.b); !errors.Is(err, referee.ErrInvalid) {
			t.Errorf("NewEdge(%v, %v) = %v, %v, want an error wrapping ErrInvalid", tt.a, tt.b, e, err)
		}
	}
	a, b := geoN(0, 0), geoS(1, -1)
	e1, err1 := referee.NewEdge(a, b)
	e2, err2 := referee.NewEdge(b, a)
	if err1 != nil || err2 != nil || e1 != e2 {
		t.Errorf("NewEdge(%v, %v) = %v, %v and NewEdge(%v, %v) = %v, %v, want the same edge", a, b, e1, err1, b, a, e2, err2)
	}
}

func TestGeometryRotation(t *testing.T) {
	// §3 イ: clockwise as seen from above, north up; r grows southward.
	tests := []struct {
		h    referee.Hex
		k    int
		want referee.Hex
	}{
		{referee.Hex{Q: 1, R: -1}, 1, referee.Hex{Q: 1, R: 0}}, // north-east to east
		{referee.Hex{Q: 1, R: 0}, 1, referee.Hex{Q: 0, R: 1}},  // east to south-east
		{referee.Hex{Q: 0, R: 1}, 1, referee.Hex{Q: -1, R: 1}}, // south-east to south-west
		{referee.Hex{Q: -1, R: 1}, 1, referee.Hex{Q: -1, R: 0}},
		{referee.Hex{Q: -1, R: 0}, 1, referee.Hex{Q: 0, R: -1}},
		{referee.Hex{Q: 0, R: -1}, 1, referee.Hex{Q: 1, R: -1}},
		{referee.Hex{Q: 1, R: -1}, 2, referee.Hex{Q: 0, R: 1}},
		{referee.Hex{Q: 1, R: -1}, 6, referee.Hex{Q: 1, R: -1}},
		{referee.Hex{Q: 1, R: -1}, -1, referee.Hex{Q: 0, R: -1}},
		{referee.Hex{Q: 0, R: -2}, 1, referee.Hex{Q: 2, R: -2}},
		{referee.Hex{Q: 2, R: -2}, 1, referee.Hex{Q: 2, R: 0}},
		{referee.Hex{}, 3, referee.Hex{}},
	}
	for _, tt := range tests {
		if got := tt.h.Rotate(tt.k); got != tt.want {
			t.Errorf("%v.Rotate(%d) = %v, want %v", tt.h, tt.k, got, tt.want)
		}
	}
	if got, want := geoN(0, 0).Rotate(1), geoS(1, -1); got != want {
		t.Errorf("%v.Rotate(1) = %v, want %v (the upper-right corner)", geoN(0, 0), got, want)
	}

	// Turning is the rigid clockwise turn of the drawn board.
	for k := -1; k <= 7; k++ {
		for _, h := range referee.LandHexes() {
			x, y := h.Center()
			wx, wy := geoTurn(x, y, k)
			r := h.Rotate(k)
			if gx, gy := r.Center(); !geoNear(gx, gy, wx, wy) || !r.Land() {
				t.Errorf("%v.Rotate(%d) = %v at (%g, %g), want a land hex at (%g, %g)", h, k, r, gx, gy, wx, wy)
			}
		}
		for _, v := range referee.LandVertices() {
			x, y := v.Point()
			wx, wy := geoTurn(x, y, k)
			r := v.Rotate(k)
			if gx, gy := r.Point(); !geoNear(gx, gy, wx, wy) || !r.Land() {
				t.Errorf("%v.Rotate(%d) = %v at (%g, %g), want a land vertex at (%g, %g)", v, k, r, gx, gy, wx, wy)
			}
		}
		for _, e := range referee.LandEdges() {
			r := e.Rotate(k)
			if !r.Land() || len(r.Hexes()) != len(e.Hexes()) {
				t.Errorf("%v.Rotate(%d) = %v, want a land edge with %d land hexes", e, k, r, len(e.Hexes()))
			}
		}
	}
}

func TestGeometryCoastalEdges(t *testing.T) {
	coast := referee.CoastalEdges()
	if want := geoEdge(t, geoN(0, -2), geoS(0, -3)); coast[0] != want {
		t.Errorf("CoastalEdges()[0] = %v, want %v", coast[0], want)
	}
	if n := len(slices.Compact(slices.SortedFunc(slices.Values(coast), referee.Edge.Compare))); n != 30 {
		t.Errorf("CoastalEdges() has %d distinct edges, want 30", n)
	}
	turned := 0.0
	for i, e := range coast {
		if len(e.Hexes()) != 1 {
			t.Errorf("CoastalEdges()[%d] = %v with land hexes %v, want one", i, e, e.Hexes())
		}
		next := coast[(i+1)%len(coast)]
		if e.A != next.A && e.A != next.B && e.B != next.A && e.B != next.B {
			t.Errorf("CoastalEdges()[%d] = %v and [%d] = %v share no vertex", i, e, (i+1)%len(coast), next)
		}
		// Clockwise on the drawn board: the angle of the midpoints grows.
		step := geoAngle(next) - geoAngle(e)
		if step < 0 {
			step += 2 * math.Pi
		}
		if step <= 0 || step >= math.Pi/2 {
			t.Errorf("from %v to %v the coast turns %g radians, want a small clockwise step", e, next, step)
		}
		turned += step
	}
	if math.Abs(turned-2*math.Pi) > 1e-9 {
		t.Errorf("the coast turns %g radians in all, want one clockwise turn", turned)
	}
}

func geoAngle(e referee.Edge) float64 {
	ax, ay := e.A.Point()
	bx, by := e.B.Point()
	return math.Atan2((ay+by)/2, (ax+bx)/2)
}

// TestHarborSites checks the sites against docs/rules.md §3, which lists the
// nine sites of the base game's frame by their vertices, clockwise from the
// north-west one; the list is copied here as written there, not computed.
func TestHarborSites(t *testing.T) {
	rulings := []string{
		"N(0,-2)–S(0,-3)", "N(1,-2)–S(2,-3)", "N(2,-1)–S(3,-2)", "N(2,1)–S(3,-1)", "N(1,2)–S(1,1)",
		"N(-1,3)–S(-1,2)", "N(-3,3)–S(-2,2)", "N(-3,2)–S(-2,0)", "N(-2,0)–S(-1,-2)",
	}
	sites := referee.HarborSites()
	if len(sites) != len(rulings) {
		t.Fatalf("HarborSites() has %d sites, want %d", len(sites), len(rulings))
	}
	for i, s := range sites {
		a, b, _ := strings.Cut(rulings[i], "–")
		want := geoEdge(t, geoVertex(t, a), geoVertex(t, b))
		if s != want {
			t.Errorf("HarborSites()[%d] = %v, want %s (docs/rules.md §3)", i, s, rulings[i])
		}
		if len(s.Hexes()) != 1 {
			t.Errorf("HarborSites()[%d] = %v touches land hexes %v, want a coastal edge", i, s, s.Hexes())
		}
	}
	// Counted along the coast the sites are 3, 4, 3, 3, 4, 3, 3, 4, 3 edges apart (docs/rules.md §3).
	coast := referee.CoastalEdges()
	var gaps []int
	for i, s := range sites {
		next := sites[(i+1)%len(sites)]
		gaps = append(gaps, (slices.Index(coast, next)-slices.Index(coast, s)+len(coast))%len(coast))
	}
	if diff := cmp.Diff([]int{3, 4, 3, 3, 4, 3, 3, 4, 3}, gaps); diff != "" {
		t.Errorf("coastal edges between the harbour sites (-want +got):\n%s", diff)
	}
	ends := map[referee.Vertex]bool{}
	for _, s := range sites {
		ends[s.A], ends[s.B] = true, true
	}
	if len(ends) != 18 {
		t.Errorf("the harbour sites have %d distinct vertices, want 18", len(ends))
	}

	// The base game's frame: a harbour on every other frame hex, starting
	// at the north-west corner, so the six frame pieces of three frame hexes
	// hold 2, 1, 2, 1, 2, 1 harbours.
	frame := geoFrame()
	var got []int
	perPiece := make([]int, 6)
	for _, s := range sites {
		sea := geoSeaHex(t, s)
		i := slices.Index(frame, sea)
		got = append(got, i)
		if i >= 0 {
			perPiece[i/3]++
		}
	}
	if diff := cmp.Diff([]int{0, 2, 4, 6, 8, 10, 12, 14, 16}, got); diff != "" {
		t.Errorf("harbour sites on frame hexes, clockwise from (0,-3) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{2, 1, 2, 1, 2, 1}, perPiece); diff != "" {
		t.Errorf("harbours per frame piece (-want +got):\n%s", diff)
	}
}

// geoFrame returns the 18 sea hexes around the island clockwise from the
// north-west corner (0,-3).
func geoFrame() []referee.Hex {
	var frame []referee.Hex
	h := referee.Hex{Q: 0, R: -3}
	// Walk each side of the ring: east, south-east, south-west, west, north-west, north-east.
	for _, d := range []referee.Hex{{Q: 1, R: 0}, {Q: 0, R: 1}, {Q: -1, R: 1}, {Q: -1, R: 0}, {Q: 0, R: -1}, {Q: 1, R: -1}} {
		for range 3 {
			frame = append(frame, h)
			h = referee.Hex{Q: h.Q + d.Q, R: h.R + d.R}
		}
	}
	return frame
}

// geoSeaHex returns the sea hex on the far side of a coastal edge.
func geoSeaHex(t *testing.T, e referee.Edge) referee.Hex {
	t.Helper()
	for _, v := range []referee.Vertex{e.A, e.B} {
		for _, c := range []referee.Hex{v.Hex, {Q: v.Hex.Q, R: v.Hex.R - 1}, {Q: v.Hex.Q + 1, R: v.Hex.R - 1}, {Q: v.Hex.Q, R: v.Hex.R + 1}, {Q: v.Hex.Q - 1, R: v.Hex.R + 1}} {
			es := c.Edges()
			if !c.Land() && slices.Contains(es[:], e) {
				return c
			}
		}
	}
	t.Fatalf("no sea hex has edge %v", e)
	return referee.Hex{}
}

// geoVertex reads a vertex name as docs/rules.md writes it: "N(q,r)" or "S(q,r)".
func geoVertex(t *testing.T, name string) referee.Vertex {
	t.Helper()
	var q, r int
	if _, err := fmt.Sscanf(name[1:], "(%d,%d)", &q, &r); err != nil || (name[0] != 'N' && name[0] != 'S') {
		t.Fatalf("vertex %q: want N(q,r) or S(q,r)", name)
	}
	v := referee.Vertex{Hex: referee.Hex{Q: q, R: r}, South: name[0] == 'S'}
	if v.String() != name {
		t.Fatalf("vertex %q reads back as %q", name, v)
	}
	return v
}

func geoAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
