package auth

import (
	"testing"

	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

func TestMain(m *testing.M) { tournamenttest.Main(m) }
