package scenario_test

import (
	"testing"

	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestMain stops the PostgreSQL cluster the tests started, if any.
func TestMain(m *testing.M) { tournamenttest.Main(m) }
