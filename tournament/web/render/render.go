// Package render renders the site's pages: the templates of templates.FS
// parsed once per language at start-up (i18n), the static files they
// load, and the one adapter of page handlers, which renders a page into a
// buffer before writing it, redirects after a successful form, or shows an
// error as a page through the one mapping of errors (problem).
package render

import (
	"bytes"
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

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/static"
	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Engine renders pages. It is built once, by New, over templates parsed by
// Parse; a template that does not parse stops the server there rather than
// failing on a request.
type Engine struct {
	*Parsed
	log *slog.Logger
	who func(*gin.Context) Who
}

// Parsed is the templates, parsed in each language of a translator, and
// the static files they load. It is built from the embedded files and the
// translator only and never changes after, so the sites of one process
// (a test binary's hundreds, the hall bench's) may share one.
type Parsed struct {
	pages  map[string]map[string]pageSet // by language, then page
	assets map[string]asset
	i18n   *i18n.Translator
}

// Who is who views a page, for its header: the account's name and role,
// or a table device.
type Who struct {
	Name   string
	Role   string
	Device bool
}

// asset is one file served under /static/.
type asset struct {
	body    []byte
	version string // a hash of body, added to its URL so it can be cached for long
	ctype   string
}

// Parse parses the templates in each language of tr and loads the static
// files.
func Parse(tr *i18n.Translator) (*Parsed, error) {
	p := &Parsed{i18n: tr}
	var err error
	if p.assets, err = loadAssets(static.FS); err != nil {
		return nil, err
	}
	if p.pages, err = parsePages(tr, p.assets); err != nil {
		return nil, err
	}
	return p, nil
}

// New returns the engine rendering the parsed pages. who says who views a
// request's page (nobody: the zero Who), for every page's header.
func New(p *Parsed, log *slog.Logger, who func(*gin.Context) Who) *Engine {
	return &Engine{Parsed: p, log: log, who: who}
}

// Translator is the translator the pages were parsed with.
func (p *Parsed) Translator() *i18n.Translator { return p.i18n }

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
			"tf":   p.TF,
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

// Static serves the files of package static. A URL carrying the
// file's current version may be cached for a year; others revalidate.
func (e *Engine) Static(c *gin.Context) {
	name := strings.TrimPrefix(c.Param("file"), "/")
	a, ok := e.assets[name]
	if !ok {
		e.Fail(c, problem.ErrNoRoute)
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

// Favicon answers the browsers that ask for /favicon.ico with the site's
// icon, the pages' own <link rel="icon">.
func (e *Engine) Favicon(c *gin.Context) {
	c.Request.URL.RawQuery = ""
	c.Params = gin.Params{{Key: "file", Value: "/favicon.svg"}}
	e.Static(c)
}

// SwitchLanguage keeps the chosen language in the lang cookie and goes
// back to the page the switch was on.
func (e *Engine) SwitchLanguage(c *gin.Context) {
	lang := c.Param("lang")
	if lang != "ja" && lang != "en" {
		e.Fail(c, problem.ErrNoRoute)
		return
	}
	http.SetCookie(c.Writer, &http.Cookie{
		Name: "lang", Value: lang, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.Request.TLS != nil,
	})
	c.Redirect(http.StatusSeeOther, route.Local(c.Query("next"), route.Tournaments))
}
