package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/store/pgtest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

// The cross-server measure: kiosk streams split over two servers on one
// PostgreSQL database, and saves made one after another through the first.
const (
	crossStreams = 1000
	crossSaves   = 30
)

// peerServer is one of the two servers: a store, its broker fed by its
// own commits and by the other's notices, and the site on loopback.
type peerServer struct {
	st   *store.Store
	svc  *tournament.Service
	base string
	stop func()
}

func (e *env) startPeer(ctx context.Context, dsn string) (*peerServer, error) {
	broker := live.NewBroker(0, 0)
	st, err := store.Open(ctx, dsn, store.WithAfterCommit(broker.Committed))
	if err != nil {
		return nil, err
	}
	svc := tournament.NewService(st, e.rulesets, time.Now)
	h, err := web.New(web.Deps{Rulesets: e.rulesets, Service: svc, Settings: st, APIToken: benchToken, Broker: broker})
	if err != nil {
		st.Close()
		return nil, err
	}
	lctx, cancel := context.WithCancel(ctx)
	base, stopServing, err := bench.Serve(lctx, h)
	if err != nil {
		cancel()
		st.Close()
		return nil, err
	}
	listening := make(chan struct{})
	var once sync.Once
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = st.Listen(lctx, store.Peers{
			Changed:  broker.Committed,
			Settings: func() {},
			Lost:     func(error) { broker.Lost() },
			Resync: func() {
				broker.Resync()
				once.Do(func() { close(listening) })
			},
		})
	}()
	p := &peerServer{st: st, svc: svc, base: base, stop: func() {
		cancel()
		stopServing()
		<-done
		st.Close()
	}}
	select {
	case <-listening:
		return p, nil
	case <-time.After(10 * time.Second):
		p.stop()
		return nil, errors.New("the server did not listen to the other within 10s")
	}
}

// crossServer serves the site twice on one PostgreSQL database (a
// throwaway cluster with PostgreSQL's own durability settings), opens
// 1,000 kiosk streams split between the two servers, each from a loopback
// address of its own, and has a judge save through the first server, one
// save after another: the row is the time from sending a save to the
// event's arrival at each stream on the other server (the save, its
// commit, NOTIFY, the other server's broker and its SSE write).
func (e *env) crossServer(ctx context.Context) ([]row, error) {
	measure := "save -> event on the other server (PostgreSQL)"
	skipped := []row{{measure: measure, size: "-", p50: "-", p99: "-"}}
	cluster, err := pgtest.StartDurable(ctx)
	if errors.Is(err, pgtest.ErrMissing) {
		skipped[0].note = "skipped: PostgreSQL is not installed"
		return skipped, nil
	}
	if err != nil {
		return nil, err
	}
	defer cluster.Stop()
	dsn, err := cluster.CreateDatabase(ctx, "cross", "")
	if err != nil {
		return nil, err
	}
	bench.RaiseFileLimit()
	a, err := e.startPeer(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer a.stop()
	b, err := e.startPeer(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer b.stop()

	t, err := a.svc.CreateTournament(ctx, "bench", tournament.TournamentInput{Name: "ベンチマーク大会", Rounds: 3})
	if err != nil {
		return nil, err
	}
	round, err := pairedRound(ctx, a.svc, t.ID, 4)
	if err != nil {
		return nil, err
	}
	e.say("%d kiosk streams over two servers on PostgreSQL, %d saves through one", crossStreams, crossSaves)
	var current atomic.Pointer[crossWave]
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	connected := make(chan error, crossStreams)
	for i := range crossStreams {
		srv := []*peerServer{a, b}[i%2]
		wg.Go(func() { crossStream(sctx, srv.base, t.ID, i, &current, connected) })
	}
	for range crossStreams {
		if err := <-connected; err != nil {
			return nil, fmt.Errorf("open %d streams: %w", crossStreams, err)
		}
	}

	client := &http.Client{}
	base := fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/1/tables/", a.base, t.ID)
	var other, same, puts []time.Duration
	missed := 0
	for v := range crossSaves {
		w := &crossWave{start: time.Now(), got: make([]atomic.Int64, crossStreams), all: make(chan struct{})}
		current.Store(w)
		took, err := saveSheet(ctx, client, base, round.Tables[0], v)
		if err != nil {
			return nil, err
		}
		puts = append(puts, took)
		select {
		case <-w.all:
		case <-time.After(5 * time.Second):
		}
		current.Store(nil)
		for i := range w.got {
			d := time.Duration(w.got[i].Load())
			switch {
			case d == 0:
				missed++
			case i%2 == 1:
				other = append(other, d)
			default:
				same = append(same, d)
			}
		}
	}
	note := fmt.Sprintf("%s streams, half on each server; the same server's kiosks p50 %s p99 %s; the save itself p50 %s",
		bench.Count(crossStreams), bench.Duration(bench.Percentile(same, 50)), bench.Duration(bench.Percentile(same, 99)), bench.Duration(bench.Percentile(puts, 50)))
	if missed > 0 {
		note += fmt.Sprintf("; %d events missed", missed)
	}
	return []row{{measure, fmt.Sprintf("%s events (%d saves)", bench.Count(len(other)), crossSaves),
		bench.Duration(bench.Percentile(other, 50)), bench.Duration(bench.Percentile(other, 99)), note}}, nil
}

// crossWave is one save: when it was sent, and when each stream heard of it.
type crossWave struct {
	start time.Time
	got   []atomic.Int64 // by stream: the time from start, 0 until heard
	n     atomic.Int64
	all   chan struct{} // closed once every stream has heard
}

// crossStream is one kiosk's stream, from a loopback address of its own
// (the servers count at most 8 streams per address): it reports when it is
// connected, and records when each change arrives.
func crossStream(ctx context.Context, base string, tid int64, i int, current *atomic.Pointer[crossWave], connected chan<- error) {
	client := &http.Client{Transport: bench.Device(i)}
	res, err := bench.Feed(ctx, client, base, tid)
	if err != nil {
		connected <- err
		return
	}
	defer res.Body.Close()
	connected <- nil
	r := bufio.NewReader(res.Body)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if !strings.HasPrefix(line, "data:") || strings.Contains(line, `"resync"`) {
			continue
		}
		w := current.Load()
		if w == nil || !w.got[i].CompareAndSwap(0, int64(max(time.Since(w.start), 1))) {
			continue
		}
		if w.n.Add(1) == crossStreams {
			close(w.all)
		}
	}
}

// pairedRound imports n players into tournament tid, checks them in and
// pairs round 1.
func pairedRound(ctx context.Context, svc *tournament.Service, tid int64, n int) (tournament.Round, error) {
	ps, err := importPlayers(ctx, svc, tid, n)
	if err != nil {
		return tournament.Round{}, err
	}
	for _, p := range ps {
		if _, err := svc.CheckIn(ctx, "bench", tid, p.ID, true); err != nil {
			return tournament.Round{}, err
		}
	}
	return svc.PairNextRound(ctx, "bench", tid)
}
