package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/store/pgtest"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
	"github.com/catanjudge/catanjudge/tournament/web"
	"github.com/catanjudge/catanjudge/tournament/web/live"
)

// The save measures: judges saving at once, each at their own table, each
// a first result then corrections, through the JSON API of the site served
// as cmd/catanjudge serves it (the real durability settings: a sync per
// commit, which group commit shares among the saves waiting).
const (
	judges        = 50
	savesPerJudge = 30
	benchToken    = "benchreport"
	saveTimeLimit = 90 * time.Second
	// The event-size measure: the judges of a shop's event, one per table
	// of its 40 players, in round 8 of 8 of a 40-player and of a
	// 1,000-player event.
	sizeJudges      = 10
	sizeSaves       = 40
	sizePhases      = 4
	sizeRounds      = 8
	smallEvent      = 40
	largeEvent      = 1000
	fsyncProbeTime  = 2 * time.Second
	fastDisk        = 750  // syncs a second above which the target is fixed
	fastDiskTarget  = 1500 // saves a second
	fsyncProbeBlock = 4096
)

// saves measures the disk's sync rate beside the save rows, then has 50
// judges save at once on SQLite and on PostgreSQL (a throwaway cluster
// with PostgreSQL's own durability settings), when its server programs
// are installed, then 10 judges in a small and a large event on SQLite.
func (e *env) saves(ctx context.Context) ([]row, error) {
	dir, err := os.MkdirTemp("", "benchreport-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	syncs, err := fsyncRate(dir, fsyncProbeTime)
	if err != nil {
		return nil, err
	}
	target := 2 * syncs
	if syncs > fastDisk {
		target = fastDiskTarget
	}
	rows := []row{{"fsync probe (the database's disk)", fmt.Sprintf("%s of %d-byte writes", fsyncProbeTime, fsyncProbeBlock), "-", "-",
		fmt.Sprintf("%.0f syncs/s; the 50 judges' target: ≥ %.0f saves/s", syncs, target)}}
	dsn, err := store.FileDSN(filepath.Join(dir, "judges"))
	if err != nil {
		return nil, err
	}
	lite, err := e.savesOn(ctx, dsn, judges*4, 1, 0, judges, savesPerJudge)
	if err != nil {
		return nil, err
	}
	rows = append(rows, lite.row(fmt.Sprintf("score-sheet save (PUT, %d judges at once)", judges),
		fmt.Sprintf("%s the disk's syncs/s (%s); group commit", bench.Ratio(lite.perSecond(), syncs), met(lite.perSecond() >= target))))
	pgRow := row{measure: fmt.Sprintf("score-sheet save on PostgreSQL (PUT, %d judges)", judges), size: "-", p50: "-", p99: "-"}
	cluster, err := pgtest.StartDurable(ctx)
	switch {
	case errors.Is(err, pgtest.ErrMissing):
		pgRow.note = "skipped: PostgreSQL is not installed"
		rows = append(rows, pgRow)
	case err != nil:
		return nil, err
	default:
		defer cluster.Stop()
		url, err := cluster.CreateDatabase(ctx, "bench", "")
		if err != nil {
			return nil, err
		}
		pg, err := e.savesOn(ctx, url, judges*4, 1, 0, judges, savesPerJudge)
		if err != nil {
			return nil, err
		}
		rows = append(rows, pg.row(pgRow.measure, fmt.Sprintf("%s the saves/s of SQLite (%s); group commit, over a Unix socket",
			bench.Ratio(pg.perSecond(), lite.perSecond()), met(pg.perSecond() >= lite.perSecond()))))
	}
	small, large, sizeRatio, err := e.bySize(ctx, dir)
	if err != nil {
		return nil, err
	}
	size := func(players int) string {
		return fmt.Sprintf("%s players x %d rounds", bench.Count(players), sizeRounds)
	}
	rows = append(rows,
		small.rowSized(fmt.Sprintf("score-sheet save in round %d (PUT, %d judges)", sizeRounds, sizeJudges), size(smallEvent), "a shop's event"),
		large.rowSized(fmt.Sprintf("score-sheet save in round %d (PUT, %d judges)", sizeRounds, sizeJudges), size(largeEvent),
			fmt.Sprintf("%s the saves/s of the 40-player event, median of %d phases in turn (%s: ≥ ×0.8)", bench.Ratio(sizeRatio, 1), sizePhases, met(sizeRatio >= 0.8))))
	return rows, nil
}

// met says whether a target is met, in the report's words.
func met(ok bool) string {
	if ok {
		return "target met"
	}
	return "TARGET MISSED"
}

// fsyncRate writes and syncs a block at a time in dir, as a commit
// does, for d, and returns the syncs a second.
func fsyncRate(dir string, d time.Duration) (float64, error) {
	f, err := os.CreateTemp(dir, "fsync-")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	block := make([]byte, fsyncProbeBlock)
	n := 0
	began := time.Now()
	for time.Since(began) < d {
		if _, err := f.Write(block); err != nil {
			return 0, err
		}
		if err := f.Sync(); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(began).Seconds(), nil
}

// saveRun is what one save measure timed.
type saveRun struct {
	times []time.Duration
	wall  time.Duration
	// cpu is the CPU time this process used meanwhile, user and system:
	// the server's and its judges' (not PostgreSQL's own processes').
	cpu time.Duration
	// commits are the store's batches meanwhile (group commit), and
	// writes the writes they held.
	commits, writes int64
}

func (r saveRun) perSecond() float64 { return float64(len(r.times)) / r.wall.Seconds() }

// batching says how many writes shared a commit.
func (r saveRun) batching() string {
	if r.commits == 0 {
		return "no commit"
	}
	return fmt.Sprintf("%.1f writes a commit", float64(r.writes)/float64(r.commits))
}

// cpuPerSave is the process's CPU time a save: on a machine shared with
// other work it bounds the saves a second (cores / CPU a save) where the
// wall clock only shows the share the machine gave.
func (r saveRun) cpuPerSave() time.Duration { return r.cpu / time.Duration(max(len(r.times), 1)) }

func (r saveRun) row(measure, note string) row {
	return r.rowSized(measure, bench.Count(len(r.times))+" saves", note)
}

func (r saveRun) rowSized(measure, size, note string) row {
	p50, p99 := bench.Percentile(r.times, 50), bench.Percentile(r.times, 99)
	return row{measure, size, bench.Duration(p50), bench.Duration(p99),
		fmt.Sprintf("%.0f saves/s (%s saves); p99/p50 %s; CPU %s a save; %s; %s", r.perSecond(), bench.Count(len(r.times)), bench.Ratio(p99, p50), bench.Duration(r.cpuPerSave()), r.batching(), note)}
}

// savesOn records an event of players planned over rounds with the first
// recorded rounds played (a result at every table) on the database dsn
// names, serves the site on it, and has judges save perJudge sheets each
// at once at the tables of the round after, through the JSON API.
func (e *env) savesOn(ctx context.Context, dsn string, players, rounds, recorded, judges, perJudge int) (saveRun, error) {
	ctx, cancel := context.WithTimeout(ctx, saveTimeLimit)
	defer cancel()
	site, err := e.openSaveSite(ctx, dsn, players, rounds, recorded)
	if err != nil {
		return saveRun{}, err
	}
	defer site.close()
	e.say("%d judges saving %d score sheets each in round %d of a %d-player event, on %s", judges, perJudge, recorded+1, players, site.engine)
	stop, err := e.startProfile(site.engine)
	if err != nil {
		return saveRun{}, err
	}
	run, err := site.run(ctx, judges, perJudge, 0)
	if perr := stop(); err == nil {
		err = perr
	}
	return run, err
}

// saveSite is a site served on loopback over a recorded event, whose
// judges save at the tables of its round after the recorded ones.
type saveSite struct {
	engine string
	base   string
	round  tournament.Round
	client *http.Client
	stats  func() store.CommitStats
	close  func()
}

// openSaveSite records the event on the database dsn names and serves the
// site on it, as savesOn does, until close.
func (e *env) openSaveSite(ctx context.Context, dsn string, players, rounds, recorded int) (*saveSite, error) {
	broker := live.NewBroker(0, 0)
	st, err := store.Open(ctx, dsn, store.WithAfterCommit(broker.Committed))
	if err != nil {
		return nil, err
	}
	svc := tournament.NewService(st, e.rulesets, time.Now)
	ev, err := tournamenttest.RecordEvent(ctx, st, svc, players, rounds, recorded)
	if err != nil {
		st.Close()
		return nil, err
	}
	h, err := web.New(web.Deps{Rulesets: e.rulesets, Service: svc, Settings: st, APIToken: benchToken, Broker: broker})
	if err != nil {
		st.Close()
		return nil, err
	}
	url, stop, err := bench.Serve(ctx, h)
	if err != nil {
		st.Close()
		return nil, err
	}
	round := ev.Rounds[recorded]
	return &saveSite{
		engine: st.Engine(),
		base:   fmt.Sprintf("%s/api/v1/tournaments/%d/rounds/%d/tables/", url, ev.Tournament.ID, round.Number),
		round:  round,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		stats:  st.CommitStats,
		close: func() {
			stop()
			st.Close()
		},
	}, nil
}

// run has judges save perJudge sheets each at once, at their own tables,
// the first of them revision from (0 for a first save, then corrections).
func (s *saveSite) run(ctx context.Context, judges, perJudge, from int) (saveRun, error) {
	var (
		mu    sync.Mutex
		times []time.Duration
		first error
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for j := range judges {
		tb := s.round.Tables[j]
		wg.Go(func() {
			<-start
			for v := from; v < from+perJudge; v++ {
				took, err := saveSheet(ctx, s.client, s.base, tb, v)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				times = append(times, took)
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	began, cpu, stats := time.Now(), bench.OwnCPU(), s.stats()
	close(start)
	wg.Wait()
	wall, cpu, after := time.Since(began), bench.OwnCPU()-cpu, s.stats()
	if first != nil {
		return saveRun{}, first
	}
	return saveRun{times: times, wall: wall, cpu: cpu, commits: after.Batches - stats.Batches, writes: after.Writes - stats.Writes}, nil
}

// bySize has sizeJudges judges save in round 8 of a 40-player and of a
// 1,000-player event, both served at once, in sizePhases phases taken in
// turn (the small event first, then the large first), so that the
// machine's moods fall on both alike: each event's saves together, and
// the median of the phases' ratios of saves/s.
func (e *env) bySize(ctx context.Context, dir string) (small, large saveRun, ratio float64, err error) {
	ctx, cancel := context.WithTimeout(ctx, 2*saveTimeLimit)
	defer cancel()
	var sites [2]*saveSite
	for i, players := range []int{smallEvent, largeEvent} {
		dsn, err := store.FileDSN(filepath.Join(dir, fmt.Sprint(players)))
		if err != nil {
			return small, large, 0, err
		}
		if sites[i], err = e.openSaveSite(ctx, dsn, players, sizeRounds, sizeRounds-1); err != nil {
			return small, large, 0, err
		}
		defer sites[i].close()
	}
	e.say("%d judges saving %d score sheets each in round %d of a %d- and a %d-player event, in %d phases in turn, on %s",
		sizeJudges, sizeSaves, sizeRounds, smallEvent, largeEvent, sizePhases, sites[0].engine)
	per := sizeSaves / sizePhases
	var ratios []float64
	for phase := range sizePhases {
		var runs [2]saveRun
		for k := range 2 {
			i := (phase + k) % 2
			if runs[i], err = sites[i].run(ctx, sizeJudges, per, phase*per); err != nil {
				return small, large, 0, err
			}
		}
		small, large = small.add(runs[0]), large.add(runs[1])
		ratios = append(ratios, runs[1].perSecond()/runs[0].perSecond())
	}
	return small, large, bench.Median(ratios), nil
}

// add is r with o's saves after it.
func (r saveRun) add(o saveRun) saveRun {
	return saveRun{times: append(r.times, o.times...), wall: r.wall + o.wall, cpu: r.cpu + o.cpu,
		commits: r.commits + o.commits, writes: r.writes + o.writes}
}
