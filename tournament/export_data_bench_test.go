package tournament_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// largeEvent records a tournament of players over rounds straight into a
// real SQLite store: every player checked in, every round in tables of 4
// with a result at every table and a VP deduction at one table in ten. The
// pairing is a fixed rotation, not the service's draw: the benchmarks
// measure reading an event, not pairing one.
func largeEvent(b *testing.B, players, rounds int) (*tournament.Service, int64) {
	b.Helper()
	ctx := context.Background()
	at := time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)
	svc, st := tournamenttest.NewService(b, tournamenttest.Clock(at, 0))
	tour, err := svc.CreateTournament(ctx, "judge-a", tournament.TournamentInput{Name: "大規模大会", Rounds: rounds})
	if err != nil {
		b.Fatal(err)
	}
	change := func(action string) tournament.Change {
		return tournament.Change{Judge: "judge-a", At: at, Action: action, Subject: "benchmark"}
	}
	ps := make([]*tournament.Player, players)
	for i := range ps {
		ps[i] = &tournament.Player{TournamentID: tour.ID, Name: fmt.Sprintf("参加者%05d", i), Kana: fmt.Sprintf("さんかしゃ%05d", i), CheckedIn: true}
	}
	if err := st.AddPlayers(ctx, ps, tournament.Progress{}, change("player.import")); err != nil {
		b.Fatal(err)
	}
	for n := 1; n <= rounds; n++ {
		r := tournament.Round{TournamentID: tour.ID, Number: n, Mode: tournament.ModeSwiss, Seed: uint64(n), PairedBy: "judge-a", PairedAt: at}
		// The company changes from round to round, four to a table.
		ids := make([]int64, len(ps))
		for i, p := range ps {
			ids[i] = p.ID
		}
		tables := players / 4
		for k, ids := range tournamenttest.Rotated(ids, n) {
			r.Tables = append(r.Tables, tournament.Table{Number: k + 1, Players: ids})
		}
		for _, p := range ps[tables*4:] {
			r.Byes = append(r.Byes, p.ID)
		}
		if err := st.AddRound(ctx, &r, change("round.pair")); err != nil {
			b.Fatal(err)
		}
		for k, t := range r.Tables {
			res := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "judge-a", At: at}
			for j, id := range t.Players {
				res.Scores = append(res.Scores, tournament.Score{PlayerID: id, VP: (k+j*3+n)%10 + 1})
			}
			if err := st.SaveResult(ctx, t.ID, 0, &res, change("result.save")); err != nil {
				b.Fatal(err)
			}
			if k%10 == 0 {
				pen := tournament.Penalty{TournamentID: tour.ID, PlayerID: t.Players[0], Round: n, Table: t.Number,
					Offence: "note-taking", Level: referee.VPDeduction, Judge: "judge-a", At: at}
				if err := st.AddPenalty(ctx, &pen, 0, nil, change("penalty.add")); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return svc, tour.ID
}

// BenchmarkExportData reads everything the Excel export shows of a large
// event: the players, the standings and every table of every round.
func BenchmarkExportData(b *testing.B) {
	const players, rounds = 5000, 6
	svc, tid := largeEvent(b, players, rounds)
	ctx := context.Background()
	for b.Loop() {
		d, err := svc.ExportData(ctx, tid)
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Standings) != players || len(d.Rounds) != rounds {
			b.Fatalf("ExportData = %d standings and %d rounds, want %d and %d", len(d.Standings), len(d.Rounds), players, rounds)
		}
	}
}

// BenchmarkEventResults reads a large event's whole record as the players'
// pages show it (once per change: the kiosk keeps it): every table of every
// round and the standings after each round.
func BenchmarkEventResults(b *testing.B) {
	for _, size := range []struct{ players, rounds int }{{40, 3}, {1000, 6}} {
		b.Run(fmt.Sprintf("%dx%d", size.players, size.rounds), func(b *testing.B) {
			svc, tid := largeEvent(b, size.players, size.rounds)
			ctx := context.Background()
			for b.Loop() {
				res, err := svc.EventResults(ctx, tid)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Rounds) != size.rounds || len(res.Rounds[size.rounds-1].Standings) != size.players {
					b.Fatalf("EventResults = %d rounds, want %d with the standings of %d players", len(res.Rounds), size.rounds, size.players)
				}
			}
		})
	}
}
