package web

import (
	"net/http"

	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
)

// The internals the external tests (package web_test) read: the route
// table with each route's access and role, the site's parts a test swaps
// (the API's limits, the gates), and the bounds the middleware enforces.

// Site is the server New serves, for the tests that reach inside it.
type Site = site

// RouteEntry is one route of the table, with its group's access.
type RouteEntry = routeEntry

// The accesses the tests tell apart.
const (
	Player = player
	Judge  = judge
)

// The bounds of a request's body and the page's security policy.
const (
	MaxForm               = maxForm
	MaxLoginForm          = maxLoginForm
	ContentSecurityPolicy = contentSecurityPolicy
)

// NewSite builds the site whose router New returns.
func NewSite(deps Deps) (*Site, error) { return newSite(deps) }

// Need is the role a route of the staff needs.
var Need = need

// Routes is the whole route table as one list.
func Routes() []RouteEntry { return (&site{}).routes() }

// Router is the handler the site serves.
func (s *site) Router() http.Handler { return s.router }

// API is the site's JSON API handlers.
func (s *site) API() *api.Handlers { return s.api }

// Compute is the gate of the referee API's work.
func (s *site) Compute() *auth.Gate { return s.compute }

// SetCompute replaces the gate of the referee API's work.
func (s *site) SetCompute(g *auth.Gate) { s.compute = g }

// Reads is the gate of the kiosk's reads.
func (s *site) Reads() *auth.Gate { return s.reads }

// SetReads replaces the gate of the kiosk's reads.
func (s *site) SetReads(g *auth.Gate) { s.reads = g }
