package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
)

// The hall simulation as make bench runs it: a regional event's size
// (cmd/hallbench's defaults), with each round's results coming in over
// hallWindow rather than the default 90 s, so that the run takes minutes.
const (
	hallScreens = 5000
	hallWindow  = "45s"
)

// hall runs cmd/hallbench, which plays a regional event through its rounds
// and the final on a server in a child process while every screen follows
// it, and reads its measures.
func (e *env) hall(ctx context.Context) ([]row, error) {
	bench.RaiseFileLimit()
	if err := bench.EnoughFiles(2*hallScreens+400, bench.Count(hallScreens)+" screens"); err != nil {
		return []row{{"hall simulation: not measured", bench.Count(hallScreens) + " screens", "", "", err.Error()}}, nil
	}
	e.say("a hall of %s screens through a regional event (cmd/hallbench, a few minutes)", bench.Count(hallScreens))
	cmd := exec.CommandContext(ctx, e.goCmd, "run", "github.com/catanjudge/catanjudge/cmd/hallbench", "-json",
		"-screens", fmt.Sprint(hallScreens), "-window", hallWindow, "-timeout", "15m")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = e.progress
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("hallbench: %w", err)
	}
	var h bench.HallSummary
	if err := json.Unmarshal(out.Bytes(), &h); err != nil {
		return nil, fmt.Errorf("hallbench said %q: %w", out.String(), err)
	}
	slowest := h.Actions[h.JudgeSlowest]
	return []row{
		{"hall: the slowest judge action (" + h.JudgeSlowest + ")",
			fmt.Sprintf("%s players, %d judges, %s screens, %d rounds + final", bench.Count(h.Players), h.Judges, bench.Count(h.Screens), h.Rounds),
			ms(slowest[0]), ms(slowest[1]), fmt.Sprintf("results over %.0f s a round; %.0f s in all; peak RSS %.0f MB; %d busy (503)", h.WindowSeconds, h.Seconds, h.PeakRSSMB, h.Busy)},
		{"  save -> every screen has the new state", fmt.Sprintf("%s saves", bench.Count(h.Saves)), ms(h.SaveToState[0]), ms(h.SaveToState[1]),
			fmt.Sprintf("the event on every screen p99 %s", ms(h.SaveToEvent[1]))},
		{"  round's last result -> judge's standings", fmt.Sprintf("%d rounds (p99: the worst)", h.Rounds+1), ms(h.Standings[0]), ms(h.Standings[1]),
			fmt.Sprintf("on every screen at worst %s; %s changes acknowledged, %d missing from the record", ms(h.StandingsOnEvery[1]), bench.Count(h.Acked), h.Missing)},
	}, nil
}
