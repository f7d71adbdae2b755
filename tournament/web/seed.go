package web

import (
	"crypto/rand"
	"encoding/binary"
)

// seedOrRandom returns *seed, or a fresh random seed when none was given;
// either way the seed is returned to the caller so the result can be replayed.
func seedOrRandom(seed *uint64) uint64 {
	if seed != nil {
		return *seed
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	// Keep seeds within JavaScript's safe integer range so clients round-trip them.
	return binary.LittleEndian.Uint64(b[:]) >> 11
}
