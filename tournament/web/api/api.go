// Package api serves the JSON API: the stateless referee API, which
// computes for anyone, and the tournament API, whose writes need a judge
// (a session or the API token) and whose reads the kiosk shares. All
// requests and responses are JSON; an error is {"error": message} in the
// request's language, through the one mapping of errors (problem).
package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/live"
	"github.com/catanjudge/catanjudge/tournament/web/problem"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Rulesets is where the API finds rulesets by name.
type Rulesets interface {
	Get(name string) (referee.Ruleset, bool)
	All() []referee.Ruleset
}

// PublicPairingEvals bounds the pairing search of one request to the
// public referee API, in swap evaluations: about half a second of one core
// here at most, against several seconds for the package's own budget. The
// judges' pairings (the tournament service) keep the full budget.
const PublicPairingEvals = 8_000_000

// Config is what the API is made from.
type Config struct {
	Service        *tournament.Service // nil serves the referee API alone
	Rulesets       Rulesets
	DefaultRuleset string
	Live           *live.State
	// Codes limits the guesses at players' codes (shared with the kiosk).
	Codes *auth.Codes
	// Sessions makes the staff's session tokens; Devices the table
	// devices' links.
	Sessions *auth.Auth
	Devices  *auth.DeviceLinks
	I18n     *i18n.Translator
	Log      *slog.Logger
	// Generator names the program in the record files the API writes
	// (recordfile.Generator).
	Generator string
}

// Handlers are the API's handlers.
type Handlers struct {
	svc            *tournament.Service
	rulesets       Rulesets
	defaultRuleset string
	live           *live.State
	codes          *auth.Codes
	sessions       *auth.Auth
	devices        *auth.DeviceLinks
	i18n           *i18n.Translator
	log            *slog.Logger
	health         health
	// PairingEvals bounds the pairing search of one anonymous request
	// (PublicPairingEvals; tests lower it).
	PairingEvals int
	generator    string
}

// New returns the API's handlers.
func New(cfg Config) *Handlers {
	return &Handlers{svc: cfg.Service, rulesets: cfg.Rulesets, defaultRuleset: cfg.DefaultRuleset, live: cfg.Live,
		codes: cfg.Codes, sessions: cfg.Sessions, devices: cfg.Devices, i18n: cfg.I18n, log: cfg.Log, PairingEvals: PublicPairingEvals, generator: cfg.Generator}
}

// Handler is a JSON API handler: it parses the request and calls the
// service, then returns the status and body of a success, or the error.
type Handler func(c *gin.Context) (status int, body any, err error)

// JSON adapts a Handler: a success is written as JSON, an error goes
// through Fail, the one mapping of errors to statuses and messages.
func (s *Handlers) JSON(h Handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		status, body, err := h(c)
		if err != nil {
			s.Fail(c, err)
			return
		}
		c.JSON(status, body)
	}
}

// Fail answers err as the API does: its status and {"error": message}.
func (s *Handlers) Fail(c *gin.Context, err error) {
	problem.JSON(c, s.i18n.In(s.i18n.Lang(c)), s.log, err)
}

// CheckHealth answers {"status":"ok"} when the database can be read whole,
// and 503 with the reason when it cannot, so that a monitor sees what the
// judges' pages would show. The check reads the whole file, so anonymous
// callers share one answer for healthEvery.
func (s *Handlers) CheckHealth(c *gin.Context) {
	if s.svc != nil {
		if err := s.health.check(c.Request.Context(), s.svc.Check); err != nil {
			s.log.Error("health check failed", "id", problem.RequestID(c), "err", err)
			msg, code := "error.unhealthy", "database-unreadable"
			switch {
			case errors.Is(err, tournament.ErrNoSpace):
				msg, code = "error.unhealthy_no_space", problem.CodeNoSpace
			case errors.Is(err, tournament.ErrUnavailable):
				msg, code = "error.unhealthy_unavailable", problem.CodeUnavailable
			}
			c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "code": code, "error": s.i18n.Text(s.i18n.Lang(c), msg, nil)})
			return
		}
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// healthEvery is how long a health check's answer is shared.
const healthEvery = 5 * time.Second

// health keeps the last health check's answer.
type health struct {
	mu  sync.Mutex // held during a check: callers meanwhile wait for its answer
	at  time.Time
	err error
}

func (h *health) check(ctx context.Context, check func(context.Context) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.at.IsZero() && time.Since(h.at) < healthEvery {
		return h.err
	}
	// The answer is shared: a caller going away must not cancel it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	h.err, h.at = check(ctx), time.Now()
	return h.err
}

// LiveJSON is everything the kiosk shows, for kiosk.js to fetch after each
// change: the latest round (with its clock) and the standings, read together.
type LiveJSON struct {
	Tournament TournamentJSON           `json:"tournament"`
	Round      *RoundJSON               `json:"round"` // null before round 1 is paired
	Standings  []TournamentStandingJSON `json:"standings"`
	// StandingsAfter is the number of rounds complete (a result at every
	// table) that Standings count; with ?standings=live, StandingsLive is
	// true and Standings count every result so far.
	StandingsAfter int  `json:"standings_after"`
	StandingsLive  bool `json:"standings_live"`
	// Final is the final results once a final is played (see StandingsJSON).
	Final []FinalStandingJSON `json:"final,omitempty"`
	// Winners are the players ranked 1st once the tournament is finished.
	Winners []winnerJSON `json:"winners"`
}

type winnerJSON struct {
	Player int64  `json:"player"`
	Name   string `json:"name"`
}

// ShowLive answers the live state, as the kiosk shows it: the latest round
// and the standings, read together; ?standings=live counts every result so
// far.
func (s *Handlers) ShowLive(c *gin.Context) {
	tid, err := route.ID(c, "id")
	if err != nil {
		s.Fail(c, err)
		return
	}
	live, err := s.live.Live(c.Request.Context(), tid)
	if err != nil {
		s.Fail(c, err)
		return
	}
	out := LiveJSON{Tournament: toTournamentJSON(live.Tournament), StandingsAfter: live.StandingsAfter, Winners: []winnerJSON{},
		Final: toFinalStandingsJSON(live.Final)}
	out.StandingsLive = c.Query("standings") == "live" && live.Tournament.Closed == nil
	if out.StandingsLive {
		out.Standings = toStandingsJSON(live.LiveStandings)
	} else {
		out.Standings = toStandingsJSON(live.Standings)
	}
	for _, w := range live.Winners {
		out.Winners = append(out.Winners, winnerJSON{Player: w.PlayerID, Name: w.Name})
	}
	if live.Round != nil {
		r := toRoundJSON(*live.Round).public()
		out.Round = &r
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, out)
}
