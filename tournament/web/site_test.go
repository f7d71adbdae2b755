package web

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
	"github.com/catanjudge/catanjudge/tournament/web/auth"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

const testPassword = "correct horse battery"

// A cheap hash keeps the many logins of these tests fast under -race; the
// cost is the hash's, not the login code's, so nothing tested changes.
func init() { auth.PasswordCost = bcrypt.MinCost }

// consoleEnv is the whole site over a real service on a new database of
// the tests' engine, with the head account (tournament.FirstHead) of the
// password testPassword, the accounts its tests log in to made with the
// same password (account), and the API token
// "test-token", served by httptest so cookies and redirects behave as in a
// browser; h serves requests straight to the router as well. newConsoleEnv
// is the one way the web tests start a site.
type consoleEnv struct {
	t   testing.TB
	ctx context.Context
	srv *httptest.Server
	svc *tournament.Service
	st  *store.Store
	h   http.Handler
	// deps are what the site was built from, for a restart (newHandler).
	deps Deps
	// broker carries the committed changes to the live feeds (withLive).
	broker *live.Broker
	// ahead is how far the service's clock runs ahead of the wall clock,
	// so that a test can let a round's time run out (timeUp).
	ahead atomic.Int64
	// keys are the session keys, as serve reads them from the data folder.
	keys []byte
}

// siteSetup is what a siteOption changes of the site newConsoleEnv starts.
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

type siteOption func(*siteSetup)

// withLive wires the live feed as serve does: the store's after-commit
// hook feeds the site's broker (consoleEnv.broker).
func withLive() siteOption { return func(s *siteSetup) { s.live = true } }

// atClock gives the service the clock now instead of the wall clock (and
// timeUp no longer moves it).
func atClock(now func() time.Time) siteOption { return func(s *siteSetup) { s.now = now } }

// onStore serves the service from st and the site's settings from
// settings, opened by the test (on a file it damages, say), with the
// broker its after-commit hook feeds, if any.
func onStore(st tournament.Store, settings *store.Store, broker *live.Broker) siteOption {
	return func(s *siteSetup) { s.store, s.settings, s.broker = st, settings, broker }
}

// withRulesets gives the site rulesets besides the built-in ones the
// service knows.
func withRulesets(rs *config.Rulesets) siteOption { return func(s *siteSetup) { s.rulesets = rs } }

// inZone shows the pages' times in loc instead of the machine's zone.
func inZone(loc *time.Location) siteOption { return func(s *siteSetup) { s.location = loc } }

// withPublicURL sets the address the kiosk's QR codes point at.
func withPublicURL(u string) siteOption { return func(s *siteSetup) { s.publicURL = u } }

// newConsoleEnv starts a site over a real service, as opts say.
func newConsoleEnv(tb testing.TB, opts ...siteOption) *consoleEnv {
	tb.Helper()
	e := &consoleEnv{t: tb, ctx: context.Background()}
	setup := siteSetup{now: func() time.Time { return time.Now().Add(time.Duration(e.ahead.Load())) }}
	for _, o := range opts {
		o(&setup)
	}
	e.broker = setup.broker
	if setup.store == nil {
		var stOpts []store.Option
		if setup.live {
			e.broker = live.NewBroker(0, 0)
			stOpts = append(stOpts, store.WithAfterCommit(e.broker.Committed))
		}
		st := tournamenttest.NewStore(tb, stOpts...)
		setup.store, setup.settings = st, st
	}
	e.st = setup.settings
	e.svc = tournamenttest.NewServiceOn(tb, setup.store, setup.now)
	dir := tb.TempDir()
	if _, err := auth.SetUpHead(e.ctx, e.st, testPassword, dir); err != nil {
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
	e.keys = keys
	e.deps = Deps{Rulesets: rulesets, Service: e.svc, Settings: e.st, Cards: e.st, SessionKeys: keys, APIToken: "test-token",
		PublicURL: setup.publicURL, Broker: e.broker, Location: setup.location}
	e.h = e.newHandler()
	e.srv = httptest.NewServer(e.h)
	tb.Cleanup(e.srv.Close)
	return e
}

// newHandler builds the site again from the same parts, as a restart of
// the program over the same data folder does.
func (e *consoleEnv) newHandler() http.Handler {
	e.t.Helper()
	h, err := New(e.deps)
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

// timeUp starts round n's clock, unless it has started, and moves the
// service's clock past the game time, so that the tables without a result
// end by time (§12).
func (e *consoleEnv) timeUp(tid int64, n int) {
	e.t.Helper()
	v, err := e.svc.RoundView(e.ctx, tid, n)
	if err != nil {
		e.t.Fatal(err)
	}
	clk := v.Timer
	if clk.State == tournament.ClockReady {
		if clk, err = e.svc.ClockAction(e.ctx, "setup", tid, n, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
			e.t.Fatal(err)
		}
	}
	e.ahead.Add(int64(clk.GameLength + clk.Extension + time.Hour))
}

// account returns the staff account named name, made with the role role
// and the password testPassword when there is none yet.
func (e *consoleEnv) account(name string, role tournament.Role) tournament.Staff {
	e.t.Helper()
	if st, err := e.st.StaffByName(e.ctx, name); err == nil {
		return st
	}
	hash, err := auth.HashPassword(testPassword)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := e.svc.AddStaff(e.ctx, "setup", tournament.StaffInput{Name: name, Role: role}, hash)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}
