// Package scenario_test plays the tournament service through whole events
// as judges do: the clock and its phases, the tables' placement, the games,
// two consoles racing on one event, and the snapshots two servers share.
// Its tests run again on PostgreSQL (POSTGRES_PKGS in the Makefile).
package scenario_test

import (
	"testing"

	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// console is the judges' console of tournamenttest (a service on a real
// database with a clock that moves a minute per call), with this package's
// helpers as its methods.
type console struct{ *tournamenttest.Console }

func newConsole(t *testing.T) *console { return &console{tournamenttest.NewConsole(t)} }

// newConsoleOn is newConsole on the store st.
func newConsoleOn(t *testing.T, st *store.Store) *console {
	return &console{tournamenttest.NewConsoleOn(t, st)}
}

// newClockConsole is a console whose clock moves only when the test moves it.
func newClockConsole(t *testing.T) *console { return &console{tournamenttest.NewClockConsole(t)} }

// must holds a call's result for OK: must(f()).OK(t).
func must[T any](v T, err error) tournamenttest.Outcome[T] { return tournamenttest.Must(v, err) }

var (
	names     = tournamenttest.Names
	t0        = tournamenttest.T0
	fixTable  = tournamenttest.FixTable
	keepApart = tournamenttest.KeepApart
	rename    = tournamenttest.Rename
	conflict  = tournamenttest.Conflict
)
