package export_test

import (
	"runtime"
	"testing"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament/export"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// counter is an io.Writer that keeps only the number of bytes written.
type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

// BenchmarkWorkbook10000x10 exports an event of 10,000 players over 10
// rounds (100,000 result lines), counting the workbook's bytes. Besides time and
// allocations it reports the live heap before the export (the event's data)
// and its peak during the export, sampled every 5 ms.
func BenchmarkWorkbook10000x10(b *testing.B) {
	rs, _ := tournamenttest.Rulesets(b).Get(config.DefaultRuleset)
	d := tournamenttest.LargeEvent(rs, 10000, 10)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	b.ReportAllocs()
	b.ResetTimer()
	stop := tournamenttest.HeapPeak()
	var size counter
	for b.Loop() {
		size = 0
		if err := export.Workbook(&size, d, "ja"); err != nil {
			b.Fatal(err)
		}
	}
	peak := stop()
	b.ReportMetric(float64(base)/(1<<20), "data-MB")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(size)/(1<<20), "xlsx-MB")
}
