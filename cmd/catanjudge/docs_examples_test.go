package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
)

// The documents whose curl examples are run, from this package's folder.
var exampleDocs = []string{"../../README.md", "../../docs/api.md"}

// docHost is the address the examples are written for (make run's).
const docHost = "127.0.0.1:8080"

// answerChecks are what the answer of an example's request must hold,
// beyond a 2xx status and a JSON body, by a pattern of its method and URL
// path. An example of a request not listed here is held to the general
// checks alone, so that a new endpoint's example runs as soon as it is
// written into a document.
var answerChecks = []struct {
	request *regexp.Regexp
	want    []string
}{
	{regexp.MustCompile(`^GET /healthz$`), []string{`"status":"ok"`}},
	{regexp.MustCompile(`^GET /api/v1/rulesets/[^/]+$`), []string{`"in_game_settings"`, `"penalties"`}},
	{regexp.MustCompile(`^GET /api/v1/referee/board$`), []string{`"hexes"`, `"harbors"`, `"seed"`}},
	{regexp.MustCompile(`^POST /api/v1/referee/board/check$`), []string{`"redeal"`}},
	{regexp.MustCompile(`^POST /api/v1/referee/seating$`), []string{`"order"`}},
	{regexp.MustCompile(`^POST /api/v1/referee/placings$`), []string{`"placings"`, `"place":1`}},
	{regexp.MustCompile(`^POST /api/v1/referee/standings$`), []string{`"standings"`, `"rank":1`}},
	{regexp.MustCompile(`^POST /api/v1/referee/pairings$`), []string{`"tables"`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments$`), []string{`"id":`, `"state":"setup"`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/players$`), []string{`"id":`, `"checked_in":true`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/rounds$`), []string{`"tables":[{`}},
	{regexp.MustCompile(`^PUT /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/result$`), []string{`"placings"`, `"reported_vp"`, `"version":`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/rounds/\d+$`), []string{`"tables"`, `"clock"`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/revisions$`), []string{`"revisions"`, `"version":1`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/rulings$`), []string{`"evaluation"`, `"longest-road-cut-short"`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/rulings$`), []string{`"rulings":[{`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/game/moves$`), []string{`"moves":`, `"state":{`, `"evaluation":{`}},
	{regexp.MustCompile(`^DELETE /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/game/moves/\d+$`), []string{`"moves":10`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/game$`), []string{`"moves":[{"number":1`, `"phase":"over"`, `"ended_by":"time"`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/game/result$`), []string{`"placings"`, `"ended_by":"time"`, `"game_moves":11`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/standings$`), []string{`"standings"`, `"rank":1`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/final$`), []string{`"number":`, `"tables":[{`, `"cut":{"advancing":[`, `"draw":[`, `"seed":`}},
	{regexp.MustCompile(`^DELETE /api/v1/tournaments/\d+/players/\d+$`), nil},
	{regexp.MustCompile(`^PATCH /api/v1/tournaments/\d+$`), []string{`"self_checkin":true`, `"self_report":"approve"`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/reports$`), []string{`"status":"awaiting-confirmation"`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/reports/\d+/dispute$`), []string{`"status":"disputed"`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/rounds/\d+/tables/\d+/reports$`), []string{`"dispute":{"scores":[`, `"breakdown":{`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/close$`), []string{`"state":"finished"`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/reopen$`), []string{`"state":"running"`}},
	{regexp.MustCompile(`^GET /api/v1/people$`), []string{`"people":[{`, `"total":`}},
	{regexp.MustCompile(`^POST /api/v1/people/\d+/merge$`), []string{`"events":2`}},
	{regexp.MustCompile(`^GET /api/v1/people/\d+$`), []string{`"tournaments":[{`, `"member":"JCS-042"`}},
	// The end of an event (issue 24).
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+$`), []string{`"winners":[`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/rounds/\d+/clock$`), []string{`"state":"done"`}},
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/final/remake$`), []string{`"number":2`, `"cut":{"advancing":[`}},
	// Divisions in one event (issue 30).
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/divisions$`), []string{`"division":"小学生の部"`, `"divisions":[{"name":"一般の部","tournament":1},{"name":"小学生の部","tournament":2}]`}},
	{regexp.MustCompile(`^PUT /api/v1/tournaments/\d+/division$`), []string{`"division":"一般の部"`}},
	// Beyond one event (issue 29).
	{regexp.MustCompile(`^POST /api/v1/events/import$`), []string{`"shop":"`}},
	{regexp.MustCompile(`^POST /api/v1/seasons$`), []string{`"formula":{"kind":"placement"`}},
	{regexp.MustCompile(`^GET /api/v1/seasons/\d+/standings$`), []string{`"standings":[{"rank":1`, `"best":[{`}},
	{regexp.MustCompile(`^GET /api/v1/ratings$`), []string{`"ratings":[{"rank":1`, `"ordinal":`}},
	{regexp.MustCompile(`^GET /api/v1/people/\d+/rating$`), []string{`"history":[{`, `"before":{"mu":25,`, `"name":"西の秋大会"`, `"name":"10月定例会"`}},
	{regexp.MustCompile(`^GET /api/v1/seasons/\d+/qualification$`), []string{`"qualified":true`, `"real_name":"井上 次郎"`, `"left":0`}},
	{regexp.MustCompile(`^PUT /api/v1/people/\d+/real_name$`), []string{`"real_name":"井上 次郎"`}},
	// Team events (issue 30).
	{regexp.MustCompile(`^POST /api/v1/tournaments/\d+/teams$`), []string{`"players":[`, `"lineups":[]`}},
	{regexp.MustCompile(`^PUT /api/v1/tournaments/\d+/rounds/\d+/lineups/\d+$`), []string{`"round":1`, `"players":[1,2,3,17]`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/teams$`), []string{`"teams":[{"id":1,"name":"東京"`, `"lineups":[{"team":1,"round":1`}},
	{regexp.MustCompile(`^GET /api/v1/tournaments/\d+/teams/standings$`), []string{`"order":["points","vp"]`, `"individual_standings":true`, `"players":[{"rank":`}},
}

// TestDocExamples runs every curl example of README.md and docs/api.md as
// written, with a real shell and curl, against a server started with run()
// on a free port: each ```sh block that calls curl runs whole (its variables
// and loops included) against a fresh server, with only the host and port
// rewritten, and the server's start left to the test: a block that makes an
// API token (export CATANJUDGE_API_TOKEN=...) and starts the server with
// it (make run &) has its token made by its own command first, the server
// started with that token, and the make run line skipped. Every request
// must answer 2xx, with a JSON body (none for 204) that is no error, and
// hold what answerChecks says of its kind.
func TestDocExamples(t *testing.T) {
	realCurl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CATANJUDGE_REQUIRE_BROWSER") == "1" {
			t.Fatalf("curl is missing: %v", err)
		}
		t.Skip("curl is missing")
	}
	// A curl that reports each answer's status, method and URL after its
	// body, so the examples run unchanged.
	bin := t.TempDir()
	wrapper := fmt.Sprintf("#!/bin/sh\nexec %s -w '\\n<<<answer %%{http_code} %%{method} %%{url_effective}>>>\\n' \"$@\"\n", realCurl)
	if err := os.WriteFile(filepath.Join(bin, "curl"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, doc := range exampleDocs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, block := range shellBlocks(string(text)) {
			if !regexp.MustCompile(`(^|\s)curl\s`).MatchString(block) {
				continue
			}
			ran++
			t.Run(fmt.Sprintf("%s/block%d", filepath.Base(doc), i+1), func(t *testing.T) {
				runExample(t, block, bin)
			})
		}
	}
	if ran < 2 {
		t.Fatalf("ran %d blocks of curl examples, want the README's and docs/api.md's: is the extraction broken?", ran)
	}
}

// shellBlocks returns the bodies of the ```sh fenced blocks of a Markdown text.
func shellBlocks(text string) []string {
	var out []string
	var cur []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, "```sh"):
			in, cur = true, nil
		case in && strings.HasPrefix(line, "```"):
			in = false
			out = append(out, strings.Join(cur, "\n")+"\n")
		case in:
			cur = append(cur, line)
		}
	}
	return out
}

// answer is one request an example made, as the curl wrapper reported it.
type answer struct {
	status      int
	method, url string
	path        string
	body        string
}

var answerMark = regexp.MustCompile(`(?s)(.*?)\n<<<answer (\d{3}) (\S+) (\S+)>>>\n`)

// tokenLine and serverLine are the lines of a block that make the API token
// and start the server in the background.
var (
	tokenLine  = regexp.MustCompile(`(?m)^export CATANJUDGE_API_TOKEN=(.+)$`)
	serverLine = regexp.MustCompile(`(?m)^make run\b.*&\s*$`)
)

// runExample runs one block of examples against a fresh server.
func runExample(t *testing.T, block, bin string) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	token := ""
	if m := tokenLine.FindStringSubmatch(block); m != nil {
		// The block's own command makes the token, which the server
		// then starts with.
		out, err := exec.CommandContext(ctx, "/bin/sh", "-e", "-c", m[0]+"\nprintf %s \"$CATANJUDGE_API_TOKEN\"").Output()
		if err != nil || len(out) == 0 {
			t.Fatalf("the token line %q made no token: %v", m[0], err)
		}
		token = string(out)
		block = strings.Replace(block, m[0], "export CATANJUDGE_API_TOKEN='"+token+"'", 1)
	}
	block = serverLine.ReplaceAllString(block, "")
	base := startDocServer(t, token)
	script := regexp.MustCompile(`https?://`+regexp.QuoteMeta(docHost)).ReplaceAllString(block, base)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-e", "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "LANG=C.UTF-8")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the example failed: %v\n%s\nstdout:\n%s", err, stderr.String(), out)
	}
	var answers []answer
	for _, m := range answerMark.FindAllStringSubmatch(string(out), -1) {
		a := answer{method: m[3], url: m[4], body: strings.TrimSpace(m[1])}
		fmt.Sscan(m[2], &a.status)
		a.path = strings.TrimPrefix(a.url, base)
		if i := strings.IndexByte(a.path, '?'); i >= 0 {
			a.path = a.path[:i]
		}
		answers = append(answers, a)
	}
	if want := strings.Count(block, "curl "); len(answers) < want {
		t.Fatalf("the block made %d requests, want at least its %d curl calls:\n%s", len(answers), want, out)
	}
	for _, a := range answers {
		what := a.method + " " + a.path
		if a.status < 200 || a.status > 299 {
			t.Errorf("%s = %d %s, want 2xx", what, a.status, a.body)
			continue
		}
		if a.status == 204 {
			if a.body != "" {
				t.Errorf("%s = 204 with a body %q", what, a.body)
			}
		} else {
			var v any
			if err := json.Unmarshal([]byte(a.body), &v); err != nil {
				t.Errorf("%s = %d %q, want a JSON body: %v", what, a.status, a.body, err)
				continue
			}
			if obj, ok := v.(map[string]any); ok && obj["error"] != nil {
				t.Errorf("%s = %d %s, want no error", what, a.status, a.body)
			}
		}
		for _, c := range answerChecks {
			if !c.request.MatchString(what) {
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(a.body, w) {
					t.Errorf("%s = %s, want it to hold %s", what, a.body, w)
				}
			}
		}
	}
}

// startDocServer boots run() on a free port with a new data folder and the
// API token the documents use, and returns the address it printed.
func startDocServer(t *testing.T, token string) string {
	t.Helper()
	env := map[string]string{"CATANJUDGE_JUDGE_PASSWORD": sitetest.BrowserPassword, "CATANJUDGE_API_TOKEN": token}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, func(k string) string { return env[k] }, pw, io.Discard)
		pw.Close()
		errc <- err
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil && err != context.Canceled {
			t.Errorf("run: %v", err)
		}
	})
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "Catan Judge is running at "); ok {
				urls <- strings.TrimSpace(rest)
			}
		}
	}()
	select {
	case u := <-urls:
		return strings.TrimSuffix(u, "/")
	case err := <-errc:
		t.Fatalf("run stopped before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("run did not start within 20s")
	}
	return ""
}
