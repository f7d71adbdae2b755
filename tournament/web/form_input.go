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

// maxForm caps the body of a console form. The forms are a few fields; the
// one that carries a file (the import confirmation, with the file in
// base64) has its own limit in formLimits.
const maxForm = 1 << 20

// formLimits are the routes whose forms may be larger than maxForm.
var formLimits = map[string]int64{
	"/judge/t/:id/players/import/confirm": 2 * maxImport,
}

// readForm reads a posted urlencoded form before any handler does and
// refuses, with a message that says why, a body over its route's limit, a
// body that does not parse, and text that is not valid UTF-8. A browser
// sends none of them; without this check a handler would read such a form
// as empty, or store the bytes as they came. Multipart uploads are left to
// their handler, which sets its own limits.
//
// The JSON API is left alone: its handlers read the body as JSON whatever
// the Content-Type says, as curl -d sends JSON labelled as a form, and
// parsing it here would consume the body they read.
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
	limit := int64(maxForm)
	if l, ok := formLimits[c.FullPath()]; ok {
		limit = l
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	var err error
	if perr := c.Request.ParseForm(); perr != nil {
		err = &badRequest{id: "error.form", detail: perr.Error()}
		if mbe := (*http.MaxBytesError)(nil); errors.As(perr, &mbe) {
			err = &badRequest{id: "error.too_large", data: map[string]any{"Limit": limit}, detail: perr.Error()}
		}
	}
	invalid := func(v string) bool { return !utf8.ValidString(v) }
	for k, vs := range c.Request.PostForm {
		if err == nil && (invalid(k) || slices.ContainsFunc(vs, invalid)) {
			err = &badRequest{id: "error.utf8", detail: "invalid utf-8 in the form"}
		}
	}
	if err != nil {
		s.failPage(c, err)
		return
	}
	c.Next()
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
