package web

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// judgeKey is the gin context key holding the name of the judge making the request.
const judgeKey = "judge"

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

// errTooManyGuesses is a credential not checked because its address got
// too many wrong ones lately.
var errTooManyGuesses = errors.New("too many wrong credentials from this address")

// requireJudge lets a request through with the API token as a bearer token
// or with a judge's session cookie. Anything else is refused: the JSON API
// answers 401, a console page sends the browser to the login page (303).
// A client that sent too many wrong tokens or passwords lately is answered
// 429 without its token being checked.
func (s *Server) requireJudge(c *gin.Context) {
	// A request that presents a token stands or falls by it: a wrong token
	// never falls back to the browser's session cookie.
	var (
		name string
		ok   bool
	)
	switch s.checkToken(c) {
	case tokenValid:
		name, ok = "api", true
	case tokenLimited:
		c.Header("Retry-After", strconv.Itoa(s.con.limiter.retryAfter()))
		s.fail(c, errTooManyGuesses)
		return
	case tokenNone:
		name, ok = s.sessionJudge(c)
	}
	if ok {
		if s.deps.Service == nil {
			s.fail(c, errNoService)
			return
		}
		c.Set(judgeKey, name)
		c.Next()
		return
	}
	if !strings.HasPrefix(c.Request.URL.Path, "/api/") {
		next := route.Tournaments
		if c.Request.Method == http.MethodGet {
			next = c.Request.URL.RequestURI()
		}
		c.Redirect(http.StatusSeeOther, route.Login+"?next="+url.QueryEscape(next))
		c.Abort()
		return
	}
	c.AbortWithStatusJSON(http.StatusUnauthorized, gin.H{"error": s.i18n.Text(s.i18n.Lang(c), "error.unauthorized", nil)})
}

// checkToken checks the request's "Authorization: Bearer <token>" against
// the configured API token in constant time, once per request; an empty
// configured token accepts nothing. A wrong token takes one of the
// address's login attempts (loginLimiter), as a wrong password does, and
// an address with none left is not checked at all.
func (s *Server) checkToken(c *gin.Context) tokenCheck {
	if v, ok := c.Get(tokenKey); ok {
		return v.(tokenCheck)
	}
	check := tokenNone
	if h := c.GetHeader("Authorization"); h != "" {
		check = s.guessToken(c, h)
	}
	c.Set(tokenKey, check)
	return check
}

func (s *Server) guessToken(c *gin.Context, header string) tokenCheck {
	addr, now := clientAddr(c), time.Now()
	if s.con.limiter.blocked(addr, now) {
		return tokenLimited
	}
	// Unlike a password, a token is compared at once: the failure is
	// counted right after, and scripts using the right token at once from
	// one address never wait for each other.
	token, bearer := strings.CutPrefix(header, "Bearer ")
	if bearer && s.deps.APIToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.deps.APIToken)) == 1 {
		return tokenValid
	}
	s.con.limiter.allow(addr, now)
	s.log.Info("api token refused", "id", c.GetString(requestIDKey), "addr", addr)
	return tokenWrong
}
