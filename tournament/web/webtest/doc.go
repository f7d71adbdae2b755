// Package webtest is the web tests' harness: a site on the real router
// (web.New) over a real service and a new database of the tests' engine
// (New, Env), a browser with a cookie jar that logs in to staff accounts
// (Browser), a client of the JSON API (APIClient), requests straight to a
// handler (Do, Serve), and the page and seed helpers the tests of several
// packages share (Paired, MustSee, SeedTournament, ...).
//
// Only tests import it: each web package's tests sit beside the package,
// in its external test package (console_test, api_test, ...), and the tests
// of the whole site stay in tournament/web. Importing webtest makes
// password hashing cheap (auth.PasswordCost) for the whole test binary.
package webtest
