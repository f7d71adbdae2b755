package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/cmd/catanjudge/internal/sitetest"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// buildBinary builds this command into a temporary folder: the crash test
// kills a real process, which a server inside the test binary cannot be.
// CI builds the binary once (make build) and hands it over in
// CATANJUDGE_TEST_BINARY.
func buildBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("CATANJUDGE_TEST_BINARY"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("CATANJUDGE_TEST_BINARY: %v", err)
		}
		return bin
	}
	bin := filepath.Join(t.TempDir(), "catanjudge")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is the server binary running over a data folder.
type process struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
	log  string // the file its standard error goes to
	done chan error
}

// startBinary starts bin serving dir on a free port and waits until it
// listens; the test kills it at the latest.
func startBinary(t *testing.T, bin, dir, name string) *process {
	t.Helper()
	return startBinaryWith(t, bin, dir, name, nil)
}

// startBinaryWith is startBinary with more environment variables
// ("KEY=value") and more flags for serve.
func startBinaryWith(t *testing.T, bin, dir, name string, env []string, flags ...string) *process {
	t.Helper()
	p := &process{log: filepath.Join(filepath.Dir(dir), name+".log"), done: make(chan error, 1)}
	logFile, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	p.cmd = exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dir}, flags...)...)
	p.cmd.Env = append(os.Environ(),
		"CATANJUDGE_API_TOKEN="+sitetest.TestAPIToken,
		"CATANJUDGE_JUDGE_PASSWORD="+sitetest.BrowserPassword,
	)
	p.cmd.Env = append(p.cmd.Env, env...)
	p.cmd.Stderr = logFile
	urls := make(chan string, 1)
	p.cmd.Stdout = &urlWatcher{urls: urls}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			if data, err := os.ReadFile(p.log); err == nil {
				t.Logf("%s log (last part):\n%s", name, tail(string(data), 3000))
			}
		}
	})
	select {
	case p.base = <-urls:
		return p
	case err := <-p.done:
		p.done <- err
		t.Fatalf("%s stopped before listening: %v", name, err)
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not listen within 20s", name)
	}
	return nil
}

// urlWatcher reads the server's standard output for the line that says
// where it listens, and sends the URL once.
type urlWatcher struct {
	buf  []byte
	urls chan<- string
}

func (w *urlWatcher) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		line, rest, ok := bytes.Cut(w.buf, []byte("\n"))
		if !ok {
			return len(p), nil
		}
		w.buf = rest
		if _, url, ok := strings.Cut(string(line), "is running at "); ok && w.urls != nil {
			w.urls <- url
			w.urls = nil
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// crashClient sends JSON with the API token and never fails the test
// itself: it runs in the writers' goroutines, and the server dies under it.
func crashClient(client *http.Client, method, url string, body any) (int, []byte, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(data))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+sitetest.TestAPIToken)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return res.StatusCode, out, err
}

type crashScore struct {
	Player int64 `json:"player"`
	VP     int   `json:"vp"`
}

// sheet is one score sheet a writer sent for a table as a version.
type sheet struct {
	table, version int
	scores         []crashScore
}

// TestCrashSafety starts the real binary, has six writers save and correct
// the ten tables of a round, and kills the process with SIGKILL in the
// middle of it, with saves in flight. Started again on the same data, the
// server has every save it acknowledged, exactly; each table's history
// runs 1, 2, 3... with a full score sheet each, every one a sheet a writer
// sent, and one audit line each; and the round clock started before the
// kill shows the game time less the wall time since the start.
func TestCrashSafety(t *testing.T) {
	crashRun(t, crashCase{players: 40, writers: 6, killAfter: 150})
}

// TestCrashSafetyDuringGroupCommit is TestCrashSafety with forty writers
// at the forty tables of a round, whose saves the server commits in
// batches (group commit: one transaction and one sync for the saves
// waiting), killed while batches are committing: every save acknowledged
// is there after the restart, exactly, each with its audit line, none
// half written; and the saves were committed in batches, in fewer commits
// than saves (the tournament's version moves once a commit).
func TestCrashSafetyDuringGroupCommit(t *testing.T) {
	out := crashRun(t, crashCase{players: 160, writers: 40, killAfter: 400})
	commits := out.versionAfter - out.versionBefore - 1 // the save after the restart is one
	t.Logf("%d revisions stored in %d commits, %.1f a commit; %d saves in flight at the kill", out.revisions, commits,
		float64(out.revisions)/float64(max(commits, 1)), out.flying)
	if commits <= 0 || commits >= int64(out.revisions) {
		t.Errorf("%d revisions stored in %d commits: the saves were not committed together", out.revisions, commits)
	}
	if out.flying < 2 {
		t.Errorf("%d saves in flight at the kill: the kill came between batches, not during one", out.flying)
	}
}

// crashCase is a crash test's event: its players (at tables of 4), the
// writers saving at once, and the acknowledged saves after which the
// server is killed.
type crashCase struct {
	players, writers, killAfter int
}

// crashOutcome is what a crash test saw: the revisions stored after the
// restart, the saves in flight at the kill, and the tournament's version
// before the saves and once the server stopped.
type crashOutcome struct {
	revisions                   int
	flying                      int64
	versionBefore, versionAfter int64
}

// crashRun runs a crash test (TestCrashSafety) of c.
func crashRun(t *testing.T, c crashCase) crashOutcome {
	t.Helper()
	var out crashOutcome
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "data")
	srv := startBinary(t, bin, dir, "first")

	var tour struct {
		ID          int64 `json:"id"`
		GameMinutes int   `json:"game_minutes"`
	}
	sitetest.APIDo(t, srv.base, "POST", "/api/v1/tournaments", map[string]any{"name": "停電対策テスト", "rounds": 3, "game_minutes": 60}, 201, &tour)
	for i := range c.players {
		sitetest.APIDo(t, srv.base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/players", tour.ID),
			map[string]any{"name": fmt.Sprintf("選手%03d", i+1), "kana": fmt.Sprintf("せんしゅ%03d", i+1)}, 201, nil)
	}
	var round struct {
		Tables []struct {
			Number  int `json:"number"`
			Players []struct {
				ID int64 `json:"id"`
			} `json:"players"`
		} `json:"tables"`
	}
	roundPath := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tour.ID)
	sitetest.APIDo(t, srv.base, "POST", fmt.Sprintf("/api/v1/tournaments/%d/rounds", tour.ID), nil, 201, &round)
	if len(round.Tables) != c.players/4 {
		t.Fatalf("round 1 has %d tables, want %d for %d players", len(round.Tables), c.players/4, c.players)
	}
	seated := map[int][]int64{}
	for _, tb := range round.Tables {
		for _, p := range tb.Players {
			seated[tb.Number] = append(seated[tb.Number], p.ID)
		}
	}
	clockStarted := time.Now()
	sitetest.APIDo(t, srv.base, "POST", roundPath+"/clock", map[string]any{"action": "start"}, 200, nil)
	out.versionBefore = versionIn(t, dir, tour.ID)

	writers, killAfter := c.writers, c.killAfter
	var (
		mu       sync.Mutex
		known    = map[int]int{} // the latest version each table is known to have
		sent     = map[[2]int][][]crashScore{}
		acked    []sheet
		conflict int
		inFlight atomic.Int64
		lost     atomic.Int64 // saves sent but never answered: the kill cut them off
		failures []string
		wg       sync.WaitGroup
	)
	killNow := make(chan struct{})
	var killOnce sync.Once
	client := &http.Client{Timeout: 10 * time.Second}
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			for {
				// The last table is left without a result: once every
				// table has one the round is done and its clock stops,
				// and the clock is to be seen running after the restart.
				tn := rng.IntN(len(round.Tables)-1) + 1
				mu.Lock()
				version := known[tn]
				mu.Unlock()
				// The clock runs: a game ended by time before its signal
				// carries the judge's reason (§12), as a correction does.
				req := map[string]any{"version": version, "declared": nil, "reason": fmt.Sprintf("writer %d ends the game", w)}
				if version > 0 {
					req["reason"] = fmt.Sprintf("writer %d corrects", w)
				}
				var scores []crashScore
				for _, id := range seated[tn] {
					scores = append(scores, crashScore{Player: id, VP: rng.IntN(10)})
				}
				req["scores"] = scores
				mu.Lock()
				key := [2]int{tn, version + 1}
				sent[key] = append(sent[key], scores)
				mu.Unlock()
				inFlight.Add(1)
				status, body, err := crashClient(client, "PUT", fmt.Sprintf("%s%s/tables/%d/result", srv.base, roundPath, tn), req)
				inFlight.Add(-1)
				if err != nil {
					// The server is gone: this save may or may not be stored.
					lost.Add(1)
					return
				}
				var res struct {
					Version        int `json:"version"`
					CurrentVersion int `json:"current_version"`
				}
				_ = json.Unmarshal(body, &res)
				mu.Lock()
				switch status {
				case http.StatusOK:
					acked = append(acked, sheet{table: tn, version: res.Version, scores: scores})
					known[tn] = max(known[tn], res.Version)
					if len(acked) == killAfter {
						killOnce.Do(func() { close(killNow) })
					}
				case http.StatusConflict:
					conflict++
					known[tn] = max(known[tn], res.CurrentVersion)
				default:
					failures = append(failures, fmt.Sprintf("writer %d: PUT table %d version %d = %d %s", w, tn, version, status, body))
				}
				mu.Unlock()
			}
		})
	}
	select {
	case <-killNow:
	case <-time.After(60 * time.Second):
		t.Fatalf("the writers did not reach %d acknowledged saves within 60s", killAfter)
	}
	flying := inFlight.Load()
	out.flying = flying
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	srv.done <- nil
	killedAt := time.Now()
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	t.Logf("killed after %d acknowledged saves and %d conflicts, %d saves in flight at the kill, %d cut off",
		len(acked), conflict, flying, lost.Load())

	srv = startBinary(t, bin, dir, "second")
	var clock sitetest.Clock
	sitetest.APIDo(t, srv.base, "GET", roundPath+"/clock", nil, 200, &clock)
	want := float64(tour.GameMinutes*60) - time.Since(clockStarted).Seconds()
	if clock.State != "running" || math.Abs(float64(clock.Remaining)-want) > 3 {
		t.Errorf("clock after the restart: %+v, want running with %.0f s left (±3 s); the server was down %v",
			clock, want, time.Since(killedAt).Round(time.Millisecond))
	}

	type revision struct {
		Version  int          `json:"version"`
		Scores   []crashScore `json:"scores"`
		Declared *int64       `json:"declared"`
	}
	stored := map[int][]revision{}
	total, unacked := 0, 0
	for _, tb := range round.Tables {
		var revs struct {
			Revisions []revision `json:"revisions"`
		}
		sitetest.APIDo(t, srv.base, "GET", fmt.Sprintf("%s/tables/%d/revisions", roundPath, tb.Number), nil, 200, &revs)
		stored[tb.Number] = revs.Revisions
		total += len(revs.Revisions)
		for i, r := range revs.Revisions {
			if r.Version != i+1 {
				t.Errorf("table %d: revision %d has version %d: the history has a gap", tb.Number, i+1, r.Version)
			}
			var ids []int64
			for _, sc := range r.Scores {
				ids = append(ids, sc.Player)
			}
			slices.Sort(ids)
			if want := slices.Sorted(slices.Values(seated[tb.Number])); !slices.Equal(ids, want) {
				t.Errorf("table %d version %d: scores of players %v, want the table's %v: half written", tb.Number, r.Version, ids, want)
			}
			if !slices.ContainsFunc(sent[[2]int{tb.Number, r.Version}], func(s []crashScore) bool { return slices.Equal(s, r.Scores) }) {
				t.Errorf("table %d version %d: stored scores %v were never sent as that version", tb.Number, r.Version, r.Scores)
			}
		}
	}
	for _, a := range acked {
		revs := stored[a.table]
		if a.version > len(revs) {
			t.Errorf("table %d: acknowledged version %d is lost; %d revisions stored", a.table, a.version, len(revs))
			continue
		}
		if diff := cmp.Diff(a.scores, revs[a.version-1].Scores); diff != "" {
			t.Errorf("table %d version %d: stored scores differ from the acknowledged save (-sent +stored):\n%s", a.table, a.version, diff)
		}
	}
	unacked = total - len(acked)
	out.revisions = total
	t.Logf("after the restart: %d revisions stored, %d of them acknowledged, %d committed as the process died unanswered",
		total, len(acked), unacked)
	if unacked < 0 || unacked > int(lost.Load()) {
		t.Errorf("%d revisions stored beyond the %d acknowledged, but only %d saves were cut off", unacked, len(acked), lost.Load())
	}

	// The round page agrees, and judges carry on where the history stops.
	var after struct {
		Tables []struct {
			Number int `json:"number"`
			Result *struct {
				Version int `json:"version"`
			} `json:"result"`
		} `json:"tables"`
	}
	sitetest.APIDo(t, srv.base, "GET", roundPath, nil, 200, &after)
	for _, tb := range after.Tables {
		got := 0
		if tb.Result != nil {
			got = tb.Result.Version
		}
		if want := len(stored[tb.Number]); got != want {
			t.Errorf("table %d: the round shows result version %d, want %d", tb.Number, got, want)
		}
	}
	next := len(stored[1])
	scores := []crashScore{}
	for i, id := range seated[1] {
		scores = append(scores, crashScore{Player: id, VP: i + 2})
	}
	var res struct {
		Version int `json:"version"`
	}
	sitetest.APIDo(t, srv.base, "PUT", fmt.Sprintf("%s/tables/1/result", roundPath), map[string]any{
		"version": next, "reason": "after the restart", "scores": scores,
	}, 200, &res)
	if res.Version != next+1 {
		t.Errorf("a save after the restart is version %d, want %d", res.Version, next+1)
	}
	stored[1] = append(stored[1], revision{Version: next + 1})

	// The audit log, read from the file once the server is gone: one line
	// per stored revision, none for a save that did not happen.
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-srv.done; err != nil {
		t.Errorf("the restarted server did not stop cleanly: %v", err)
	}
	srv.done <- nil
	ctx := context.Background()
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log, err := st.AuditLog(ctx, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range round.Tables {
		lines := 0
		for _, e := range log {
			if e.Subject == fmt.Sprintf("round 1 table %d", tb.Number) && strings.HasPrefix(e.Action, "result.") {
				lines++
			}
		}
		if lines != len(stored[tb.Number]) {
			t.Errorf("table %d: %d result audit lines for %d revisions, want one each", tb.Number, lines, len(stored[tb.Number]))
		}
	}
	if out.versionAfter, err = st.Version(ctx, tour.ID); err != nil {
		t.Fatal(err)
	}
	return out
}

// versionIn reads tournament tid's version from the data folder dir, which
// a running server may hold.
func versionIn(t *testing.T, dir string, tid int64) int64 {
	t.Helper()
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	v, err := st.Version(context.Background(), tid)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
