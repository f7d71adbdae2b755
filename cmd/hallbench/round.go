package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/tournament/web/route"
)

// setUp makes the tournament through the API (national rules, the
// players' reports taken once all four confirmed), registers the players
// with their codes, gives each their phone, and logs the judges in.
func (h *hall) setUp(ctx context.Context, phones []*http.Transport) error {
	var t struct {
		ID int64 `json:"id"`
	}
	err := h.apiCall(ctx, http.MethodPost, "/api/v1/tournaments", map[string]any{
		"name": "関東予選（ホールベンチ）", "rounds": h.o.rounds, "ruleset": "national-2025", "self_report": "auto",
	}, http.StatusCreated, &t)
	if err != nil {
		return err
	}
	h.tid = t.ID
	h.players = make([]*player, h.o.players)
	errs := make(chan error, h.o.players)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range work {
				var p struct {
					ID   int64  `json:"id"`
					Code string `json:"code"`
				}
				name := fmt.Sprintf("選手%03d", i+1)
				if err := h.apiCall(ctx, http.MethodPost, fmt.Sprintf("/api/v1/tournaments/%d/players", h.tid),
					map[string]any{"name": name, "kana": fmt.Sprintf("せんしゅ%03d", i+1)}, http.StatusCreated, &p); err != nil {
					errs <- err
					continue
				}
				h.players[i] = &player{id: p.ID, name: name, code: p.Code, phone: newBrowser(phones[i], h.base)}
			}
		})
	}
	for i := range h.o.players {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	for _, p := range h.players {
		h.byID[p.id] = p
	}
	for i, j := range h.judges {
		page, err := j.page(ctx, route.Login)
		if err != nil {
			return err
		}
		f, err := findForm(page, posts(route.Login, ""))
		if err != nil {
			return err
		}
		// Each judge has an account of their own (a judge's role),
		// made with the API token as a head would.
		var acc struct {
			Name     string `json:"name"`
			Password string `json:"password"`
		}
		if err := h.apiCall(ctx, "POST", "/api/v1/staff", map[string]any{"name": fmt.Sprintf("審判%02d", i+1), "role": "judge"}, http.StatusCreated, &acc); err != nil {
			return fmt.Errorf("judge %d's account: %w", i+1, err)
		}
		if _, _, err := j.submit(ctx, f, map[string]string{"name": acc.Name, "password": acc.Password}); err != nil {
			return fmt.Errorf("judge %d's login: %w", i+1, err)
		}
	}
	return nil
}

// apiCall calls the JSON API with the API token (the bench's own setup
// and check, not measured).
func (h *hall) apiCall(ctx context.Context, method, path string, in any, want int, out any) error {
	var body *bytes.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	} else {
		body = bytes.NewReader(nil)
	}
	status, _, data, err := h.api.do(ctx, method, path, body, "Authorization", "Bearer "+token, "Content-Type", "application/json")
	if err != nil {
		return err
	}
	if status != want {
		return fmt.Errorf("%s %s: %w", method, path, &statusError{status, string(data)})
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// table is a table of a round: its number and its players.
type table struct {
	number  int
	players []int64
}

// tables reads round n's tables.
func (h *hall) tables(ctx context.Context, n int) ([]table, error) {
	var r struct {
		Tables []struct {
			Number  int `json:"number"`
			Players []struct {
				ID int64 `json:"id"`
			} `json:"players"`
		} `json:"tables"`
	}
	if err := h.apiCall(ctx, http.MethodGet, fmt.Sprintf("/api/v1/tournaments/%d/rounds/%d", h.tid, n), nil, http.StatusOK, &r); err != nil {
		return nil, err
	}
	var out []table
	for _, t := range r.Tables {
		tb := table{number: t.Number}
		for _, p := range t.Players {
			tb.players = append(tb.players, p.ID)
		}
		out = append(out, tb)
	}
	return out, nil
}

// sheet is a table's result: 10 VP and the declaration for one player,
// less for the others.
func sheet(rng *rand.Rand, players []int64) (map[int64]int, int64) {
	vp := map[int64]int{}
	winner := rng.IntN(len(players))
	rest := []int{9, 8, 7, 6, 5, 4, 3}
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	for i, id := range players {
		if i == winner {
			vp[id] = 10
			continue
		}
		vp[id] = rest[0]
		rest = rest[1:]
	}
	return vp, players[winner]
}

// sheetFields is a sheet as the score form and the report form take it.
func sheetFields(vp map[int64]int, declared int64) map[string]string {
	set := map[string]string{"declared": strconv.FormatInt(declared, 10)}
	for id, v := range vp {
		set[fmt.Sprintf("vp_%d", id)] = strconv.Itoa(v)
	}
	return set
}

// enter brings round n's results in over the window: the players report
// some tables and confirm them from their phones, the judges enter the
// others' sheets, correct some and give penalties. It answers the last
// result acknowledged.
func (h *hall) enter(ctx context.Context, n int, tables []table, final bool) (*ack, error) {
	rng := h.randFor(n, 1)
	judges := make(chan *browser, len(h.judges))
	for _, j := range h.judges {
		judges <- j
	}
	// withJudge runs do as the next free judge: one thing at a time each.
	withJudge := func(do func(*browser) error) error {
		j := <-judges
		defer func() { judges <- j }()
		return do(j)
	}
	begin := time.Now()
	var wg sync.WaitGroup
	var errMu sync.Mutex
	var first error
	fail := func(err error) {
		errMu.Lock()
		defer errMu.Unlock()
		if first == nil {
			first = err
		}
	}
	window := h.o.window
	if final {
		window = 0
	}
	done := make([]chan *ack, len(tables)) // each table's first result, once acknowledged
	for i, tb := range tables {
		done[i] = make(chan *ack, 1)
		at := time.Duration(rng.Int64N(int64(window) + 1))
		vp, declared := sheet(rng, tb.players)
		reported := !final && rng.Float64() < h.o.reported
		order := slices.Clone(tb.players)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		seed := rng.Uint64()
		wg.Go(func() {
			sleep(ctx, time.Until(begin.Add(at)))
			a := &ack{kind: "result", vp: vp, declared: declared, revision: 1}
			var err error
			if reported {
				a.by = "report"
				err = h.report(ctx, n, tb.number, order, a, rand.New(rand.NewPCG(seed, 2)))
			} else {
				a.by = "judge"
				err = withJudge(func(j *browser) error {
					return h.act(ctx, j, "sheet", n, tb.number, route.Path(route.Score, h.tid, n, tb.number), withID("score-form"),
						with(sheetFields(vp, declared), "action", "save"), a)
				})
			}
			if err != nil {
				fail(err)
				close(done[i])
				return
			}
			done[i] <- a
		})
	}
	if !final {
		// Corrections, a few seconds after the sheet they correct.
		for _, i := range rng.Perm(len(tables))[:min(h.o.corrections, len(tables))] {
			wait := time.Duration(3+rng.IntN(8)) * time.Second
			wg.Go(func() {
				prev, ok := <-done[i]
				if !ok {
					return
				}
				sleep(ctx, wait)
				a := corrected(prev)
				err := withJudge(func(j *browser) error {
					return h.act(ctx, j, "correct", n, prev.table, route.Path(route.Score, h.tid, n, prev.table), withID("score-form"),
						with(with(sheetFields(a.vp, a.declared), "action", "save"), "reason", "数え直し"), a)
				})
				if err != nil {
					fail(err)
				}
			})
		}
		for k := range h.o.penalties {
			tb := tables[rng.IntN(len(tables))]
			who := tb.players[rng.IntN(len(tb.players))]
			at := time.Duration(rng.Int64N(int64(window) + 1))
			wg.Go(func() {
				sleep(ctx, time.Until(begin.Add(at)))
				a := &ack{kind: "penalty", player: who, note: fmt.Sprintf("ホールベンチ %d-%d", n, k+1)}
				set := map[string]string{"player": strconv.FormatInt(who, 10), "round": strconv.Itoa(n), "table": strconv.Itoa(tb.number),
					"offence": "note-taking", "note": a.note, "action": "record"}
				err := withJudge(func(j *browser) error {
					return h.act(ctx, j, "penalty", n, tb.number, route.Path(route.Penalties, h.tid), posts(route.Path(route.Penalties, h.tid), "offence"), set, a)
				})
				if err != nil {
					fail(err)
				}
			})
		}
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	var last *ack
	h.mu.Lock()
	for _, a := range h.acks {
		if a.kind == "result" && a.round == n && (last == nil || a.done.After(last.done)) {
			last = a
		}
	}
	h.mu.Unlock()
	return last, nil
}

// with is set with one more field.
func with(set map[string]string, k, v string) map[string]string {
	set[k] = v
	return set
}

// corrected is prev with two players' VP counted again: the winner's
// stands, two others swap theirs.
func corrected(prev *ack) *ack {
	a := &ack{kind: "result", vp: map[int64]int{}, declared: prev.declared, revision: prev.revision + 1, by: "judge"}
	var others []int64
	for id, v := range prev.vp {
		a.vp[id] = v
		if id != prev.declared {
			others = append(others, id)
		}
	}
	slices.Sort(others)
	a.vp[others[0]], a.vp[others[1]] = prev.vp[others[1]], prev.vp[others[0]]
	return a
}

// report is a table reported from the phones: one player sends the
// sheet, the three others confirm it one after another, and the last
// confirmation makes it the table's result (self_report "auto"), which
// a acknowledges.
func (h *hall) report(ctx context.Context, n, number int, order []int64, a *ack, rng *rand.Rand) error {
	page := route.Path(route.KioskTable, h.tid, n, number)
	by := h.byID[order[0]]
	set := with(with(sheetFields(a.vp, a.declared), "player", strconv.FormatInt(by.id, 10)), "code", by.code)
	if err := h.act(ctx, by.phone, "report", n, number, page, withID("report"), set, &ack{kind: "report"}); err != nil {
		return err
	}
	for k, id := range order[1:] {
		sleep(ctx, time.Duration(300+rng.IntN(1700))*time.Millisecond)
		p := h.byID[id]
		confirm := &ack{kind: "confirm"}
		if k == len(order)-2 {
			confirm = a
		}
		set := map[string]string{"player": strconv.FormatInt(id, 10), "code": p.code, "action": "confirm"}
		if err := h.act(ctx, p.phone, "confirm", n, number, page, withID("answer"), set, confirm); err != nil {
			return err
		}
	}
	return nil
}

// standings has the judges read the standings once round n's last result
// is in: the first the moment it is, the others after.
func (h *hall) standings(ctx context.Context, n int, last *ack) error {
	page := route.Path(route.Standings, h.tid)
	rt := roundTimes{round: n, lastAck: last}
	body, err := h.judges[0].page(ctx, page)
	if err != nil {
		return fmt.Errorf("standings: %w", err)
	}
	if last != nil {
		rt.standings = time.Since(last.done)
	}
	if f, err := findForm(body, withID("print-standings")); err == nil {
		rt.complete = f.values.Get("after") == strconv.Itoa(n)
	}
	h.rec.add("standings: open", rt.standings)
	h.rounds = append(h.rounds, rt)
	var wg sync.WaitGroup
	for _, j := range h.judges[1:] {
		wg.Go(func() {
			t := time.Now()
			if _, err := j.page(ctx, page); err != nil {
				h.rec.refused("standings", err)
				return
			}
			h.rec.add("standings: open", time.Since(t))
		})
	}
	wg.Wait()
	return nil
}
