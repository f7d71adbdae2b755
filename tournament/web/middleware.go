package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/problem"
)

// The site's own middleware: every request gets an ID, a log line,
// recovery from a panic and the security headers; each route bounds its
// body before anything reads it, and the forms are read, and refused when
// unreadable, after the route's guards (routes.go).

// requestID names the request in every log line and in its X-Request-ID.
func (s *site) requestID(c *gin.Context) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	problem.SetRequestID(c, id)
	c.Header("X-Request-ID", id)
	c.Next()
}

func (s *site) logRequests(c *gin.Context) {
	start := time.Now()
	c.Next()
	s.log.LogAttrs(c.Request.Context(), slog.LevelInfo, "request",
		slog.String("id", problem.RequestID(c)),
		slog.String("method", c.Request.Method),
		slog.String("path", c.Request.URL.Path),
		slog.Int("status", c.Writer.Status()),
		slog.Duration("took", time.Since(start)))
}

// recoverPanic turns a panic into a clean 500: a request never takes the server down.
func (s *site) recoverPanic(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic", "id", problem.RequestID(c), "panic", p)
			if !c.Writer.Written() {
				s.failJSON(c, fmt.Errorf("panic: %v", p))
			}
			c.Abort()
		}
	}()
	c.Next()
}

// contentSecurityPolicy allows the pages only what they load from this
// site: the stylesheet, console.js and the kiosk's script, images (the
// board is inline SVG; data: covers CSS icons), and the kiosk's event
// stream. No inline script or style runs, no other site frames the pages
// or receives their forms, and no <base> can redirect relative URLs.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// securityHeaders sets the security headers on every response, pages, JSON,
// static files and errors alike. They are set before the handler runs so a
// request refused by a later middleware carries them too.
func securityHeaders(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	// For browsers that predate frame-ancestors.
	h.Set("X-Frame-Options", "DENY")
	c.Next()
}

// maxForm caps the body of every request: the console's forms are a few
// fields and the JSON API's bodies (api.MaxBody) a few kilobytes. The
// routes that say otherwise (routeEntry.Body) have their own.
const maxForm = 1 << 20

// maxLoginForm caps the login form: a name, a password and where to go.
const maxLoginForm = 8 << 10

// maxCodeForm caps what a player sends with their code: a player, a code,
// a table's scores at most.
const maxCodeForm = 8 << 10

// limitBody bounds a request's body before anything reads it: a multipart
// body is refused unless the route takes an upload (multipart), a body
// declared larger than limit is refused at once, and any other stops being
// read at the limit. fail answers a refusal as the route's group does.
func limitBody(limit int64, multipart bool, fail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		if ct, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type")); strings.HasPrefix(ct, "multipart/") && !multipart {
			fail(c, problem.ErrMultipart)
			return
		}
		if c.Request.ContentLength > limit {
			fail(c, &problem.BadRequest{ID: "error.too_large", Data: map[string]any{"Limit": limit}, Detail: "declared body too large"})
			return
		}
		if c.Request.Body != nil && c.Request.Body != http.NoBody {
			c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
		}
		c.Next()
	}
}

// readForm reads a posted urlencoded form before the handler does and
// refuses, with a message that says why, a body over its route's limit, a
// body that does not parse, and text that is not valid UTF-8. A browser
// sends none of them; without this check a handler would read such a form
// as empty, or store the bytes as they came. Multipart uploads are left to
// their handler, which sets its own limits. It is a guard of the pages'
// groups, after the others, so a request they refuse is never read; the
// JSON API reads its bodies as JSON whatever the Content-Type says (curl
// -d labels JSON as a form), bounded all the same by limitBody.
func readForm(fail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		switch c.Request.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
		default:
			c.Next()
			return
		}
		if ct, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type")); ct != "application/x-www-form-urlencoded" {
			c.Next()
			return
		}
		var err error
		if perr := c.Request.ParseForm(); perr != nil {
			err = &problem.BadRequest{ID: "error.form", Detail: perr.Error()}
			if mbe := (*http.MaxBytesError)(nil); errors.As(perr, &mbe) {
				err = &problem.BadRequest{ID: "error.too_large", Data: map[string]any{"Limit": mbe.Limit}, Detail: perr.Error()}
			}
		}
		invalid := func(v string) bool { return !utf8.ValidString(v) }
		for k, vs := range c.Request.PostForm {
			if err == nil && (invalid(k) || slices.ContainsFunc(vs, invalid)) {
				err = &problem.BadRequest{ID: "error.utf8", Detail: "invalid utf-8 in the form"}
			}
		}
		if err != nil {
			fail(c, err)
			return
		}
		c.Next()
	}
}
