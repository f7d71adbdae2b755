package referee_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// A top cut's stages: the tables each fills and how many advance from each
// table (an equal number); another final has none.
func TestEventStages(t *testing.T) {
	tests := []struct {
		e    referee.EventFormat
		want []referee.Stage
	}{
		{referee.EventFormat{Final: referee.TopCut, Cut: []int{4}}, []referee.Stage{{Players: 4, Tables: 1}}},
		{referee.EventFormat{Final: referee.TopCut, Cut: []int{16, 4}}, []referee.Stage{{16, 4, 1}, {4, 1, 0}}},
		{referee.EventFormat{Final: referee.TopCut, Cut: []int{48, 12, 3}}, []referee.Stage{{48, 12, 1}, {12, 3, 1}, {3, 1, 0}}},
		{referee.EventFormat{Final: referee.TopCut, Cut: []int{32, 16, 4}}, []referee.Stage{{32, 8, 2}, {16, 4, 1}, {4, 1, 0}}},
		{referee.EventFormat{Final: referee.NoFinal}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.e.Stages()); diff != "" {
			t.Errorf("Stages(%v) (-want +got):\n%s", tt.e.Cut, diff)
		}
	}
}

// The placement phase gives each player two settlements (national rules:
// 8 minutes at 4 players, 6 at 3).
func TestPlacementFor(t *testing.T) {
	tm := referee.Timing{PlacementSeconds: 60}
	if got := tm.PlacementFor(4); got != 480 {
		t.Errorf("PlacementFor(4) = %d, want 480", got)
	}
	if got := tm.PlacementFor(3); got != 360 {
		t.Errorf("PlacementFor(3) = %d, want 360", got)
	}
	if got := (referee.Timing{}).PlacementFor(4); got != 0 {
		t.Errorf("PlacementFor(4) without a placement phase = %d, want 0", got)
	}
}
