package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/server"
	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/recordfile"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// runCommand runs catanjudge with args as a person would, with no
// environment, and returns what it printed and its error.
func runCommand(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errs bytes.Buffer
	err = run(context.Background(), args, func(string) string { return "" }, &out, &errs)
	return out.String(), errs.String(), err
}

// simulated writes the record of a simulated event to a file in dir.
func simulated(t *testing.T, dir string, players, rounds int, seed uint64, extra ...string) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("sim-%d-%d-%d.json", players, rounds, seed))
	args := append([]string{"simulate", "--players", fmt.Sprint(players), "--rounds", fmt.Sprint(rounds), "--seed", fmt.Sprint(seed), "--out", path}, extra...)
	if _, stderr, err := runCommand(t, args...); err != nil {
		t.Fatalf("catanjudge %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return path
}

// writtenAt is the one line of a record that names when it was written.
var writtenAt = regexp.MustCompile(`(?m)^  "written_at": .*\n`)

// TestSimulateThenCheck plays random events of several sizes, seeds and
// rulesets through the service and checks each record it writes: every
// one checks, and the same flags write the same record.
func TestSimulateThenCheck(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		players, rounds int
		seed            uint64
		ruleset         string
	}{
		{5, 2, 1, "proshop-2003"},
		{17, 3, 2, "proshop-2003"},
		{23, 4, 3, "proshop-2003"},
		{40, 5, 4, "national-2025"},
	} {
		t.Run(fmt.Sprintf("%d players %d rounds seed %d %s", tc.players, tc.rounds, tc.seed, tc.ruleset), func(t *testing.T) {
			path := simulated(t, dir, tc.players, tc.rounds, tc.seed, "--ruleset", tc.ruleset)
			stdout, _, err := runCommand(t, "check", path)
			if err != nil || !strings.Contains(stdout, "OK: every derived fact agrees with the record.") {
				t.Fatalf("check of the simulated record = %v:\n%s", err, stdout)
			}
			if strings.Contains(stdout, "not checked") {
				t.Errorf("check of a record catanjudge wrote left something unchecked:\n%s", stdout)
			}
			var f struct {
				Tournament struct{ Closed any }
				Players    []struct {
					DroppedRound int   `json:"dropped_round"`
					KeepApart    []int `json:"keep_apart"`
				}
				Rounds []struct{ Mode string }
			}
			data := readFile(t, path)
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatal(err)
			}
			if f.Tournament.Closed == nil || len(f.Rounds) < tc.rounds {
				t.Errorf("the simulated event is not closed or has %d rounds, want %d or more", len(f.Rounds), tc.rounds)
			}
			if tc.players >= 17 {
				var keepApart bool
				for _, p := range f.Players {
					keepApart = keepApart || len(p.KeepApart) > 0
				}
				if !keepApart || f.Rounds[len(f.Rounds)-1].Mode != "final" {
					t.Errorf("the simulated event of %d players has keep-apart pairs %v and last round %q, want keep-apart pairs and a final",
						tc.players, keepApart, f.Rounds[len(f.Rounds)-1].Mode)
				}
			}
			again := simulated(t, t.TempDir(), tc.players, tc.rounds, tc.seed, "--ruleset", tc.ruleset)
			if a, b := writtenAt.ReplaceAll(data, nil), writtenAt.ReplaceAll(readFile(t, again), nil); !bytes.Equal(a, b) {
				t.Errorf("simulate with the same flags wrote two records that differ (timestamps aside)")
			}
		})
	}
	other := simulated(t, t.TempDir(), 17, 3, 5, "--ruleset", "proshop-2003")
	if bytes.Equal(writtenAt.ReplaceAll(readFile(t, other), nil), writtenAt.ReplaceAll(readFile(t, filepath.Join(dir, "sim-17-3-2.json")), nil)) {
		t.Errorf("simulate with seeds 2 and 5 wrote the same record")
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// jsonDoc is a record file read as plain JSON, to change as a hand with
// an editor would.
type jsonDoc map[string]any

func (d jsonDoc) table(round, table int) map[string]any {
	return d["rounds"].([]any)[round-1].(map[string]any)["tables"].([]any)[table-1].(map[string]any)
}

func list(v any) []any { return v.([]any) }

func obj(v any) map[string]any { return v.(map[string]any) }

// TestCheckFindsATamperedRecord changes one fact of a simulated event's
// record at a time, as a hand with an editor would (a VP, a seat, a chip
// on the board, a player moved to another table, the final's cut), and
// sees check fail, naming the round and table.
func TestCheckFindsATamperedRecord(t *testing.T) {
	dir := t.TempDir()
	path := simulated(t, dir, 17, 3, 2)
	if stdout, _, err := runCommand(t, "check", path); err != nil {
		t.Fatalf("check of the untouched record = %v:\n%s", err, stdout)
	}
	for _, tc := range []struct {
		name   string
		change func(d jsonDoc) (round, table int)
		want   string // a word of the disagreement besides its round and table
	}{
		{"one VP", func(d jsonDoc) (int, int) {
			rev := list(d.table(2, 1)["results"])
			sc := obj(list(obj(rev[len(rev)-1])["scores"])[0])
			vp, _ := sc["vp"].(json.Number).Int64()
			sc["vp"] = vp + 1
			return 2, 1
		}, "placings"},
		{"one seat", func(d jsonDoc) (int, int) {
			seats := list(obj(d.table(1, 2)["seating"])["seats"])
			a, b := obj(seats[0]), obj(seats[1])
			a["player"], b["player"] = b["player"], a["player"]
			return 1, 2
		}, "seating"},
		{"one chip", func(d jsonDoc) (int, int) {
			tiles := list(obj(d.table(3, 3)["board"])["tiles"])
			for _, tl := range tiles {
				if tile := obj(tl); tile["number"] == json.Number("8") {
					tile["number"] = 9
					break
				}
			}
			return 3, 3
		}, "board"},
		{"a player moved to another table", func(d jsonDoc) (int, int) {
			from, to := d.table(2, 1), d.table(2, 2)
			ps := list(from["players"])
			from["players"], to["players"] = ps[1:], append([]any{ps[0]}, list(to["players"])...)
			return 2, 1
		}, "result"},
		{"the final's cut", func(d jsonDoc) (int, int) {
			rounds := list(d["rounds"])
			final := obj(rounds[len(rounds)-1])
			adv := list(obj(final["cut"])["advancing"])
			adv[0], adv[len(adv)-1] = adv[len(adv)-1], adv[0]
			return len(rounds), 0
		}, "cut"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Numbers stay as written: a seed is a uint64, past a float64's 53 bits.
			var d jsonDoc
			dec := json.NewDecoder(bytes.NewReader(readFile(t, path)))
			dec.UseNumber()
			if err := dec.Decode(&d); err != nil {
				t.Fatal(err)
			}
			round, table := tc.change(d)
			data, err := json.MarshalIndent(d, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			changed := filepath.Join(t.TempDir(), "changed.json")
			if err := os.WriteFile(changed, data, 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, _, err := runCommand(t, "check", changed)
			if err == nil || !strings.Contains(err.Error(), "does not check") {
				t.Fatalf("check of the record with %s changed = %v, want it to fail:\n%s", tc.name, err, stdout)
			}
			at := fmt.Sprintf("round %d table %d %s: ", round, table, tc.want)
			if table == 0 {
				at = fmt.Sprintf("round %d %s: ", round, tc.want)
			}
			if !strings.Contains(stdout, at) {
				t.Errorf("check of the record with %s changed printed\n%s\nwant a disagreement at %q", tc.name, stdout, at)
			}
			if strings.Contains(stdout, "OK:") {
				t.Errorf("check printed OK for a record that does not check:\n%s", stdout)
			}
		})
	}
}

// TestImportRecordRestoresTheEvent imports a simulated event's record
// into a data folder twice, as two new tournaments, and exports each
// again: the first (on a fresh database, so with the same IDs) is the
// record it came from, field for field, and both check.
func TestImportRecordRestoresTheEvent(t *testing.T) {
	ctx := context.Background()
	path := simulated(t, t.TempDir(), 17, 3, 2)
	data := t.TempDir()
	dsn, err := store.FileDSN(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for i, want := range []string{"as tournament 1: 17 players, 4 rounds, finished", "as tournament 2: 17 players, 4 rounds, finished"} {
		stdout, stderr, err := runCommand(t, "import-record", "--data", data, "--judge", "審判長", path)
		if err != nil || !strings.Contains(stdout, want) {
			t.Fatalf("import-record #%d = %v\n%s%s\nwant it to say %q", i+1, err, stdout, stderr, want)
		}
	}
	st, err = store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	svc := tournament.NewService(st, sets, time.Now)
	for _, tid := range []int64{1, 2} {
		r, err := svc.Record(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		f, err := recordfile.FromRecord(r, "catanjudge "+server.Version)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := recordfile.Write(&b, f); err != nil {
			t.Fatal(err)
		}
		again := filepath.Join(t.TempDir(), "again.json")
		if err := os.WriteFile(again, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if stdout, _, err := runCommand(t, "check", again); err != nil {
			t.Errorf("check of imported tournament %d's record = %v:\n%s", tid, err, stdout)
		}
		if tid != 1 {
			continue
		}
		if diff := cmp.Diff(string(writtenAt.ReplaceAll(readFile(t, path), nil)), string(writtenAt.ReplaceAll(b.Bytes(), nil))); diff != "" {
			t.Errorf("the imported event's record differs from the file it came from (-file +imported):\n%s", diff)
		}
	}
}

// TestCheckReadsAHandMadeRecord checks a record written by hand, with
// only the facts (a named built-in ruleset, the tables, the score
// sheets): it checks, saying what it could not compare; a player seated
// twice, an unknown format and a misspelt field are each refused with a
// message that says so.
func TestCheckReadsAHandMadeRecord(t *testing.T) {
	hand := filepath.Join("testdata", "handmade-record.json")
	stdout, _, err := runCommand(t, "check", hand)
	for _, want := range []string{"OK: every derived fact agrees with the record.", "note: the ruleset is the built-in proshop-2003",
		"round 2 repeats: the record gives no repeats; the tables make 4", "standings: the record gives no standings"} {
		if err != nil || !strings.Contains(stdout, want) {
			t.Errorf("check %s = %v, printed\n%s\nwant it to say %q", hand, err, stdout, want)
		}
	}
	text := string(readFile(t, hand))
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"a player seated twice", `"players": [2, 6, 4, 8]`, `"players": [2, 6, 3, 8]`, "round 2 table 2 players: C (3) is at table 1 and at table 2"},
		{"an unknown format", `"format": 1`, `"format": 2`, "the record is of format 2; this program reads format 1"},
		{"a misspelt field", `"game_minutes"`, `"game_minute"`, `unknown field "game_minute"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(text, tc.old) {
				t.Fatalf("%s has no %s", hand, tc.old)
			}
			path := filepath.Join(t.TempDir(), "hand.json")
			if err := os.WriteFile(path, []byte(strings.Replace(text, tc.old, tc.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, _, err := runCommand(t, "check", path)
			if err == nil || !strings.Contains(stdout+err.Error(), tc.want) {
				t.Errorf("check of the record with %s = %v, printed\n%s\nwant it to fail saying %q", tc.name, err, stdout, tc.want)
			}
		})
	}
}
