package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/catanjudge/catanjudge/tournament"
)

// TestAddPlayers imports more players than one INSERT carries: each gets
// its ID, in order, and the import is one audit entry.
func TestAddPlayers(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	tr := tournament.Tournament{Name: "大会", Ruleset: preset(t), Rounds: 3}
	if err := s.CreateTournament(ctx, &tr, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	var ps []*tournament.Player
	for i := range 1234 {
		ps = append(ps, &tournament.Player{TournamentID: tr.ID, Name: fmt.Sprintf("選手%04d", i), Kana: fmt.Sprintf("せんしゅ%04d", i), FixedTable: i % 3, LateEntryRound: 2})
	}
	if err := s.AddPlayers(ctx, ps, tournament.Progress{}, change("player.import")); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		got, err := s.Player(ctx, p.ID)
		if err != nil || got.Name != p.Name || got.FixedTable != i%3 || got.LateEntryRound != 2 {
			t.Fatalf("player %d (ID %d) reads back as %+v (%v)", i, p.ID, got, err)
		}
	}
	entries, err := s.AuditLog(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Action != "player.import" {
		t.Errorf("audit log has %d entries, latest %q; want the creation and one import", len(entries), entries[0].Action)
	}

	// Players of two tournaments in one import are refused, and nothing is written.
	other := tournament.Tournament{Name: "別の大会", Ruleset: preset(t), Rounds: 3}
	if err := s.CreateTournament(ctx, &other, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	mixed := []*tournament.Player{{TournamentID: other.ID, Name: "A"}, {TournamentID: tr.ID, Name: "B"}}
	if err := s.AddPlayers(ctx, mixed, tournament.Progress{}, change("player.import")); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("AddPlayers(two tournaments) error = %v, want ErrInvalid", err)
	}
	if got, _ := s.Players(ctx, other.ID); len(got) != 0 {
		t.Errorf("after the refused import tournament %d has %d players", other.ID, len(got))
	}
}
