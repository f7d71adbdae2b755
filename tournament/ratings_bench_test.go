package tournament_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// pastEvents imports n past events of 40 players over 3 rounds (tables
// of 4), each player's seat turning by the event and the round.
func pastEvents(b *testing.B, svc *tournament.Service, n int) {
	b.Helper()
	for e := range n {
		ev := tournament.PastEvent{Name: fmt.Sprintf("第%d回", e+1), Date: fmt.Sprintf("2025-%02d-%02d", 1+e%12, 1+e%28), Shop: "カードショップ東"}
		for r := 1; r <= 3; r++ {
			for t := range 10 {
				g := tournament.PastGame{Round: r, Table: t + 1}
				for s := range 4 {
					p := (t*4 + s + e*7 + r*13) % 40
					g.Scores = append(g.Scores, tournament.PastScore{Name: fmt.Sprintf("選手%02d", p), Kana: fmt.Sprintf("せんしゅ%02d", p), VP: []int{10, 7, 5, 3}[s]})
				}
				ev.Tables = append(ev.Tables, g)
			}
		}
		if _, err := svc.ImportPastEvents(context.Background(), "bench", []tournament.PastEvent{ev}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRatings reads a person's rating over 30 finished events of 40
// players (900 tables): cold, as the first read after an event closes
// (every event's record read and every game rated), and warm, as every
// read until the next change (the events' stamps compared).
func BenchmarkRatings(b *testing.B) {
	st := tournamenttest.NewStore(b)
	svc := tournamenttest.NewServiceOn(b, st, time.Now)
	pastEvents(b, svc, 30)
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			fresh := tournamenttest.NewServiceOn(b, st, time.Now)
			if _, err := fresh.Rating(ctx, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		if _, err := svc.Rating(ctx, 1); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := svc.Rating(ctx, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}
