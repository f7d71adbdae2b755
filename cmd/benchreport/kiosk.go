package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
)

// kioskClients is how many phones follow the live feed.
const kioskClients = 1000

// kiosk runs cmd/kioskbench, which serves the site from a child process and
// has a thousand clients follow the live feed (Server-Sent Events) while
// results are saved, and reads its measures.
func (e *env) kiosk(ctx context.Context) ([]row, error) {
	e.say("kiosk fan-out to %d live clients (cmd/kioskbench)", kioskClients)
	cmd := exec.CommandContext(ctx, e.goCmd, "run", "github.com/catanjudge/catanjudge/cmd/kioskbench", "-json", "-clients", fmt.Sprint(kioskClients))
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = e.progress
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("kioskbench: %w", err)
	}
	var k bench.KioskSummary
	if err := json.Unmarshal(out.Bytes(), &k); err != nil {
		return nil, fmt.Errorf("kioskbench said %q: %w", out.String(), err)
	}
	return []row{
		{"kiosk fan-out (save -> event at each client)", fmt.Sprintf("%s SSE clients x %d saves", bench.Count(k.Clients), k.Saves),
			ms(k.EventP50), ms(k.EventP99), fmt.Sprintf("last client p99 %s; %.0f KB heap per client", ms(k.LastClientP99), k.HeapPerClientKB)},
		{"kiosk page under that load (/kiosk, /live)", "8 loaders", ms(k.PageP50), ms(k.PageP99),
			fmt.Sprintf("every page has the new state: p99 %s after the save", ms(k.NewStateP99))},
	}, nil
}

// ms prints milliseconds given as a float.
func ms(v float64) string { return bench.Duration(time.Duration(v * float64(time.Millisecond))) }
