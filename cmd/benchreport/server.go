package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/store/pgtest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

const serviceStandingsRuns = 10

// serviceStandings records the 1,000-player open in a SQLite store (every
// round at tables of 4, a result at every table) and times the service's
// standings, which reads all of it and ranks it with the referee, and the
// whole record the players' pages are cut from.
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
	tid, err := e.recordOpen(ctx, st, svc, at)
	if err != nil {
		return nil, err
	}
	var times []time.Duration
	for range serviceStandingsRuns {
		t := time.Now()
		st, err := svc.Standings(ctx, tid)
		if err != nil {
			return nil, err
		}
		times = append(times, time.Since(t))
		if len(st) != standingsPlayers {
			return nil, fmt.Errorf("service standings: %d lines, want %d", len(st), standingsPlayers)
		}
	}
	p50 := bench.Percentile(times, 50)
	standings := row{"standings (Service, SQLite)", fmt.Sprintf("%s players x %d rounds", bench.Count(standingsPlayers), standingsRounds),
		bench.Duration(p50), bench.Duration(bench.Percentile(times, 99)), fmt.Sprintf("%s the referee alone; reads every result, %d runs", bench.Ratio(p50, pure), serviceStandingsRuns)}
	// The players' pages and the results are cut from one read of the
	// whole record, kept until the next change (docs/security.md).
	times = times[:0]
	for range serviceStandingsRuns {
		t := time.Now()
		if _, err := svc.EventResults(ctx, tid); err != nil {
			return nil, err
		}
		times = append(times, time.Since(t))
	}
	results := row{"players' pages' read (EventResults, SQLite)", fmt.Sprintf("%s players x %d rounds", bench.Count(standingsPlayers), standingsRounds),
		bench.Duration(bench.Percentile(times, 50)), bench.Duration(bench.Percentile(times, 99)), fmt.Sprintf("%s the standings; once per change, shared by every player's page, %d runs", bench.Ratio(bench.Percentile(times, 50), p50), serviceStandingsRuns)}
	return []row{standings, results}, nil
}

// recordOpen writes the open straight into the store: the players, then
// each round seated by a fixed rotation (a new company at every round)
// with a result at every table.
func (e *env) recordOpen(ctx context.Context, st *store.Store, svc *tournament.Service, at time.Time) (int64, error) {
	t, err := svc.CreateTournament(ctx, "bench", tournament.TournamentInput{Name: "ベンチマーク大会", Rounds: standingsRounds})
	if err != nil {
		return 0, err
	}
	change := func(action string) tournament.Change {
		return tournament.Change{Judge: "bench", At: at, Action: action, Subject: "benchreport"}
	}
	ps, err := importPlayers(ctx, svc, t.ID, standingsPlayers)
	if err != nil {
		return 0, err
	}
	tables := standingsPlayers / 4
	for n := 1; n <= standingsRounds; n++ {
		r := tournament.Round{TournamentID: t.ID, Number: n, Mode: tournament.ModeSwiss, Seed: uint64(n), PairedBy: "bench", PairedAt: at}
		seats := make([][]int64, tables)
		for i, p := range ps {
			k := (i*n + i/4) % tables
			for len(seats[k]) == 4 {
				k = (k + 1) % tables
			}
			seats[k] = append(seats[k], p.ID)
		}
		for k, ids := range seats {
			r.Tables = append(r.Tables, tournament.Table{Number: k + 1, Players: ids})
		}
		if err := st.AddRound(ctx, &r, change("round.pair")); err != nil {
			return 0, err
		}
		for k, tb := range r.Tables {
			res := tournament.Result{EndedBy: tournament.EndedByTime, Judge: "bench", At: at}
			for j, id := range tb.Players {
				res.Scores = append(res.Scores, tournament.Score{PlayerID: id, VP: (k+j*3+n)%10 + 1})
			}
			if err := st.SaveResult(ctx, tb.ID, 0, &res, change("result.save")); err != nil {
				return 0, err
			}
		}
	}
	return t.ID, nil
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

// The save measure: judges saving at once, each at their own table, each
// a first result then corrections.
const (
	judges        = 50
	savesPerJudge = 10
	benchToken    = "benchreport"
	saveTimeLimit = 60 * time.Second
)

// saves serves the site on loopback as cmd/catanjudge does (the real
// durability settings: a sync per commit) and has 50 judges save score
// sheets through the JSON API at once: on SQLite, then on PostgreSQL (a
// throwaway cluster with PostgreSQL's own durability settings), when its
// server programs are installed.
func (e *env) saves(ctx context.Context) ([]row, error) {
	dir, err := os.MkdirTemp("", "benchreport-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	dsn, err := store.FileDSN(dir)
	if err != nil {
		return nil, err
	}
	lite, err := e.savesOn(ctx, dsn)
	if err != nil {
		return nil, err
	}
	rows := []row{lite.row(fmt.Sprintf("score-sheet save (PUT, %d judges at once)", judges), "a sync per commit")}
	pgRow := row{measure: fmt.Sprintf("score-sheet save on PostgreSQL (PUT, %d judges)", judges), size: "-", p50: "-", p99: "-"}
	cluster, err := pgtest.StartDurable(ctx)
	if errors.Is(err, pgtest.ErrMissing) {
		pgRow.note = "skipped: PostgreSQL is not installed"
		return append(rows, pgRow), nil
	}
	if err != nil {
		return nil, err
	}
	defer cluster.Stop()
	url, err := cluster.CreateDatabase(ctx, "bench", "")
	if err != nil {
		return nil, err
	}
	pg, err := e.savesOn(ctx, url)
	if err != nil {
		return nil, err
	}
	pgRow = pg.row(pgRow.measure, fmt.Sprintf("%s the saves/s of SQLite; a sync per commit, over a Unix socket", bench.Ratio(pg.perSecond(), lite.perSecond())))
	return append(rows, pgRow), nil
}

// saveRun is what one save measure timed.
type saveRun struct {
	times []time.Duration
	wall  time.Duration
}

func (r saveRun) perSecond() float64 { return float64(len(r.times)) / r.wall.Seconds() }

func (r saveRun) row(measure, note string) row {
	p50, p99 := bench.Percentile(r.times, 50), bench.Percentile(r.times, 99)
	return row{measure, bench.Count(len(r.times)) + " saves", bench.Duration(p50), bench.Duration(p99),
		fmt.Sprintf("p99/p50 %s; %.0f saves/s; %s", bench.Ratio(p99, p50), r.perSecond(), note)}
}

// savesOn runs the save measure on the database dsn names.
func (e *env) savesOn(ctx context.Context, dsn string) (saveRun, error) {
	ctx, cancel := context.WithTimeout(ctx, saveTimeLimit)
	defer cancel()
	broker := live.NewBroker(0, 0)
	st, err := store.Open(ctx, dsn, store.WithAfterCommit(broker.Committed))
	if err != nil {
		return saveRun{}, err
	}
	defer st.Close()
	e.say("%d judges saving %d score sheets each, on %s", judges, savesPerJudge, st.Engine())
	svc := tournament.NewService(st, e.rulesets, time.Now)
	t, err := svc.CreateTournament(ctx, "bench", tournament.TournamentInput{Name: "ベンチマーク大会", Rounds: 3})
	if err != nil {
		return saveRun{}, err
	}
	round, err := pairedRound(ctx, svc, t.ID, judges*4)
	if err != nil {
		return saveRun{}, err
	}
	h, err := web.New(web.Deps{Rulesets: e.rulesets, Service: svc, Settings: st, APIToken: benchToken, Broker: broker})
	if err != nil {
		return saveRun{}, err
	}
	site, stop, err := bench.Serve(ctx, h)
	if err != nil {
		return saveRun{}, err
	}
	defer stop()
	base := fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/1/tables/", site, t.ID)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: judges + 8}}

	var (
		mu    sync.Mutex
		times []time.Duration
		first error
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for j := range judges {
		tb := round.Tables[j]
		wg.Go(func() {
			<-start
			for v := range savesPerJudge {
				took, err := saveSheet(ctx, client, base, tb, v)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				times = append(times, took)
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	wall := time.Since(began)
	if first != nil {
		return saveRun{}, first
	}
	return saveRun{times: times, wall: wall}, nil
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
