// Package browser holds the browser tests: each boots a real server
// (sitetest.BrowserSite, sitetest.ServeAt) on a free port over its own
// data folder and drives it in headless Chromium with its own profile.
// A new *_browser_test.go goes here.
package browser

import (
	"testing"

	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestMain stops the PostgreSQL cluster the tests started, if any.
func TestMain(m *testing.M) { tournamenttest.Main(m) }
