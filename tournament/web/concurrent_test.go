package web_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/web/api"
	"github.com/catanjudge/catanjudge/tournament/web/webtest"
)

// TestConcurrentJudges has 20 judges save and correct the four tables of a
// round at once, each reading the table's version and saving over it. No
// save is lost silently: every 200 is a stored revision with the scores
// sent, every other save got a 409 naming the newer version and what
// changed, the histories run 1, 2, 3... with an audit line each, and the
// standings equal a recomputation from the stored revisions.
func TestConcurrentJudges(t *testing.T) {
	env := webtest.New(t)
	tr, ps := env.SeedTournament(16)
	if _, err := env.Service.PairNextRound(env.Ctx, "setup", tr.ID); err != nil {
		t.Fatal(err)
	}
	env.TimeUp(tr.ID, 1)
	names := map[int64]string{}
	for _, p := range ps {
		names[p.ID] = p.Name
	}
	roundPath := fmt.Sprintf("/api/v1/tournaments/%d/rounds/1", tr.ID)
	client := env.Server.Client()
	var round api.RoundJSON
	if status, body, err := webtest.APICall(client, env.Server.URL, "GET", roundPath, nil); err != nil || status != 200 {
		t.Fatalf("GET %s = %d %s %v", roundPath, status, body, err)
	} else if err := json.Unmarshal(body, &round); err != nil {
		t.Fatal(err)
	}
	if len(round.Tables) != 4 {
		t.Fatalf("round 1 has %d tables, want 4 for 16 players", len(round.Tables))
	}

	type ack struct {
		table, version int
		scores         []api.ScoreRequest
	}
	type refusal struct {
		table, expected, current int
		message                  string
	}
	const judges, saves = 20, 6
	var (
		mu       sync.Mutex
		acks     []ack
		refusals []refusal
		errs     []error
		wg       sync.WaitGroup
	)
	start := make(chan struct{})
	for j := range judges {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(j), 7))
			<-start
			for i := range saves {
				// Judges move between tables, so each table has several at once.
				tn := (j+i)%len(round.Tables) + 1
				status, body, err := webtest.APICall(client, env.Server.URL, "GET", roundPath, nil)
				var cur api.RoundJSON
				if err == nil && status == http.StatusOK {
					err = json.Unmarshal(body, &cur)
				}
				if err != nil || status != http.StatusOK {
					mu.Lock()
					errs = append(errs, fmt.Errorf("judge %d: GET round = %d %s %v", j, status, body, err))
					mu.Unlock()
					return
				}
				table := cur.Tables[tn-1]
				version := 0
				if table.Result != nil {
					version = table.Result.Version
				}
				req := api.SaveResultRequest{Version: version}
				if version > 0 {
					req.Reason = fmt.Sprintf("judge %d recounted", j)
				}
				for _, p := range table.Players {
					vp := rng.IntN(10)
					req.Scores = append(req.Scores, api.ScoreRequest{Player: p.ID, VP: &vp})
				}
				path := fmt.Sprintf("%s/tables/%d/result", roundPath, tn)
				status, body, err = webtest.APICall(client, env.Server.URL, "PUT", path, req)
				var res struct {
					Version        int    `json:"version"`
					Error          string `json:"error"`
					CurrentVersion int    `json:"current_version"`
				}
				if err == nil {
					err = json.Unmarshal(body, &res)
				}
				mu.Lock()
				switch {
				case err != nil:
					errs = append(errs, fmt.Errorf("judge %d: PUT %s: %w", j, path, err))
				case status == http.StatusOK:
					acks = append(acks, ack{table: tn, version: res.Version, scores: req.Scores})
				case status == http.StatusConflict:
					refusals = append(refusals, refusal{table: tn, expected: version, current: res.CurrentVersion, message: res.Error})
				default:
					errs = append(errs, fmt.Errorf("judge %d: PUT %s version %d = %d %s, want 200 or 409", j, path, version, status, body))
				}
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(acks)+len(refusals) != judges*saves {
		t.Fatalf("%d saves answered 200 or 409, want all %d", len(acks)+len(refusals), judges*saves)
	}
	if len(refusals) == 0 {
		t.Fatalf("no save was refused: the judges never collided, so the test proved nothing")
	}
	t.Logf("%d saves stored, %d refused with 409; one reads: %s", len(acks), len(refusals), refusals[0].message)

	log, err := env.Service.AuditLog(env.Ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	history := map[int][]tournament.Result{}
	for _, table := range round.Tables {
		tn := table.Number
		revs, err := env.Service.Revisions(env.Ctx, tr.ID, 1, tn)
		if err != nil {
			t.Fatal(err)
		}
		history[tn] = revs
		var acked []ack
		for _, a := range acks {
			if a.table == tn {
				acked = append(acked, a)
			}
		}
		if len(revs) != len(acked) {
			t.Errorf("table %d: %d revisions stored, %d saves acknowledged", tn, len(revs), len(acked))
		}
		for i, r := range revs {
			if r.Version != i+1 {
				t.Errorf("table %d: revision %d has version %d, want %d: the history has a gap", tn, i+1, r.Version, i+1)
			}
		}
		for _, a := range acked {
			if a.version < 1 || a.version > len(revs) {
				t.Errorf("table %d: save acknowledged as version %d, but %d revisions are stored", tn, a.version, len(revs))
				continue
			}
			var got []api.ScoreRequest
			for _, sc := range revs[a.version-1].Scores {
				got = append(got, api.ScoreRequest{Player: sc.PlayerID, VP: &sc.VP})
			}
			if diff := cmp.Diff(a.scores, got); diff != "" {
				t.Errorf("table %d version %d: stored scores differ from the acknowledged save (-sent +stored):\n%s", tn, a.version, diff)
			}
		}
		lines := 0
		for _, e := range log {
			if e.Subject == fmt.Sprintf("round 1 table %d", tn) && (e.Action == "result.save" || e.Action == "result.correct") {
				lines++
			}
		}
		if lines != len(revs) {
			t.Errorf("table %d: %d result audit lines for %d revisions, want one each", tn, lines, len(revs))
		}
	}

	for _, r := range refusals {
		revs := history[r.table]
		if r.current <= r.expected || r.current > len(revs) {
			t.Errorf("table %d: 409 for a save over version %d names version %d; want a newer stored one (of %d)", r.table, r.expected, r.current, len(revs))
			continue
		}
		if want := fmt.Sprintf("saved version %d", r.current); !strings.Contains(r.message, want) {
			t.Errorf("table %d: 409 message %q does not say %q", r.table, r.message, want)
		}
		if want := fmt.Sprintf("editing version %d", r.expected); !strings.Contains(r.message, want) {
			t.Errorf("table %d: 409 message %q does not say %q", r.table, r.message, want)
		}
		old := map[int64]int{}
		if r.expected > 0 {
			for _, sc := range revs[r.expected-1].Scores {
				old[sc.PlayerID] = sc.VP
			}
		}
		changed := false
		for _, sc := range revs[r.current-1].Scores {
			before, had := old[sc.PlayerID]
			var want string
			switch {
			case !had:
				want = fmt.Sprintf("%s %d VP", names[sc.PlayerID], sc.VP)
			case before != sc.VP:
				want = fmt.Sprintf("%s %d → %d VP", names[sc.PlayerID], before, sc.VP)
			default:
				continue
			}
			changed = true
			if !strings.Contains(r.message, want) {
				t.Errorf("table %d: 409 over version %d does not say what changed in version %d, %q:\n%s", r.table, r.expected, r.current, want, r.message)
			}
		}
		if !changed && !strings.Contains(r.message, "no score changed") {
			t.Errorf("table %d: 409 message %q does not say that no score changed", r.table, r.message)
		}
	}

	// The standings, recomputed here from the latest stored revisions with
	// the referee alone, must be what the API shows.
	rs := tr.Ruleset
	var games []referee.Game
	for _, tn := range slices.Sorted(maps.Keys(history)) {
		revs := history[tn]
		if len(revs) == 0 {
			continue
		}
		latest := revs[len(revs)-1]
		var scores []referee.Score
		for _, sc := range latest.Scores {
			scores = append(scores, referee.Score{Player: strconv.FormatInt(sc.PlayerID, 10), VP: sc.VP})
		}
		places, err := referee.Place(rs, scores, "")
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, referee.Game{Placings: places})
	}
	var ids []string
	for _, p := range ps {
		ids = append(ids, strconv.FormatInt(p.ID, 10))
	}
	recomputed, err := referee.Standings(rs, games, nil, ids)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]api.TournamentStandingJSON{}
	for _, s := range recomputed {
		id, _ := strconv.ParseInt(s.Player, 10, 64)
		want[id] = api.TournamentStandingJSON{
			Rank: s.Rank, Player: id, Name: names[id], Firsts: s.Firsts, VP: s.VP,
			Share: float64(int64(s.Share*10000+0.5)) / 10000, Points: s.Points, Played: s.Played,
		}
	}
	var shown struct {
		Standings []api.TournamentStandingJSON `json:"standings"`
	}
	status, body, err := webtest.APICall(client, env.Server.URL, "GET", fmt.Sprintf("/api/v1/tournaments/%d/standings", tr.ID), nil)
	if err != nil || status != http.StatusOK {
		t.Fatalf("GET standings = %d %s %v", status, body, err)
	}
	if err := json.Unmarshal(body, &shown); err != nil {
		t.Fatal(err)
	}
	got := map[int64]api.TournamentStandingJSON{}
	for _, s := range shown.Standings {
		s.Kana = ""
		got[s.Player] = s
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("standings differ from a recomputation from the stored revisions (-recomputed +shown):\n%s", diff)
	}
}
