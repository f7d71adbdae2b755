package tournamenttest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
)

// RecordedEvent is an event RecordEvent wrote.
type RecordedEvent struct {
	Tournament tournament.Tournament
	Players    []tournament.Player
	Rounds     []tournament.Round // as written, with their tables' IDs
}

// RecordEvent writes a tournament of players (a multiple of 4) planned
// over rounds straight into st, as a large event's record: the players
// imported as from the desk list through svc, then the first recorded
// rounds seated by a fixed rotation (a new company at every round) with a
// result at every table, then the next round, if one is planned, paired
// the same way without results. The results are saved side by side, so
// that the store commits them in batches.
func RecordEvent(ctx context.Context, st tournament.Store, svc *tournament.Service, players, rounds, recorded int) (RecordedEvent, error) {
	at := time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)
	var ev RecordedEvent
	t, err := svc.CreateTournament(ctx, "bench", tournament.TournamentInput{Name: "ベンチマーク大会", Rounds: rounds})
	if err != nil {
		return ev, err
	}
	ev.Tournament = t
	rows := make([]tournament.ImportRow, players)
	for i := range rows {
		rows[i] = tournament.ImportRow{Line: i + 2, Name: fmt.Sprintf("選手%04d", i+1), Kana: fmt.Sprintf("せんしゅ%04d", i+1)}
	}
	plan, err := svc.ImportPlayers(ctx, "bench", t.ID, rows)
	if err != nil {
		return ev, err
	}
	if len(plan.Added) != players {
		return ev, fmt.Errorf("import added %d players, want %d", len(plan.Added), players)
	}
	ev.Players = plan.Added
	change := func(action string) tournament.Change {
		return tournament.Change{Judge: "bench", At: at, Action: action, Subject: "tournamenttest"}
	}
	ids := make([]int64, len(ev.Players))
	for i, p := range ev.Players {
		ids[i] = p.ID
	}
	for n := 1; n <= min(recorded+1, rounds); n++ {
		r := tournament.Round{TournamentID: t.ID, Number: n, Mode: tournament.ModeSwiss, Seed: uint64(n), PairedBy: "bench", PairedAt: at}
		for k, ids := range Rotated(ids, n) {
			r.Tables = append(r.Tables, tournament.Table{Number: k + 1, Players: ids})
		}
		if err := st.AddRound(ctx, &r, change("round.pair")); err != nil {
			return ev, err
		}
		ev.Rounds = append(ev.Rounds, r)
		if n > recorded {
			break
		}
		if err := saveAll(ctx, st, r, at, change("result.save")); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

// Rotated seats players at tables of four for round n: the i-th at table
// (i*n + i/4) mod tables, or the next one with a seat free, so that the
// company changes from round to round. The players beyond the last full
// table are left out.
func Rotated(players []int64, n int) [][]int64 {
	tables := len(players) / 4
	seats := make([][]int64, tables)
	for i, p := range players[:tables*4] {
		k := (i*n + i/4) % tables
		for len(seats[k]) == 4 {
			k = (k + 1) % tables
		}
		seats[k] = append(seats[k], p)
	}
	return seats
}

// saveAll saves a result at every table of r, sixteen at once.
func saveAll(ctx context.Context, st tournament.Store, r tournament.Round, at time.Time, c tournament.Change) error {
	var wg sync.WaitGroup
	errs := make(chan error, len(r.Tables))
	work := make(chan int)
	for range 16 {
		wg.Go(func() {
			for k := range work {
				tb := r.Tables[k]
				res := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "bench", At: at}
				for j, id := range tb.Players {
					res.Scores = append(res.Scores, tournament.Score{PlayerID: id, VP: (k+j*3+r.Number)%10 + 1})
				}
				if err := st.SaveResult(ctx, tb.ID, 0, &res, c); err != nil {
					errs <- err
				}
			}
		})
	}
	for k := range r.Tables {
		work <- k
	}
	close(work)
	wg.Wait()
	close(errs)
	return <-errs
}
