package game

import "github.com/catanjudge/catanjudge/referee"

// What only the tests read of the engine: the ids of the land's corners,
// edges and hexes, a position rebuilt step by step, an empty edge set.

// VertexID returns the id of the land vertex v, the index the moves use.
func VertexID(v referee.Vertex) (int, bool) {
	i, ok := topo.vertexID[v]
	return i, ok
}

// EdgeID returns the id of the land edge e.
func EdgeID(e referee.Edge) (int, bool) {
	i, ok := topo.edgeID[e]
	return i, ok
}

// HexID returns the id of the land hex h.
func HexID(h referee.Hex) (int, bool) {
	i, ok := topo.hexID[h]
	return i, ok
}

// Rebuild is rebuild without the position itself: what it says after each
// step, and the notes.
func Rebuild(rs referee.Ruleset, players []string, steps []Step) ([]Standing, []*Error, error) {
	_, after, notes, err := rebuild(rs, players, steps)
	return after, notes, err
}

func (s edgeSet) empty() bool { return s.lo|s.hi == 0 }
