package api_test

import (
	"testing"

	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// TestMain stops the PostgreSQL cluster the tests started, if any: on
// CATANJUDGE_TEST_DATABASE=postgres, webtest's sites are on PostgreSQL.
func TestMain(m *testing.M) { tournamenttest.Main(m) }
