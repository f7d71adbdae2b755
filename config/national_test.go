package config

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

// The national preset holds the national rules' values (docs/rules.md (national rules)).
func TestNationalPreset(t *testing.T) {
	all, err := LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	n, ok := all.Get("national-2025")
	if !ok {
		t.Fatal(`Get("national-2025") not found`)
	}
	want := struct {
		GameMinutes int
		Dango       referee.DangoPolicy
		Board       referee.BoardSetup
		Timing      referee.Timing
		Event       referee.EventFormat
		Standings   []referee.StandingsKey
	}{
		// Time: 8 minutes of placement at one minute per settlement, then 60 of play;
		// final tables: 2 minutes a turn, the end announced 10 minutes before.
		GameMinutes: 60,
		Timing:      referee.Timing{PlacementSeconds: 60, FinalTurnSeconds: 120, EndNoticeMinutes: 10},
		// Board set-up: random terrain, chips A..R from the die's corner, no re-deal.
		Dango: referee.DangoOff,
		Board: referee.BoardSetup{
			Method:  referee.SpiralBoard,
			Corners: [6]referee.Corner{"north-west", "north-east", "east", "south-east", "south-west", "west"},
			Chips:   [18]int{5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11},
		},
		// Event format: wins, total VP, VP share; the top 4 play a final table.
		Standings: []referee.StandingsKey{"firsts", "vp", "share"},
		Event: referee.EventFormat{
			Rounds: []referee.RoundFormat{"random", "swiss"}, Final: referee.TopCut, Cut: []int{4}, FinalTies: referee.FinalTiesShared, SchedulePriority: referee.SpreadFirst,
		},
	}
	got := want
	got.GameMinutes, got.Dango, got.Board, got.Timing, got.Event, got.Standings = n.GameMinutes, n.Dango, n.Board, n.Timing, n.Event, n.StandingsOrder
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("national-2025 (-want +got):\n%s", diff)
	}
	data, err := json.Marshal(FileOf(n))
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseRuleset(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("ParseRuleset(FileOf(national-2025)): %v", err)
	}
	if diff := cmp.Diff(n, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// A ruleset file written before the board, time and event settings keeps
// the rulebook's behaviour, as a tournament's stored copy does.
func TestRulesetWithoutNewSettings(t *testing.T) {
	data, err := builtin.ReadFile("rulesets/proshop-2003.json")
	if err != nil {
		t.Fatal(err)
	}
	var old map[string]json.RawMessage
	if err := json.Unmarshal(data, &old); err != nil {
		t.Fatal(err)
	}
	delete(old, "board")
	delete(old, "time")
	delete(old, "event")
	oldData, _ := json.Marshal(old)
	got, err := ParseRuleset(strings.NewReader(string(oldData)))
	if err != nil {
		t.Fatalf("ParseRuleset(file without the new settings): %v", err)
	}
	all, _ := LoadRulesets()
	want, _ := all.Get(DefaultRuleset)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("file without the new settings (-preset +got):\n%s", diff)
	}
}

// The event shapes of the national rules' older format and of big events
// are settings a ruleset file can express.
func TestEventFormats(t *testing.T) {
	data, err := builtin.ReadFile("rulesets/national-2025.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, event string
		want        referee.EventFormat
	}{
		{"pre-drawn then Swiss, leaders' table",
			`"event": {"rounds": ["schedule", "schedule", "swiss"], "final": "leaders-table", "final_ties": "standings"}`,
			referee.EventFormat{Rounds: []referee.RoundFormat{"schedule", "schedule", "swiss"}, Final: referee.LeadersTable, FinalTies: referee.FinalTiesStandings, SchedulePriority: referee.SpreadFirst}},
		{"semi-finals then a final",
			`"event": {"rounds": ["random", "swiss"], "final": "top-cut", "cut": [16, 4], "final_ties": "shared"}`,
			referee.EventFormat{Rounds: []referee.RoundFormat{"random", "swiss"}, Final: referee.TopCut, Cut: []int{16, 4}, FinalTies: referee.FinalTiesShared, SchedulePriority: referee.SpreadFirst}},
		{"top two of each of eight tables, then a final",
			`"event": {"rounds": ["swiss"], "final": "top-cut", "cut": [32, 16, 4], "final_ties": "shared"}`,
			referee.EventFormat{Rounds: []referee.RoundFormat{"swiss"}, Final: referee.TopCut, Cut: []int{32, 16, 4}, FinalTies: referee.FinalTiesShared, SchedulePriority: referee.SpreadFirst}},
		{"no final", `"event": {"rounds": ["random", "swiss"], "final": "none", "final_ties": "shared"}`,
			referee.EventFormat{Rounds: []referee.RoundFormat{"random", "swiss"}, Final: referee.NoFinal, FinalTies: referee.FinalTiesShared, SchedulePriority: referee.SpreadFirst}},
		{"a schedule for the fewest repeats",
			`"event": {"rounds": ["schedule", "schedule", "swiss"], "final": "none", "final_ties": "shared", "schedule_priority": "repeats"}`,
			referee.EventFormat{Rounds: []referee.RoundFormat{"schedule", "schedule", "swiss"}, Final: referee.NoFinal, FinalTies: referee.FinalTiesShared, SchedulePriority: referee.RepeatsFirst}},
	}
	start := strings.Index(string(data), `"event": {`)
	end := start + strings.Index(string(data)[start:], "},") + 1
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := string(data[:start]) + tt.event + string(data[end:])
			rs, err := ParseRuleset(strings.NewReader(in))
			if err != nil {
				t.Fatalf("ParseRuleset: %v", err)
			}
			if diff := cmp.Diff(tt.want, rs.Event); diff != "" {
				t.Errorf("event (-want +got):\n%s", diff)
			}
		})
	}
	rs, _ := ParseRuleset(strings.NewReader(string(data)))
	for n, want := range map[int]referee.RoundFormat{1: "random", 2: "swiss", 5: "swiss"} {
		if got := rs.RoundFormat(n); got != want {
			t.Errorf("RoundFormat(%d) = %q, want %q", n, got, want)
		}
	}
}
