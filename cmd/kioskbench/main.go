// Command kioskbench measures the players' kiosk under a crowd, on loopback:
// a thousand phones on the live feed (Server-Sent Events), pages loading
// all the while, and the judge saving results. It prints how long a saved
// result takes to reach the last client (and, as kiosk.js then fetches the
// live state, to be on every page), the page latency under that load, and
// the server's memory.
//
// The server runs in a child process (this program with -serve), built
// from tournament/web and tournament/store as cmd/catanjudge builds it, on
// a temporary database, so that its memory is its own. Everything is
// bounded: a fixed number of clients and saves, and a time limit.
//
// Usage:
//
//	go run ./cmd/kioskbench [-clients 1000] [-saves 12] [-loaders 8] [-refetch=true] [-json]
//
// With -json it prints the measures as one JSON object instead, for
// cmd/benchreport.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

const token = "kioskbench"

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kioskbench:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("kioskbench", flag.ContinueOnError)
	clients := fs.Int("clients", 1000, "kiosk clients on the live feed")
	saves := fs.Int("saves", 12, "results saved, one after another")
	loaders := fs.Int("loaders", 8, "clients loading pages all the while")
	refetch := fs.Bool("refetch", true, "each client fetches the live state after an event, as kiosk.js does")
	players := fs.Int("players", 48, "players in the tournament")
	limit := fs.Duration("timeout", 90*time.Second, "give up after this long")
	serveMode := fs.Bool("serve", false, "run the server (used by kioskbench itself)")
	asJSON := fs.Bool("json", false, "print the measures as one JSON object")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bench.RaiseFileLimit()
	if *serveMode {
		return serveBench(*players, stdin, stdout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	return measure(ctx, stdout, options{clients: *clients, saves: *saves, loaders: *loaders, refetch: *refetch, players: *players, json: *asJSON})
}

// serveBench is the server side: a tournament with one round paired, seated
// and on the clock, served on a free loopback port. It prints "ready ADDR
// TID", answers each "mem" line on stdin with its memory, and stops at the
// end of stdin.
func serveBench(players int, stdin io.Reader, stdout io.Writer) error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "kioskbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	dsn, err := store.FileDSN(dir)
	if err != nil {
		return err
	}
	broker := live.NewBroker(0, 0)
	st, err := store.Open(ctx, dsn, store.WithAfterCommit(broker.Committed))
	if err != nil {
		return err
	}
	defer st.Close()
	rulesets, err := config.LoadRulesets()
	if err != nil {
		return err
	}
	svc := tournament.NewService(st, rulesets, time.Now)
	tid, err := seed(ctx, svc, players)
	if err != nil {
		return err
	}
	h, err := web.New(web.Deps{Rulesets: rulesets, Service: svc, Settings: st, APIToken: token, Broker: broker})
	if err != nil {
		return err
	}
	srvCtx, stop := context.WithCancel(ctx)
	defer stop()
	base, stopServing, err := bench.Serve(srvCtx, h)
	if err != nil {
		return err
	}
	defer stopServing()
	fmt.Fprintf(stdout, "ready %s %d\n", strings.TrimPrefix(base, "http://"), tid)
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		if sc.Text() == "mem" {
			fmt.Fprintln(stdout, memLine(broker))
		}
	}
	return nil
}

func seed(ctx context.Context, svc *tournament.Service, players int) (int64, error) {
	const judge = "bench"
	t, err := svc.CreateTournament(ctx, judge, tournament.TournamentInput{Name: "ベンチマーク大会", Rounds: 3})
	if err != nil {
		return 0, err
	}
	for i := range players {
		p, err := svc.AddPlayer(ctx, judge, t.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%03d", i+1), Kana: fmt.Sprintf("せんしゅ%03d", i+1)})
		if err != nil {
			return 0, err
		}
		if _, err := svc.CheckIn(ctx, judge, p.TournamentID, p.ID, true); err != nil {
			return 0, err
		}
	}
	r, err := svc.PairNextRound(ctx, judge, t.ID)
	if err != nil {
		return 0, err
	}
	for _, tb := range r.Tables {
		if _, err := svc.SetSeating(ctx, judge, t.ID, 1, tb.Number, tournament.SeatingInput{Auto: true}); err != nil {
			return 0, err
		}
	}
	if _, err := svc.ClockAction(ctx, judge, t.ID, 1, tournament.ClockInput{Action: tournament.ClockStart}); err != nil {
		return 0, err
	}
	return t.ID, nil
}

// memLine reports the server's memory: the live heap (after a collection),
// the resident set now and at its peak, goroutines and live subscribers.
func memLine(b *live.Broker) string {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	rss, hwm := procStatus("VmRSS:"), procStatus("VmHWM:")
	return fmt.Sprintf("mem %d %d %d %d %d", m.HeapInuse, rss, hwm, runtime.NumGoroutine(), b.Subscribers())
}

// procStatus reads a size in kB from /proc/self/status, in bytes; 0 where
// there is no /proc.
func procStatus(key string) uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

type options struct {
	clients, saves, loaders, players int
	refetch, json                    bool
}

// server is the child process running serveBench.
type server struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	base string
	tid  int64
}

type memory struct {
	heap, rss, peak uint64
	goroutines      int
	subscribers     int
}

func (s *server) memory() (memory, error) {
	if _, err := io.WriteString(s.in, "mem\n"); err != nil {
		return memory{}, err
	}
	if !s.out.Scan() {
		return memory{}, errors.New("the server stopped")
	}
	var m memory
	_, err := fmt.Sscanf(s.out.Text(), "mem %d %d %d %d %d", &m.heap, &m.rss, &m.peak, &m.goroutines, &m.subscribers)
	return m, err
}

func startServer(players int) (*server, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "-serve", "-players", strconv.Itoa(players))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, in: in, out: bufio.NewScanner(outPipe)}
	if !s.out.Scan() {
		return nil, errors.New("the server did not start")
	}
	var addr string
	if _, err := fmt.Sscanf(s.out.Text(), "ready %s %d", &addr, &s.tid); err != nil {
		return nil, fmt.Errorf("server said %q: %w", s.out.Text(), err)
	}
	s.base = "http://" + addr
	return s, nil
}

func (s *server) stop() {
	s.in.Close()
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
	}
}

// wave is one save as the clients see it: when it was sent, and when each
// client had the event, and the state fetched after it.
type wave struct {
	start time.Time
	got   []atomic.Int64 // nanoseconds after start; 0 until received
	fresh []atomic.Int64
	nGot  atomic.Int64
	nNew  atomic.Int64
}

func measure(ctx context.Context, stdout io.Writer, o options) error {
	srv, err := startServer(o.players)
	if err != nil {
		return err
	}
	defer srv.stop()
	idle, err := srv.memory()
	if err != nil {
		return err
	}
	transport := &http.Transport{MaxIdleConnsPerHost: o.loaders + 16, DisableCompression: true, IdleConnTimeout: time.Minute}
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()
	// Each phone and each loader is a device of its own, with its own
	// address, as on the shop's network: the server bounds what one
	// address may hold.
	var devices []*http.Transport
	defer func() {
		for _, t := range devices {
			t.CloseIdleConnections()
		}
	}()
	device := func(i int) *http.Client {
		t := bench.Device(i)
		devices = append(devices, t)
		return &http.Client{Transport: t}
	}

	// The clients connect, a hundred at a time.
	var current atomic.Pointer[wave]
	connected := make(chan error, o.clients)
	feedCtx, closeFeeds := context.WithCancel(ctx)
	defer closeFeeds()
	var feeds sync.WaitGroup
	began := time.Now()
	for i := range o.clients {
		phone := device(i)
		feeds.Go(func() { listen(feedCtx, phone, srv, i, &current, o.refetch, connected) })
		if i%100 == 99 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	for range o.clients {
		if err := <-connected; err != nil {
			return fmt.Errorf("a client could not connect: %w", err)
		}
	}
	connectTook := time.Since(began)
	withClients, err := srv.memory()
	if err != nil {
		return err
	}

	// Pages load all the while.
	var pageMu sync.Mutex
	var pages []time.Duration
	var pageErrs atomic.Int64
	loadCtx, stopLoading := context.WithCancel(ctx)
	defer stopLoading()
	var loading sync.WaitGroup
	for i := range o.loaders {
		client := device(o.clients + i)
		loading.Go(func() {
			paths := []string{fmt.Sprintf("/kiosk/%d", srv.tid), fmt.Sprintf("/kiosk/%d/live", srv.tid)}
			for n := i; loadCtx.Err() == nil; n++ {
				t := time.Now()
				if _, err := get(loadCtx, client, srv.base+paths[n%2]); err != nil {
					if loadCtx.Err() == nil {
						pageErrs.Add(1)
					}
					continue
				}
				pageMu.Lock()
				pages = append(pages, time.Since(t))
				pageMu.Unlock()
			}
		})
	}

	// The judge saves results, one after another; each waits until every
	// client has it (and has fetched the new state).
	tables, err := tablePlayers(ctx, client, srv)
	if err != nil {
		return err
	}
	var saveTimes, lastGot, lastFresh, perClient []time.Duration
	for i := range o.saves {
		w := &wave{got: make([]atomic.Int64, o.clients), fresh: make([]atomic.Int64, o.clients)}
		table := i%len(tables) + 1
		version := i / len(tables)
		w.start = time.Now()
		current.Store(w)
		if err := saveResult(ctx, client, srv, table, version, tables[table-1]); err != nil {
			return err
		}
		saveTimes = append(saveTimes, time.Since(w.start))
		for w.nGot.Load() < int64(o.clients) || (o.refetch && w.nNew.Load() < int64(o.clients)) {
			if ctx.Err() != nil {
				return fmt.Errorf("save %d: %d of %d clients had the event, %d the new state: %w", i+1, w.nGot.Load(), o.clients, w.nNew.Load(), ctx.Err())
			}
			time.Sleep(2 * time.Millisecond)
		}
		var maxGot, maxFresh time.Duration
		for c := range o.clients {
			g := time.Duration(w.got[c].Load())
			perClient = append(perClient, g)
			maxGot = max(maxGot, g)
			maxFresh = max(maxFresh, time.Duration(w.fresh[c].Load()))
		}
		lastGot = append(lastGot, maxGot)
		lastFresh = append(lastFresh, maxFresh)
		time.Sleep(200 * time.Millisecond)
	}
	stopLoading()
	loading.Wait()
	loaded, err := srv.memory()
	if err != nil {
		return err
	}
	closeFeeds()
	feeds.Wait()

	heapPerClient := float64(withClients.heap-min(withClients.heap, idle.heap)) / 1024 / float64(max(o.clients, 1))
	if o.json {
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		return json.NewEncoder(stdout).Encode(bench.KioskSummary{
			Clients: o.clients, Saves: o.saves,
			SaveP50: ms(pct(saveTimes, 50)), SaveP99: ms(pct(saveTimes, 99)),
			EventP50: ms(pct(perClient, 50)), EventP99: ms(pct(perClient, 99)),
			LastClientP99: ms(pct(lastGot, 99)), NewStateP99: ms(pct(lastFresh, 99)),
			PageP50: ms(pct(pages, 50)), PageP99: ms(pct(pages, 99)), PageErrors: pageErrs.Load(),
			HeapPerClientKB: heapPerClient, PeakRSSMB: float64(loaded.peak) / (1 << 20),
			ConnectedSeconds: connectTook.Seconds(),
		})
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(stdout, "kioskbench: %d live clients, %d saves, %d page loaders, refetch %v, %d players; loopback, %d CPUs, %s\n",
		o.clients, o.saves, o.loaders, o.refetch, o.players, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(stdout, "%d clients connected in %v\n\n", o.clients, connectTook.Round(time.Millisecond))
	fmt.Fprintln(tw, "measure\tn\tp50\tp99\tmax\t")
	row := func(name string, ds []time.Duration) {
		fmt.Fprintf(tw, "%s\t%d\t%v\t%v\t%v\t\n", name, len(ds), pct(ds, 50), pct(ds, 99), pct(ds, 100))
	}
	row("save a result (PUT, committed)", saveTimes)
	row("save -> event at each client", perClient)
	row("save -> last client has the event", lastGot)
	if o.refetch {
		row("save -> last page has the new state", lastFresh)
	}
	row("page load under load (/kiosk, /live)", pages)
	tw.Flush()
	if n := pageErrs.Load(); n > 0 {
		fmt.Fprintf(stdout, "page load errors: %d\n", n)
	}
	mb := func(b uint64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }
	fmt.Fprintf(stdout, "\nserver memory  idle: heap %s, RSS %s\n", mb(idle.heap), mb(idle.rss))
	fmt.Fprintf(stdout, "  %d clients: heap %s, RSS %s, %d goroutines, %d subscribers (%.1f KB of heap per client)\n",
		o.clients, mb(withClients.heap), mb(withClients.rss), withClients.goroutines, withClients.subscribers, heapPerClient)
	fmt.Fprintf(stdout, "  after the saves: heap %s, RSS %s; peak RSS %s\n", mb(loaded.heap), mb(loaded.rss), mb(loaded.peak))
	return nil
}

// listen is one kiosk client on the live feed. It reports when it is
// connected, records when each event arrives and, with refetch, fetches
// the live state after a little jitter, as kiosk.js does.
func listen(ctx context.Context, client *http.Client, srv *server, i int, current *atomic.Pointer[wave], refetch bool, connected chan<- error) {
	res, err := bench.Feed(ctx, client, srv.base, srv.tid)
	if err != nil {
		connected <- err
		return
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	first := true
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if first {
				connected <- err
			}
			return
		}
		switch {
		case first && strings.HasPrefix(line, "retry:"):
			first = false
			connected <- nil
		case strings.HasPrefix(line, "data:"):
			w := current.Load()
			if w == nil {
				continue
			}
			w.got[i].Store(int64(max(time.Since(w.start), 1)))
			w.nGot.Add(1)
			if refetch {
				go func() {
					time.Sleep(time.Duration(rand.Int64N(int64(400 * time.Millisecond))))
					if _, err := get(ctx, client, fmt.Sprintf("%s/kiosk/%d/live", srv.base, srv.tid)); err == nil {
						w.fresh[i].Store(int64(time.Since(w.start)))
					}
					w.nNew.Add(1)
				}()
			}
		}
	}
}

func get(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", url, res.Status)
	}
	return body, err
}

// tablePlayers returns the player IDs of each table of round 1.
func tablePlayers(ctx context.Context, client *http.Client, srv *server) ([][]int64, error) {
	body, err := get(ctx, client, fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/1", srv.base, srv.tid))
	if err != nil {
		return nil, err
	}
	var round struct {
		Tables []struct {
			Players []struct {
				ID int64 `json:"id"`
			} `json:"players"`
		} `json:"tables"`
	}
	if err := json.Unmarshal(body, &round); err != nil {
		return nil, err
	}
	out := make([][]int64, len(round.Tables))
	for i, t := range round.Tables {
		for _, p := range t.Players {
			out[i] = append(out[i], p.ID)
		}
	}
	return out, nil
}

// saveResult saves a table's sheet (a correction from the second time on)
// through the API, as a judge's tablet does.
func saveResult(ctx context.Context, client *http.Client, srv *server, table, version int, players []int64) error {
	var scores []map[string]int64
	for i, id := range players {
		scores = append(scores, map[string]int64{"player": id, "vp": int64(max(9-i-version, 0))})
	}
	// The round's clock is not started: the first sheet ends the game by
	// time before its signal, on the judge's reason (§12); later ones are
	// corrections, with theirs.
	body := map[string]any{"scores": scores, "version": version, "reason": "kioskbench"}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut,
		fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/1/tables/%d/result", srv.base, srv.tid, table), bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("save table %d: %s %s", table, res.Status, msg)
	}
	return nil
}

// pct is the p-th percentile of ds, rounded for the table.
func pct(ds []time.Duration, p int) time.Duration {
	return bench.Percentile(ds, p).Round(10 * time.Microsecond)
}
