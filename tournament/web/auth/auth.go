// Package auth says who may do what: the staff log in to their own
// accounts (a session cookie, or a session token for scripts), each with
// its role, scripts may present the API token (a head), a table device
// opens its table's pages, and everyone else is anonymous. It keeps the
// sessions, checks the tokens, limits the guesses at either, gates the
// anonymous work one client can cause, and refuses cross-origin state
// changes. The route table says which role each route needs (StaffAPI,
// StaffPages).
package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/render"
)

// judgeKey is the gin context key holding the name of the account making
// the request, as the audit log names it.
const judgeKey = "judge"

// Config is what Auth is made from.
type Config struct {
	// Settings keeps the judge password hash, the session epoch and the
	// sessions logged out; nil keeps them in memory, and then no judge can
	// log in (the stateless referee API alone).
	Settings Settings
	// SessionKeys sign and encrypt the session cookies (LoadSessionKeys);
	// nil makes keys for this process alone.
	SessionKeys []byte
	// APIToken is the bearer token of scripts; empty accepts none.
	APIToken string
	// NoService says the server runs without the tournament service: a
	// judge's route then answers 503.
	NoService bool
	Pages     *render.Engine
	I18n      *i18n.Translator
	Log       *slog.Logger
}

// Auth holds the judges' sessions, the token and the limits.
type Auth struct {
	settings  Settings
	sessions  gin.HandlerFunc
	tokens    *Sealer // seals the session tokens
	limiter   *loginLimiter
	origin    *http.CrossOriginProtection
	epoch     currentEpoch
	ended     endedSessions
	token     string
	noService bool
	pages     *render.Engine
	i18n      *i18n.Translator
	log       *slog.Logger
}

// New loads the session epoch and the sessions logged out, and forgets
// the session keys an earlier version kept in the database.
func New(cfg Config) (*Auth, error) {
	ctx := context.Background()
	st := cfg.Settings
	if st == nil {
		st = &memSettings{}
	}
	store, err := sessionStore(cfg.SessionKeys)
	if err != nil {
		return nil, err
	}
	tokens, err := NewSealer(cfg.SessionKeys, "session token")
	if err != nil {
		return nil, err
	}
	// Keys an earlier version kept in the database must not stay there, in
	// every backup to come.
	if err := st.DeleteSetting(ctx, settingSessionKeys); err != nil {
		return nil, fmt.Errorf("forget the old session keys: %w", err)
	}
	a := &Auth{
		settings: st,
		sessions: sessions.Sessions(sessionCookie, store),
		tokens:   tokens,
		// Five attempts at once, then one every 12 seconds: 5 a minute.
		limiter:   newLoginLimiter(12*time.Second, 5),
		origin:    http.NewCrossOriginProtection(),
		token:     cfg.APIToken,
		noService: cfg.NoService,
		pages:     cfg.Pages,
		i18n:      cfg.I18n,
		log:       cfg.Log,
	}
	if a.epoch.value, err = loadEpoch(ctx, st); err != nil {
		return nil, err
	}
	if a.ended.m, err = st.EndedSessions(ctx, time.Now()); err != nil {
		return nil, fmt.Errorf("ended sessions: %w", err)
	}
	return a, nil
}

// Reread reads the session epoch and the sessions logged out again from
// Settings: another server on the database changed them (a judge logged
// out there, or every judge), or may have while this one did not hear.
func (a *Auth) Reread(ctx context.Context) error {
	if err := a.epoch.reload(ctx, a.settings); err != nil {
		return err
	}
	ended, err := a.settings.EndedSessions(ctx, time.Now())
	if err != nil {
		return fmt.Errorf("ended sessions: %w", err)
	}
	a.ended.add(ended)
	return nil
}

// Sessions reads and writes the session cookie: the site's middleware
// before any that reads a session.
func (a *Auth) Sessions(c *gin.Context) { a.sessions(c) }

// CheckOrigin refuses cross-origin state changes with the standard
// library's CrossOriginProtection (Sec-Fetch-Site, then Origin against
// Host), so that no other site can make a judge's browser post a form,
// answering them with fail. A request with the API token comes from a
// script, not a browser form: a browser cannot attach that header
// cross-origin without a CORS preflight, which this server never grants.
func (a *Auth) CheckOrigin(fail func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		switch c.Request.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			// Safe methods pass the check anyway; their tokens are checked
			// where a route needs a judge.
			c.Next()
			return
		}
		// Automation with a valid token is not a browser: no cookie rides
		// along, so a cross-site request cannot borrow it.
		if t := a.checkToken(c); t == tokenValid || t == tokenSession {
			c.Next()
			return
		}
		if err := a.origin.Check(c.Request); err != nil {
			fail(c, &problem.Forbidden{ID: "error.cross_origin", Detail: err.Error()})
			return
		}
		c.Next()
	}
}
