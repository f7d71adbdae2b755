package api

import "github.com/catanjudge/catanjudge/tournament"

// seedOr returns *seed, or a new seed when none was given
// (tournament.NewSeed); either way the seed is returned to the caller so
// that the result can be replayed.
func seedOr(seed *uint64) uint64 {
	if seed != nil {
		return *seed
	}
	return tournament.NewSeed()
}
