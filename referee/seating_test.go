package referee_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// rulesRolls builds one round of rolls from "player white blue" triples,
// e.g. rulesRolls("a", 3, 4, "b", 6, 6).
func rulesRolls(args ...any) []referee.Roll {
	var round []referee.Roll
	for i := 0; i+2 < len(args); i += 3 {
		round = append(round, referee.Roll{
			Player:      args[i].(string),
			CapsuleRoll: referee.CapsuleRoll{White: args[i+1].(int), Blue: args[i+2].(int)},
		})
	}
	return round
}

// rulesSeats builds the expected seats for players in play order.
func rulesSeats(players ...string) []referee.Seat {
	colors := []referee.Color{referee.Red, referee.Blue, referee.Yellow, referee.Green}
	seats := make([]referee.Seat, len(players))
	for i, p := range players {
		seats[i] = referee.Seat{Player: p, Order: i + 1, Color: colors[i]}
	}
	return seats
}

func TestSeatTable(t *testing.T) {
	tests := []struct {
		name   string
		rounds [][]referee.Roll
		want   []referee.Seat
	}{
		{
			name:   "descending sums, colours by play order",
			rounds: [][]referee.Roll{rulesRolls("a", 1, 2, "b", 6, 5, "c", 4, 4, "d", 2, 3)},
			want:   rulesSeats("b", "c", "d", "a"),
		},
		{
			name:   "the sum counts, not either die",
			rounds: [][]referee.Roll{rulesRolls("a", 6, 1, "b", 4, 4, "c", 1, 5)},
			want:   rulesSeats("b", "a", "c"),
		},
		{
			name:   "a 3-player table uses the first three colours",
			rounds: [][]referee.Roll{rulesRolls("a", 1, 1, "b", 2, 2, "c", 3, 3)},
			want:   rulesSeats("c", "b", "a"),
		},
		{
			name: "a tie re-rolled orders only the tied players",
			rounds: [][]referee.Roll{
				rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3, "d", 1, 2),
				rulesRolls("a", 2, 3, "c", 4, 4),
			},
			want: rulesSeats("b", "c", "a", "d"),
		},
		{
			name: "a high re-roll does not jump over a player outside the tie",
			rounds: [][]referee.Roll{
				rulesRolls("a", 3, 4, "b", 5, 5, "c", 4, 3, "d", 1, 1),
				rulesRolls("a", 6, 6, "c", 1, 1),
			},
			want: rulesSeats("b", "a", "c", "d"),
		},
		{
			name: "two tied groups re-roll in one round",
			rounds: [][]referee.Roll{
				rulesRolls("a", 4, 4, "b", 5, 3, "c", 2, 2, "d", 1, 3),
				rulesRolls("a", 1, 2, "b", 3, 3, "c", 1, 1, "d", 2, 3),
			},
			want: rulesSeats("b", "a", "d", "c"),
		},
		{
			name: "two tied groups re-roll in separate rounds",
			rounds: [][]referee.Roll{
				rulesRolls("a", 4, 4, "b", 5, 3, "c", 2, 2, "d", 1, 3),
				rulesRolls("d", 2, 3, "c", 1, 1),
				rulesRolls("b", 3, 3, "a", 1, 2),
			},
			want: rulesSeats("b", "a", "d", "c"),
		},
		{
			name: "a group that ties again re-rolls again",
			rounds: [][]referee.Roll{
				rulesRolls("a", 3, 3, "b", 2, 4, "c", 1, 5, "d", 1, 1),
				rulesRolls("a", 2, 2, "b", 1, 3, "c", 6, 3),
				rulesRolls("a", 1, 1, "b", 3, 2),
			},
			want: rulesSeats("c", "b", "a", "d"),
		},
		{
			name: "a whole table tied",
			rounds: [][]referee.Roll{
				rulesRolls("a", 3, 3, "b", 2, 4, "c", 1, 5, "d", 5, 1),
				rulesRolls("a", 1, 1, "b", 2, 1, "c", 2, 2, "d", 6, 6),
			},
			want: rulesSeats("d", "c", "b", "a"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.SeatTable(rulesPreset(), tt.rounds)
			if err != nil {
				t.Fatalf("SeatTable(%v) error = %v", tt.rounds, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SeatTable(%v) = %v, want %v (-want +got):\n%s", tt.rounds, got, tt.want, diff)
			}
			ties, err := referee.Rerolls(tt.rounds)
			if err != nil || ties != nil {
				t.Errorf("Rerolls(%v) = %v, %v, want nil, nil", tt.rounds, ties, err)
			}
		})
	}
}

func TestSeatTableTie(t *testing.T) {
	tests := []struct {
		name    string
		rounds  [][]referee.Roll
		want    [][]string
		message string
	}{
		{
			name:    "a tie in the first round",
			rounds:  [][]referee.Roll{rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3, "d", 1, 2)},
			want:    [][]string{{"a", "c"}},
			message: "tied rolls: a and c must re-roll",
		},
		{
			name:    "two groups, in play order of the places they contest",
			rounds:  [][]referee.Roll{rulesRolls("a", 1, 1, "b", 5, 4, "c", 1, 1, "d", 4, 5)},
			want:    [][]string{{"b", "d"}, {"a", "c"}},
			message: "tied rolls: b and d must re-roll; a and c must re-roll",
		},
		{
			name:    "three tied",
			rounds:  [][]referee.Roll{rulesRolls("a", 2, 2, "b", 1, 3, "c", 3, 1, "d", 6, 6)},
			want:    [][]string{{"a", "b", "c"}},
			message: "tied rolls: a, b and c must re-roll",
		},
		{
			name: "one group re-rolled, the other still waiting",
			rounds: [][]referee.Roll{
				rulesRolls("a", 1, 1, "b", 5, 4, "c", 1, 1, "d", 4, 5),
				rulesRolls("b", 1, 2, "d", 1, 1),
			},
			want:    [][]string{{"a", "c"}},
			message: "tied rolls: a and c must re-roll",
		},
		{
			name: "a re-roll that ties again keeps the first round's order",
			rounds: [][]referee.Roll{
				rulesRolls("a", 2, 2, "b", 1, 3, "c", 3, 1, "d", 6, 6),
				rulesRolls("c", 5, 5, "b", 2, 3, "a", 4, 1),
			},
			want:    [][]string{{"a", "b"}},
			message: "tied rolls: a and b must re-roll",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.SeatTable(rulesPreset(), tt.rounds)
			var te *referee.TieError
			if !errors.As(err, &te) {
				t.Fatalf("SeatTable(%v) = %v, %v, want a *TieError", tt.rounds, got, err)
			}
			if diff := cmp.Diff(tt.want, te.Groups); diff != "" {
				t.Errorf("SeatTable(%v) tied groups = %v, want %v", tt.rounds, te.Groups, tt.want)
			}
			if err.Error() != tt.message {
				t.Errorf("SeatTable(%v) error = %q, want %q", tt.rounds, err, tt.message)
			}
			if errors.Is(err, referee.ErrInvalid) {
				t.Errorf("SeatTable(%v) error %q wraps ErrInvalid, want a tie only", tt.rounds, err)
			}
			if want := slices.Concat(tt.want...); !slices.Equal(te.Players(), want) {
				t.Errorf("TieError.Players() = %v, want %v", te.Players(), want)
			}
			ties, err := referee.Rerolls(tt.rounds)
			if err != nil {
				t.Fatalf("Rerolls(%v) error = %v", tt.rounds, err)
			}
			if diff := cmp.Diff(tt.want, ties); diff != "" {
				t.Errorf("Rerolls(%v) = %v, want %v", tt.rounds, ties, tt.want)
			}
		})
	}
}

func TestSeatTableErrors(t *testing.T) {
	tests := []struct {
		name   string
		rounds [][]referee.Roll
		want   string // part of the message
	}{
		{"no rolls", nil, "no capsule rolls recorded"},
		{"two players", [][]referee.Roll{rulesRolls("a", 1, 2, "b", 3, 4)}, "table has 2 players, want 3 or 4"},
		{"five players", [][]referee.Roll{rulesRolls("a", 1, 2, "b", 3, 4, "c", 1, 1, "d", 2, 2, "e", 3, 3)}, "table has 5 players"},
		{"duplicate player", [][]referee.Roll{rulesRolls("a", 1, 2, "b", 3, 4, "a", 5, 5)}, `"a" is listed twice`},
		{"empty player id", [][]referee.Roll{rulesRolls("a", 1, 2, "", 3, 4, "c", 5, 5)}, "empty player id"},
		{"white die 0", [][]referee.Roll{rulesRolls("a", 0, 2, "b", 3, 4, "c", 5, 5)}, "white die 0 is not between 1 and 6"},
		{"blue die 7", [][]referee.Roll{rulesRolls("a", 1, 2, "b", 3, 7, "c", 5, 5)}, `round 1, player "b": blue die 7`},
		{
			"re-roll by a player who was not tied",
			[][]referee.Roll{rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3), rulesRolls("a", 1, 1, "c", 2, 2, "b", 3, 3)},
			`re-roll round 2: "b" was not tied and must not re-roll`,
		},
		{
			"re-roll after the order is settled",
			[][]referee.Roll{rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3), rulesRolls("a", 1, 1, "c", 2, 2), rulesRolls("a", 1, 1, "c", 2, 2)},
			`re-roll round 3: "a" was not tied`,
		},
		{
			"re-roll by a player not at the table",
			[][]referee.Roll{rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3), rulesRolls("a", 1, 1, "c", 2, 2, "x", 3, 3)},
			`re-roll round 2: "x" is not at the table`,
		},
		{
			"a player missing from a re-roll",
			[][]referee.Roll{rulesRolls("a", 3, 4, "b", 3, 4, "c", 4, 3, "d", 1, 1), rulesRolls("a", 1, 1, "c", 2, 2)},
			`re-roll round 2: "b" is missing from the re-roll of a, b and c`,
		},
		{
			"an empty re-roll round",
			[][]referee.Roll{rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3), nil},
			"re-roll round 2 has no rolls",
		},
		{
			"a player re-rolling twice in one round",
			[][]referee.Roll{rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3), rulesRolls("a", 1, 1, "a", 2, 2)},
			`round 2: "a" rolls twice`,
		},
		{
			"a bad die in a re-roll",
			[][]referee.Roll{rulesRolls("a", 3, 4, "b", 5, 4, "c", 4, 3), rulesRolls("a", 1, 1, "c", 9, 2)},
			"white die 9",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := referee.SeatTable(rulesPreset(), tt.rounds)
			if err == nil {
				t.Fatalf("SeatTable(%v) = %v, want an error", tt.rounds, got)
			}
			if err := rulesCheckError(err); err != nil {
				t.Error(err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("SeatTable(%v) error = %q, want it to mention %q", tt.rounds, err, tt.want)
			}
			if ties, rerr := referee.Rerolls(tt.rounds); rerr == nil {
				t.Errorf("Rerolls(%v) = %v, nil, want the error %q", tt.rounds, ties, err)
			}
		})
	}
}

func TestSeatTableTooFewColours(t *testing.T) {
	rs := rulesPreset()
	rs.Colors = rs.Colors[:3]
	rounds := [][]referee.Roll{rulesRolls("a", 1, 2, "b", 3, 4, "c", 1, 1, "d", 6, 6)}
	if got, err := referee.SeatTable(rs, rounds); !errors.Is(err, referee.ErrInvalid) {
		t.Errorf("SeatTable(3 colours, %v) = %v, %v, want an ErrInvalid", rounds, got, err)
	}
}

func TestRollSeating(t *testing.T) {
	rs := rulesPreset()
	sawReroll := false
	for seed := range uint64(300) {
		players := []string{"ann", "bo", "cy", "di"}[:3+seed%2]
		rounds, seats, err := referee.RollSeating(rs, players, seed)
		if err != nil {
			t.Fatalf("RollSeating(%v, %d) error = %v", players, seed, err)
		}
		again, seatsAgain, _ := referee.RollSeating(rs, players, seed)
		if !cmp.Equal(rounds, again) || !cmp.Equal(seats, seatsAgain) {
			t.Fatalf("RollSeating(%v, %d) differs between two calls: %v then %v", players, seed, rounds, again)
		}
		// The recorded history replays to the same seats.
		replay, err := referee.SeatTable(rs, rounds)
		if err != nil || !cmp.Equal(replay, seats) {
			t.Fatalf("SeatTable(RollSeating(%v, %d)) = %v, %v, want %v", players, seed, replay, err, seats)
		}
		if len(rounds[0]) != len(players) || len(seats) != len(players) {
			t.Fatalf("RollSeating(%v, %d) = %v, %v, want every player to roll and be seated", players, seed, rounds, seats)
		}
		// §3 オ: a higher first roll always plays earlier.
		first := map[string]int{}
		for _, r := range rounds[0] {
			first[r.Player] = r.Sum()
		}
		for i := 1; i < len(seats); i++ {
			if first[seats[i-1].Player] < first[seats[i].Player] {
				t.Fatalf("RollSeating(%v, %d) = %v, %v: a lower first roll plays earlier", players, seed, rounds, seats)
			}
		}
		sawReroll = sawReroll || len(rounds) > 1
	}
	if !sawReroll {
		t.Error("RollSeating never re-rolled a tie in 300 seeds")
	}
}

func TestRollSeatingErrors(t *testing.T) {
	for _, players := range [][]string{{"a", "b"}, {"a", "b", "c", "d", "e"}, {"a", "b", "a"}, {"a", "", "c"}} {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			rounds, seats, err := referee.RollSeating(rulesPreset(), players, 1)
			if err == nil {
				t.Fatalf("RollSeating(%v) = %v, %v, want an error", players, rounds, seats)
			}
			if err := rulesCheckError(err); err != nil {
				t.Error(err)
			}
		})
	}
}
