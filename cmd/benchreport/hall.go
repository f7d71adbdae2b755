package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"

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
	var out, said bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.MultiWriter(e.progress, &said)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("hallbench: %w", err)
		}
		// The event stopped (a judge's or a player's page refused, say):
		// that is a measure too, and the rest of the report stands.
		why := err.Error()
		for _, line := range strings.Split(said.String(), "\n") {
			if strings.HasPrefix(line, "hallbench: ") {
				why = strings.TrimPrefix(line, "hallbench: ")
			}
		}
		return []row{{"hall simulation: stopped", fmt.Sprintf("%s screens", bench.Count(hallScreens)), "", "", cut(why, 200)}}, nil
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

// cut shortens s to n bytes at most, at a rune's start.
func cut(s string, n int) string {
	for i := range s {
		if i > n {
			return s[:i] + "…"
		}
	}
	return s
}
