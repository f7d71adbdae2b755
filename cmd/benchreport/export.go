package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/export"
)

// The export measure: a finished 10,000-player event over 10 rounds.
const (
	exportPlayers = 10000
	exportRounds  = 10
	exportRuns    = 3
)

// export writes the workbook of a large synthetic event (100,000 result
// lines) and reports its time, the live heap at its peak (sampled every
// 5 ms) and what it allocated.
func (e *env) export(ctx context.Context) ([]row, error) {
	e.say("exporting %d players x %d rounds, %d runs", exportPlayers, exportRounds, exportRuns)
	d := e.bigEvent()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	dataHeap := ms.HeapAlloc
	var (
		times []time.Duration
		peak  uint64
		size  int64
		alloc uint64
	)
	for range exportRuns {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		allocated := ms.TotalAlloc
		stop := heapPeak()
		var w counter
		t := time.Now()
		if err := export.Workbook(&w, d, "ja"); err != nil {
			return nil, err
		}
		times = append(times, time.Since(t))
		peak = max(peak, stop())
		runtime.ReadMemStats(&ms)
		alloc = max(alloc, ms.TotalAlloc-allocated)
		size = int64(w)
	}
	mb := func(b uint64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }
	return []row{{"Excel export (export.Workbook)", fmt.Sprintf("%s players x %d rounds", count(exportPlayers), exportRounds),
		dur(pct(times, 50)), dur(pct(times, 99)),
		fmt.Sprintf("peak heap %s (data %s), %s allocated, %.1f MB file", mb(peak), mb(dataHeap), mb(alloc), float64(size)/(1<<20))}}, nil
}

// bigEvent is a finished event: every table of 4 seated, set up and
// recorded, a penalty at one table in ten.
func (e *env) bigEvent() tournament.ExportData {
	rs := e.rs
	at := time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)
	d := tournament.ExportData{Tournament: tournament.Tournament{ID: 1, Name: "全国大会", Ruleset: rs, Rounds: exportRounds, GameMinutes: 7}}
	for i := range exportPlayers {
		p := tournament.Player{ID: int64(i + 1), TournamentID: 1, Name: fmt.Sprintf("選手%05d", i+1), Kana: fmt.Sprintf("せんしゅ%05d", i+1), CheckedIn: true}
		d.Players = append(d.Players, p)
		d.Standings = append(d.Standings, tournament.Standing{Rank: i + 1, PlayerID: p.ID, Name: p.Name, Kana: p.Kana,
			Firsts: i % 4, VP: 50 - i%30, Share: 0.25 * exportRounds, Played: exportRounds})
	}
	for n := 1; n <= exportRounds; n++ {
		rv := tournament.RoundView{Round: tournament.Round{Number: n, Mode: tournament.ModeSwiss, Seed: uint64(n)}}
		for t := range exportPlayers / 4 {
			tv := tournament.TableView{Table: tournament.Table{Number: t + 1, Revisions: 1,
				Seating: &tournament.Seating{Auto: true, Seed: uint64(t)},
				Board:   &tournament.BoardRecord{Roll: referee.CapsuleRoll{White: 1 + t%6, Blue: 1 + n%6}, Seed: uint64(t * n)}}}
			for s := range 4 {
				id := int64((t*4+s+n*7)%exportPlayers + 1)
				tv.Players = append(tv.Players, tournament.SeatView{PlayerID: id, Name: d.Players[id-1].Name, Seat: s + 1, Color: rs.Colors[s]})
				tv.Places = append(tv.Places, tournament.Placing{PlayerID: id, VP: 9 - s, Place: s + 1})
			}
			tv.Result = &tournament.Result{Version: 1, EndedBy: tournament.EndedByTime}
			rv.Tables = append(rv.Tables, tv)
			if t%10 == 0 {
				d.Penalties = append(d.Penalties, tournament.Penalty{PlayerID: tv.Players[0].PlayerID, Round: n, Table: t + 1,
					Offence: "note-taking", Level: referee.Warning, Judge: "山田", At: at, Note: "メモ"})
			}
		}
		d.Rounds = append(d.Rounds, rv)
	}
	return d
}

// heapPeak samples the live heap until stopped and returns the largest.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var (
		mu   sync.Mutex
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	read := func() {
		metrics.Read(sample)
		mu.Lock()
		peak = max(peak, sample[0].Value.Uint64())
		mu.Unlock()
	}
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				read()
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		read()
		return peak
	}
}

// counter is an io.Writer that keeps only the number of bytes written.
type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }
