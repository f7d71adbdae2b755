package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.json")
	if err := os.WriteFile(file, []byte(`{"addr":"file:1","data":"/file","api_token":"filetoken"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want Config
	}{
		{"defaults", nil, nil, Config{Addr: "127.0.0.1:8080", DataDir: "./data"}},
		{"file", []string{"--config", file}, nil, Config{Addr: "file:1", DataDir: "/file", APIToken: "filetoken", ConfigFile: file}},
		{"env over file", []string{"--config", file}, map[string]string{"CATANJUDGE_ADDR": "env:2", "CATANJUDGE_API_TOKEN": "envtoken"},
			Config{Addr: "env:2", DataDir: "/file", APIToken: "envtoken", ConfigFile: file}},
		{"flag over env", []string{"--addr", "flag:3", "--data", "/flag", "--ruleset", "r.json"},
			map[string]string{"CATANJUDGE_ADDR": "env:2", "CATANJUDGE_DATA": "/env", "CATANJUDGE_JUDGE_PASSWORD": "pw"},
			Config{Addr: "flag:3", DataDir: "/flag", Ruleset: "r.json", JudgePassword: "pw"}},
		{"config file from env", nil, map[string]string{"CATANJUDGE_CONFIG": file},
			Config{Addr: "file:1", DataDir: "/file", APIToken: "filetoken", ConfigFile: file}},
		{"public url", []string{"--public-url", "http://192.168.1.20:8080/"}, nil,
			Config{Addr: "127.0.0.1:8080", DataDir: "./data", PublicURL: "http://192.168.1.20:8080"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Load(tt.args, env(tt.env), io.Discard)
			if err != nil {
				t.Fatalf("Load(%v) error: %v", tt.args, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load(%v) mismatch (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"adr":"x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--config", bad}, {"--config", filepath.Join(dir, "missing.json")}, {"--public-url", "192.168.1.20"}} {
		if _, err := Load(args, env(nil), io.Discard); err == nil {
			t.Errorf("Load(%v) = nil error, want an error", args)
		}
	}
}

func TestBuiltinPreset(t *testing.T) {
	rs, err := LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := rs.Get(DefaultRuleset)
	if !ok {
		t.Fatalf("Get(%q) not found", DefaultRuleset)
	}
	// The rulebook's values (RULINGS.md §3, §11, §12).
	if p.GameMinutes != 7 || p.VPCap != 10 || p.WinVP != 10 || p.Dango != referee.DangoConnected ||
		p.LongestRoadTie != referee.LongestRoadVacate || !p.RobberOnDesert || p.Layout.Terrain[9] != referee.Desert {
		t.Errorf("preset %s = %+v, want the rulebook's values", DefaultRuleset, p)
	}
	if diff := cmp.Diff([]referee.Color{"red", "blue", "yellow", "green"}, p.Colors); diff != "" {
		t.Errorf("colours (-want +got):\n%s", diff)
	}
}

// A ruleset written out with FileOf reads back unchanged.
func TestRulesetRoundTrip(t *testing.T) {
	rs, err := LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := rs.Get(DefaultRuleset)
	data, err := json.Marshal(FileOf(p))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseRuleset(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ParseRuleset(FileOf(preset)): %v", err)
	}
	if diff := cmp.Diff(p, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// A bad ruleset file gets an error naming the field.
func TestRulesetErrorsNameTheField(t *testing.T) {
	data, err := builtin.ReadFile("rulesets/proshop-2003.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, from, to, field string
	}{
		{"unknown setting", `"vp_cap": 10`, `"vp_cap": 10, "vp_cop": 3`, "vp_cop"},
		{"wrong type", `"game_minutes": 7`, `"game_minutes": "seven"`, "game_minutes"},
		{"out of range", `"game_minutes": 7`, `"game_minutes": 0`, "game_minutes"},
		{"dango", `"dango": "connected"`, `"dango": "blob"`, "dango"},
		{"terrain", `"mountains", "pasture", "forest",`, `"mountains", "lava", "forest",`, "layout.terrain[1]"},
		{"terrain count", `"mountains", "pasture", "forest",`, `"mountains", "mountains", "forest",`, "layout.terrain"},
		{"harbour", `"generic", "wool"`, `"generic", "gold"`, "layout.harbors[1]"},
		{"standings key", `["firsts", "vp", "share"]`, `["firsts", "luck"]`, "standings_order[1]"},
		{"penalty level", `"level": "game_loss"`, `"level": "banish"`, "penalties[8].level"},
		{"colours", `["red", "blue", "yellow", "green"]`, `["red", "red", "yellow", "green"]`, "colors[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(string(data), tt.from) {
				t.Fatalf("preset does not contain %q", tt.from)
			}
			bad := strings.Replace(string(data), tt.from, tt.to, 1)
			_, err := ParseRuleset(strings.NewReader(bad))
			var fe *referee.FieldError
			if !errors.As(err, &fe) || fe.Field != tt.field {
				t.Errorf("ParseRuleset(%s) = %v, want a field error naming %q", tt.name, err, tt.field)
			}
		})
	}
}

func FuzzParseRuleset(f *testing.F) {
	data, err := builtin.ReadFile("rulesets/proshop-2003.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	national, err := builtin.ReadFile("rulesets/national-2025.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(national)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"layout":{"terrain":[]}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		rs, err := ParseRuleset(bytes.NewReader(in))
		if err == nil {
			if verr := rs.Validate(); verr != nil {
				t.Fatalf("ParseRuleset accepted a ruleset that does not validate: %v", verr)
			}
			if !json.Valid(in) {
				t.Fatalf("ParseRuleset accepted %q, which is not one JSON value", in)
			}
		}
	})
}
