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
// reports), as the login limiter does judges' passwords: per address, so
// one phone cannot try many players, and per player, so many phones
// cannot try one player's code. Only wrong codes count. The limits are in
// docs/security.md.
type Codes struct {
	addrs, players *loginLimiter
}

// NewCodes makes the limits of docs/security.md: per address 10 wrong
// codes at once, then one more every 30 seconds; per player 5, then one
// every 2 minutes.
func NewCodes() *Codes {
	return &Codes{addrs: newLoginLimiter(30*time.Second, 10), players: newLoginLimiter(2*time.Minute, 5)}
}

// Check runs check, which checks a player's code, if both the client's
// address and the player have a guess left; a check that fails with a
// wrong code (tournament.ErrWrongCode) keeps the guess it took, any other outcome gives
// it back. Refused before checking, it answers problem.ErrTooManyCodes
// and sets Retry-After.
func (l *Codes) Check(c *gin.Context, tournamentID, player int64, check func() error) error {
	now := time.Now()
	key := strconv.FormatInt(tournamentID, 10) + "/" + strconv.FormatInt(player, 10)
	okAddr, giveAddr := l.addrs.attempt(ClientAddr(c), now)
	if !okAddr {
		c.Header("Retry-After", strconv.Itoa(l.addrs.retryAfter()))
		return problem.ErrTooManyCodes
	}
	okPlayer, givePlayer := l.players.attempt(key, now)
	if !okPlayer {
		giveAddr()
		c.Header("Retry-After", strconv.Itoa(l.players.retryAfter()))
		return problem.ErrTooManyCodes
	}
	err := check()
	if !errors.Is(err, tournament.ErrWrongCode) {
		giveAddr()
		givePlayer()
	}
	return err
}
