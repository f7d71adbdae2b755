package main

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
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
	d := tournamenttest.LargeEvent(e.rs, exportPlayers, exportRounds)
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
		stop := tournamenttest.HeapPeak()
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
	return []row{{"Excel export (export.Workbook)", fmt.Sprintf("%s players x %d rounds", bench.Count(exportPlayers), exportRounds),
		bench.Duration(bench.Percentile(times, 50)), bench.Duration(bench.Percentile(times, 99)),
		fmt.Sprintf("peak heap %s (data %s), %s allocated, %.1f MB file", mb(peak), mb(dataHeap), mb(alloc), float64(size)/(1<<20))}}, nil
}

// counter is an io.Writer that keeps only the number of bytes written.
type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }
