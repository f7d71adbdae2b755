// Command kioskbench measures the players' kiosk under a crowd, on loopback:
// thousands of phones on the live feed (Server-Sent Events), pages loading
// all the while, and the judge saving results. It prints how long a saved
// result takes to reach the last client (and to be on every page: the
// kiosk's feed carries the live parts, and a phone fetches them only for an
// event without them, as kiosk.js does), the page latency alone and under that
// load, the answers refused, and the server's memory and CPU.
//
// The server runs in a child process (this program with -serve), built
// from tournament/web and tournament/store as cmd/catanjudge builds it, on
// a temporary database, so that its memory is its own. Everything is
// bounded: a fixed number of clients and saves, and a time limit.
//
// Each phone and each page loader is a device of its own, dialling from a
// loopback address of its own (bench.Device), as on the shop's network:
// a phone holds one live feed (8 are allowed an address) and fetches the
// live parts one at a time (the read gate admits 6 at once an address),
// so no client meets a per-address limit by design; the judge saves with
// the API token, which no gate holds. Each phone holds two connections
// (its feed, its fetches), in this process and in the server's: both raise
// their open-file limit to the hard limit, and the run stops at once if
// that is too low for the clients asked for.
//
// Usage:
//
//	go run ./cmd/kioskbench [-clients 1000[,3000,5000]] [-saves 12] [-loaders 8] [-refetch=true] [-max-feeds 10000] [-json]
//
// The server holds -max-feeds live feeds, as cmd/catanjudge's --max-feeds
// (its default when 0): a phone refused at connect (503) is counted, not
// followed, and the saves wait for the phones that connected.
//
// Several client counts run one after another in the same run, each on a
// server of its own, and print one table. With -json it prints the
// measures as one JSON object a line instead, one per client count, for
// cmd/benchreport.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web"
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
	clients := fs.String("clients", "1000", "kiosk clients on the live feed; several, comma-separated, run one after another")
	saves := fs.Int("saves", 12, "results saved, one after another")
	loaders := fs.Int("loaders", 8, "clients loading pages all the while")
	think := fs.Duration("think", 50*time.Millisecond, "each loader's pause between two page loads")
	refetch := fs.Bool("refetch", true, "each client fetches the live state after an event that does not carry it, as kiosk.js does")
	players := fs.Int("players", 48, "players in the tournament")
	limit := fs.Duration("timeout", 90*time.Second, "give up after this long")
	serveMode := fs.Bool("serve", false, "run the server (used by kioskbench itself)")
	asJSON := fs.Bool("json", false, "print the measures as one JSON object")
	gzipped := fs.Bool("gzip", true, "phones and loaders take the pages gzipped, as browsers do (the bytes are not decoded: a phone's work is its own)")
	profile := fs.String("cpuprofile", "", "write the server's CPU profile (of the last client count) to this file")
	maxFeeds := fs.Int("max-feeds", 0, "the live feeds the server holds, as cmd/catanjudge's --max-feeds; 0: its default")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bench.RaiseFileLimit()
	if *serveMode {
		return serveBench(*players, *maxFeeds, *profile, stdin, stdout)
	}
	counts, err := clientCounts(*clients)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	var results []result
	for _, n := range counts {
		if err := bench.EnoughFiles(2*n+*loaders+200, fmt.Sprintf("%d clients", n)); err != nil {
			return err
		}
		r, err := measure(ctx, options{clients: n, saves: *saves, loaders: *loaders, refetch: *refetch, players: *players, maxFeeds: *maxFeeds, profile: *profile, gzip: *gzipped, think: *think})
		if err != nil {
			return fmt.Errorf("%d clients: %w", n, err)
		}
		results = append(results, r)
		runtime.GC()
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range results {
			if err := enc.Encode(r.summary()); err != nil {
				return err
			}
		}
		return nil
	}
	return report(stdout, options{saves: *saves, loaders: *loaders, refetch: *refetch, players: *players, maxFeeds: *maxFeeds, gzip: *gzipped, think: *think}, results)
}

// clientCounts reads -clients: one count or several, comma-separated.
func clientCounts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-clients %q: want counts like 1000,3000,5000", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// serveBench is the server side: a tournament with one round paired, seated
// and on the clock, served on a free loopback port. It prints "ready ADDR
// TID" and answers its parent (bench.ServeChild) until the end of stdin.
func serveBench(players, maxFeeds int, profile string, stdin io.Reader, stdout io.Writer) error {
	ctx := context.Background()
	stopProfile, err := bench.Profile(profile)
	if err != nil {
		return err
	}
	defer stopProfile()
	site, err := bench.OpenSite(ctx, "kioskbench-", maxFeeds)
	if err != nil {
		return err
	}
	defer site.Close()
	st, broker, rulesets := site.Store, site.Broker, site.Rulesets
	svc := tournament.NewService(st, rulesets, time.Now)
	tid, err := seed(ctx, svc, players)
	if err != nil {
		return err
	}
	h, err := web.New(web.Deps{Rulesets: rulesets, Service: svc, Settings: st, APIToken: token, Broker: broker})
	if err != nil {
		return err
	}
	return site.ServeChild(h, stdin, stdout, []string{strconv.FormatInt(tid, 10)}, func(string) string { return "?" })
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

type options struct {
	clients, saves, loaders, players int
	maxFeeds                         int // the server's cap; 0 for its default
	refetch, gzip                    bool
	profile                          string        // the server's CPU profile, "" for none
	think                            time.Duration // a loader's pause between page loads
}

// server is the child process running serveBench: the site, and the
// tournament its phones follow.
type server struct {
	*bench.Child
	base string
	tid  int64
}

func startServer(players, maxFeeds int, profile string) (*server, error) {
	c, err := bench.StartChild("-serve", "-players", strconv.Itoa(players), "-max-feeds", strconv.Itoa(maxFeeds), "-cpuprofile", profile)
	if err != nil {
		return nil, err
	}
	if len(c.More) != 1 {
		c.Stop()
		return nil, fmt.Errorf("the server named no tournament: %v", c.More)
	}
	tid, err := strconv.ParseInt(c.More[0], 10, 64)
	if err != nil {
		c.Stop()
		return nil, err
	}
	return &server{Child: c, base: c.Base, tid: tid}, nil
}

// wave is one save as the clients see it: when it was sent, and when each
// client had the event, and the state fetched after it.
type wave struct {
	start time.Time
	got   []atomic.Int64 // nanoseconds after start; 0 until received
	fresh []atomic.Int64
	nGot  atomic.Int64
	nNew  atomic.Int64
	// nPushed counts the events that carried the live parts: the phones
	// that had the new state without fetching it.
	nPushed atomic.Int64
	size    atomic.Int64 // the bytes of an event that carried them
}

// result is one run's measures.
type result struct {
	clients                                     int
	followed                                    []int // the clients that connected (not refused at connect)
	refusedAtConnect                            int   // clients whose feed the server refused (503: its cap)
	maxFeeds                                    int   // the server's cap
	saves, lastGot, lastFresh, perClient, pages []time.Duration
	alone                                       []time.Duration // page loads before the clients connect
	refused                                     *refusals
	connectTook                                 time.Duration
	idle, withClients, loaded                   bench.Memory
	events, pushed                              int           // the saves' events the phones had, and those that carried the live parts
	eventBytes                                  int64         // the size of an event that carried them
	herdCPU                                     time.Duration // the server's CPU from the first save to the last page fresh
	clientCPU                                   time.Duration // this process's, the phones', meanwhile
}

// refusals counts the answers that were not the page: 503 (busy), 429 (too
// many at once from one address) and the rest, by who asked.
type refusals struct {
	busy, tooMany, other atomic.Int64
}

func (r *refusals) count(err error) {
	var st statusError
	switch {
	case !errors.As(err, &st):
		r.other.Add(1)
	case st == http.StatusServiceUnavailable:
		r.busy.Add(1)
	case st == http.StatusTooManyRequests:
		r.tooMany.Add(1)
	default:
		r.other.Add(1)
	}
}

func (r *refusals) total() int64 { return r.busy.Load() + r.tooMany.Load() + r.other.Load() }

// statusError is an answer other than 200.
type statusError int

func (e statusError) Error() string { return http.StatusText(int(e)) }

// aloneLoads is how many pages each loader loads before the clients
// connect, for the page latency alone.
const aloneLoads = 40

// gzipKey marks a context whose requests take gzip (get).
type gzipKey struct{}

func measure(ctx context.Context, o options) (result, error) {
	r := result{clients: o.clients, refused: &refusals{}, maxFeeds: cmp.Or(o.maxFeeds, config.DefaultMaxFeeds)}
	ctx = context.WithValue(ctx, gzipKey{}, o.gzip)
	srv, err := startServer(o.players, o.maxFeeds, o.profile)
	if err != nil {
		return r, err
	}
	defer srv.Stop()
	if r.idle, err = srv.Memory(); err != nil {
		return r, err
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
	loaders := make([]*http.Client, o.loaders)
	for i := range loaders {
		loaders[i] = device(o.clients + i)
	}
	paths := []string{fmt.Sprintf("%s/kiosk/%d", srv.base, srv.tid), fmt.Sprintf("%s/kiosk/%d/live", srv.base, srv.tid)}

	// The pages alone, the same loaders, before any client connects.
	var pageMu sync.Mutex
	var pageErrs refusals
	var alone sync.WaitGroup
	for i, c := range loaders {
		alone.Go(func() {
			for n := range aloneLoads {
				t := time.Now()
				if _, err := get(ctx, c, paths[(i+n)%2]); err != nil {
					pageErrs.count(err)
					continue
				}
				pageMu.Lock()
				r.alone = append(r.alone, time.Since(t))
				pageMu.Unlock()
			}
		})
	}
	alone.Wait()

	// The clients connect, a hundred at a time.
	var current atomic.Pointer[wave]
	connected := make(chan connectResult, o.clients)
	feedCtx, closeFeeds := context.WithCancel(ctx)
	defer closeFeeds()
	var feeds sync.WaitGroup
	began := time.Now()
	for i := range o.clients {
		phone := device(i)
		feeds.Go(func() { listen(feedCtx, phone, srv, i, &current, o.refetch, r.refused, connected) })
		if i%100 == 99 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	for range o.clients {
		c := <-connected
		var st bench.Status
		switch {
		case c.err == nil:
			r.followed = append(r.followed, c.client)
		case errors.As(c.err, &st) && st == http.StatusServiceUnavailable:
			r.refusedAtConnect++ // the server's cap
		default:
			return r, fmt.Errorf("a client could not connect: %w", c.err)
		}
	}
	if len(r.followed) == 0 {
		return r, errors.New("the server refused every client's feed")
	}
	slices.Sort(r.followed)
	r.connectTook = time.Since(began)
	if r.withClients, err = srv.Memory(); err != nil {
		return r, err
	}

	// Pages load all the while.
	loadCtx, stopLoading := context.WithCancel(ctx)
	defer stopLoading()
	var loading sync.WaitGroup
	for i, c := range loaders {
		loading.Go(func() {
			for n := i; loadCtx.Err() == nil; n++ {
				// A page opened now and then, as phones arrive: not a
				// flood of its own.
				select {
				case <-loadCtx.Done():
					continue
				case <-time.After(o.think):
				}
				t := time.Now()
				if _, err := get(loadCtx, c, paths[n%2]); err != nil {
					if loadCtx.Err() == nil {
						pageErrs.count(err)
					}
					continue
				}
				pageMu.Lock()
				r.pages = append(r.pages, time.Since(t))
				pageMu.Unlock()
			}
		})
	}

	// The judge saves results, one after another; each waits until every
	// client has it (and has fetched the new state).
	tables, err := tablePlayers(ctx, client, srv)
	if err != nil {
		return r, err
	}
	before, err := srv.Memory()
	if err != nil {
		return r, err
	}
	clientBefore := bench.OwnCPU()
	for i := range o.saves {
		w := &wave{got: make([]atomic.Int64, o.clients), fresh: make([]atomic.Int64, o.clients)}
		table := i%len(tables) + 1
		version := i / len(tables)
		w.start = time.Now()
		current.Store(w)
		if err := saveResult(ctx, client, srv, table, version, tables[table-1]); err != nil {
			return r, err
		}
		r.saves = append(r.saves, time.Since(w.start))
		following := int64(len(r.followed))
		for w.nGot.Load() < following || (o.refetch && w.nNew.Load() < following) {
			if ctx.Err() != nil {
				return r, fmt.Errorf("save %d: %d of %d clients had the event, %d the new state: %w", i+1, w.nGot.Load(), following, w.nNew.Load(), ctx.Err())
			}
			time.Sleep(2 * time.Millisecond)
		}
		var maxGot, maxFresh time.Duration
		for _, c := range r.followed {
			g := time.Duration(w.got[c].Load())
			r.perClient = append(r.perClient, g)
			maxGot = max(maxGot, g)
			maxFresh = max(maxFresh, time.Duration(w.fresh[c].Load()))
		}
		r.events += int(following)
		r.pushed += int(w.nPushed.Load())
		r.eventBytes = max(r.eventBytes, w.size.Load())
		r.lastGot = append(r.lastGot, maxGot)
		r.lastFresh = append(r.lastFresh, maxFresh)
		time.Sleep(200 * time.Millisecond)
	}
	stopLoading()
	loading.Wait()
	if r.loaded, err = srv.Memory(); err != nil {
		return r, err
	}
	r.herdCPU = r.loaded.CPU - before.CPU
	r.clientCPU = bench.OwnCPU() - clientBefore
	r.refused.busy.Add(pageErrs.busy.Load())
	r.refused.tooMany.Add(pageErrs.tooMany.Load())
	r.refused.other.Add(pageErrs.other.Load())
	closeFeeds()
	feeds.Wait()
	return r, nil
}

// summary is r as -json prints it.
func (r result) summary() bench.KioskSummary {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return bench.KioskSummary{
		Clients: r.clients, Saves: len(r.saves), MaxFeeds: r.maxFeeds, RefusedAtConnect: r.refusedAtConnect,
		SaveP50: ms(pct(r.saves, 50)), SaveP99: ms(pct(r.saves, 99)),
		EventP50: ms(pct(r.perClient, 50)), EventP99: ms(pct(r.perClient, 99)),
		LastClientP99: ms(pct(r.lastGot, 99)), NewStateP50: ms(pct(r.lastFresh, 50)), NewStateP99: ms(pct(r.lastFresh, 99)),
		PageLoads: len(r.pages), PageP50: ms(pct(r.pages, 50)), PageP99: ms(pct(r.pages, 99)),
		AloneP50: ms(pct(r.alone, 50)), AloneP99: ms(pct(r.alone, 99)),
		PageErrors: r.refused.total(), Busy: r.refused.busy.Load(), TooMany: r.refused.tooMany.Load(),
		HeapPerClientKB: r.heapPerClient(), PeakRSSMB: float64(r.loaded.Peak) / (1 << 20),
		ConnectedSeconds: r.connectTook.Seconds(), CPUPerSaveMS: ms(r.herdCPU / time.Duration(max(len(r.saves), 1))),
	}
}

func (r result) heapPerClient() float64 {
	return float64(r.withClients.Heap-min(r.withClients.Heap, r.idle.Heap)) / 1024 / float64(max(len(r.followed), 1))
}

// report prints the runs' measures side by side, a column per client count.
func report(stdout io.Writer, o options, results []result) error {
	fmt.Fprintf(stdout, "kioskbench: %d saves, %d page loaders (a load each %v), refetch %v, gzip %v, %d players; loopback, %s\n",
		o.saves, o.loaders, o.think, o.refetch, o.gzip, o.players, bench.Machine())
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Fprintf(stdout, "load average before the run: %s", load)
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "measure\t"
	for _, r := range results {
		head += fmt.Sprintf("%s clients p50\tp99\t", bench.Count(r.clients))
	}
	fmt.Fprintln(tw, head)
	row := func(name string, ds func(result) []time.Duration) {
		line := name + "\t"
		for _, r := range results {
			line += fmt.Sprintf("%v\t%v\t", pct(ds(r), 50), pct(ds(r), 99))
		}
		fmt.Fprintln(tw, line)
	}
	row("save a result (PUT, committed)", func(r result) []time.Duration { return r.saves })
	row("save -> event at each client", func(r result) []time.Duration { return r.perClient })
	row("save -> last client has the event", func(r result) []time.Duration { return r.lastGot })
	if o.refetch {
		row("save -> last page has the new state", func(r result) []time.Duration { return r.lastFresh })
	}
	row("page load alone (/kiosk, /live)", func(r result) []time.Duration { return r.alone })
	row("page load during the fan-out", func(r result) []time.Duration { return r.pages })
	if err := tw.Flush(); err != nil {
		return err
	}
	mb := func(b uint64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }
	fmt.Fprintln(stdout)
	for _, r := range results {
		fmt.Fprintf(stdout, "%s clients: %s connected in %v, %s refused at connect (the server holds %s feeds); page loads during the fan-out p99 %s their p99 alone; refused: %d busy (503), %d too many (429), %d other\n",
			bench.Count(r.clients), bench.Count(len(r.followed)), r.connectTook.Round(time.Millisecond), bench.Count(r.refusedAtConnect), bench.Count(r.maxFeeds),
			bench.Ratio(pct(r.pages, 99), pct(r.alone, 99)),
			r.refused.busy.Load(), r.refused.tooMany.Load(), r.refused.other.Load())
		fmt.Fprintf(stdout, "  %s of the %s events the phones had carried the live parts (%.1f KB an event; the others' phones fetched them)\n",
			bench.Count(r.pushed), bench.Count(r.events), float64(r.eventBytes)/1024)
		fmt.Fprintf(stdout, "  server: heap %s idle, %s with the clients (%.1f KB a client), %d goroutines, %d feeds; RSS %s, peak %s; CPU %v a save (fan-out and refetches; the clients' %v)\n",
			mb(r.idle.Heap), mb(r.withClients.Heap), r.heapPerClient(), r.withClients.Goroutines, r.withClients.Feeds,
			mb(r.loaded.RSS), mb(r.loaded.Peak), (r.herdCPU / time.Duration(max(len(r.saves), 1))).Round(time.Millisecond),
			(r.clientCPU / time.Duration(max(len(r.saves), 1))).Round(time.Millisecond))
	}
	return nil
}

// connectResult is a client's feed opened, or why not.
type connectResult struct {
	client int
	err    error
}

// listen is one kiosk client on the live feed, as kiosk.js follows it:
// the kiosk's own feed, of the page's view (the kiosk in Japanese), whose
// events carry the live parts. It reports when it is connected, records
// when each event arrives and has the new state once it read the event's
// parts; with refetch, an event without them (too large to push) makes it
// fetch the live parts after a little jitter, as kiosk.js does.
func listen(ctx context.Context, client *http.Client, srv *server, i int, current *atomic.Pointer[wave], refetch bool, refused *refusals, connected chan<- connectResult) {
	res, err := bench.FeedAt(ctx, client, fmt.Sprintf("%s/kiosk/%d/events%s", srv.base, srv.tid, view))
	if err != nil {
		connected <- connectResult{i, err}
		return
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	first := true
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if first {
				connected <- connectResult{i, err}
			}
			return
		}
		switch {
		case first && strings.HasPrefix(line, "retry:"):
			first = false
			connected <- connectResult{i, nil}
		case strings.HasPrefix(line, "data:"):
			w := current.Load()
			if w == nil {
				continue
			}
			at := int64(max(time.Since(w.start), 1))
			w.got[i].Store(at)
			w.nGot.Add(1)
			// The parts are the phone's to decode (a phone's work is its
			// own): the key outside any string says they came.
			if strings.Contains(line, `,"parts":"`) {
				w.fresh[i].Store(int64(time.Since(w.start)))
				w.nPushed.Add(1)
				w.size.Store(int64(len(line)))
				w.nNew.Add(1)
				continue
			}
			if refetch {
				go func() {
					time.Sleep(time.Duration(rand.Int64N(int64(400 * time.Millisecond))))
					if _, err := get(ctx, client, fmt.Sprintf("%s/kiosk/%d/live%s", srv.base, srv.tid, view)); err == nil {
						w.fresh[i].Store(int64(time.Since(w.start)))
					} else if ctx.Err() == nil {
						refused.count(err)
					}
					w.nNew.Add(1)
				}()
			}
		}
	}
}

// view is the query of the kiosk's page as a phone opens it (in
// Japanese), which its feed and its live parts carry (data-events,
// data-live).
const view = "?lang=ja"

// get fetches url. A client that takes gzip gets the bytes as sent.
func get(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	if gz, _ := ctx.Value(gzipKey{}).(bool); gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %w", url, statusError(res.StatusCode))
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
