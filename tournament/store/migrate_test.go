package store_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// allVersions is every schema version, in order up to
// store.SchemaVersion() (the steps are numbered as their branches were
// given numbers, so a number may be missing until they are merged).
func allVersions() []int {
	out := store.MigrationVersions()
	if out[0] != 1 || out[len(out)-1] != store.SchemaVersion() || !slices.IsSorted(out) {
		panic("the migration steps are not in order")
	}
	return out
}

// A database written before versions were recorded (testdata/
// before-migrations.sql is one, dumped from the program of June 2025:
// no closing of tournaments, no early ends, no turn clock, no ended
// sessions) is brought up to date in place when opened: every row is kept
// and reads as before, the versions are recorded, and what the new columns
// hold can be written.
func TestOpenUpgradesAnOldDatabase(t *testing.T) {
	ctx := context.Background()
	s, dsn := openDump(t, "testdata/before-migrations.sql")
	if got, err := s.AppliedMigrations(ctx); err != nil || !slices.Equal(got, allVersions()) {
		t.Fatalf("AppliedMigrations() = %v, %v; want %v", got, err, allVersions())
	}
	tr, err := s.Tournament(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Name != "6月定例会" || tr.Venue != "秋葉原" || tr.Paired != 1 || tr.Closed != nil {
		t.Errorf("Tournament(1) = %+v, want 6月定例会 at 秋葉原, one round paired, open", tr)
	}
	ps, err := s.Players(ctx, 1)
	if err != nil || len(ps) != 5 || !ps[0].CheckedIn {
		t.Errorf("Players(1) = %+v, %v; want 5 players checked in", ps, err)
	}
	r, err := s.Round(ctx, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tables) != 1 || r.Tables[0].Result == nil || r.Tables[0].Result.EndedEarly || len(r.Byes) != 1 {
		t.Fatalf("Round(1) = %+v, want one table with its result and one bye", r)
	}
	clock, err := s.ClockEvents(ctx, r.ID)
	if err != nil || len(clock) != 2 || clock[1].Reason != "裁定" || clock[1].PlayerID != 0 {
		t.Errorf("ClockEvents() = %+v, %v; want the start and the extension for 裁定", clock, err)
	}
	pens, err := s.Penalties(ctx, 1)
	if err != nil || len(pens) != 1 || pens[0].Judge != "鈴木" {
		t.Errorf("Penalties(1) = %+v, %v; want 鈴木's penalty", pens, err)
	}
	// The shared judge password is the head account's now, and no longer
	// a setting of its own.
	if head, err := s.StaffByName(ctx, tournament.FirstHead); err != nil || head.PasswordHash != "$2a$04$old" ||
		head.Role != tournament.RoleHead || !head.Active {
		t.Errorf("the head account = %+v, %v; want an active head with the old judge password's hash", head, err)
	}
	if hash, err := s.GetSetting(ctx, "judge_password_hash"); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("the judge password hash = %q, %v; want it moved to the head account", hash, err)
	}
	// The columns and tables added since hold what is written now.
	if err := s.SetClosed(ctx, 1, &tournament.Closure{Judge: "山田", At: t0}, change(tournament.ActionClose)); err != nil {
		t.Fatal(err)
	}
	if tr, err := s.Tournament(ctx, 1); err != nil || tr.Closed == nil || tr.Closed.Judge != "山田" {
		t.Errorf("after SetClosed: %+v, %v; want closed by 山田", tr.Closed, err)
	}
	if err := s.EndSession(ctx, "session-1", t0.AddDate(10, 0, 0)); err != nil {
		t.Fatal(err)
	}
	log, err := s.AuditLog(ctx, 1)
	if err != nil || len(log) < 10 || log[0].Action != tournament.ActionClose {
		t.Errorf("AuditLog(1): %d lines, latest %+v, %v; want the old lines and the close", len(log), log[0], err)
	}
	s.Close()
	// Opening again applies nothing twice.
	s = tournamenttest.OpenDSN(t, dsn)
	if got, err := s.AppliedMigrations(ctx); err != nil || !slices.Equal(got, allVersions()) {
		t.Errorf("AppliedMigrations() after a second Open = %v, %v; want %v", got, err, allVersions())
	}
}

// openDump writes the SQLite dump in file into a new database and opens
// it, as the program opens a data folder's: migrated.
func openDump(t *testing.T, file string) (*store.Store, string) {
	t.Helper()
	dir := t.TempDir()
	dump, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite3", filepath.Join(dir, "catanjudge.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(string(dump)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tournamenttest.OpenDSN(t, dsn), dsn
}

// A new database records every version; one that a newer program migrated
// further is refused, since this one would not write what that expects.
func TestOpenRefusesANewerSchema(t *testing.T) {
	ctx := context.Background()
	dsn := tournamenttest.NewDSN(t)
	s := tournamenttest.OpenDSN(t, dsn)
	if got, err := s.AppliedMigrations(ctx); err != nil || !slices.Equal(got, allVersions()) {
		t.Fatalf("AppliedMigrations() = %v, %v; want %v", got, err, allVersions())
	}
	if err := store.RecordMigration(s, store.SchemaVersion()+1, "from the future"); err != nil {
		t.Fatal(err)
	}
	_, err := store.Open(ctx, dsn)
	if err == nil || !strings.Contains(err.Error(), "newer Catan Judge") {
		t.Errorf("Open(a newer schema) error = %v, want it refused as written by a newer Catan Judge", err)
	}
}

// Steps are numbered as they are planned and may land out of order: a
// database that recorded a later step but not an earlier one (the earlier
// step landed after it) gets the earlier step when opened, not only the
// steps above its highest.
func TestOpenAppliesAStepMissedBelowTheHighest(t *testing.T) {
	ctx := context.Background()
	dsn := tournamenttest.NewDSN(t)
	s := tournamenttest.OpenDSN(t, dsn)
	versions := allVersions()
	missed := versions[len(versions)-2]
	if err := store.Exec(s, "DELETE FROM schema_migrations WHERE version = "+strconv.Itoa(missed)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.AppliedMigrations(ctx); slices.Contains(got, missed) {
		t.Fatalf("step %d still recorded after deleting it: %v", missed, got)
	}
	s.Close()
	s = tournamenttest.OpenDSN(t, dsn)
	if got, err := s.AppliedMigrations(ctx); err != nil || !slices.Equal(got, versions) {
		t.Errorf("AppliedMigrations() after opening = %v, %v; want %v (step %d applied)", got, err, versions, missed)
	}
}
