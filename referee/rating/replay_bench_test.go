package rating_test

import (
	"testing"

	"github.com/catanjudge/catanjudge/referee/rating"
)

// BenchmarkReplay rates a registry's lifetime: 100 events of up to four
// rounds among 120 players (about 6,000 tables of 3 and 4).
func BenchmarkReplay(b *testing.B) {
	events := randomEvents(29, 100, 120)
	games := 0
	for _, e := range events {
		for _, r := range e.Rounds {
			games += len(r)
		}
	}
	for b.Loop() {
		if _, err := rating.Replay(rating.Default(), events); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(games), "games")
}
