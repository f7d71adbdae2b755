package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/catanjudge/catanjudge/cmd/internal/bench"
)

// recorder keeps each action's latencies, and the answers refused.
type recorder struct {
	mu      sync.Mutex
	times   map[string][]time.Duration
	refusal map[string]*refusals
}

func (r *recorder) add(kind string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.times == nil {
		r.times = map[string][]time.Duration{}
	}
	r.times[kind] = append(r.times[kind], d)
}

func (r *recorder) refused(kind string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refusal == nil {
		r.refusal = map[string]*refusals{}
	}
	if r.refusal[kind] == nil {
		r.refusal[kind] = &refusals{}
	}
	r.refusal[kind].count(err)
}

// judgeActions are the judges' actions, in the order of a round; the
// others are the players'.
var judgeActions = []string{"pair", "seat", "board", "clock", "sheet", "correct", "penalty", "standings", "final"}

// measured is the run's measures.
type measured struct {
	o             options
	actions       map[string][]time.Duration
	refused       map[string]*refusals
	screens       *screens
	toEvent       []time.Duration // save -> every screen has its event
	toState       []time.Duration // save -> every screen has the new state
	uncovered     int             // results some screen never had
	rounds        []roundTimes
	roundsOnEvery []time.Duration // the round's last result -> on every screen
	missing       []string        // acknowledged, not in the record
	acked         int
	mem           bench.Memory // at the end
	cpu, client   time.Duration
	took          time.Duration
	loadAvg       [2]string
}

// measures reads what the run measured, and checks the record.
func (h *hall) measures(ctx context.Context) (*measured, error) {
	m := &measured{o: h.o, actions: h.rec.times, refused: h.rec.refusal, screens: h.screens, rounds: h.rounds,
		took: time.Since(h.start)}
	var err error
	if m.mem, err = h.srv.Memory(); err != nil {
		return nil, err
	}
	m.cpu, m.client = m.mem.CPU-h.cpu[0].CPU, bench.OwnCPU()-h.client[0]
	m.loadAvg = [2]string{h.loadAvg[0], bench.LoadAverage()}
	line, err := h.srv.Ask(fmt.Sprintf("audit %d", h.tid))
	if err != nil {
		return nil, err
	}
	var audit []auditLine
	if err := json.Unmarshal([]byte(line), &audit); err != nil {
		return nil, fmt.Errorf("the audit log: %w", err)
	}
	versions := resultVersions(audit)
	for _, a := range h.acks {
		if a.kind != "result" {
			continue
		}
		v := versions[resultKey{a.round, a.table, a.revision}]
		event, state, ok := h.cov.onEvery(v)
		if !ok {
			m.uncovered++
			continue
		}
		m.toEvent = append(m.toEvent, event.Sub(a.sent))
		m.toState = append(m.toState, state.Sub(a.sent))
	}
	for _, rt := range h.rounds {
		if rt.lastAck == nil {
			continue
		}
		if _, state, ok := h.cov.onEvery(versions[resultKey{rt.lastAck.round, rt.lastAck.table, rt.lastAck.revision}]); ok {
			m.roundsOnEvery = append(m.roundsOnEvery, state.Sub(rt.lastAck.done))
		}
	}
	m.acked = len(h.acks)
	m.missing, err = h.check(ctx)
	return m, err
}

// resultKey names one revision of one table's result.
type resultKey struct{ round, table, revision int }

// resultVersions finds each result's change in the audit log: the
// revisions of a table are its result entries in order.
func resultVersions(audit []auditLine) map[resultKey]int64 {
	sort.Slice(audit, func(i, j int) bool { return audit[i].ID < audit[j].ID })
	count := map[[2]int]int{}
	out := map[resultKey]int64{}
	for _, e := range audit {
		if e.Action != "result.save" && e.Action != "result.correct" {
			continue
		}
		var n, t int
		if _, err := fmt.Sscanf(e.Subject, "round %d table %d", &n, &t); err != nil {
			continue
		}
		count[[2]int{n, t}]++
		out[resultKey{n, t, count[[2]int{n, t}]}] = e.ID
	}
	return out
}

// check reads the record back through the API and says what the server
// acknowledged that it lacks: a table's revisions and its last sheet,
// the penalties by their notes, the seatings, boards and clocks.
func (h *hall) check(ctx context.Context) ([]string, error) {
	var missing []string
	last := map[[2]int]*ack{}
	seated := map[[2]int]bool{}
	boards := map[[2]int]bool{}
	clocks := map[int]bool{}
	notes := map[string]*ack{}
	for _, a := range h.acks {
		k := [2]int{a.round, a.table}
		switch a.kind {
		case "result":
			if last[k] == nil || a.revision > last[k].revision {
				last[k] = a
			}
		case "seat":
			seated[k] = true
		case "board":
			boards[k] = true
		case "clock":
			clocks[a.round] = true
		case "penalty":
			notes[a.note] = a
		}
	}
	rounds := map[int]bool{}
	for k := range last {
		rounds[k[0]] = true
	}
	for n := range rounds {
		var r struct {
			Tables []struct {
				Number  int `json:"number"`
				Players []struct {
					Seat int `json:"seat"`
				} `json:"players"`
				Board *json.RawMessage `json:"board"`
			} `json:"tables"`
			Clock *struct {
				State string `json:"state"`
			} `json:"clock"`
		}
		if err := h.apiCall(ctx, http.MethodGet, fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d", h.tid, n), nil, http.StatusOK, &r); err != nil {
			return nil, err
		}
		if clocks[n] && (r.Clock == nil || r.Clock.State == "ready") {
			missing = append(missing, fmt.Sprintf("round %d: the clock started, and is %v", n, r.Clock))
		}
		for _, t := range r.Tables {
			k := [2]int{n, t.Number}
			if seated[k] && (len(t.Players) == 0 || t.Players[0].Seat == 0) {
				missing = append(missing, fmt.Sprintf("round %d table %d: seated, and has no seats", n, t.Number))
			}
			if boards[k] && t.Board == nil {
				missing = append(missing, fmt.Sprintf("round %d table %d: its board set, and has none", n, t.Number))
			}
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan *ack)
	var failed error
	for range 8 {
		wg.Go(func() {
			for a := range work {
				if m, err := h.checkResult(ctx, a); err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
				} else if m != "" {
					mu.Lock()
					missing = append(missing, m)
					mu.Unlock()
				}
			}
		})
	}
	for _, a := range last {
		work <- a
	}
	close(work)
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	var pens struct {
		Penalties []struct {
			Player int64  `json:"player"`
			Round  int    `json:"round"`
			Note   string `json:"note"`
		} `json:"penalties"`
	}
	if err := h.apiCall(ctx, http.MethodGet, fmt.Sprintf("/api/v1/tournaments/%d/penalties", h.tid), nil, http.StatusOK, &pens); err != nil {
		return nil, err
	}
	for _, p := range pens.Penalties {
		if a := notes[p.Note]; a != nil && a.player == p.Player && a.round == p.Round {
			delete(notes, p.Note)
		}
	}
	for note := range notes {
		missing = append(missing, "penalty "+note)
	}
	slices.Sort(missing)
	return missing, nil
}

// checkResult says what of the table's last acknowledged sheet its
// revisions lack: as many revisions, the last one the sheet.
func (h *hall) checkResult(ctx context.Context, a *ack) (string, error) {
	var rv struct {
		Revisions []struct {
			Version  int    `json:"version"`
			Declared *int64 `json:"declared"`
			Scores   []struct {
				Player int64 `json:"player"`
				VP     int   `json:"vp"`
			} `json:"scores"`
		} `json:"revisions"`
	}
	path := fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d/tables/%d/revisions", h.tid, a.round, a.table)
	if err := h.apiCall(ctx, http.MethodGet, path, nil, http.StatusOK, &rv); err != nil {
		return "", err
	}
	what := fmt.Sprintf("round %d table %d", a.round, a.table)
	if len(rv.Revisions) < a.revision {
		return fmt.Sprintf("%s: %d revisions acknowledged, %d recorded", what, a.revision, len(rv.Revisions)), nil
	}
	got := rv.Revisions[a.revision-1]
	for _, s := range got.Scores {
		if a.vp[s.Player] != s.VP {
			return fmt.Sprintf("%s revision %d: player %d has %d VP, %d acknowledged", what, a.revision, s.Player, s.VP, a.vp[s.Player]), nil
		}
	}
	if got.Declared == nil || *got.Declared != a.declared || len(got.Scores) != len(a.vp) {
		return fmt.Sprintf("%s revision %d: not the sheet acknowledged", what, a.revision), nil
	}
	return "", nil
}

// pct is the p-th percentile of ds.
func pct(ds []time.Duration, p int) time.Duration { return bench.Percentile(ds, p) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (m *measured) standingsTimes() (judge, every []time.Duration) {
	for _, rt := range m.rounds {
		if rt.lastAck != nil {
			judge = append(judge, rt.standings)
		}
	}
	return judge, m.roundsOnEvery
}

func (m *measured) summary() bench.HallSummary {
	s := bench.HallSummary{Players: m.o.players, Judges: m.o.judges, Screens: m.o.screens, Actions: map[string][2]float64{},
		Rounds: m.o.rounds, WindowSeconds: m.o.window.Seconds(), Saves: len(m.toState),
		SaveToEvent: [2]float64{ms(pct(m.toEvent, 50)), ms(pct(m.toEvent, 99))},
		SaveToState: [2]float64{ms(pct(m.toState, 50)), ms(pct(m.toState, 99))},
		Missing:     len(m.missing), Acked: m.acked, PeakRSSMB: float64(m.mem.Peak) / (1 << 20),
		ServerCPUSeconds: m.cpu.Seconds(), ClientCPUSeconds: m.client.Seconds(), Seconds: m.took.Seconds(), LoadAverage: m.loadAvg}
	for k, ds := range m.actions {
		s.Actions[k] = [2]float64{ms(pct(ds, 50)), ms(pct(ds, 99))}
		if p99 := ms(pct(ds, 99)); isJudge(k) && p99 > s.JudgeP99 {
			s.JudgeP99, s.JudgeSlowest = p99, k
		}
	}
	judge, every := m.standingsTimes()
	s.Standings = [2]float64{ms(pct(judge, 50)), ms(pct(judge, 100))}
	s.StandingsOnEvery = [2]float64{ms(pct(every, 50)), ms(pct(every, 100))}
	s.Busy = m.screens.refused.busy.Load()
	for _, r := range m.refused {
		s.Busy += r.busy.Load()
	}
	return s
}

func isJudge(kind string) bool {
	name, _, _ := strings.Cut(kind, ":")
	return slices.Contains(judgeActions, name)
}

// print writes the measures as a table, with the targets.
func (m *measured) print(w io.Writer) error {
	fmt.Fprintf(w, "hallbench: %d players (%d tables), %d judges, %d screens (%d projectors), %d Swiss rounds and the final, results over %v a round; loopback, %s\n",
		m.o.players, m.o.players/4, m.o.judges, m.o.screens, m.o.projectors, m.o.rounds, m.o.window, bench.Machine())
	fmt.Fprintf(w, "load average at the start %s, at the end %s; %v in all\n\n", m.loadAvg[0], m.loadAvg[1], m.took.Round(time.Second))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "action\tn\tp50\tp99\tmax")
	kinds := make([]string, 0, len(m.actions))
	for k := range m.actions {
		kinds = append(kinds, k)
	}
	order := func(k string) int {
		name, _, _ := strings.Cut(k, ":")
		if i := slices.Index(judgeActions, name); i >= 0 {
			return i
		}
		return len(judgeActions)
	}
	slices.SortFunc(kinds, func(a, b string) int {
		if d := order(a) - order(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, k := range kinds {
		ds := m.actions[k]
		who := "judge"
		if !isJudge(k) {
			who = "player"
		}
		fmt.Fprintf(tw, "%s (%s)\t%d\t%s\t%s\t%s\n", k, who, len(ds), bench.Duration(pct(ds, 50)), bench.Duration(pct(ds, 99)), bench.Duration(pct(ds, 100)))
	}
	row := func(name string, ds []time.Duration) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", name, len(ds), bench.Duration(pct(ds, 50)), bench.Duration(pct(ds, 99)), bench.Duration(pct(ds, 100)))
	}
	row("save -> every screen has the event", m.toEvent)
	row("save -> every screen has the new state", m.toState)
	judge, every := m.standingsTimes()
	row("round's last result -> judge's standings shown", judge)
	row("round's last result -> on every screen", every)
	if err := tw.Flush(); err != nil {
		return err
	}
	s := m.summary()
	fmt.Fprintln(w)
	for _, rt := range m.rounds {
		fmt.Fprintf(w, "round %d: standings page %s after its last result (round complete on it: %v)\n", rt.round, bench.Duration(rt.standings), rt.complete)
	}
	fmt.Fprintf(w, "screens: %d fetches (%d answered 304); refused: %s\n", m.screens.fetches.Load(), m.screens.notModif.Load(), &m.screens.refused)
	for k, r := range m.refused {
		fmt.Fprintf(w, "%s refused: %s\n", k, r)
	}
	if m.uncovered > 0 {
		fmt.Fprintf(w, "%d results were not on every screen at the end\n", m.uncovered)
	}
	fmt.Fprintf(w, "server: RSS %.0f MB at the end, peak %.0f MB; heap %.0f MB; %d goroutines, %d feeds; CPU %.1f s (the clients' %.1f s)\n",
		float64(m.mem.RSS)/(1<<20), float64(m.mem.Peak)/(1<<20), float64(m.mem.Heap)/(1<<20), m.mem.Goroutines, m.mem.Feeds, m.cpu.Seconds(), m.client.Seconds())
	fmt.Fprintf(w, "acknowledged: %d changes; missing from the record: %d\n", m.acked, len(m.missing))
	for _, x := range m.missing[:min(len(m.missing), 20)] {
		fmt.Fprintln(w, "  missing:", x)
	}
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	fmt.Fprintf(w, "\ntargets: every judge action p99 ≤ 250 ms: %s (the slowest p99 %.0f ms); standings after the round's last result ≤ 1 s: %s (worst %.0f ms on the judge's page, %.0f ms on every screen); 0 acknowledged missing: %s\n",
		verdict(s.JudgeP99 <= 250), s.JudgeP99, verdict(s.Standings[1] <= 1000), s.Standings[1], s.StandingsOnEvery[1], verdict(len(m.missing) == 0))
	return nil
}
