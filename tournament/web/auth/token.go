package auth

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// tokenKey is the gin context key holding the request's tokenCheck, so
// that a request's token is checked, and counted, once.
const tokenKey = "api_token"

// tokenCheck is what the request's Authorization header says.
type tokenCheck int

const (
	tokenNone    tokenCheck = iota // no Authorization header
	tokenValid                     // the API token
	tokenSession                   // a session token these servers sealed (it may have ended since)
	tokenWrong                     // anything else: counted as a guess
	tokenLimited                   // not checked: the address has guessed too often
)

// sessionTokenKey is the gin context key of the session a session token
// sealed.
const sessionTokenKey = "session_token"

// StaffAPI is the guard of a route of the JSON API that needs the role
// need: it lets through an account's session (its cookie, or its session
// token as a bearer token) or the API token whose role allows need,
// answers 403 role-forbidden naming need to one whose role does not, and
// 401 to anyone else. A client that sent too many wrong tokens or
// passwords lately is answered 429 without its token being checked.
func (a *Auth) StaffAPI(need tournament.Role) gin.HandlerFunc {
	return func(c *gin.Context) {
		if a.letStaff(c, need, a.failJSON) {
			return
		}
		a.failJSON(c, &unauthorized{})
	}
}

// letStaff lets the request through when an account (or the API token)
// whose role allows need makes it, naming it for the handler (Judge), and
// reports whether it answered the request: let through, or refused with
// fail.
func (a *Auth) letStaff(c *gin.Context, need tournament.Role, fail func(*gin.Context, error)) bool {
	id := a.identify(c)
	switch {
	case id.err != nil:
		fail(c, id.err)
		return true
	case id.token == tokenLimited:
		c.Header("Retry-After", strconv.Itoa(a.limiter.retryAfter()))
		fail(c, problem.ErrTooManyGuesses)
		return true
	case id.actor == nil || id.actor.Device != nil:
		return false
	case a.noService:
		fail(c, problem.ErrNoService)
		return true
	case !id.actor.Role.Allows(need):
		fail(c, &problem.RoleForbidden{Need: string(need), Role: string(id.actor.Role)})
		return true
	}
	c.Set(judgeKey, id.actor.Name)
	c.Set(roleKey, id.actor.Role)
	c.Next()
	return true
}

// APIActor is the judge a request with the API token acts as, in the
// audit log.
const APIActor = tournament.APIActor

// unauthorized is a request of the JSON API without a judge: 401.
type unauthorized struct{}

func (*unauthorized) Error() string { return "no judge session or API token" }

// failJSON answers err as the JSON API does.
func (a *Auth) failJSON(c *gin.Context, err error) {
	if errors.As(err, new(*unauthorized)) {
		c.AbortWithStatusJSON(http.StatusUnauthorized, gin.H{"error": a.i18n.Text(a.i18n.Lang(c), "error.unauthorized", nil)})
		return
	}
	problem.JSON(c, a.i18n.In(a.i18n.Lang(c)), a.log, err)
}

// Judge is the account making the request as the audit log names it, let
// through by StaffAPI or StaffPages (tournament.APIActor for the API
// token, a table device's Actor for a device), or "" on a route open to
// anyone.
func Judge(c *gin.Context) string { return c.GetString(judgeKey) }

// roleKey is the gin context key holding the role of the account making
// the request.
const roleKey = "role"

// Role is the role of the account making the request, let through by
// StaffAPI or StaffPages; "" for a device or anyone else.
func Role(c *gin.Context) tournament.Role {
	r, _ := c.Get(roleKey)
	role, _ := r.(tournament.Role)
	return role
}

// checkToken checks the request's "Authorization: Bearer <token>" against
// the configured API token in constant time, once per request; an empty
// configured token accepts nothing. A wrong token takes one of the
// address's login attempts (loginLimiter), as a wrong password does, and
// an address with none left is not checked at all.
func (a *Auth) checkToken(c *gin.Context) tokenCheck {
	if v, ok := c.Get(tokenKey); ok {
		return v.(tokenCheck)
	}
	check := tokenNone
	if h := c.GetHeader("Authorization"); h != "" {
		check = a.guessToken(c, h)
	}
	c.Set(tokenKey, check)
	return check
}

func (a *Auth) guessToken(c *gin.Context, header string) tokenCheck {
	addr, now := ClientAddr(c), time.Now()
	if a.limiter.blocked(addr, now) {
		return tokenLimited
	}
	// Unlike a password, a token is compared at once: the failure is
	// counted right after, and scripts using the right token at once from
	// one address never wait for each other.
	token, bearer := strings.CutPrefix(header, "Bearer ")
	if bearer && a.token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(a.token)) == 1 {
		return tokenValid
	}
	// A session token opens only under the servers' keys: it is no guess,
	// even once it has ended.
	if s, ok := a.openToken(token); bearer && ok {
		c.Set(sessionTokenKey, s)
		return tokenSession
	}
	a.limiter.allow(addr, now)
	a.log.Info("api token refused", "id", problem.RequestID(c), "addr", addr)
	return tokenWrong
}

// tokenSession is the session the request's session token sealed.
func (a *Auth) tokenSession(c *gin.Context) session {
	s, _ := c.Get(sessionTokenKey)
	out, _ := s.(session)
	return out
}

// Who is who views the request's page, as StaffAPI or StaffPages let them
// through, for the page's header (render.Engine's).
func Who(c *gin.Context) render.Who {
	return render.Who{Name: Judge(c), Role: string(Role(c)), Device: Device(c) != nil}
}
