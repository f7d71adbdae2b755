package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/static"
	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// console holds what the judge console's pages need besides the service:
// the parsed templates, the static files, the session store and the login
// limiter. It is built once in New.
type console struct {
	pages    map[string]map[string]pageSet // by language, then page
	assets   map[string]asset
	sessions gin.HandlerFunc
	limiter  *loginLimiter
	origin   *http.CrossOriginProtection
	settings Settings
	epoch    currentEpoch
	ended    endedSessions
}

// asset is one file served under /static/.
type asset struct {
	body    []byte
	version string // a hash of body, added to its URL so it can be cached for long
	ctype   string
}

// setUpConsole parses the templates, loads the static files, the session
// keys and the session epoch. A template that does not parse stops the
// server here rather than failing on a request.
func (s *Server) setUpConsole() error {
	ctx := context.Background()
	st := s.deps.Settings
	if st == nil {
		st = &memSettings{}
	}
	store, err := sessionStore(s.deps.SessionKeys)
	if err != nil {
		return err
	}
	// Keys an earlier version kept in the database must not stay there, in
	// every backup to come.
	if err := st.DeleteSetting(ctx, settingSessionKeys); err != nil {
		return fmt.Errorf("forget the old session keys: %w", err)
	}
	con := &console{
		sessions: sessions.Sessions(sessionCookie, store),
		// Five attempts at once, then one every 12 seconds: 5 a minute.
		limiter:  newLoginLimiter(12*time.Second, 5),
		origin:   http.NewCrossOriginProtection(),
		settings: st,
	}
	if con.epoch.value, err = loadEpoch(ctx, st); err != nil {
		return err
	}
	if con.ended.m, err = st.EndedSessions(ctx, time.Now()); err != nil {
		return fmt.Errorf("ended sessions: %w", err)
	}
	if con.assets, err = loadAssets(static.FS); err != nil {
		return err
	}
	if con.pages, err = parsePages(s.i18n, con.assets); err != nil {
		return err
	}
	s.con = con
	return nil
}

func loadAssets(fsys fs.FS) (map[string]asset, error) {
	out := map[string]asset{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		ctype := "application/octet-stream"
		switch path.Ext(p) {
		case ".css":
			ctype = "text/css; charset=utf-8"
		case ".js":
			ctype = "text/javascript; charset=utf-8"
		case ".svg":
			ctype = "image/svg+xml"
		case ".png":
			ctype = "image/png"
		}
		out[p] = asset{body: body, version: hex.EncodeToString(sum[:6]), ctype: ctype}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static files: %w", err)
	}
	return out, nil
}

// pageSet is one page's templates: the page, the layout and the partials.
type pageSet struct {
	t *template.Template
	// doc is the template of the page's whole document: "layout" for the
	// console's pages, "print" for a printable ("sheets"), or the page's
	// own document ("kiosk").
	doc string
}

// parsePages parses every page of templates.FS with the layout and the
// partials into its own set, keyed by the page's file name without
// ".html", once for each language: each set says its language's words
// ({{t "id" "Name" value}}, {{lang}}), bound in when it is parsed.
func parsePages(tr *i18n.Translator, assets map[string]asset) (map[string]map[string]pageSet, error) {
	names, err := fs.Glob(templates.FS, "pages/*.html")
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]pageSet{}
	for _, lang := range i18n.Languages {
		p := tr.In(lang)
		funcs := template.FuncMap{
			"t":    p.T,
			"lang": func() string { return lang },
			"inc":  func(i int) int { return i + 1 },
			"static": func(name string) (string, error) {
				a, ok := assets[name]
				if !ok {
					return "", fmt.Errorf("no static file %q", name)
				}
				return "/static/" + name + "?v=" + a.version, nil
			},
		}
		maps.Copy(funcs, route.Funcs())
		base, err := template.New("").Funcs(funcs).ParseFS(templates.FS, "layout.html", "partials/*.html")
		if err != nil {
			return nil, fmt.Errorf("parse the layout: %w", err)
		}
		pages := map[string]pageSet{}
		for _, n := range names {
			t, err := template.Must(base.Clone()).ParseFS(templates.FS, n)
			if err != nil {
				return nil, fmt.Errorf("parse %s: %w", n, err)
			}
			name := strings.TrimSuffix(path.Base(n), ".html")
			set := pageSet{t: t, doc: "layout"}
			switch {
			case t.Lookup(name) != nil:
				set.doc = name
			case t.Lookup("sheets") != nil:
				set.doc = "print"
			}
			pages[name] = set
		}
		out[lang] = pages
	}
	return out, nil
}

// page is what every page's view model starts with: the layout reads it.
type page struct {
	Lang    string
	Title   string   // translated
	Judge   string   // the judge logged in, or ""
	Path    string   // this page's path and query, for the language switch
	Flashes []string // message ids saved before the redirect that led here
	Nav     *tournamentNav
}

// tournamentNav is the navigation inside one tournament.
type tournamentNav struct {
	ID     int64
	Name   string
	Active string // "overview", "players", "rounds", "penalties", "standings", "audit"
	Rounds []int  // numbers of the rounds paired so far
	// Finished says a judge closed the tournament: every page says so, as
	// every change is refused until it is reopened.
	Finished bool
}

// newPage fills the part of a view model every page has.
func (s *Server) newPage(c *gin.Context, titleID string, data map[string]any) page {
	lang := s.i18n.Lang(c)
	return page{
		Lang:    lang,
		Title:   s.i18n.Text(lang, titleID, data),
		Judge:   c.GetString(judgeKey),
		Path:    c.Request.URL.RequestURI(),
		Flashes: takeFlash(c),
	}
}

// result is what a page handler answers: a page to render, with its status
// and view model, or where the browser goes after a successful form
// (Post/Redirect/Get).
type result struct {
	status int
	page   string // the page's templates: templates/pages/<page>.html
	block  string // a part of the page to render alone; "" for its whole document
	view   any
	to     string // a redirect's target, answered with 303
	flash  string // with to: the message id the next page shows
}

// show renders page with the view model vm, with status 200.
func show(page string, vm any) result { return result{status: http.StatusOK, page: page, view: vm} }

// showStatus renders page with vm and status: a form shown again with the
// service's refusal (422 or 409).
func showStatus(status int, page string, vm any) result {
	return result{status: status, page: page, view: vm}
}

// seeOther ends a successful form with Post/Redirect/Get, keeping the
// message flashID for the next page.
func seeOther(to, flashID string) result { return result{to: to, flash: flashID} }

// pageHandler is a page's handler: it parses the request, calls the
// service and returns what to show, or an error for page to map.
type pageHandler func(c *gin.Context) (result, error)

// page adapts a pageHandler: its error goes through failPage, the one
// mapping of errors to statuses and messages; its result is rendered or
// redirected to.
func (s *Server) page(h pageHandler) gin.HandlerFunc {
	return func(c *gin.Context) {
		r, err := h(c)
		if err != nil {
			s.failPage(c, err)
			return
		}
		s.answer(c, r)
	}
}

// answer writes r: a redirect, or the page rendered into a buffer first,
// so that a template error is a clean 500 rather than half a page.
func (s *Server) answer(c *gin.Context, r result) {
	if r.to != "" {
		if r.flash != "" {
			flash(c, r.flash)
		}
		c.Redirect(http.StatusSeeOther, r.to)
		return
	}
	set, ok := s.con.pages[s.i18n.Lang(c)][r.page]
	if !ok {
		s.renderFailure(c, fmt.Errorf("no page template %q", r.page))
		return
	}
	doc := set.doc
	if r.block != "" {
		doc = r.block
	}
	var buf bytes.Buffer
	if err := set.t.ExecuteTemplate(&buf, doc, r.view); err != nil {
		s.renderFailure(c, fmt.Errorf("render %s: %w", r.page, err))
		return
	}
	pageHeaders(c)
	c.Data(r.status, "text/html; charset=utf-8", buf.Bytes())
}

// renderFailure answers a page that could not be rendered with a plain 500.
func (s *Server) renderFailure(c *gin.Context, err error) {
	s.log.Error("render failed", "id", c.GetString(requestIDKey), "err", err)
	lang := s.i18n.Lang(c)
	pageHeaders(c)
	c.Data(http.StatusInternalServerError, "text/plain; charset=utf-8", []byte(s.i18n.Text(lang, "error.internal", nil)))
	c.Abort()
}

// pageHeaders are the headers of every console page: nothing cached (the
// pages show live tournament state). The security headers of every
// response are set by securityHeaders.
func pageHeaders(c *gin.Context) {
	c.Writer.Header().Set("Cache-Control", "no-store")
}

// errorPage is the view model of a page that failed.
type errorPage struct {
	page
	Status  int
	Message string
	Back    string
}

// failPage maps err through describe, the one error-to-status mapping, and
// shows it as a page.
func (s *Server) failPage(c *gin.Context, err error) {
	lang := s.i18n.Lang(c)
	status, msg, _ := s.describe(lang, err)
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(c.Request.Context(), level, "request failed", "id", c.GetString(requestIDKey), "status", status, "err", err)
	vm := errorPage{page: s.newPage(c, "page.error", nil), Status: status, Message: msg, Back: route.Back(c.GetHeader("Referer"), c.Request.Host, route.Tournaments)}
	s.answer(c, showStatus(status, "error", vm))
	c.Abort()
}

// serveStatic serves the files of package static. A URL carrying the
// file's current version may be cached for a year; others revalidate.
func (s *Server) serveStatic(c *gin.Context) {
	name := strings.TrimPrefix(c.Param("file"), "/")
	a, ok := s.con.assets[name]
	if !ok {
		s.fail(c, errNoRoute)
		return
	}
	h := c.Writer.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("ETag", `"`+a.version+`"`)
	if c.Query("v") == a.version {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	http.ServeContent(c.Writer, c.Request, name, time.Time{}, bytes.NewReader(a.body))
}

// switchLanguage keeps the chosen language in the lang cookie and goes
// back to the page the switch was on.
func (s *Server) switchLanguage(c *gin.Context) {
	lang := c.Param("lang")
	if lang != "ja" && lang != "en" {
		s.fail(c, errNoRoute)
		return
	}
	http.SetCookie(c.Writer, &http.Cookie{
		Name: "lang", Value: lang, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.Request.TLS != nil,
	})
	c.Redirect(http.StatusSeeOther, route.Local(c.Query("next"), route.Tournaments))
}

// checkOrigin refuses cross-origin state changes with the standard
// library's CrossOriginProtection (Sec-Fetch-Site, then Origin against
// Host), so that no other site can make a judge's browser post a form.
// A request with a bearer token comes from a script, not a browser form:
// a browser cannot attach that header cross-origin without a CORS
// preflight, which this server never grants.
func (s *Server) checkOrigin(c *gin.Context) {
	switch c.Request.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		// Safe methods pass the check anyway; their tokens are checked
		// where a route needs a judge.
		c.Next()
		return
	}
	// Automation with the valid API token is not a browser: no cookie rides
	// along, so a cross-site request cannot borrow it.
	if s.checkToken(c) == tokenValid {
		c.Next()
		return
	}
	if err := s.con.origin.Check(c.Request); err != nil {
		s.fail(c, &forbidden{id: "error.cross_origin", detail: err.Error()})
		return
	}
	c.Next()
}

// forbidden is a request refused whoever makes it: 403 with a message id.
type forbidden struct {
	id     string
	detail string
}

func (e *forbidden) Error() string { return "forbidden: " + e.id + ": " + e.detail }
