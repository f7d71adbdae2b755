package webtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

const Password = "correct horse battery"

// A cheap hash keeps the many logins of these tests fast under -race; the
// cost is the hash's, not the login code's, so nothing tested changes.
func init() { auth.PasswordCost = bcrypt.MinCost }

// Env is the whole site over a real service on a new database of
// the tests' engine, with the head account (tournament.FirstHead) of the
// password Password, the accounts its tests log in to made with the
// same password (Account), and the API token
// "test-token", served by httptest so cookies and redirects behave as in a
// browser; Handler serves requests straight to the router as well. New
// is the one way the web tests start a site.
type Env struct {
	TB      testing.TB
	Ctx     context.Context
	Server  *httptest.Server
	Service *tournament.Service
	Store   *store.Store
	Handler http.Handler
	// Deps are what the site was built from, for a restart (NewHandler).
	Deps web.Deps
	// Broker carries the committed changes to the live feeds (WithLive).
	Broker *live.Broker
	// Ahead is how far the service's clock runs ahead of the wall clock,
	// so that a test can let a round's time run out (TimeUp).
	Ahead atomic.Int64
	// Keys are the session keys, as serve reads them from the data folder.
	Keys []byte
}

// siteSetup is what an Option changes of the site New starts.
type siteSetup struct {
	now       func() time.Time
	live      bool
	broker    *live.Broker
	store     tournament.Store
	settings  *store.Store
	rulesets  *config.Rulesets
	publicURL string
	location  *time.Location
}

type Option func(*siteSetup)

// WithLive wires the live feed as serve does: the store's after-commit
// hook feeds the site's broker (Env.Broker).
func WithLive() Option { return func(s *siteSetup) { s.live = true } }

// AtClock gives the service the clock now instead of the wall clock (and
// TimeUp no longer moves it).
func AtClock(now func() time.Time) Option { return func(s *siteSetup) { s.now = now } }

// OnStore serves the service from st and the site's settings from
// settings, opened by the test (on a file it damages, say), with the
// broker its after-commit hook feeds, if any.
func OnStore(st tournament.Store, settings *store.Store, broker *live.Broker) Option {
	return func(s *siteSetup) { s.store, s.settings, s.broker = st, settings, broker }
}

// WithRulesets gives the site rulesets besides the built-in ones the
// service knows.
func WithRulesets(rs *config.Rulesets) Option { return func(s *siteSetup) { s.rulesets = rs } }

// InZone shows the pages' times in loc instead of the machine's zone.
func InZone(loc *time.Location) Option { return func(s *siteSetup) { s.location = loc } }

// WithPublicURL sets the address the kiosk's QR codes point at.
func WithPublicURL(u string) Option { return func(s *siteSetup) { s.publicURL = u } }

// New starts a site over a real service, as opts say.
func New(tb testing.TB, opts ...Option) *Env {
	tb.Helper()
	e := &Env{TB: tb, Ctx: context.Background()}
	setup := siteSetup{now: func() time.Time { return time.Now().Add(time.Duration(e.Ahead.Load())) }}
	for _, o := range opts {
		o(&setup)
	}
	e.Broker = setup.broker
	if setup.store == nil {
		var stOpts []store.Option
		if setup.live {
			e.Broker = live.NewBroker(0, 0)
			stOpts = append(stOpts, store.WithAfterCommit(e.Broker.Committed))
		}
		st := tournamenttest.NewStore(tb, stOpts...)
		setup.store, setup.settings = st, st
	}
	e.Store = setup.settings
	e.Service = tournamenttest.NewServiceOn(tb, setup.store, setup.now)
	dir := tb.TempDir()
	if _, err := auth.SetUpHead(e.Ctx, e.Store, Password, dir); err != nil {
		tb.Fatal(err)
	}
	keys, err := auth.LoadSessionKeys(dir)
	if err != nil {
		tb.Fatal(err)
	}
	rulesets := setup.rulesets
	if rulesets == nil {
		rulesets = tournamenttest.Rulesets(tb)
	}
	e.Keys = keys
	e.Deps = web.Deps{Rulesets: rulesets, Service: e.Service, Settings: e.Store, Cards: e.Store, SessionKeys: keys, APIToken: "test-token",
		PublicURL: setup.publicURL, Broker: e.Broker, Location: setup.location}
	e.Handler = e.NewHandler()
	e.Server = httptest.NewServer(e.Handler)
	tb.Cleanup(e.Server.Close)
	return e
}

// NewHandler builds the site again from the same parts, as a restart of
// the program over the same data folder does.
func (e *Env) NewHandler() http.Handler {
	e.TB.Helper()
	h, err := web.New(e.Deps)
	if err != nil {
		e.TB.Fatal(err)
	}
	return h
}

// TimeUp starts round n's clock, unless it has started, and moves the
// service's clock past the game time, so that the tables without a result
// end by time (§12).
func (e *Env) TimeUp(tid int64, n int) {
	e.TB.Helper()
	v, err := e.Service.RoundView(e.Ctx, tid, n)
	if err != nil {
		e.TB.Fatal(err)
	}
	clk := v.Timer
	if clk.State == tournament.ClockReady {
		if clk, err = e.Service.ClockAction(e.Ctx, "setup", tid, n, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
			e.TB.Fatal(err)
		}
	}
	e.Ahead.Add(int64(clk.GameLength + clk.Extension + time.Hour))
}

// Account returns the staff account named name, made with the role role
// and the password Password when there is none yet.
func (e *Env) Account(name string, role tournament.Role) tournament.Staff {
	e.TB.Helper()
	if st, err := e.Store.StaffByName(e.Ctx, name); err == nil {
		return st
	}
	hash, err := auth.HashPassword(Password)
	if err != nil {
		e.TB.Fatal(err)
	}
	st, err := e.Service.AddStaff(e.Ctx, "setup", tournament.StaffInput{Name: name, Role: role}, hash)
	if err != nil {
		e.TB.Fatal(err)
	}
	return st
}
