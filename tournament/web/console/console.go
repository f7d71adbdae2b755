// Package console serves the judges' pages: the tournaments, a
// tournament's players, rounds, tables, score sheets, penalties, standings
// and audit log, the ruleset page, the printables (pairings, score and
// board sheets) and the backup. A page handler parses the request, calls
// the service and returns what to show (render); the service checks the
// rules, and a form only says where each refusal shows (fieldRules).
package console

import (
	"context"
	"log/slog"

	"github.com/gin-gonic/gin"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/i18n"
	"github.com/catanjudge/catanjudge/tournament/web/render"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// Rulesets is where the console finds the server's rulesets.
type Rulesets interface {
	All() []referee.Ruleset
}

// Config is what the console is made from.
type Config struct {
	Service        *tournament.Service
	Rulesets       Rulesets
	DefaultRuleset string // the ruleset the tournament form starts with
	// PublicURL is the address players' phones reach the server at, for
	// the kiosk's address on the printables.
	PublicURL string
	// Cards keeps the batches of players' cards, sealed by CardSealer, in
	// the database every server of the event shares (store.Store is a
	// CardStore); nil keeps them in this process's memory.
	Cards      CardStore
	CardSealer *auth.Sealer
	// Devices makes the table devices' links and reads them back.
	Devices *auth.DeviceLinks
	Pages   *render.Engine
	I18n    *i18n.Translator
	Log     *slog.Logger
}

// Pages are the judges' pages.
type Pages struct {
	svc            *tournament.Service
	rulesets       Rulesets
	defaultRuleset string
	publicURL      string
	pages          *render.Engine
	i18n           *i18n.Translator
	log            *slog.Logger
	cards          CardStore
	sealer         *auth.Sealer
	devices        *auth.DeviceLinks
}

// New returns the judges' pages.
func New(cfg Config) (*Pages, error) {
	if cfg.Cards == nil {
		cfg.Cards = newMemoryCards()
	}
	if cfg.CardSealer == nil {
		var err error
		if cfg.CardSealer, err = auth.NewSealer(nil, CardSealing); err != nil {
			return nil, err
		}
	}
	return &Pages{svc: cfg.Service, rulesets: cfg.Rulesets, defaultRuleset: cfg.DefaultRuleset, publicURL: cfg.PublicURL,
		pages: cfg.Pages, i18n: cfg.I18n, log: cfg.Log, cards: cfg.Cards, sealer: cfg.CardSealer, devices: cfg.Devices}, nil
}

// kioskURL is the kiosk's address for the QR code that phones scan in the
// room, at the configured public address. It never follows the request's
// Host header: a rebinding name or a proxy would end up printed on the
// pairings.
func (s *Pages) kioskURL(tid int64) string { return s.publicURL + route.Path(route.Kiosk, tid) }

// loadPlayers is loadTournament with the tournament's players.
func (s *Pages) loadPlayers(c *gin.Context, active string) (tournament.Tournament, *render.Nav, []tournament.Player, error) {
	t, nav, err := s.loadTournament(c, active)
	if err != nil {
		return tournament.Tournament{}, nil, nil, err
	}
	players, err := s.svc.Players(c.Request.Context(), t.ID)
	return t, nav, players, err
}

// loadTournament reads the :id tournament and builds its navigation, with
// active the part of it the page is.
func (s *Pages) loadTournament(c *gin.Context, active string) (tournament.Tournament, *render.Nav, error) {
	id, err := route.ID(c, "id")
	if err != nil {
		return tournament.Tournament{}, nil, err
	}
	t, err := s.svc.GetTournament(c.Request.Context(), id)
	if err != nil {
		return tournament.Tournament{}, nil, err
	}
	nav, err := s.newNav(c.Request.Context(), t, active)
	return t, nav, err
}

func (s *Pages) newNav(ctx context.Context, t tournament.Tournament, active string) (*render.Nav, error) {
	rounds, err := s.svc.Rounds(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	nav := &render.Nav{ID: t.ID, Name: t.Name, Active: active, Finished: t.Closed != nil, Team: t.Team}
	for _, r := range rounds {
		nav.Rounds = append(nav.Rounds, r.Number)
		if r.Mode == tournament.ModeFinal && nav.Final == 0 {
			nav.Final = r.Number
		}
	}
	nav.Divisions = navDivisions(t, active)
	// Every page of the tournament shows its open judge calls.
	nav.Calls, err = s.callsBadge(ctx, t.ID)
	return nav, err
}
