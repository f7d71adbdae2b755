package referee_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
)

// BenchmarkStandings ranks a large open: 1,000 players at tables of 4 for
// 8 rounds (2,000 games).
func BenchmarkStandings(b *testing.B) {
	rs := rulesPreset()
	players := make([]string, 1000)
	for i := range players {
		players[i] = fmt.Sprintf("player-%04d", i)
	}
	games, byes := rulesTournament(rand.New(rand.NewPCG(7, 8)), rs, players, 8)
	if len(games) != 2000 || len(byes) != 0 {
		b.Fatalf("rulesTournament made %d games and %d byes, want 2000 and 0", len(games), len(byes))
	}
	for b.Loop() {
		if _, err := referee.Standings(rs, games, byes, players); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlace(b *testing.B) {
	rs := rulesPreset()
	scores := []referee.Score{{"ann", 10}, {"ben", 8}, {"cho", 8}, {"dai", 5}}
	for b.Loop() {
		if _, err := referee.Place(rs, scores, "ann"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSeat(b *testing.B) {
	rs := rulesPreset()
	rounds := [][]referee.Roll{
		rulesRolls("ann", 3, 4, "ben", 5, 2, "cho", 6, 6, "dai", 1, 2),
		rulesRolls("ann", 2, 2, "ben", 5, 5),
	}
	for b.Loop() {
		if _, err := referee.SeatTable(rs, rounds); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRollSeating(b *testing.B) {
	rs := rulesPreset()
	players := []string{"ann", "ben", "cho", "dai"}
	var seed uint64
	for b.Loop() {
		seed++
		if _, _, err := referee.RollSeating(rs, players, seed); err != nil {
			b.Fatal(err)
		}
	}
}
