package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// damagedFolder returns a data folder whose database holds 300 players
// and then has every page after the first two overwritten, as a failing
// disk or a stray write would leave it; st is still open on it.
func damagedFolder(t *testing.T) (dir string, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = store.Open(ctx, dsn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tr := tournament.Tournament{Name: "土曜カタン大会", Ruleset: preset(t), Rounds: 3, GameMinutes: 7}
	if err := st.CreateTournament(ctx, &tr, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	var ps []*tournament.Player
	for i := range 300 {
		ps = append(ps, &tournament.Player{TournamentID: tr.ID, Name: fmt.Sprintf("選手%03d さん", i)})
	}
	if err := st.AddPlayers(ctx, ps, tournament.Progress{}, change("player.import")); err != nil {
		t.Fatal(err)
	}
	if err := st.Check(ctx); err != nil {
		t.Fatalf("Check on a sound database = %v", err)
	}
	tournamenttest.Damage(t, dir)
	return dir, st
}

// A damaged database is found by Check while the server runs, and refused
// by Open at start-up with what to do about it; so is a file that is not a
// database at all.
func TestCheckFindsADamagedDatabase(t *testing.T) {
	ctx := context.Background()
	dir, st := damagedFolder(t)
	if err := st.Check(ctx); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("Check on a damaged database = %v, want ErrDamaged", err)
	}
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(ctx, dsn); !errors.Is(err, store.ErrDamaged) || !strings.Contains(err.Error(), "backup") ||
		!strings.Contains(err.Error(), store.DatabaseFile(dir)) {
		t.Errorf("Open on a damaged database = %v, want ErrDamaged naming the file and the backup", err)
	}

	junk := t.TempDir()
	if err := os.WriteFile(store.DatabaseFile(junk), []byte(strings.Repeat("not a database\n", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	if dsn, err = store.FileDSN(junk); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(ctx, dsn); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("Open on a file that is not a database = %v, want ErrDamaged", err)
	}
}
