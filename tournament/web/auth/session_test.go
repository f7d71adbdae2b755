package auth

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

func TestSetUpHead(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := tournamenttest.NewStore(t)

	file, err := SetUpHead(ctx, st, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, PasswordFile); file != want {
		t.Fatalf("SetUpHead() file = %q, want %q", file, want)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("password file mode = %v, want 0600", perm)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	generated := strings.TrimSpace(string(data))
	if len(generated) < 16 {
		t.Fatalf("generated password %q is short", generated)
	}
	if ok, err := headPassword(ctx, st, generated); err != nil || !ok {
		t.Fatalf("headPassword(generated) = %v, %v; want true", ok, err)
	}

	// A second start keeps the password and points at the same file.
	if again, err := SetUpHead(ctx, st, "", dir); err != nil || again != file {
		t.Fatalf("second SetUpHead() = %q, %v; want %q", again, err, file)
	}
	if ok, _ := headPassword(ctx, st, generated); !ok {
		t.Fatalf("the generated password stopped working after a restart")
	}

	// CATANJUDGE_JUDGE_PASSWORD replaces it, and the stale file goes.
	if file, err := SetUpHead(ctx, st, "chosen-by-organizer", dir); err != nil || file != "" {
		t.Fatalf("SetUpHead(chosen) = %q, %v; want \"\", nil", file, err)
	}
	if _, err := os.Stat(filepath.Join(dir, PasswordFile)); !os.IsNotExist(err) {
		t.Errorf("old password file still there: %v", err)
	}
	if ok, _ := headPassword(ctx, st, generated); ok {
		t.Errorf("the old password still works")
	}
	if ok, _ := headPassword(ctx, st, "chosen-by-organizer"); !ok {
		t.Errorf("the chosen password does not work")
	}
}

// The session keys are made once per data folder, readable by their owner
// only, and read back on every start; a damaged file is refused with what
// to do.
func TestLoadSessionKeys(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	keys, err := LoadSessionKeys(dir)
	if err != nil || len(keys) != sessionKeyBytes {
		t.Fatalf("LoadSessionKeys on a new folder = %d bytes, %v; want %d", len(keys), err, sessionKeyBytes)
	}
	file := filepath.Join(dir, SessionKeyFile)
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("session key file: %v, %v; want mode 0600", info, err)
	}
	again, err := LoadSessionKeys(dir)
	if err != nil || !bytes.Equal(again, keys) {
		t.Errorf("LoadSessionKeys again = %x, %v; want the same keys", again, err)
	}
	if other, _ := LoadSessionKeys(t.TempDir()); bytes.Equal(other, keys) {
		t.Errorf("two data folders got the same keys")
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSessionKeys(dir); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
		t.Errorf("a readable session key file stays %v, want 0600", info.Mode().Perm())
	}
	if err := os.WriteFile(file, []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSessionKeys(dir); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Errorf("LoadSessionKeys on a damaged file = %v, want an error saying to delete it", err)
	}
}

// headPassword reports whether password is the first head account's.
func headPassword(ctx context.Context, acc Accounts, password string) (bool, error) {
	head, err := acc.StaffByName(ctx, tournament.FirstHead)
	if err != nil {
		return false, err
	}
	return PasswordMatches(head.PasswordHash, password), nil
}
