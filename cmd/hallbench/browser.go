package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html"
)

// browser is one device of the hall as a browser drives the site: a judge's
// tablet or a player's phone, dialling from an address of its own, with
// its cookies. It opens a page, fills in one of its forms as a person
// would (the fields the page holds, a few of them changed) and submits
// it, following the redirect as a browser does: the forms are the pages'
// own, whatever fields they come to hold.
type browser struct {
	http *http.Client
	base string
}

func newBrowser(t *http.Transport, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{base: base, http: &http.Client{Transport: t, Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// statusError is an answer the bench did not expect.
type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.status, http.StatusText(e.status), firstLine(e.body))
}

// firstLine is the start of an answer's message, for errors.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	return s[:min(len(s), 300)]
}

// do sends a request and reads its answer whole.
func (b *browser) do(ctx context.Context, method, path string, body io.Reader, header ...string) (int, http.Header, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, body)
	if err != nil {
		return 0, nil, nil, err
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, data, err
}

// page opens path, as a 200 page.
func (b *browser) page(ctx context.Context, path string) ([]byte, error) {
	status, _, body, err := b.do(ctx, http.MethodGet, path, nil)
	if err == nil && status != http.StatusOK {
		err = &statusError{status, string(body)}
	}
	return body, err
}

// submit posts f with the values set changed, as a browser does, and
// follows the 303 to the page it leads to. It answers that page, and the
// time from the post to the page shown; a form shown again with a refusal
// is an error with its message.
func (b *browser) submit(ctx context.Context, f form, set map[string]string) ([]byte, time.Duration, error) {
	values := url.Values{}
	for k, v := range f.values {
		values[k] = append([]string(nil), v...)
	}
	for k, v := range set {
		values.Set(k, v)
	}
	start := time.Now()
	status, h, body, err := b.do(ctx, http.MethodPost, f.action, strings.NewReader(values.Encode()),
		"Content-Type", "application/x-www-form-urlencoded", "Origin", b.base, "Sec-Fetch-Site", "same-origin")
	if err != nil {
		return nil, 0, err
	}
	if status == http.StatusOK {
		// A player's form answers the page itself, saying it was sent
		// (a code is not kept for a redirect); a form shown again with a
		// refusal is not a success.
		if msg := refusal(body); msg != "" {
			return nil, 0, &statusError{status, msg}
		}
		return body, time.Since(start), nil
	}
	if status != http.StatusSeeOther {
		msg := refusal(body)
		if msg == "" {
			msg = string(body)
		}
		return nil, 0, &statusError{status, msg}
	}
	// The post is done: the page it leads to is opened (again, while the
	// server is busy), never the form posted again.
	to := h.Get("Location")
	for i := 1; ; i++ {
		page, err := b.page(ctx, to)
		var st *statusError
		if err == nil || i == busyTries || !errors.As(err, &st) || st.status != http.StatusServiceUnavailable {
			if err != nil {
				return nil, 0, afterPost{err}
			}
			return page, time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return nil, 0, afterPost{err}
		case <-time.After(busyPause):
		}
	}
}

// afterPost is the page a post led to, not shown: the post was done, so
// it is not tried again (it does not unwrap to the page's status).
type afterPost struct{ err error }

func (e afterPost) Error() string { return "the page after the post: " + e.err.Error() }

// refusal is what a form shown again says is wrong: its first error; ""
// when it says nothing is.
func refusal(page []byte) string {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return ""
	}
	var found string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if found != "" {
			return
		}
		if n.Type == html.ElementNode && hasClass(n, "form-error", "field-error", "p-error") {
			found = strings.TrimSpace(text(n))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return found
}

// form is one form of a page as a browser would submit it untouched: where
// it posts, and the values its fields hold.
type form struct {
	id, action string
	values     url.Values
}

// findForm is the first form of page that match says is the one.
func findForm(page []byte, match func(form) bool) (form, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return form{}, err
	}
	var forms []*form
	var walk func(n *html.Node, f *form)
	walk = func(n *html.Node, f *form) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "form":
				f = &form{id: attr(n, "id"), action: attr(n, "action"), values: url.Values{}}
				forms = append(forms, f)
			case "input":
				if f != nil {
					input(n, f)
				}
			case "select":
				if f != nil && attr(n, "name") != "" {
					f.values.Set(attr(n, "name"), selected(n))
				}
				return
			case "textarea":
				if f != nil && attr(n, "name") != "" {
					f.values.Set(attr(n, "name"), text(n))
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, f)
		}
	}
	walk(doc, nil)
	for _, f := range forms {
		if match(*f) {
			return *f, nil
		}
	}
	return form{}, errors.New("no such form on the page")
}

// input adds an input's value to f, as a browser submits it: a checkbox
// or radio only when checked, never a button.
func input(n *html.Node, f *form) {
	name := attr(n, "name")
	if name == "" {
		return
	}
	switch strings.ToLower(attr(n, "type")) {
	case "submit", "button", "image", "reset", "file":
	case "checkbox", "radio":
		if hasAttr(n, "checked") {
			f.values.Add(name, attrOr(n, "value", "on"))
		}
	default:
		// Every field of a name is sent, in order: the score sheet's
		// players, say.
		f.values.Add(name, attr(n, "value"))
	}
}

// selected is a select's value: its selected option, else its first.
func selected(n *html.Node) string {
	var first *html.Node
	var chosen *html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "option" {
			if first == nil {
				first = n
			}
			if chosen == nil && hasAttr(n, "selected") {
				chosen = n
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	if chosen == nil {
		chosen = first
	}
	if chosen == nil {
		return ""
	}
	if hasAttr(chosen, "value") {
		return attr(chosen, "value")
	}
	return strings.TrimSpace(text(chosen))
}

// posts is a form that posts to path (and, with field, holds that field).
func posts(path, field string) func(form) bool {
	return func(f form) bool {
		_, has := f.values[field]
		return f.action == path && (field == "" || has)
	}
}

// withID is the form of that id.
func withID(id string) func(form) bool { return func(f form) bool { return f.id == id } }

func attr(n *html.Node, key string) string { return attrOr(n, key, "") }

func attrOr(n *html.Node, key, or string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return or
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func hasClass(n *html.Node, classes ...string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		for _, want := range classes {
			if c == want {
				return true
			}
		}
	}
	return false
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
