package auth

import (
	"errors"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// Codes limits the guesses at players' codes (self check-in, table
// reports), as the login limiter does judges' passwords. Only wrong codes
// count, and only against the address that sent them: per address, so one
// phone cannot try many players, and per player and address, so one phone
// trying one player's code is stopped sooner. Nothing counts per player
// alone: wrong codes sent from other addresses, however many, never lock
// the player's own phone out (issue 24: eight addresses locked a whole
// tournament's players in 40 requests). The limits are in
// docs/security.md.
type Codes struct {
	addrs, pairs *loginLimiter
}

// NewCodes makes the limits of docs/security.md: per address 10 wrong
// codes at once, then one more every 30 seconds; per player and address
// 5, then one every 2 minutes.
func NewCodes() *Codes {
	return &Codes{addrs: newLoginLimiter(30*time.Second, 10), pairs: newLoginLimiter(2*time.Minute, 5)}
}

// Check runs check, which checks a player's code, if the client's address
// has a guess left, at all and at this player; a check that fails with a
// wrong code (tournament.ErrWrongCode) keeps the guesses it took, any
// other outcome gives them back. Refused before checking, it answers
// problem.ErrTooManyCodes and sets Retry-After.
func (l *Codes) Check(c *gin.Context, tournamentID, player int64, check func() error) error {
	now := time.Now()
	addr := ClientAddr(c)
	pair := addr + " " + strconv.FormatInt(tournamentID, 10) + "/" + strconv.FormatInt(player, 10)
	okAddr, giveAddr := l.addrs.attempt(addr, now)
	if !okAddr {
		c.Header("Retry-After", strconv.Itoa(l.addrs.retryAfter()))
		return problem.ErrTooManyCodes
	}
	okPair, givePair := l.pairs.attempt(pair, now)
	if !okPair {
		giveAddr()
		c.Header("Retry-After", strconv.Itoa(l.pairs.retryAfter()))
		return problem.ErrTooManyCodes
	}
	err := check()
	if !errors.Is(err, tournament.ErrWrongCode) {
		giveAddr()
		givePair()
	}
	return err
}
