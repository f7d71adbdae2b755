package game

import (
	"math/bits"

	"github.com/catanjudge/catanjudge/referee"
)

// The land of §3 ア: 19 hexes, their 54 corners and 72 sides.
const (
	numHexes    = 19
	numVertices = 54
	numEdges    = 72
)

// edgeSet is a set of edges, bit i for edge i.
type edgeSet struct{ lo, hi uint64 }

func (s edgeSet) has(e int) bool {
	if e < 64 {
		return s.lo&(1<<e) != 0
	}
	return s.hi&(1<<(e-64)) != 0
}

func (s *edgeSet) add(e int) {
	if e < 64 {
		s.lo |= 1 << e
	} else {
		s.hi |= 1 << (e - 64)
	}
}

func (s *edgeSet) remove(e int) {
	if e < 64 {
		s.lo &^= 1 << e
	} else {
		s.hi &^= 1 << (e - 64)
	}
}

func (s edgeSet) or(t edgeSet) edgeSet     { return edgeSet{s.lo | t.lo, s.hi | t.hi} }
func (s edgeSet) andNot(t edgeSet) edgeSet { return edgeSet{s.lo &^ t.lo, s.hi &^ t.hi} }
func (s edgeSet) count() int               { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

// nth returns the n-th edge of s (0-based, lowest first); n < s.count().
func (s edgeSet) nth(n int) int {
	if c := bits.OnesCount64(s.lo); n >= c {
		return 64 + nthBit(s.hi, n-c)
	}
	return nthBit(s.lo, n)
}

// nthBit returns the index of the n-th set bit of x, lowest first.
func nthBit(x uint64, n int) int {
	for ; n > 0; n-- {
		x &= x - 1
	}
	return bits.TrailingZeros64(x)
}

// topology holds the board's adjacency as small arrays, built once from the
// referee's geometry so that no table is typed by hand. Vertex, edge and hex
// ids are the places in referee.LandVertices, LandEdges and LandHexes.
type topology struct {
	vertices [numVertices]referee.Vertex
	edges    [numEdges]referee.Edge
	hexes    [numHexes]referee.Hex
	// The maps only read names; no rule ranges over them.
	vertexID map[referee.Vertex]int
	edgeID   map[referee.Edge]int
	hexID    map[referee.Hex]int

	vertexHexes   [numVertices][3]int8 // land hexes at the corner, -1 after the last
	vertexNear    [numVertices]uint64  // the corners one edge away (§4 ア distance rule)
	vertexEdges   [numVertices][3]int8 // the sides ending at the corner, -1 after the last
	vertexEdgeSet [numVertices]edgeSet
	edgeEnds      [numEdges][2]int8
	edgeEndSet    [numEdges]uint64
	hexVertices   [numHexes][6]int8
	hexVertexSet  [numHexes]uint64
}

var topo = newTopology()

func newTopology() *topology {
	t := &topology{vertexID: map[referee.Vertex]int{}, edgeID: map[referee.Edge]int{}, hexID: map[referee.Hex]int{}}
	copy(t.vertices[:], referee.LandVertices())
	copy(t.edges[:], referee.LandEdges())
	copy(t.hexes[:], referee.LandHexes())
	for i, v := range t.vertices {
		t.vertexID[v] = i
	}
	for i, e := range t.edges {
		t.edgeID[e] = i
	}
	for i, h := range t.hexes {
		t.hexID[h] = i
	}
	for i, v := range t.vertices {
		t.vertexHexes[i] = [3]int8{-1, -1, -1}
		for k, h := range v.Hexes() {
			t.vertexHexes[i][k] = int8(t.hexID[h])
		}
		for _, w := range v.Neighbors() {
			t.vertexNear[i] |= 1 << t.vertexID[w]
		}
		t.vertexEdges[i] = [3]int8{-1, -1, -1}
		for k, e := range v.Edges() {
			t.vertexEdges[i][k] = int8(t.edgeID[e])
			t.vertexEdgeSet[i].add(t.edgeID[e])
		}
	}
	for i, e := range t.edges {
		a, b := t.vertexID[e.A], t.vertexID[e.B]
		t.edgeEnds[i] = [2]int8{int8(a), int8(b)}
		t.edgeEndSet[i] = 1<<a | 1<<b
	}
	for i, h := range t.hexes {
		for k, v := range h.Vertices() {
			t.hexVertices[i][k] = int8(t.vertexID[v])
			t.hexVertexSet[i] |= 1 << t.vertexID[v]
		}
	}
	return t
}
