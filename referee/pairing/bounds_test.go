package pairing

import (
	"errors"
	"fmt"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// No request, however large, may make a pairing allocate without bound.
func TestPairingBounds(t *testing.T) {
	players := func(n int) []Player {
		out := make([]Player, n)
		for i := range out {
			out[i] = Player{ID: fmt.Sprintf("p%05d", i)}
		}
		return out
	}
	tests := []struct {
		name string
		run  func() error
		code string
	}{
		{"players", func() error { _, err := Swiss(Request{Players: players(MaxPlayers + 1)}); return err }, "too-many-players"},
		{"history", func() error {
			_, err := Random(Request{Players: players(4), History: make([][]string, maxHistory+1)})
			return err
		}, "history-too-long"},
		{"schedule", func() error { _, err := DrawSchedule(Request{Players: players(1000)}, 10); return err }, "schedule-too-large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v *referee.Violation
			if err := tt.run(); !errors.As(err, &v) || v.Code != tt.code || !errors.Is(err, referee.ErrInvalid) {
				t.Errorf("error = %v, want a %s violation", err, tt.code)
			}
		})
	}
}
