// Package web is the site: the one route table (routes.go) and the wiring
// of the packages below it, one per audience: api (the JSON API, the
// referee's included), console (the judges' pages and printables), kiosk
// (the players' pages), live (the broker, the event feed and the reads it
// keeps current) and auth (sessions, login, tokens and limits). What they
// share has a package of its own: render (the pages' templates and their
// one handler shape), route (the paths), i18n (the words), problem (the one
// mapping of errors) and clock (the clock as pages show it).
//
// A handler does four things: parse the request, call the referee or the
// tournament service, map the error, and render. Rules live in referee and
// tournament, never here.
package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/console"
	"github.com/catanjudge/catanjudge/tournament/web/home"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/kiosk"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// RulesetSource is where the server finds rulesets by name.
type RulesetSource interface {
	Get(name string) (referee.Ruleset, bool)
	All() []referee.Ruleset
}

// Deps are what the web layer needs from the rest of the program.
type Deps struct {
	Rulesets       RulesetSource
	DefaultRuleset string // the name used when a request names none
	APIToken       string // bearer token for the write APIs; empty disables it
	// PublicURL is the address players' phones reach the server at, for the
	// kiosk's QR codes: --public-url, or the address the server listens on
	// (cmd/catanjudge sets it). The request's Host header is never used;
	// empty gives the kiosk's path alone.
	PublicURL string
	Logger    *slog.Logger
	// Service is the judge console's use cases; nil serves the stateless
	// API alone (the judges' routes then answer 503).
	Service *tournament.Service
	// Settings keeps the session epoch and the sessions logged out, and
	// reads the staff accounts and table devices; the tournament store
	// satisfies it. Nil keeps them in memory, and then nobody can log in
	// (the stateless referee API alone).
	Settings auth.Settings
	// SessionKeys sign and encrypt the judges' session cookies
	// (auth.LoadSessionKeys reads them from the data folder). They are
	// never kept in Settings, which a backup copies. Nil makes keys for
	// this process alone: the judges' sessions then end with it.
	SessionKeys []byte
	// Cards keeps the batches of players' cards, sealed with a key derived
	// from SessionKeys, where every server of the event finds them (the
	// tournament store satisfies it); nil keeps them in this process.
	Cards console.CardStore
	// Location is the shop's time zone, in which pages show times; nil for
	// the server's own (time.Local).
	Location *time.Location
	// Broker carries the committed changes to the live pages; the store's
	// after-commit hook must feed it (store.WithAfterCommit(b.Committed)).
	// Nil makes a broker nobody publishes to: the pages then never update live.
	Broker *live.Broker
	// Reread, when not nil, is handed the function that reads again what
	// the site keeps of Settings in memory (the session epoch and the
	// sessions logged out), for the server to call when another server on
	// its database changed them (store.Peers.Settings).
	Reread func(reread func(context.Context) error)
	// TrustedProxies are the addresses or CIDR ranges of the reverse
	// proxies in front of the server, whose X-Forwarded-For names the
	// client that the per-client limits count; empty trusts no header.
	TrustedProxies []string
	// Version is the build's version, which the record files the site
	// writes name with the program ("catanjudge <version>", as catanjudge
	// simulate does); empty names the program alone.
	Version string
}

// site is the server: its audiences' handlers, the guards they share and
// the router that serves them.
type site struct {
	deps    Deps
	log     *slog.Logger
	i18n    *i18n.Translator
	pages   *render.Engine
	auth    *auth.Auth
	live    *live.State
	api     *api.Handlers
	console *console.Pages
	kiosk   *kiosk.Pages
	home    *home.Pages
	// compute and reads bound the anonymous work under way at once: the
	// referee API, which computes for anyone, and the kiosk's reads.
	compute *auth.Gate
	reads   *auth.Gate
	router  *gin.Engine
}

// New returns the HTTP handler of the whole site.
func New(deps Deps) (http.Handler, error) {
	s, err := newSite(deps)
	if err != nil {
		return nil, err
	}
	return s.router, nil
}

// parsedByZone keeps the translator and the parsed pages of each time zone a
// site of this process has shown: both are built from the embedded files
// and the zone only and are read-only after, so every site shares them.
// A process serves one site; a test binary builds hundreds, and parsing
// took a fifth of a console test's time under the race detector.
var parsedByZone struct {
	sync.Mutex
	pages map[*time.Location]*render.Parsed
}

// parsedPages returns the translator and the pages parsed for zone (nil:
// the machine's), parsing them at the zone's first site.
func parsedPages(zone *time.Location) (*render.Parsed, error) {
	parsedByZone.Lock()
	defer parsedByZone.Unlock()
	if p, ok := parsedByZone.pages[zone]; ok {
		return p, nil
	}
	tr, err := i18n.New(templates.Locales, zone)
	if err != nil {
		return nil, err
	}
	p, err := render.Parse(tr)
	if err != nil {
		return nil, err
	}
	if parsedByZone.pages == nil {
		parsedByZone.pages = map[*time.Location]*render.Parsed{}
	}
	parsedByZone.pages[zone] = p
	return p, nil
}

// newSite builds the site whose router New returns.
func newSite(deps Deps) (*site, error) {
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if deps.DefaultRuleset == "" {
		deps.DefaultRuleset = "proshop-2003"
	}
	if _, ok := deps.Rulesets.Get(deps.DefaultRuleset); !ok {
		return nil, fmt.Errorf("default ruleset %q is not loaded", deps.DefaultRuleset)
	}
	s := &site{deps: deps, log: deps.Logger, compute: auth.NewComputeGate(), reads: auth.NewReadGate()}
	shared, err := parsedPages(deps.Location)
	if err != nil {
		return nil, err
	}
	s.i18n, s.pages = shared.Translator(), render.New(shared, s.log, auth.Who)
	if s.auth, err = auth.New(auth.Config{Settings: deps.Settings, SessionKeys: deps.SessionKeys, APIToken: deps.APIToken,
		NoService: deps.Service == nil, Pages: s.pages, I18n: s.i18n, Log: s.log}); err != nil {
		return nil, err
	}
	if deps.Reread != nil {
		deps.Reread(s.auth.Reread)
	}
	s.live = live.New(deps.Service, deps.Broker, s.failJSON, auth.ClientAddr, s.log)
	codes := auth.NewCodes()
	devices, err := auth.NewDeviceLinks(deps.SessionKeys, deps.PublicURL)
	if err != nil {
		return nil, err
	}
	s.api = api.New(api.Config{Service: deps.Service, Rulesets: deps.Rulesets, DefaultRuleset: deps.DefaultRuleset,
		Live: s.live, Codes: codes, Sessions: s.auth, Devices: devices, I18n: s.i18n, Log: s.log,
		Generator: recordfile.Generator(deps.Version)})
	sealer, err := auth.NewSealer(deps.SessionKeys, console.CardSealing)
	if err != nil {
		return nil, err
	}
	if s.console, err = console.New(console.Config{Service: deps.Service, Rulesets: deps.Rulesets, DefaultRuleset: deps.DefaultRuleset,
		PublicURL: deps.PublicURL, Cards: deps.Cards, CardSealer: sealer, Devices: devices, Pages: s.pages, I18n: s.i18n, Log: s.log}); err != nil {
		return nil, err
	}
	remember, err := auth.NewSealer(deps.SessionKeys, kiosk.RememberSealing)
	if err != nil {
		return nil, err
	}
	s.kiosk = kiosk.New(kiosk.Config{Service: deps.Service, Live: s.live, PublicURL: deps.PublicURL, Codes: codes, Remember: remember,
		Pages: s.pages, I18n: s.i18n, Log: s.log})
	s.home = home.New(deps.Service, s.pages, s.auth.SessionJudge)
	if s.router, err = s.newRouter(); err != nil {
		return nil, err
	}
	return s, nil
}

// failJSON answers err as the JSON API does.
func (s *site) failJSON(c *gin.Context, err error) {
	problem.JSON(c, s.i18n.In(s.i18n.Lang(c)), s.log, err)
}
