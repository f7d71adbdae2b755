package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// committed records what the after-commit hook was told, and checks each
// time that the change it is told of can already be read from the database.
type committed struct {
	t       *testing.T
	s       *store.Store
	mu      sync.Mutex
	entries []tournament.AuditEntry
}

func (c *committed) hook(e tournament.AuditEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, e)
	// The hook runs after the commit: another reader sees the change.
	log, err := c.s.AuditLog(context.Background(), e.TournamentID)
	if err != nil {
		c.t.Errorf("after-commit hook: read the audit log: %v", err)
		return
	}
	if !slices.ContainsFunc(log, func(l tournament.AuditEntry) bool { return l.ID == e.ID }) {
		c.t.Errorf("after-commit hook told of audit entry %d (%s) before it was committed", e.ID, e.Action)
	}
}

func (c *committed) actions() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, e := range c.entries {
		out = append(out, e.Action)
	}
	return out
}

// A change is published only once its transaction has committed, and a
// write that fails (refused, stale, rolled back) publishes nothing.
func TestAfterCommit(t *testing.T) {
	ctx := context.Background()
	c := &committed{t: t}
	s := tournamenttest.NewStore(t, store.WithAfterCommit(c.hook))
	c.s = s

	tour := tournament.Tournament{Name: "x", Ruleset: preset(t), Rounds: 1, GameMinutes: 7}
	if err := s.CreateTournament(ctx, &tour, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, name := range []string{"a", "b", "c"} {
		p := tournament.Player{TournamentID: tour.ID, Name: name}
		if err := s.AddPlayer(ctx, &p, tournament.Progress{}, change("player.add")); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	r := tournament.Round{TournamentID: tour.ID, Number: 1, Mode: "random", PairedBy: "judge-a", PairedAt: t0,
		Tables: []tournament.Table{{Number: 1, Players: ids}}}
	if err := s.AddRound(ctx, &r, change("round.pair")); err != nil {
		t.Fatal(err)
	}
	want := []string{"tournament.create", "player.add", "player.add", "player.add", "round.pair"}
	if got := c.actions(); !slices.Equal(got, want) {
		t.Fatalf("published %v, want %v", got, want)
	}
	for _, e := range c.entries {
		if e.TournamentID != tour.ID || e.ID == 0 {
			t.Errorf("published %+v, want the audit entry of tournament %d with its ID", e, tour.ID)
		}
	}

	// Writes that fail inside their transaction publish nothing.
	res := tournament.Result{Scores: []tournament.Score{{PlayerID: ids[0], VP: 5}, {PlayerID: ids[1], VP: 4}, {PlayerID: ids[2], VP: 3}},
		EndedBy: tournament.EndedByTime, Judge: "judge-a", At: t0}
	failing := []struct {
		name string
		err  error
		do   func() error
	}{
		{"a clock event at a table not in the round", tournament.ErrInvalid, func() error {
			e := tournament.ClockEvent{RoundID: r.ID, TableID: r.Tables[0].ID + 100, Kind: "extend", Seconds: 60, Judge: "judge-a", At: t0}
			return s.AddClockEvent(ctx, &e, change("clock.extend"))
		}},
		{"a stale result", tournament.ErrConflict, func() error {
			return s.SaveResult(ctx, r.Tables[0].ID, 3, &res, change("result.save"))
		}},
		{"a change without a judge: the audit line fails, the change rolls back", tournament.ErrInvalid, func() error {
			e := tournament.ClockEvent{RoundID: r.ID, Kind: "start", Judge: "judge-a", At: t0}
			return s.AddClockEvent(ctx, &e, tournament.Change{Action: "clock.start", At: t0})
		}},
		{"a cancelled context", context.Canceled, func() error {
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			e := tournament.ClockEvent{RoundID: r.ID, Kind: "start", Judge: "judge-a", At: t0}
			return s.AddClockEvent(cctx, &e, change("clock.start"))
		}},
	}
	for _, tt := range failing {
		if err := tt.do(); !errors.Is(err, tt.err) {
			t.Errorf("%s: error = %v, want %v", tt.name, err, tt.err)
		}
	}
	if got := c.actions(); len(got) != len(want) {
		t.Errorf("failed writes published %v", got[len(want):])
	}
	events, err := s.ClockEvents(ctx, r.ID)
	if err != nil || len(events) != 0 {
		t.Errorf("ClockEvents after the failed writes = %v, %v; want none", events, err)
	}

	// A result and a clock start that commit are published, each once, in order.
	if err := s.SaveResult(ctx, r.Tables[0].ID, 0, &res, change("result.save")); err != nil {
		t.Fatal(err)
	}
	e := tournament.ClockEvent{RoundID: r.ID, Kind: "start", Reason: "", Judge: "judge-a", At: t0.Add(time.Minute)}
	if err := s.AddClockEvent(ctx, &e, change("clock.start")); err != nil {
		t.Fatal(err)
	}
	want = append(want, "result.save", "clock.start")
	if got := c.actions(); !slices.Equal(got, want) {
		t.Errorf("published %v, want %v", got, want)
	}
	if n := len(c.entries); n < 2 || c.entries[n-1].ID <= c.entries[n-2].ID {
		t.Errorf("the versions published do not increase: %+v", c.entries)
	}
}

// An extension's reason and a late declaration's confirmation are stored.
func TestClockAndLateReasonsStored(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	e := tournament.ClockEvent{RoundID: f.round.ID, TableID: f.round.Tables[0].ID, Kind: "extend", Seconds: 90, Reason: "長い裁定", Judge: "judge-a", At: t0}
	if err := f.s.AddClockEvent(ctx, &e, change("clock.extend")); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.ClockEvents(ctx, f.round.ID)
	if err != nil || len(got) != 1 || got[0].Reason != "長い裁定" {
		t.Errorf("ClockEvents() = %+v, %v; want the extension with its reason", got, err)
	}
	var scores []tournament.Score
	for _, id := range f.round.Tables[0].Players {
		scores = append(scores, tournament.Score{PlayerID: id, VP: 10 - len(scores)})
	}
	res := tournament.Result{Scores: scores, Declared: scores[0].PlayerID, EndedBy: tournament.EndedByDeclaration,
		Judge: "judge-a", At: t0, LateReason: "合図の前に宣言"}
	if err := f.s.SaveResult(ctx, f.round.Tables[0].ID, 0, &res, change("result.save")); err != nil {
		t.Fatal(err)
	}
	revs, err := f.s.Revisions(ctx, f.round.Tables[0].ID)
	if err != nil || len(revs) != 1 || revs[0].LateReason != "合図の前に宣言" {
		t.Errorf("Revisions() = %+v, %v; want the late reason", revs, err)
	}
}
