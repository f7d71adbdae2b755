package tournamenttest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/catanjudge/catanjudge/tournament/store/pgtest"
)

// envRequireFaults makes the fault tests fail, not skip, where they
// cannot make their fault (a small disk needs root).
const envRequireFaults = "CATANJUDGE_REQUIRE_FAULTS"

// SmallDisk returns a new folder on a disk of its own of size bytes (a
// tmpfs, unmounted when the test ends), to fill: a disk that really runs
// full. Mounting needs root on Linux: elsewhere the test is skipped,
// unless CATANJUDGE_REQUIRE_FAULTS is 1.
func SmallDisk(t testing.TB, size int) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		if os.Getenv(envRequireFaults) == "1" {
			t.Fatal("a small disk is mounted as root")
		}
		t.Skip("a small disk is mounted as root")
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(size)+",mode=0700", "tmpfs", dir).CombinedOutput()
	if err != nil {
		if os.Getenv(envRequireFaults) == "1" {
			t.Fatalf("mount a small disk: %v\n%s", err, out)
		}
		t.Skipf("mount a small disk: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("unmount the small disk: %v\n%s", err, out)
		}
	})
	return dir
}

// FillDisk writes a file in dir until its disk is full, and returns the
// function that deletes it, freeing the space.
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for len(chunk) > 0 {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			chunk = chunk[:len(chunk)/2] // the last pages, to the last byte
		}
	}
	if err := f.Close(); err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}

// OwnPostgres starts a PostgreSQL cluster for the test alone, to stop and
// start again (Cluster.Pause, Cluster.Resume), stopped when the test ends,
// with a migrated database, whose URL it returns. It skips the test when
// PostgreSQL is not installed, unless CATANJUDGE_REQUIRE_POSTGRES is 1.
func OwnPostgres(t testing.TB) (*pgtest.Cluster, string) {
	t.Helper()
	c, err := pgtest.Start(context.Background())
	switch {
	case errors.Is(err, pgtest.ErrMissing) && os.Getenv(envRequirePostgres) != "1":
		t.Skip(err)
	case err != nil:
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Errorf("stop the PostgreSQL cluster: %v", err)
		}
	})
	dsn, err := c.CreateDatabase(context.Background(), "catanjudge", "")
	if err != nil {
		t.Fatal(err)
	}
	return c, dsn
}
