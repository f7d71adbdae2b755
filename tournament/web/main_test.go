package web

import (
	"testing"

	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestMain stops the PostgreSQL cluster the tests started, if any
// (TestStaffSessionsAcrossServers runs two servers on one).
func TestMain(m *testing.M) { tournamenttest.Main(m) }
