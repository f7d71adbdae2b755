package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

const serviceStandingsRuns = 10

// serviceStandings records the 1,000-player open in a SQLite store (every
// round at tables of 4, a result at every table) and times what a change
// of it costs the readers, once per change: the snapshot's read of the
// whole record (Store.Event), then the standings and the players' pages'
// record computed from it, each run on a snapshot of its own.
func (e *env) serviceStandings(ctx context.Context, pure time.Duration) ([]row, error) {
	dir, err := os.MkdirTemp("", "benchreport-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// Filling the database is not what is measured: without a sync per
	// commit its 2,000 results go in quickly. Reads do not sync anyway.
	st, err := store.Open(ctx, store.DatabaseFile(dir)+"?_synchronous=OFF")
	if err != nil {
		return nil, err
	}
	defer st.Close()
	at := time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)
	svc := tournament.NewService(st, e.rulesets, func() time.Time { return at })
	ev, err := tournamenttest.RecordEvent(ctx, st, svc, standingsPlayers, standingsRounds, standingsRounds)
	if err != nil {
		return nil, err
	}
	var reads, standings, results []time.Duration
	for range serviceStandingsRuns {
		t := time.Now()
		rec, err := st.Event(ctx, ev.Tournament.ID)
		if err != nil {
			return nil, err
		}
		snap := tournament.NewSnapshot(rec)
		reads = append(reads, time.Since(t))
		t = time.Now()
		lines, err := snap.Standings()
		if err != nil {
			return nil, err
		}
		standings = append(standings, time.Since(t))
		if len(lines) != standingsPlayers {
			return nil, fmt.Errorf("service standings: %d lines, want %d", len(lines), standingsPlayers)
		}
		t = time.Now()
		if _, err := snap.Results(); err != nil {
			return nil, err
		}
		results = append(results, time.Since(t))
	}
	size := fmt.Sprintf("%s players x %d rounds", bench.Count(standingsPlayers), standingsRounds)
	read := bench.Percentile(reads, 50)
	return []row{
		{"a change's snapshot: read (Store.Event, SQLite)", size, bench.Duration(read), bench.Duration(bench.Percentile(reads, 99)),
			fmt.Sprintf("every player, round, result, clock, penalty and report in one read transaction, once per change, %d runs", serviceStandingsRuns)},
		{"a change's snapshot: standings (Snapshot)", size, bench.Duration(bench.Percentile(standings, 50)), bench.Duration(bench.Percentile(standings, 99)),
			fmt.Sprintf("%s the referee alone; computed once per change, then shared by every reader", bench.Ratio(bench.Percentile(standings, 50), pure))},
		{"a change's snapshot: players' pages (Snapshot.Results)", size, bench.Duration(bench.Percentile(results, 50)), bench.Duration(bench.Percentile(results, 99)),
			fmt.Sprintf("%s the read; once per change, shared by every player's page", bench.Ratio(bench.Percentile(results, 50), read))},
	}, nil
}

// importPlayers registers n players as an import from the desk list does.
func importPlayers(ctx context.Context, svc *tournament.Service, tid int64, n int) ([]tournament.Player, error) {
	rows := make([]tournament.ImportRow, n)
	for i := range rows {
		rows[i] = tournament.ImportRow{Line: i + 2, Name: fmt.Sprintf("選手%04d", i+1), Kana: fmt.Sprintf("せんしゅ%04d", i+1)}
	}
	plan, err := svc.ImportPlayers(ctx, "bench", tid, rows)
	if err != nil {
		return nil, err
	}
	if len(plan.Added) != n {
		return nil, fmt.Errorf("import added %d players, want %d", len(plan.Added), n)
	}
	return plan.Added, nil
}

// saveSheet saves version v of a table's sheet (a correction from the
// second on) and returns how long the PUT took.
func saveSheet(ctx context.Context, client *http.Client, base string, tb tournament.Table, v int) (time.Duration, error) {
	type score struct {
		Player int64 `json:"player"`
		VP     int   `json:"vp"`
	}
	req := struct {
		Version  int     `json:"version"`
		Reason   string  `json:"reason,omitempty"`
		Declared *int64  `json:"declared"`
		Scores   []score `json:"scores"`
	}{Version: v, Reason: "数え直し"}
	if v == 0 {
		// No clock runs: a game ended by time before its signal needs the
		// judge's reason (§12).
		req.Reason = "ジャッジが終了"
	}
	for i, id := range tb.Players {
		req.Scores = append(req.Scores, score{Player: id, VP: (i + v) % 10})
	}
	body, err := json.Marshal(req)
	if err != nil {
		return 0, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPut, fmt.Sprintf("%s%d/result", base, tb.Number), bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	hr.Header.Set("Authorization", "Bearer "+benchToken)
	hr.Header.Set("Content-Type", "application/json")
	t := time.Now()
	res, err := client.Do(hr)
	if err != nil {
		return 0, err
	}
	msg, _ := io.ReadAll(res.Body)
	res.Body.Close()
	took := time.Since(t)
	if res.StatusCode != http.StatusOK {
		return took, fmt.Errorf("save table %d version %d: %s %s", tb.Number, v, res.Status, msg)
	}
	return took, nil
}
