package store_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// A batch of players' cards is kept sealed until it expires: it reads back
// as stored with its tournament's batches only, those not printed first,
// each group in the order kept or printed; printing one marks it and gives
// it its new expiry (a batch printed before, or of another tournament, is
// left as it is); an expired one is deleted when the next batch is kept or
// the batches are read; deleting the tournament takes its batches.
func TestCardBatches(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	s := f.s
	sealed := func(name string) []byte { return []byte("sealed " + name) }
	keep := func(name string, tid int64, expires, now time.Time) {
		t.Helper()
		if err := s.KeepCards(ctx, name, tid, sealed(name), expires, now); err != nil {
			t.Fatal(err)
		}
	}
	day := 24 * time.Hour
	keep("batch-a", f.t.ID, t0.Add(day), t0)
	keep("batch-b", f.t.ID, t0.Add(day+time.Minute), t0.Add(time.Minute))
	keep("batch-c", f.t.ID, t0.Add(day+2*time.Minute), t0.Add(2*time.Minute))
	if err := s.KeepCards(ctx, "batch-a", f.t.ID, sealed("again"), t0.Add(day), t0); err == nil {
		t.Error("a second batch under a name taken was kept")
	}
	read := func(what string, tid int64, at time.Time, want ...string) {
		t.Helper()
		got, err := s.CardBatches(ctx, tid, at)
		if err != nil {
			t.Fatalf("CardBatches(%s): %v", what, err)
		}
		var names []string
		for _, b := range got {
			name := b.Name
			if b.Printed {
				name += " printed"
			}
			names = append(names, name)
			if !bytes.Equal(b.Sealed, sealed(b.Name)) {
				t.Errorf("CardBatches(%s): %s reads %q, want %q", what, b.Name, b.Sealed, sealed(b.Name))
			}
		}
		if !slices.Equal(names, want) {
			t.Errorf("CardBatches(%s) = %v, want %v", what, names, want)
		}
	}
	read("as kept", f.t.ID, t0.Add(3*time.Minute), "batch-a", "batch-b", "batch-c")
	read("another tournament", f.t.ID+1, t0, []string(nil)...)
	printed := t0.Add(10 * time.Minute)
	if err := s.PrintCards(ctx, f.t.ID, []string{"batch-c", "batch-a", "batch-x"}, printed.Add(30*time.Minute), printed); err != nil {
		t.Fatal(err)
	}
	if err := s.PrintCards(ctx, f.t.ID+1, []string{"batch-b"}, printed.Add(30*time.Minute), printed); err != nil {
		t.Fatal(err)
	}
	read("printed", f.t.ID, printed, "batch-b", "batch-a printed", "batch-c printed")
	// Printed again, a batch keeps the expiry of its first printing.
	if err := s.PrintCards(ctx, f.t.ID, []string{"batch-a"}, printed.Add(day), printed.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	read("half an hour after printing", f.t.ID, printed.Add(30*time.Minute), "batch-b")
	read("a day after", f.t.ID, t0.Add(day+time.Minute), []string(nil)...)
	// Read once expired, the batches are gone for good, earlier clocks too.
	read("gone", f.t.ID, t0, []string(nil)...)
	// A tournament deleted before it started takes its batches with it.
	fresh := tournament.Tournament{Name: "中止した大会", Ruleset: preset(t), Rounds: 3, GameMinutes: 7}
	if err := s.CreateTournament(ctx, &fresh, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	if err := s.KeepCards(ctx, "batch-d", fresh.ID, sealed("batch-d"), t0.Add(90*time.Minute), t0.Add(60*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTournament(ctx, fresh.ID, change("tournament.delete")); err != nil {
		t.Fatal(err)
	}
	if n, err := store.Count(s, "card_batches"); err != nil || n != 0 {
		t.Errorf("card batches after the tournament's deletion: %d, %v; want none", n, err)
	}
}
