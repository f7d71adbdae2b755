package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
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
	if err := os.WriteFile(file, []byte(`{"addr":"file:1","data":"/file","api_token":"filetoken-0123456789abcdef"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	dbFile := filepath.Join(dir, "db.json")
	if err := os.WriteFile(dbFile, []byte(`{"database":"postgres://cj@db.local/file"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want Config
	}{
		{"defaults", nil, nil, Config{Addr: "127.0.0.1:8080", DataDir: "./data"}},
		{"file", []string{"--config", file}, nil, Config{Addr: "file:1", DataDir: "/file", APIToken: "filetoken-0123456789abcdef", ConfigFile: file}},
		{"env over file", []string{"--config", file}, map[string]string{"CATANJUDGE_ADDR": "env:2", "CATANJUDGE_API_TOKEN": "envtoken-0123456789abcdefgh"},
			Config{Addr: "env:2", DataDir: "/file", APIToken: "envtoken-0123456789abcdefgh", ConfigFile: file}},
		{"flag over env", []string{"--addr", "flag:3", "--data", "/flag", "--ruleset", "r.json"},
			map[string]string{"CATANJUDGE_ADDR": "env:2", "CATANJUDGE_DATA": "/env", "CATANJUDGE_JUDGE_PASSWORD": "pw"},
			Config{Addr: "flag:3", DataDir: "/flag", Ruleset: "r.json", JudgePassword: "pw"}},
		{"config file from env", nil, map[string]string{"CATANJUDGE_CONFIG": file},
			Config{Addr: "file:1", DataDir: "/file", APIToken: "filetoken-0123456789abcdef", ConfigFile: file}},
		{"public url", []string{"--public-url", "http://192.168.1.20:8080/"}, nil,
			Config{Addr: "127.0.0.1:8080", DataDir: "./data", PublicURL: "http://192.168.1.20:8080"}},
		{"database from env", nil, map[string]string{"CATANJUDGE_DATABASE": "postgres://cj@db.local/env"},
			Config{Addr: "127.0.0.1:8080", DataDir: "./data", Database: "postgres://cj@db.local/env"}},
		{"database flag over env and file", []string{"--config", dbFile, "--database", "postgresql://cj@db.local/flag"},
			map[string]string{"CATANJUDGE_DATABASE": "postgres://cj@db.local/env"},
			Config{Addr: "127.0.0.1:8080", DataDir: "./data", Database: "postgresql://cj@db.local/flag", ConfigFile: dbFile}},
		{"database from file", []string{"--config", dbFile}, nil,
			Config{Addr: "127.0.0.1:8080", DataDir: "./data", Database: "postgres://cj@db.local/file", ConfigFile: dbFile}},
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
	// The rulebook's values (docs/rules.md §3, §11, §12).
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

// A bad ruleset file gets an error naming the field, nested ones by their path.
func TestRulesetErrorsNameTheField(t *testing.T) {
	tests := []struct {
		preset, name, from, to, field string
	}{
		{"proshop-2003", "unknown setting", `"vp_cap": 10`, `"vp_cap": 10, "vp_cop": 3`, "vp_cop"},
		{"proshop-2003", "wrong type", `"game_minutes": 7`, `"game_minutes": "seven"`, "game_minutes"},
		{"proshop-2003", "out of range", `"game_minutes": 7`, `"game_minutes": 0`, "game_minutes"},
		{"proshop-2003", "dango", `"dango": "connected"`, `"dango": "blob"`, "dango"},
		{"proshop-2003", "terrain", `"mountains", "pasture", "forest",`, `"mountains", "lava", "forest",`, "layout.terrain[1]"},
		{"proshop-2003", "terrain count", `"mountains", "pasture", "forest",`, `"mountains", "mountains", "forest",`, "layout.terrain"},
		{"proshop-2003", "harbour", `"generic", "wool"`, `"generic", "gold"`, "layout.harbors[1]"},
		{"proshop-2003", "standings key", `["firsts", "vp", "share"]`, `["firsts", "luck"]`, "standings_order[1]"},
		{"proshop-2003", "penalty level", `"level": "game_loss"`, `"level": "banish"`, "penalties[8].level"},
		{"proshop-2003", "colours", `["red", "blue", "yellow", "green"]`, `["red", "red", "yellow", "green"]`, "colors[1]"},
		{"national-2025", "method", `"method": "spiral"`, `"method": "hexagon"`, "board.method"},
		{"national-2025", "no method", `"method": "spiral",`, ``, "board.method"},
		{"national-2025", "corner name", `"north-west", "north-east"`, `"north-west", "north"`, "board.corners[1]"},
		{"national-2025", "corner twice", `"north-west", "north-east"`, `"north-west", "north-west"`, "board.corners[1]"},
		{"national-2025", "five corners", `"south-west", "west"]`, `"south-west"]`, "board.corners"},
		{"national-2025", "chip 7", `"chips": [5, 2,`, `"chips": [7, 2,`, "board.chips[0]"},
		{"national-2025", "chips not the set", `"chips": [5, 2,`, `"chips": [5, 5,`, "board.chips"},
		{"national-2025", "spiral with dango", `"dango": "off"`, `"dango": "connected"`, "dango"},
		{"national-2025", "capsule with corners", `"method": "spiral"`, `"method": "capsule"`, "board.corners"},
		{"national-2025", "placement", `"placement_seconds_per_settlement": 60`, `"placement_seconds_per_settlement": -1`, "time.placement_seconds_per_settlement"},
		{"national-2025", "turn limit", `"final_turn_seconds": 120`, `"final_turn_seconds": 7200`, "time.final_turn_seconds"},
		{"national-2025", "notice", `"end_notice_minutes": 10`, `"end_notice_minutes": 600`, "time.end_notice_minutes"},
		{"national-2025", "round format", `"rounds": ["random", "swiss"]`, `"rounds": ["random", "knockout"]`, "event.rounds[1]"},
		{"national-2025", "no rounds", `"rounds": ["random", "swiss"]`, `"rounds": []`, "event.rounds"},
		{"national-2025", "schedule after swiss", `"rounds": ["random", "swiss"]`, `"rounds": ["swiss", "schedule"]`, "event.rounds[1]"},
		{"national-2025", "final", `"final": "top-cut"`, `"final": "playoff"`, "event.final"},
		{"national-2025", "cut of 5", `"cut": [4]`, `"cut": [5]`, "event.cut[0]"},
		{"national-2025", "cut too big for one table", `"cut": [4]`, `"cut": [8]`, "event.cut[0]"},
		{"national-2025", "uneven advance", `"cut": [4]`, `"cut": [16, 3]`, "event.cut[1]"},
		{"national-2025", "cut with a leaders' table", `"final": "top-cut"`, `"final": "leaders-table"`, "event.cut"},
		{"national-2025", "final ties", `"final_ties": "shared"`, `"final_ties": "coin"`, "event.final_ties"},
		{"national-2025", "schedule priority", `"schedule_priority": "spread"`, `"schedule_priority": "fairness"`, "event.schedule_priority"},
		{"national-2025", "wrong type in event", `"cut": [4]`, `"cut": "four"`, "event.cut"},
		{"national-2025", "unknown event setting", `"final_ties": "shared"`, `"final_ties": "shared", "seeding": 1`, "event.seeding"},
	}
	for _, tt := range tests {
		t.Run(tt.preset+"/"+tt.name, func(t *testing.T) {
			data, err := builtin.ReadFile("rulesets/" + tt.preset + ".json")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), tt.from) {
				t.Fatalf("preset does not contain %q", tt.from)
			}
			bad := strings.Replace(string(data), tt.from, tt.to, 1)
			_, err = ParseRuleset(strings.NewReader(bad))
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

// A token short enough to guess is refused at start-up, with how to make a
// good one; the token itself is never echoed.
func TestLoadRefusesWeakAPIToken(t *testing.T) {
	for _, token := range []string{"tok", "secret", "test-token", strings.Repeat("a", MinAPITokenLength-1), "has a space in it 0123456789", "ctrl\x1bchar-0123456789abcdef"} {
		_, err := Load(nil, env(map[string]string{"CATANJUDGE_API_TOKEN": token}), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "openssl rand -hex 24") || len(token) > 4 && strings.Contains(err.Error(), token) {
			t.Errorf("Load with API token %q = %v, want an error saying how to make one, without the token", token, err)
		}
	}
	for _, token := range []string{strings.Repeat("a", MinAPITokenLength), "3f9c2a7d1e8b4c6a0f5d2e9b7c1a4d8e6b3f0a2c9d7e5b1a"} {
		if cfg, err := Load(nil, env(map[string]string{"CATANJUDGE_API_TOKEN": token}), io.Discard); err != nil || cfg.APIToken != token {
			t.Errorf("Load with API token %q = %q, %v; want it accepted", token, cfg.APIToken, err)
		}
	}
}

// A database that is not a PostgreSQL URL is refused at start-up, without
// repeating what was given (a URL may hold a password).
func TestLoadRefusesABadDatabase(t *testing.T) {
	for _, dsn := range []string{"mysql://u:s3cret@h/db", "./data/catanjudge.db", "s3cret postgres"} {
		_, err := Load([]string{"--database", dsn}, env(nil), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "postgres://") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Load(--database %q) = %v, want an error showing a PostgreSQL URL, without the given one", dsn, err)
		}
	}
}

// A shared session key comes from the environment alone, never the config
// file; one that is not base64 or holds fewer than 32 bytes is refused
// with how to make one, without echoing it.
func TestLoadSessionKey(t *testing.T) {
	good := "q3kTc0HvJ0c6yS9m8Yt3P9k1e0M1i3b1D2oQ8wGx1mE=" // openssl rand -base64 32
	for _, key := range []string{good, strings.TrimRight(good, "="), "q3kTc0HvJ0c6yS9m8Yt3P9k1e0M1i3b1D2oQ8wGx1mE_-A"} {
		if cfg, err := Load(nil, env(map[string]string{"CATANJUDGE_SESSION_KEY": key}), io.Discard); err != nil || cfg.SessionKey != key {
			t.Errorf("Load with session key %q = %q, %v; want it accepted", key, cfg.SessionKey, err)
		}
	}
	for _, key := range []string{"short-secret", "c2hvcnQ=", "not base64 at all, not at all!!!!!!!!!!!!!!!!!!!!"} {
		_, err := Load(nil, env(map[string]string{"CATANJUDGE_SESSION_KEY": key}), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "openssl rand -base64 32") || strings.Contains(err.Error(), key) {
			t.Errorf("Load with session key %q = %v, want an error saying how to make one, without the key", key, err)
		}
	}
	file := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(file, []byte(`{"session_key": "`+good+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if cfg, err := Load([]string{"--config", file}, env(nil), io.Discard); err == nil && cfg.SessionKey != "" {
		t.Errorf("a session key in the config file was taken: %q", cfg.SessionKey)
	}
}

// The reverse proxies to trust are a comma-separated list of addresses
// and CIDR ranges; anything else is refused.
func TestLoadTrustedProxies(t *testing.T) {
	cfg, err := Load([]string{"--trusted-proxies", "10.0.0.5, 192.168.1.0/24,"}, env(nil), io.Discard)
	if err != nil || !slices.Equal(cfg.TrustedProxies, []string{"10.0.0.5", "192.168.1.0/24"}) {
		t.Errorf("Load(--trusted-proxies) = %q, %v; want the two", cfg.TrustedProxies, err)
	}
	if _, err := Load(nil, env(map[string]string{"CATANJUDGE_TRUSTED_PROXIES": "nginx.local"}), io.Discard); err == nil {
		t.Error("a host name as a trusted proxy was accepted")
	}
}
