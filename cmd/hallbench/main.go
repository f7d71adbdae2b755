// Command hallbench simulates a regional event in one hall on loopback: 500
// players, 125 tables, 12 judges on the console and 5,000 live screens
// (the players' phones, their friends', and projectors), through four
// Swiss rounds and the final. Each round the judges pair it, seat the
// tables and set up their boards, and start the clock; the players report
// their tables and confirm the reports from their phones (the tournament
// takes a report all four confirmed: self_report "auto"), the judges
// enter the other tables' sheets, correct some, give penalties and read
// the standings; after the fourth round they make the final and enter its
// table. Every screen follows the live feed and fetches the kiosk's live
// parts after each change, as kiosk.js does.
//
// It prints each action's latency (p50, p99) as the judge or the player
// waits for it (the form's page opened; the form posted and the page it
// leads to shown), how long after a save every screen had the new state,
// the standings after each round's last result, the answers refused, the
// server's memory and CPU, and checks at the end that every change the
// server acknowledged is in its record.
//
// The server runs in a child process (this program with -serve), as
// cmd/catanjudge serves the site: SQLite with a sync per commit, requests
// logged to a file. Each screen, phone and judge dials from a loopback
// address of its own (bench.Device): none meets a per-address limit by
// design (a screen holds one feed and one fetch at a time; a player's
// phone is their screen too, and posts one form at a time; a judge passes
// the gates). Each screen holds two connections in each process: both
// raise their open-file limit to the hard one, and the run stops at once
// if that is too low.
//
// Usage:
//
//	go run ./cmd/hallbench [-players 500] [-judges 12] [-screens 5000] [-window 90s] [-json]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament/web/route"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hallbench:", err)
		os.Exit(1)
	}
}

// options are the hall's size and pace.
type options struct {
	players, judges, screens, projectors int
	rounds                               int           // Swiss rounds before the final
	window                               time.Duration // a round's results come in over this long
	reported                             float64       // the share of tables whose players report them
	corrections, penalties               int           // a round's
	seed                                 uint64
	profile                              string
	json                                 bool
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("hallbench", flag.ContinueOnError)
	var o options
	fs.IntVar(&o.players, "players", 500, "players (a multiple of 4: every table seats 4)")
	fs.IntVar(&o.judges, "judges", 12, "judges on the console")
	fs.IntVar(&o.screens, "screens", 5000, "live screens, the players' phones among them")
	fs.IntVar(&o.projectors, "projectors", 50, "of the screens, the projectors (?view=projector)")
	fs.IntVar(&o.rounds, "rounds", 4, "Swiss rounds before the final")
	fs.DurationVar(&o.window, "window", 90*time.Second, "a round's results come in over this long")
	fs.Float64Var(&o.reported, "reported", 0.6, "the share of tables whose players report their result")
	fs.IntVar(&o.corrections, "corrections", 12, "sheets a judge corrects each round")
	fs.IntVar(&o.penalties, "penalties", 6, "penalties the judges give each round")
	fs.Uint64Var(&o.seed, "seed", 1, "the simulation's random seed")
	fs.StringVar(&o.profile, "cpuprofile", "", "write the server's CPU profile to this file")
	fs.BoolVar(&o.json, "json", false, "print the measures as one JSON object")
	limit := fs.Duration("timeout", 40*time.Minute, "give up after this long")
	serveMode := fs.Bool("serve", false, "run the server (used by hallbench itself)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bench.RaiseFileLimit()
	if *serveMode {
		return serveHall(o.profile, stdin, stdout)
	}
	switch {
	case o.players < 8 || o.players%4 != 0:
		return errors.New("-players: want a multiple of 4, 8 or more")
	case o.screens < o.players:
		return errors.New("-screens: every player's phone is a screen: want at least -players")
	case o.judges < 1:
		return errors.New("-judges: want one at least")
	}
	if err := bench.EnoughFiles(2*o.screens+o.judges+300, fmt.Sprintf("%d screens", o.screens)); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	h, err := open(ctx, o)
	if err != nil {
		return err
	}
	defer h.close()
	if err := h.play(ctx); err != nil {
		return err
	}
	res, err := h.measures(ctx)
	if err != nil {
		return err
	}
	if o.json {
		return json.NewEncoder(stdout).Encode(res.summary())
	}
	return res.print(stdout)
}

// hall is the event under way: the server, its tournament, the judges'
// tablets, the players and their phones, the screens, and what was done.
type hall struct {
	o       options
	srv     *bench.Child
	base    string
	tid     int64
	start   time.Time
	api     *browser // setup and the final check, with the API token
	judges  []*browser
	players []*player
	byID    map[int64]*player
	screens *screens
	cov     *coverage
	stop    context.CancelFunc // the screens' feeds
	rec     recorder
	loadAvg [2]string // the machine's load average at the start and at the end
	cpu     [2]bench.Memory
	client  [2]time.Duration // this process's CPU
	mu      sync.Mutex
	acks    []*ack // what the server acknowledged, in order
	rounds  []roundTimes
}

// player is a player with the code on their card and their phone.
type player struct {
	id    int64
	name  string
	code  string
	phone *browser
}

// ack is a change the server acknowledged: a 303 to a page, after a form.
type ack struct {
	kind         string // pair, seat, board, clock, result, penalty, final
	round, table int
	sent, done   time.Time
	// For a result: the sheet (VP by player, the declared winner), and
	// the table's revision it makes; by says who (judge, report).
	vp       map[int64]int
	declared int64
	revision int
	by       string
	// For a penalty: who, and its note, which names it.
	player int64
	note   string
}

// roundTimes is a round's last result and the standings after it.
type roundTimes struct {
	round     int
	lastAck   *ack
	standings time.Duration // from the last result acknowledged to the judge's standings page shown
	complete  bool          // that page had the round's standings
}

// open starts the server and the hall's devices, registers the players
// and puts the screens on the live feed.
func open(ctx context.Context, o options) (*hall, error) {
	h := &hall{o: o, byID: map[int64]*player{}, loadAvg: [2]string{bench.LoadAverage()}}
	srv, err := bench.StartChild("-serve", "-cpuprofile", o.profile)
	if err != nil {
		return nil, err
	}
	h.srv, h.base = srv, srv.Base
	// Devices: the screens first (the players' phones are the first
	// screens), then the judges' tablets, then the bench's own.
	device := 0
	next := func() *http.Transport { device++; return bench.Device(device - 1) }
	transports := make([]*http.Transport, o.screens)
	for i := range transports {
		transports[i] = next()
	}
	for range o.judges {
		h.judges = append(h.judges, newBrowser(next(), h.base))
	}
	h.api = newBrowser(next(), h.base)
	if err := h.setUp(ctx, transports); err != nil {
		h.close()
		return nil, err
	}
	if h.cpu[0], err = h.srv.Memory(); err != nil {
		h.close()
		return nil, err
	}
	h.client[0] = bench.OwnCPU()
	h.start = time.Now()
	h.cov = newCoverage(o.screens, h.start)
	feeds, stop := context.WithCancel(ctx)
	h.stop = stop
	h.screens, err = connect(feeds, h.base, h.tid, o.screens, o.projectors, func(i int) *http.Transport { return transports[i] }, h.cov)
	if err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

func (h *hall) close() {
	if h.stop != nil {
		h.stop()
		h.screens.wg.Wait()
	}
	h.srv.Stop()
}

// play runs the event: the Swiss rounds, then the final.
func (h *hall) play(ctx context.Context) error {
	for n := 1; n <= h.o.rounds; n++ {
		if err := h.round(ctx, n, false); err != nil {
			return fmt.Errorf("round %d: %w", n, err)
		}
	}
	if err := h.round(ctx, h.o.rounds+1, true); err != nil {
		return fmt.Errorf("the final: %w", err)
	}
	// The screens catch up with the last changes.
	h.screens.catchUp()
	time.Sleep(3 * time.Second)
	return nil
}

// round plays round n: paired (or the final made), seated, boards set, the
// clock started, the results in, corrections and penalties, the
// standings read.
func (h *hall) round(ctx context.Context, n int, final bool) error {
	lead := h.judges[0]
	tour := route.Path(route.Tournament, h.tid)
	formID, kind := "pair", "pair"
	if final {
		formID, kind = "make-final", "final"
	}
	if err := h.act(ctx, lead, kind, n, 0, tour, withID(formID), nil, nil); err != nil {
		return err
	}
	tables, err := h.tables(ctx, n)
	if err != nil {
		return err
	}
	// The judges seat the tables and set up their boards, each a share.
	err = h.byJudges(ctx, len(tables), func(j *browser, i int) error {
		t := tables[i].number
		page := route.Path(route.Table, h.tid, n, t)
		if err := h.act(ctx, j, "seat", n, t, page, posts(route.Path(route.Seating, h.tid, n, t), "auto"), nil, nil); err != nil {
			return err
		}
		return h.act(ctx, j, "board", n, t, page, posts(route.Path(route.Board, h.tid, n, t), "auto"), nil, nil)
	})
	if err != nil {
		return err
	}
	roundPage := route.Path(route.Round, h.tid, n)
	start := func(f form) bool {
		return f.action == route.Path(route.Clock, h.tid, n) && f.values.Get("action") == "start"
	}
	if err := h.act(ctx, lead, "clock", n, 0, roundPage, start, nil, nil); err != nil {
		return err
	}
	last, err := h.enter(ctx, n, tables, final)
	if err != nil {
		return err
	}
	return h.standings(ctx, n, last)
}

// byJudges runs do for items 0..n-1, the judges sharing them out.
func (h *hall) byJudges(ctx context.Context, n int, do func(*browser, int) error) error {
	work := make(chan int, n)
	for i := range n {
		work <- i
	}
	close(work)
	errs := make(chan error, len(h.judges))
	var wg sync.WaitGroup
	for _, j := range h.judges {
		wg.Go(func() {
			for i := range work {
				if err := do(j, i); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// act opens page as who and submits the form pick finds there, with the
// fields set changed; it records both latencies under kind, and what the
// server acknowledged (a, when not nil, filled in).
func (h *hall) act(ctx context.Context, who *browser, kind string, n, t int, page string, pick func(form) bool, set map[string]string, a *ack) error {
	opened := time.Now()
	var body []byte
	err := h.retryBusy(ctx, kind, func() (err error) {
		body, err = who.page(ctx, page)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: open %s: %w", kind, page, err)
	}
	h.rec.add(kind+": open", time.Since(opened))
	f, err := findForm(body, pick)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", kind, page, err)
	}
	sent := time.Now()
	err = h.retryBusy(ctx, kind, func() (err error) {
		_, _, err = who.submit(ctx, f, set)
		return err
	})
	took := time.Since(sent) // from the post to the page shown, the refusals waited through included
	if err != nil {
		return fmt.Errorf("%s: %s: %w", kind, f.action, err)
	}
	h.rec.add(kind+": submit", took)
	if a == nil {
		a = &ack{}
	}
	a.kind, a.round, a.table, a.sent, a.done = cmpOr(a.kind, kind), n, t, sent, time.Now()
	h.mu.Lock()
	h.acks = append(h.acks, a)
	h.mu.Unlock()
	return nil
}

// busyTries is how many times a judge or a player tries a page or a form
// the server answers 503 (busy) before the simulation gives up.
const (
	busyTries = 5
	busyPause = 2 * time.Second
)

// retryBusy does try, and again after a pause while the server answers it
// 503 (busy), as a person taps again: the read gate refuses before the
// request is read, so nothing was done. Every refusal is recorded under
// kind.
func (h *hall) retryBusy(ctx context.Context, kind string, try func() error) error {
	for i := 1; ; i++ {
		err := try()
		if err == nil {
			return nil
		}
		h.rec.refused(kind, err)
		var st *statusError
		if i == busyTries || !asStatus(err, &st) || st.status != http.StatusServiceUnavailable {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(busyPause):
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// randFor is a random source for one part of the simulation, from the
// seed: the same run does the same things.
func (h *hall) randFor(round, part int) *rand.Rand {
	return rand.New(rand.NewPCG(h.o.seed, uint64(round)<<32|uint64(part)))
}
