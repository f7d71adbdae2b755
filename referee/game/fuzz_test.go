package game

import (
	"math/rand/v2"
	"testing"
)

// FuzzMoves plays a game from a seed with moves read from data: each byte
// asks for the random player's legal move or for an arbitrary move whose
// fields are the next bytes, in range or not. Whatever comes, Apply never
// panics, a refused or voided move changes nothing, and the invariants hold
// after every move.
func FuzzMoves(f *testing.F) {
	f.Add(uint64(1), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint64(2), []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint64(3), []byte{1, 0, 255, 255, 60, 80, 80, 30, 9, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add(uint64(4), []byte("\x00\x00\x00\x00\x00\x00\x00\x00\x01\x0a\xff\x01\x05\x05\x05\x05\x05\x05\x05\x05\x05\x05"))
	rs := preset()
	f.Fuzz(func(t *testing.T, seed uint64, data []byte) {
		s := randomGame(t, rs, 3+int(seed%2), seed)
		r := NewRandom(rand.New(rand.NewPCG(seed, 7)))
		for len(data) > 0 && s.phase != Over {
			var m Move
			if data[0]%4 != 1 {
				m = r.Next(s)
				data = data[1:]
			} else {
				m, data = arbitraryMove(data[1:])
			}
			before := *s
			err := s.Apply(m)
			if err != nil && *s != before {
				t.Fatalf("%+v: %v, but the game changed", m, err)
			}
			if err := checkInvariants(s); err != nil {
				t.Fatalf("after %+v: %v", m, err)
			}
		}
	})
}

// arbitraryMove reads a move's fields from data, whatever their values.
func arbitraryMove(data []byte) (Move, []byte) {
	var buf [22]byte
	n := copy(buf[:], data)
	b := func(i int) int8 { return int8(buf[i]) }
	m := Move{
		Kind:     Kind(buf[0] % byte(numKinds+1)),
		Player:   b(1) % 6,
		Other:    b(2) % 6,
		Vertex:   b(3),
		Edges:    [2]int8{b(4), b(5)},
		Hex:      b(6) % 24,
		Resource: Resource(b(7) % 7),
		Dice:     [2]int8{b(8) % 8, b(9) % 8},
		Card:     Card(b(10) % 7),
	}
	for r := range numResources {
		m.Give[r] = b(11+r) % 24
		m.Get[r] = b(16+r) % 24
	}
	return m, data[n:]
}
