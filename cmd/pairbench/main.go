// Command pairbench prints the pairing engine's quality and speed: repeat
// meetings and time per round of simulated Swiss events (round 1 random,
// then Swiss on standings from random results), and repeats, lower bound,
// status and time of whole schedules drawn at once, next to a per-round
// greedy search with swaps for comparison. Times are medians of
// several runs.
//
// Usage:
//
//	go run ./cmd/pairbench
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pairbench:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	if err := swissTable(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return scheduleTable(w)
}
