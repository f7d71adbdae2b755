package auth

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// tokenKey is the gin context key holding the request's tokenCheck, so
// that a request's token is checked, and counted, once.
const tokenKey = "api_token"

// tokenCheck is what the request's Authorization header says.
type tokenCheck int

const (
	tokenNone    tokenCheck = iota // no Authorization header
	tokenValid                     // the API token
	tokenWrong                     // anything else: counted as a guess
	tokenLimited                   // not checked: the address has guessed too often
)

// JudgeAPI lets a request of the JSON API through with the API token as a
// bearer token or with a judge's session cookie, and answers anything else
// 401. A client that sent too many wrong tokens or passwords lately is
// answered 429 without its token being checked.
func (a *Auth) JudgeAPI(c *gin.Context) {
	if a.letJudge(c, a.failJSON) {
		return
	}
	a.failJSON(c, &unauthorized{})
}

// JudgePages lets a request for a judge's page through as JudgeAPI does,
// and sends anyone else to the login page (303), to come back to the page
// asked for.
func (a *Auth) JudgePages(c *gin.Context) {
	if a.letJudge(c, a.pages.Fail) {
		return
	}
	next := route.Tournaments
	if c.Request.Method == http.MethodGet {
		next = c.Request.URL.RequestURI()
	}
	c.Redirect(http.StatusSeeOther, route.Login+"?next="+url.QueryEscape(next))
	c.Abort()
}

// letJudge lets the request through when a judge makes it, naming the
// judge for the handler (Judge), and reports whether it answered the
// request: let through, or refused with fail. A request that presents a
// token stands or falls by it: a wrong token never falls back to the
// browser's session cookie.
func (a *Auth) letJudge(c *gin.Context, fail func(*gin.Context, error)) bool {
	var (
		name string
		ok   bool
	)
	switch a.checkToken(c) {
	case tokenValid:
		name, ok = APIActor, true
	case tokenLimited:
		c.Header("Retry-After", strconv.Itoa(a.limiter.retryAfter()))
		fail(c, problem.ErrTooManyGuesses)
		return true
	case tokenNone:
		name, ok = a.sessionJudge(c)
	}
	switch {
	case !ok:
		return false
	case a.noService:
		fail(c, problem.ErrNoService)
		return true
	}
	c.Set(judgeKey, name)
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

// Judge is the judge making the request, named by JudgeAPI or JudgePages
// ("api" for the API token), or "" on a route open to anyone.
func Judge(c *gin.Context) string { return c.GetString(judgeKey) }

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
	a.limiter.allow(addr, now)
	a.log.Info("api token refused", "id", problem.RequestID(c), "addr", addr)
	return tokenWrong
}
