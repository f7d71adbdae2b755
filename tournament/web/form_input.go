package web

import (
	"errors"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
)

// maxForm caps the body of every request: the console's forms are a few
// fields and the JSON API's bodies (maxBody) a few kilobytes. The routes
// in bodyLimits have their own.
const maxForm = 1 << 20

// maxLoginForm caps the login form: a name, a password and where to go.
const maxLoginForm = 8 << 10

// bodyLimits are the routes whose bodies may be larger than maxForm (the
// player import's upload, and its confirmation, which carries the file in
// base64) or must be smaller (the login form, which anyone may post).
var bodyLimits = map[string]int64{
	"/judge/login":                        maxLoginForm,
	"/judge/t/:id/players/import":         maxImport + 64<<10,
	"/judge/t/:id/players/import/confirm": 2 * maxImport,
}

// multipartRoutes are the routes that take a multipart upload: the player
// import's file. No other route reads one, so none can be made to spool
// files to the temporary folder.
var multipartRoutes = map[string]bool{
	"/judge/t/:id/players/import": true,
}

// errMultipart is a multipart body sent to a route that takes none.
var errMultipart = errors.New("multipart body where none is taken")

// bodyLimit is the most bytes the body of a request to route may hold.
func bodyLimit(route string) int64 {
	if l, ok := bodyLimits[route]; ok {
		return l
	}
	return maxForm
}

// limitBody bounds every request's body before anything reads it: a
// multipart body is refused unless the route takes an upload, a body
// declared larger than its route's limit is refused at once, and any
// other stops being read at the limit.
func (s *Server) limitBody(c *gin.Context) {
	if ct, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type")); strings.HasPrefix(ct, "multipart/") && !multipartRoutes[c.FullPath()] {
		s.refuse(c, errMultipart)
		return
	}
	limit := bodyLimit(c.FullPath())
	if c.Request.ContentLength > limit {
		s.refuse(c, &badRequest{id: "error.too_large", data: map[string]any{"Limit": limit}, detail: "declared body too large"})
		return
	}
	if c.Request.Body != nil && c.Request.Body != http.NoBody {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	}
	c.Next()
}

// readForm reads a posted urlencoded form before the handler does and
// refuses, with a message that says why, a body over its route's limit, a
// body that does not parse, and text that is not valid UTF-8. A browser
// sends none of them; without this check a handler would read such a form
// as empty, or store the bytes as they came. Multipart uploads are left to
// their handler, which sets its own limits. It runs after the route's
// guard, so a request refused there is never read.
//
// The JSON API is left alone: its handlers read the body as JSON whatever
// the Content-Type says, as curl -d sends JSON labelled as a form, and
// parsing it here would consume the body they read. Its bodies are bounded
// all the same, by limitBody, which runs for every route.
func (s *Server) readForm(c *gin.Context) {
	switch {
	case strings.HasPrefix(c.Request.URL.Path, "/api/"):
		c.Next()
		return
	case c.Request.Method == http.MethodPost, c.Request.Method == http.MethodPut, c.Request.Method == http.MethodPatch:
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
		err = &badRequest{id: "error.form", detail: perr.Error()}
		if mbe := (*http.MaxBytesError)(nil); errors.As(perr, &mbe) {
			err = &badRequest{id: "error.too_large", data: map[string]any{"Limit": mbe.Limit}, detail: perr.Error()}
		}
	}
	invalid := func(v string) bool { return !utf8.ValidString(v) }
	for k, vs := range c.Request.PostForm {
		if err == nil && (invalid(k) || slices.ContainsFunc(vs, invalid)) {
			err = &badRequest{id: "error.utf8", detail: "invalid utf-8 in the form"}
		}
	}
	if err != nil {
		s.refuse(c, err)
		return
	}
	c.Next()
}

// refuse answers a request refused before its handler: JSON for the API,
// a page for the console.
func (s *Server) refuse(c *gin.Context, err error) {
	if strings.HasPrefix(c.Request.URL.Path, "/api/") {
		s.fail(c, err)
		return
	}
	s.failPage(c, err)
}

// staleForm is what a form shows after another judge's save came first (a
// 409 conflict): the form starts again from what is saved now, so that
// submitting it as it stands never undoes the other judge's change, and
// what this judge typed is shown beside it (Mine, and next to each field),
// with a button that takes it back (Again, posted to Action): a second,
// deliberate choice made knowing what is saved.
type staleForm struct {
	Mine   []mineLine    // what this judge typed, where it differs from what is saved
	Again  []hiddenField // everything this judge typed, for the button
	Action string        // where the button posts
	Button string        // the button's words
}

// mineLine is one value this judge typed that is not what is saved.
type mineLine struct{ Label, Value string }
