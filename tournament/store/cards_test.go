package store_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// A batch of players' cards is kept sealed until it expires: it reads back
// as stored by its name and tournament only, an expired one reads as not
// found and is deleted when the next batch is kept, and deleting the
// tournament takes its batches.
func TestCardBatches(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	s := f.s
	sealed := []byte{0, 1, 2, 0xff}
	if err := s.KeepCards(ctx, "batch-a", f.t.ID, sealed, t0.Add(30*time.Minute), t0); err != nil {
		t.Fatal(err)
	}
	if err := s.KeepCards(ctx, "batch-a", f.t.ID, sealed, t0.Add(30*time.Minute), t0); err == nil {
		t.Error("a second batch under a name taken was kept")
	}
	for _, tc := range []struct {
		what, name string
		tid        int64
		at         time.Time
		found      bool
	}{
		{"before it expires", "batch-a", f.t.ID, t0.Add(29 * time.Minute), true},
		{"another name", "batch-b", f.t.ID, t0, false},
		{"another tournament", "batch-a", f.t.ID + 1, t0, false},
		{"once it expired", "batch-a", f.t.ID, t0.Add(30 * time.Minute), false},
	} {
		got, err := s.Cards(ctx, tc.name, tc.tid, tc.at)
		switch {
		case tc.found && (err != nil || !bytes.Equal(got, sealed)):
			t.Errorf("Cards(%s) = %x, %v; want %x", tc.what, got, err, sealed)
		case !tc.found && !errors.Is(err, tournament.ErrNotFound):
			t.Errorf("Cards(%s) = %x, %v; want not found", tc.what, got, err)
		}
	}
	// Read once expired, the batch is gone for good, earlier clocks too.
	if _, err := s.Cards(ctx, "batch-a", f.t.ID, t0); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("Cards(an expired batch, read again) = %v, want deleted", err)
	}
	// A tournament deleted before it started takes its batches with it.
	fresh := tournament.Tournament{Name: "中止した大会", Ruleset: preset(t), Rounds: 3, GameMinutes: 7}
	if err := s.CreateTournament(ctx, &fresh, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	if err := s.KeepCards(ctx, "batch-c", fresh.ID, sealed, t0.Add(90*time.Minute), t0.Add(60*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTournament(ctx, fresh.ID, change("tournament.delete")); err != nil {
		t.Fatal(err)
	}
	if n, err := store.Count(s, "card_batches"); err != nil || n != 0 {
		t.Errorf("card batches after the tournament's deletion: %d, %v; want none", n, err)
	}
}
