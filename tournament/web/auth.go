package web

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
)

// judgeKey is the gin context key holding the name of the judge making the request.
const judgeKey = "judge"

// requireJudge lets a request through with the API token as a bearer token
// or with a judge's session cookie. Anything else is refused: the JSON API
// answers 401, a console page sends the browser to the login page (303).
func (s *Server) requireJudge(c *gin.Context) {
	// A request that presents a token stands or falls by it: a wrong token
	// never falls back to the browser's session cookie.
	name, ok := s.bearerJudge(c)
	if !ok && c.GetHeader("Authorization") == "" {
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
		next := "/judge"
		if c.Request.Method == http.MethodGet {
			next = c.Request.URL.RequestURI()
		}
		c.Redirect(http.StatusSeeOther, "/judge/login?next="+url.QueryEscape(next))
		c.Abort()
		return
	}
	c.AbortWithStatusJSON(http.StatusUnauthorized, gin.H{"error": s.i18n.text(s.i18n.lang(c), "error.unauthorized", nil)})
}

// bearerJudge checks "Authorization: Bearer <token>" against the configured
// API token in constant time; an empty configured token accepts nothing.
func (s *Server) bearerJudge(c *gin.Context) (string, bool) {
	token, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
	if !ok || s.deps.APIToken == "" {
		return "", false
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.deps.APIToken)) != 1 {
		return "", false
	}
	return "api", true
}
