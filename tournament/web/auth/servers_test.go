package auth

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// twoServers opens two stores on one new database of engine ("sqlite" or
// "postgres"): two servers of one event.
func twoServers(t *testing.T, engine string) (*store.Store, *store.Store) {
	t.Helper()
	var dsn string
	if engine == "postgres" {
		dsn = tournamenttest.NewPostgresDSN(t)
	} else {
		var err error
		if dsn, err = store.FileDSN(t.TempDir()); err != nil {
			t.Fatal(err)
		}
	}
	return tournamenttest.OpenDSN(t, dsn), tournamenttest.OpenDSN(t, dsn)
}

// Two servers starting at once on an empty database each generate a judge
// password: they agree on one, which the password file of the server
// that kept it holds, and the other server keeps no file of a password
// that does not work.
func TestSetUpHeadRace(t *testing.T) {
	PasswordCost = 4
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			for range 5 {
				a, b := twoServers(t, engine)
				stores := []*store.Store{a, b}
				dirs := []string{t.TempDir(), t.TempDir()}
				files := make([]string, 2)
				var wg sync.WaitGroup
				for i := range stores {
					wg.Go(func() {
						var err error
						if files[i], err = SetUpHead(context.Background(), stores[i], "", dirs[i]); err != nil {
							t.Error(err)
						}
					})
				}
				wg.Wait()
				if (files[0] == "") == (files[1] == "") {
					t.Fatalf("password files %q, want exactly one", files)
				}
				for i, file := range files {
					_, err := os.Stat(filepath.Join(dirs[i], PasswordFile))
					if file == "" {
						if !os.IsNotExist(err) {
							t.Errorf("server %d keeps a password file of a password not stored: %v", i, err)
						}
						continue
					}
					data, err := os.ReadFile(file)
					if err != nil {
						t.Fatal(err)
					}
					for _, st := range stores {
						if ok, err := headPassword(context.Background(), st, strings.TrimSpace(string(data))); !ok || err != nil {
							t.Errorf("the password in %s does not work: %v, %v", file, ok, err)
						}
					}
				}
			}
		})
	}
}

// Every server given one session key signs and reads cookies alike; two
// keys sign apart, and the signing and encryption keys differ.
func TestSharedSessionKeys(t *testing.T) {
	secret := bytes.Repeat([]byte{7}, 32)
	a, err := SharedSessionKeys(secret)
	if err != nil || len(a) != sessionKeyBytes {
		t.Fatalf("SharedSessionKeys = %d bytes, %v; want %d", len(a), err, sessionKeyBytes)
	}
	if b, _ := SharedSessionKeys(bytes.Clone(secret)); !bytes.Equal(a, b) {
		t.Error("one secret gave two sets of keys")
	}
	if c, _ := SharedSessionKeys(bytes.Repeat([]byte{8}, 32)); bytes.Equal(a, c) {
		t.Error("two secrets gave the same keys")
	}
	if bytes.Contains(a[:64], a[64:]) {
		t.Error("the encryption key is part of the signing key")
	}
}

// A session ended, or every session ended, on one server is ended on the
// other once it reads them again (as it does when told by the database);
// a session this server ended meanwhile stays ended.
func TestRereadAcrossServers(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			sa, sb := twoServers(t, engine)
			a, err := New(Config{Settings: sa})
			if err != nil {
				t.Fatal(err)
			}
			b, err := New(Config{Settings: sb})
			if err != nil {
				t.Fatal(err)
			}
			if a.epoch.get() != b.epoch.get() {
				t.Fatalf("two servers started with epochs %s and %s", a.epoch.get(), b.epoch.get())
			}
			exp := time.Now().Add(time.Hour)
			if err := b.ended.end(ctx, sb, "on-b", exp); err != nil {
				t.Fatal(err)
			}
			if err := a.ended.end(ctx, sa, "on-a", exp); err != nil {
				t.Fatal(err)
			}
			if a.ended.has("on-b") {
				t.Fatal("a knew of b's logout before reading")
			}
			if err := a.Reread(ctx); err != nil {
				t.Fatal(err)
			}
			if !a.ended.has("on-b") || !a.ended.has("on-a") {
				t.Errorf("after Reread a has ended on-b %v and on-a %v, want both", a.ended.has("on-b"), a.ended.has("on-a"))
			}
			if err := b.epoch.bump(ctx, sb); err != nil {
				t.Fatal(err)
			}
			if err := a.Reread(ctx); err != nil {
				t.Fatal(err)
			}
			if a.epoch.get() != b.epoch.get() {
				t.Errorf("after b logged every judge out and a read again: epochs %s and %s", a.epoch.get(), b.epoch.get())
			}
		})
	}
}
