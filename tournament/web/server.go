// Package web serves the judge console, the kiosk and the JSON API over gin.
//
// A handler does four things: parse the request, call the referee or the
// tournament service, map the error, and render. Rules live in referee and
// tournament, never here.
package web

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/templates"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
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
	// API alone (the console pages then fail with 500).
	Service *tournament.Service
	// Settings keeps the judge password hash, the session epoch and the
	// sessions logged out; the tournament store satisfies it. Nil keeps
	// them in memory, and then no judge can log in (the stateless referee
	// API alone).
	Settings Settings
	// SessionKeys sign and encrypt the judges' session cookies
	// (LoadSessionKeys reads them from the data folder). They are never
	// kept in Settings, which a backup copies. Nil makes keys for this
	// process alone: the judges' sessions then end with it.
	SessionKeys []byte
	// Location is the shop's time zone, in which pages show times; nil for
	// the server's own (time.Local).
	Location *time.Location
	// Broker carries the committed changes to the live pages; the store's
	// after-commit hook must feed it (store.WithAfterCommit(b.Committed)).
	// Nil makes a broker nobody publishes to: the pages then never update live.
	Broker *Broker
}

// Server holds the handlers' dependencies.
type Server struct {
	deps Deps
	i18n *i18n.Translator
	log  *slog.Logger
	con  *console // the judge console's templates, static files and sessions
	// liveCache and roundCache share the kiosks' reads of the live state
	// and of the rounds; qrCache keeps the kiosks' QR codes.
	liveCache  *readCache[int64, tournament.Live]
	roundCache *readCache[roundKey, roundRead]
	qrCache    *readCache[int64, []byte]
	health     health
	// compute and reads bound the anonymous work under way at once (the
	// referee API, the kiosk's reads), and pairingEvals the pairing search
	// of one referee request.
	compute      *gate
	reads        *gate
	pairingEvals int
	router       *gin.Engine
}

// New returns the HTTP handler of the whole site.
func New(deps Deps) (http.Handler, error) {
	s, err := newServer(deps)
	if err != nil {
		return nil, err
	}
	return s.router, nil
}

// newServer builds the server whose router New returns.
func newServer(deps Deps) (*Server, error) {
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	// The kiosks share reads only when the broker tells of every change
	// (see readCache): then a read is kept until the next change.
	cacheFor := time.Duration(math.MaxInt64)
	if deps.Broker == nil {
		deps.Broker = NewBroker(0, 0)
		cacheFor = 0
	}
	if deps.DefaultRuleset == "" {
		deps.DefaultRuleset = "proshop-2003"
	}
	if _, ok := deps.Rulesets.Get(deps.DefaultRuleset); !ok {
		return nil, fmt.Errorf("default ruleset %q is not loaded", deps.DefaultRuleset)
	}
	tr, err := i18n.New(templates.Locales, deps.Location)
	if err != nil {
		return nil, err
	}
	s := &Server{
		deps: deps, i18n: tr, log: deps.Logger,
		liveCache:    newLiveCache(cacheFor),
		roundCache:   newReadCache[roundKey, roundRead](cacheFor),
		qrCache:      newReadCache[int64, []byte](time.Duration(math.MaxInt64)),
		compute:      newComputeGate(),
		reads:        newReadGate(),
		pairingEvals: publicPairingEvals,
	}
	if err := s.setUpConsole(); err != nil {
		return nil, err
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	s.router = r
	r.HandleMethodNotAllowed = true
	// The server is reached directly: no header names another client.
	if err := r.SetTrustedProxies(nil); err != nil {
		return nil, err
	}
	r.Use(securityHeaders, s.requestID, s.logRequests, s.recoverPanic, s.con.sessions, s.limitBody, s.checkOrigin)
	r.NoRoute(func(c *gin.Context) { s.fail(c, errNoRoute) })
	r.NoMethod(func(c *gin.Context) { s.fail(c, errNoMethod) })
	for _, rt := range s.routes() {
		// The guard runs before the form is read: a request it refuses
		// costs no parsing.
		r.Handle(rt.Method, rt.Path, s.guard(rt), s.readForm, rt.Handler)
	}
	return s, nil
}

const requestIDKey = "request_id"

func (s *Server) requestID(c *gin.Context) {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	c.Set(requestIDKey, id)
	c.Header("X-Request-ID", id)
	c.Next()
}

func (s *Server) logRequests(c *gin.Context) {
	start := time.Now()
	c.Next()
	s.log.LogAttrs(c.Request.Context(), slog.LevelInfo, "request",
		slog.String("id", c.GetString(requestIDKey)),
		slog.String("method", c.Request.Method),
		slog.String("path", c.Request.URL.Path),
		slog.Int("status", c.Writer.Status()),
		slog.Duration("took", time.Since(start)))
}

// recoverPanic turns a panic into a clean 500: a request never takes the server down.
func (s *Server) recoverPanic(c *gin.Context) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic", "id", c.GetString(requestIDKey), "panic", p)
			if !c.Writer.Written() {
				s.fail(c, fmt.Errorf("panic: %v", p))
			}
			c.Abort()
		}
	}()
	c.Next()
}

// guard returns what a route needs before its request is read. Judge
// routes need a judge session or the API token; kiosk and public routes
// are open, and only judge routes change state. The login form is refused
// to an address with too many wrong passwords lately; the referee API,
// which computes for anyone, and the kiosk's reads wait for a turn (gate).
func (s *Server) guard(rt routeEntry) gin.HandlerFunc {
	switch {
	case rt.Access == judge:
		return s.requireJudge
	case rt.Method == http.MethodPost && rt.Path == "/judge/login":
		return s.limitLogins
	case strings.HasPrefix(rt.Path, "/api/v1/referee/"):
		return s.gateCompute
	case rt.Access == kiosk && rt.Path != "/api/v1/tournaments/:id/events":
		return s.gateReads
	}
	return func(c *gin.Context) { c.Next() }
}
