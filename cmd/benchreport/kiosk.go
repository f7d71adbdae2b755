package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
)

// kioskClients are the crowds of phones that follow the live feed, one
// after another on a server of their own: one phone alone, the measure the
// others are compared with, then a shop's hall and a regional event's
// (5,000 screens: issue 26).
var kioskClients = []int{1, 1000, 3000, 5000}

// kioskSaves is how many results are saved under each crowd.
const kioskSaves = 8

// kiosk runs cmd/kioskbench, which serves the site from a child process and
// has each crowd of phones follow the live feed (Server-Sent Events) and
// fetch the live parts after each event, as kiosk.js does, while results
// are saved and pages load, and reads its measures.
func (e *env) kiosk(ctx context.Context) ([]row, error) {
	bench.RaiseFileLimit()
	var counts []string
	var skipped []row
	for _, n := range kioskClients {
		// Each phone holds two connections, in the bench and in the server.
		if err := bench.EnoughFiles(2*n+300, bench.Count(n)+" clients"); err != nil {
			skipped = append(skipped, row{"kiosk fan-out: not measured", bench.Count(n) + " SSE clients", "", "", err.Error()})
			continue
		}
		counts = append(counts, fmt.Sprint(n))
	}
	e.say("kiosk fan-out to %s live clients, one crowd after another (cmd/kioskbench)", strings.Join(counts, ", "))
	cmd := exec.CommandContext(ctx, e.goCmd, "run", "github.com/catanjudge/catanjudge/cmd/kioskbench", "-json",
		"-clients", strings.Join(counts, ","), "-saves", fmt.Sprint(kioskSaves), "-timeout", "4m")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = e.progress
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("kioskbench: %w", err)
	}
	var ks []bench.KioskSummary
	for dec := json.NewDecoder(&out); dec.More(); {
		var k bench.KioskSummary
		if err := dec.Decode(&k); err != nil {
			return nil, fmt.Errorf("kioskbench said %q: %w", out.String(), err)
		}
		ks = append(ks, k)
	}
	if len(ks) == 0 || ks[0].Clients != 1 {
		return nil, fmt.Errorf("kioskbench measured %d crowds, not one phone alone first", len(ks))
	}
	alone := ks[0]
	rows := []row{{"kiosk: one phone alone (save -> its new state)", fmt.Sprintf("1 SSE client x %d saves", alone.Saves),
		ms(alone.NewStateP50), ms(alone.NewStateP99),
		fmt.Sprintf("the event p99 %s, then /live after kiosk.js's 0–400 ms jitter; page loads alone p99 %s", ms(alone.EventP99), ms(alone.AloneP99))}}
	for _, k := range ks[1:] {
		rows = append(rows,
			row{"kiosk fan-out (save -> event at each client)", fmt.Sprintf("%s SSE clients x %d saves", bench.Count(k.Clients), k.Saves),
				ms(k.EventP50), ms(k.EventP99),
				fmt.Sprintf("last client p99 %s; %s of %s feeds refused at connect (the cap); peak RSS %.0f MB, %.0f KB heap a client",
					ms(k.LastClientP99), bench.Count(k.RefusedAtConnect), bench.Count(k.Clients), k.PeakRSSMB, k.HeapPerClientKB)},
			row{"  save -> the last phone has the new state", "", ms(k.NewStateP50), ms(k.NewStateP99),
				fmt.Sprintf("p99 %s one phone alone; the server's CPU %s a save", bench.Ratio(k.NewStateP99, alone.NewStateP99), ms(k.CPUPerSaveMS))},
			row{"  page loads meanwhile (/kiosk, /live)", fmt.Sprintf("%s loads, 8 loaders", bench.Count(k.PageLoads)), ms(k.PageP50), ms(k.PageP99),
				fmt.Sprintf("p99 %s alone (%s); failed: %d (%d busy 503, %d 429), the phones' refetches included",
					bench.Ratio(k.PageP99, k.AloneP99), ms(k.AloneP99), k.PageErrors, k.Busy, k.TooMany)})
	}
	return append(rows, skipped...), nil
}

// ms prints milliseconds given as a float.
func ms(v float64) string { return bench.Duration(time.Duration(v * float64(time.Millisecond))) }
