package referee

import (
	"fmt"
	"math/rand/v2"
)

// CapsuleRoll is one roll of the capsule dice: a white and a blue die (§3 イ, オ).
type CapsuleRoll struct {
	White, Blue int
}

// Sum is the total of both dice, which decides play order (§3 オ).
func (c CapsuleRoll) Sum() int { return c.White + c.Blue }

// Validate reports a die outside 1..6.
func (c CapsuleRoll) Validate() error {
	if die, v, ok := c.badDie(); ok {
		return violation("die-out-of-range", fmt.Sprintf("%s die %d is not between 1 and 6", die, v),
			map[string]any{"Die": die, "Value": v})
	}
	return nil
}

// badDie returns the first die outside 1..6, "white" or "blue", and its value.
func (c CapsuleRoll) badDie() (die string, value int, ok bool) {
	switch {
	case c.White < 1 || c.White > 6:
		return "white", c.White, true
	case c.Blue < 1 || c.Blue > 6:
		return "blue", c.Blue, true
	}
	return "", 0, false
}

// RollCapsule rolls the capsule dice from r.
func RollCapsule(r *rand.Rand) CapsuleRoll {
	return CapsuleRoll{White: 1 + r.IntN(6), Blue: 1 + r.IntN(6)}
}

// RollDie rolls one die from r: the national rules' die that chooses the
// corner a spiral board starts at.
func RollDie(r *rand.Rand) int { return 1 + r.IntN(6) }

// NewRand returns the random source every seeded rule uses, so that a
// recorded seed replays exactly.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
