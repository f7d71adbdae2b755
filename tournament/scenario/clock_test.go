package scenario_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// at is t0 plus m minutes and s seconds.
func at(m, s int) time.Time {
	return t0.Add(time.Duration(m)*time.Minute + time.Duration(s)*time.Second)
}

func ev(kind string, when time.Time) tournament.ClockEvent {
	return tournament.ClockEvent{Kind: kind, At: when}
}

func extend(table int64, seconds int, when time.Time) tournament.ClockEvent {
	return tournament.ClockEvent{Kind: tournament.ClockExtend, TableID: table, Seconds: seconds, At: when}
}

// tableWant is what a test checks of a table's clock.
type tableWant struct {
	Deadline  time.Time
	Remaining time.Duration
	Status    string
}

func TestClockAt(t *testing.T) {
	const game = 7 * time.Minute
	// Tables 1 and 2 (IDs 11 and 12); table 3 (ID 13) has a result.
	tables := []tournament.Table{
		{ID: 12, Number: 2},
		{ID: 11, Number: 1},
		{ID: 13, Number: 3, Result: &tournament.Result{Version: 1}},
	}
	start := ev(tournament.ClockStart, at(0, 0))
	tests := []struct {
		name      string
		events    []tournament.ClockEvent
		now       time.Time
		state     string
		deadline  time.Time
		remaining time.Duration
		tables    [2]tableWant // tables 1 and 2
	}{
		{
			name: "ready", now: at(5, 0), state: tournament.ClockReady, remaining: game,
			tables: [2]tableWant{{Remaining: game, Status: tournament.TableReady}, {Remaining: game, Status: tournament.TableReady}},
		},
		{
			name: "running", events: []tournament.ClockEvent{start}, now: at(2, 0),
			state: tournament.ClockRunning, deadline: at(7, 0), remaining: 5 * time.Minute,
			tables: [2]tableWant{{at(7, 0), 5 * time.Minute, tournament.TablePlaying}, {at(7, 0), 5 * time.Minute, tournament.TablePlaying}},
		},
		{
			name: "one second before the signal", events: []tournament.ClockEvent{start}, now: at(6, 59),
			state: tournament.ClockRunning, deadline: at(7, 0), remaining: time.Second,
			tables: [2]tableWant{{at(7, 0), time.Second, tournament.TablePlaying}, {at(7, 0), time.Second, tournament.TablePlaying}},
		},
		{
			name: "time up: tables without a result are over", events: []tournament.ClockEvent{start}, now: at(9, 0),
			state: tournament.ClockOver, deadline: at(7, 0),
			tables: [2]tableWant{{at(7, 0), 0, tournament.TableOver}, {at(7, 0), 0, tournament.TableOver}},
		},
		{
			name:   "paused: the time left stays, the deadline moves",
			events: []tournament.ClockEvent{start, ev(tournament.ClockPause, at(2, 0))}, now: at(5, 0),
			state: tournament.ClockPaused, deadline: at(10, 0), remaining: 5 * time.Minute,
			tables: [2]tableWant{{at(10, 0), 5 * time.Minute, tournament.TablePlaying}, {at(10, 0), 5 * time.Minute, tournament.TablePlaying}},
		},
		{
			name:   "a restart in the middle of a pause loses and adds nothing",
			events: []tournament.ClockEvent{start, ev(tournament.ClockPause, at(2, 0))}, now: at(42, 0),
			state: tournament.ClockPaused, deadline: at(47, 0), remaining: 5 * time.Minute,
			tables: [2]tableWant{{at(47, 0), 5 * time.Minute, tournament.TablePlaying}, {at(47, 0), 5 * time.Minute, tournament.TablePlaying}},
		},
		{
			name:   "resumed: every deadline shifts by the pause",
			events: []tournament.ClockEvent{start, ev(tournament.ClockPause, at(2, 0)), ev(tournament.ClockResume, at(4, 30))}, now: at(5, 0),
			state: tournament.ClockRunning, deadline: at(9, 30), remaining: 4*time.Minute + 30*time.Second,
			tables: [2]tableWant{
				{at(9, 30), 4*time.Minute + 30*time.Second, tournament.TablePlaying},
				{at(9, 30), 4*time.Minute + 30*time.Second, tournament.TablePlaying},
			},
		},
		{
			name: "two pauses",
			events: []tournament.ClockEvent{
				start, ev(tournament.ClockPause, at(1, 0)), ev(tournament.ClockResume, at(2, 0)),
				ev(tournament.ClockPause, at(3, 0)), ev(tournament.ClockResume, at(3, 30)),
			},
			now: at(8, 0), state: tournament.ClockRunning, deadline: at(8, 30), remaining: 30 * time.Second,
			tables: [2]tableWant{{at(8, 30), 30 * time.Second, tournament.TablePlaying}, {at(8, 30), 30 * time.Second, tournament.TablePlaying}},
		},
		{
			name:   "a table's extension: the round's time is up, the table plays on",
			events: []tournament.ClockEvent{start, extend(12, 90, at(3, 0))}, now: at(7, 30),
			state: tournament.ClockRunning, deadline: at(7, 0),
			tables: [2]tableWant{{at(7, 0), 0, tournament.TableOver}, {at(8, 30), time.Minute, tournament.TablePlaying}},
		},
		{
			name:   "the extended table's time is up too",
			events: []tournament.ClockEvent{start, extend(12, 90, at(3, 0))}, now: at(9, 0),
			state: tournament.ClockOver, deadline: at(7, 0),
			tables: [2]tableWant{{at(7, 0), 0, tournament.TableOver}, {at(8, 30), 0, tournament.TableOver}},
		},
		{
			name:   "the whole round's extension",
			events: []tournament.ClockEvent{start, extend(0, 60, at(1, 0)), extend(11, 30, at(2, 0))}, now: at(6, 0),
			state: tournament.ClockRunning, deadline: at(8, 0), remaining: 2 * time.Minute,
			tables: [2]tableWant{{at(8, 30), 2*time.Minute + 30*time.Second, tournament.TablePlaying}, {at(8, 0), 2 * time.Minute, tournament.TablePlaying}},
		},
		{
			name: "a pause after a table's signal does not bring the table back (§12)",
			events: []tournament.ClockEvent{
				start, extend(12, 120, at(1, 0)), ev(tournament.ClockPause, at(7, 30)), ev(tournament.ClockResume, at(10, 0)),
			},
			now: at(10, 30), state: tournament.ClockRunning, deadline: at(7, 0),
			tables: [2]tableWant{{at(7, 0), 0, tournament.TableOver}, {at(11, 30), time.Minute, tournament.TablePlaying}},
		},
		{
			name:   "an extension after the signal does not bring the table back (§12)",
			events: []tournament.ClockEvent{start, extend(11, 60, at(8, 0))}, now: at(8, 10),
			state: tournament.ClockOver, deadline: at(7, 0),
			tables: [2]tableWant{{at(7, 0), 0, tournament.TableOver}, {at(7, 0), 0, tournament.TableOver}},
		},
		{
			name:   "an extension before the start",
			events: []tournament.ClockEvent{extend(11, 60, at(-2, 0)), ev(tournament.ClockStart, at(0, 0))}, now: at(1, 0),
			state: tournament.ClockRunning, deadline: at(7, 0), remaining: 6 * time.Minute,
			tables: [2]tableWant{{at(8, 0), 7 * time.Minute, tournament.TablePlaying}, {at(7, 0), 6 * time.Minute, tournament.TablePlaying}},
		},
		{
			name:   "events after now do not count yet",
			events: []tournament.ClockEvent{start, ev(tournament.ClockPause, at(6, 0))}, now: at(5, 0),
			state: tournament.ClockRunning, deadline: at(7, 0), remaining: 2 * time.Minute,
			tables: [2]tableWant{{at(7, 0), 2 * time.Minute, tournament.TablePlaying}, {at(7, 0), 2 * time.Minute, tournament.TablePlaying}},
		},
		{
			name:   "events in any order; a second start and a stray resume are ignored",
			events: []tournament.ClockEvent{ev(tournament.ClockResume, at(3, 0)), ev(tournament.ClockStart, at(1, 0)), start, ev(tournament.ClockPause, at(2, 0))},
			now:    at(4, 0), state: tournament.ClockRunning, deadline: at(8, 0), remaining: 4 * time.Minute,
			tables: [2]tableWant{{at(8, 0), 4 * time.Minute, tournament.TablePlaying}, {at(8, 0), 4 * time.Minute, tournament.TablePlaying}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tournament.ClockAt(tt.events, tournament.GameTime{Play: game}, tables, tt.now)
			if c.State != tt.state || !c.Deadline.Equal(tt.deadline) || c.Remaining != tt.remaining {
				t.Errorf("ClockAt() = %s, deadline %v, remaining %v; want %s, %v, %v",
					c.State, c.Deadline, c.Remaining, tt.state, tt.deadline, tt.remaining)
			}
			if len(c.Tables) != 3 || c.Tables[0].Number != 1 || c.Tables[1].Number != 2 || c.Tables[2].Number != 3 {
				t.Fatalf("ClockAt().Tables = %+v, want tables 1, 2, 3 in order", c.Tables)
			}
			for i, want := range tt.tables {
				tc := c.Tables[i]
				got := tableWant{tc.Deadline, tc.Remaining, tc.Status}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("table %d (-want +got):\n%s", tc.Number, diff)
				}
				if tc.TimeUp != (tc.Remaining == 0 && tt.state != tournament.ClockReady) {
					t.Errorf("table %d: TimeUp = %v with %v left", tc.Number, tc.TimeUp, tc.Remaining)
				}
			}
			if got := c.Tables[2].Status; got != tournament.TableFinished {
				t.Errorf("table 3 with a result: status %q, want %q", got, tournament.TableFinished)
			}
		})
	}
}

// A clock is never negative and never more than the game and the
// extensions given, whenever it is read.
func TestClockAtBounds(t *testing.T) {
	const game = 7 * time.Minute
	tables := []tournament.Table{{ID: 1, Number: 1}}
	events := []tournament.ClockEvent{
		ev(tournament.ClockStart, at(0, 0)), ev(tournament.ClockPause, at(1, 0)), ev(tournament.ClockResume, at(3, 0)),
		extend(1, 45, at(4, 0)), extend(0, 15, at(5, 0)),
	}
	prev := game
	for s := 0; s <= 15*60; s += 7 {
		c := tournament.ClockAt(events, tournament.GameTime{Play: game}, tables, at(0, s))
		left := c.Tables[0].Remaining
		// Only an extension (at 4:00 and 5:00) gives time back.
		extended := (s-7 < 240 && s >= 240) || (s-7 < 300 && s >= 300)
		if left < 0 || left > game+time.Minute || (left > prev && !extended) {
			t.Fatalf("at %ds: table 1 has %v left (before: %v)", s, left, prev)
		}
		prev = left
	}
	if prev != 0 {
		t.Errorf("after 15 minutes table 1 has %v left, want 0", prev)
	}
}

func TestClockActions(t *testing.T) {
	c := newClockConsole(t)
	tour, _ := c.SetUp(8, 3)
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	act, refused := clockActions(t, c, tour.ID, 1)
	refused("pause before the start", tournament.ClockInput{Action: tournament.ClockPause}, "clock-not-running")
	refused("resume before the start", tournament.ClockInput{Action: tournament.ClockResume}, "clock-not-paused")
	refused("an unknown action", tournament.ClockInput{Action: "stop"}, "clock-action")

	clk := must(act(tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	if clk.State != tournament.ClockRunning || !clk.Deadline.Equal(at(7, 0)) {
		t.Fatalf("after the start: %s, deadline %v; want running, %v", clk.State, clk.Deadline, at(7, 0))
	}
	refused("a second start", tournament.ClockInput{Action: tournament.ClockStart}, "clock-started")
	refused("resume while running", tournament.ClockInput{Action: tournament.ClockResume}, "clock-not-paused")
	refused("an extension without a reason", tournament.ClockInput{Action: tournament.ClockExtend, Table: 1, Seconds: 60}, "extension-reason")
	refused("an extension of 0 seconds", tournament.ClockInput{Action: tournament.ClockExtend, Table: 1, Reason: "ruling"}, "extension-seconds")
	refused("an extension of two hours", tournament.ClockInput{Action: tournament.ClockExtend, Table: 1, Seconds: 7200, Reason: "ruling"}, "extension-seconds")
	refused("an extension of a table that is not there", tournament.ClockInput{Action: tournament.ClockExtend, Table: 9, Seconds: 60, Reason: "ruling"}, "clock-no-table")

	c.At = at(2, 0)
	clk = must(act(tournament.ClockInput{Action: tournament.ClockExtend, Table: 2, Seconds: 90, Reason: "  long ruling "})).OK(t)
	if tc, _ := clk.Table(2); !tc.Deadline.Equal(at(8, 30)) || tc.Extension != 90*time.Second {
		t.Errorf("table 2 after its extension: deadline %v, extension %v; want %v, 1m30s", tc.Deadline, tc.Extension, at(8, 30))
	}
	c.At = at(3, 0)
	must(act(tournament.ClockInput{Action: tournament.ClockPause})).OK(t)
	refused("pause while paused", tournament.ClockInput{Action: tournament.ClockPause}, "clock-not-running")
	c.At = at(5, 0)
	must(act(tournament.ClockInput{Action: tournament.ClockResume})).OK(t)

	// Later, another read of the same facts: the pause shifted every deadline by 2 minutes.
	c.At = at(9, 10)
	clk = must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Timer
	t1, _ := clk.Table(1)
	t2, _ := clk.Table(2)
	if clk.State != tournament.ClockRunning || !t1.Deadline.Equal(at(9, 0)) || t1.Status != tournament.TableOver ||
		!t2.Deadline.Equal(at(10, 30)) || t2.Remaining != 80*time.Second {
		t.Errorf("at 9:10: %s; table 1 %v %s; table 2 %v, %v left; want running, 1 over at %v, 2 with 1m20s to %v",
			clk.State, t1.Deadline, t1.Status, t2.Deadline, t2.Remaining, at(9, 0), at(10, 30))
	}
	refused("an extension after the table's signal", tournament.ClockInput{Action: tournament.ClockExtend, Table: 1, Seconds: 60, Reason: "late"}, "extension-time-up")
	refused("the whole round's extension after its signal", tournament.ClockInput{Action: tournament.ClockExtend, Seconds: 60, Reason: "late"}, "clock-over")

	// The facts, as recorded: who, when, why, and in the audit log.
	r := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t)
	var kinds []string
	for _, e := range r.Clock {
		kinds = append(kinds, e.Kind)
		if e.Judge != "judge-a" {
			t.Errorf("clock event %s by %q, want judge-a", e.Kind, e.Judge)
		}
	}
	if diff := cmp.Diff([]string{"start", "extend", "pause", "resume"}, kinds); diff != "" {
		t.Errorf("clock events (-want +got):\n%s", diff)
	}
	if e := r.Clock[1]; e.Reason != "long ruling" || e.Seconds != 90 || e.TableID != r.Round.Tables[1].ID {
		t.Errorf("extension recorded as %+v, want 90 s at table 2 for \"long ruling\"", e)
	}
	if r.Timer.State != tournament.ClockRunning || r.Tables[0].Clock.Status != tournament.TableOver {
		t.Errorf("RoundView: clock %s, table 1 %s; want running, over", r.Timer.State, r.Tables[0].Clock.Status)
	}
	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	if log[0].Action != "clock.resume" || log[2].Action != "clock.extend" || log[2].Subject != "round 1 table 2" {
		t.Errorf("audit log starts %s, %s, %s (%s); want clock.resume, clock.pause, clock.extend (round 1 table 2)",
			log[0].Action, log[1].Action, log[2].Action, log[2].Subject)
	}
}

// §12: anything done after the time signal does not count, so a declared
// win recorded after the table's deadline needs the judge's confirmation.
func TestLateDeclaration(t *testing.T) {
	c := newClockConsole(t)
	tour, _ := c.SetUp(12, 3)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	sheet := func(table int, declared int, late string) tournament.ResultInput {
		in := tournament.ResultInput{LateReason: late}
		for i, p := range r.Tables[table-1].Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{10, 6, 5, 4}[i]})
		}
		if declared >= 0 {
			in.Declared = r.Tables[table-1].Players[declared]
		}
		return in
	}
	save := func(table int, in tournament.ResultInput) (tournament.TableResult, error) {
		return c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, table, in)
	}

	// Before the clock starts, and before the signal, a declaration is saved as ever.
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	c.At = at(6, 59)
	if res := must(save(1, sheet(1, 0, ""))).OK(t); res.Result.LateReason != "" || res.Result.EndedBy != tournament.EndedByDeclaration {
		t.Errorf("a declaration in time: %+v", res.Result)
	}

	c.At = at(7, 1)
	_, err := save(2, sheet(2, 0, ""))
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != "declared-after-time" || !errors.Is(err, tournament.ErrInvalid) {
		t.Fatalf("a declaration after the signal: error = %v, want the violation declared-after-time", err)
	}
	if v.Args["Table"] != 2 || v.Args["Deadline"] == "" {
		t.Errorf("declared-after-time args = %v, want the table and its deadline", v.Args)
	}
	if rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); rv.Tables[1].Result != nil {
		t.Fatalf("the refused declaration was saved: %+v", rv.Tables[1].Result)
	}
	// A game ended by time needs no confirmation.
	must(save(3, sheet(3, -1, ""))).OK(t)
	// The judge confirms the declaration came before the signal: saved, with the reason.
	res := must(save(2, sheet(2, 0, " declared as the bell rang "))).OK(t)
	if res.Result.LateReason != "declared as the bell rang" || res.Result.EndedBy != tournament.EndedByDeclaration {
		t.Errorf("the confirmed declaration: %+v, want the reason recorded", res.Result)
	}
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 2)).OK(t)
	if len(revs) != 1 || revs[0].LateReason != "declared as the bell rang" {
		t.Errorf("revisions of table 2 = %+v, want the late reason stored", revs)
	}
	// A correction that keeps the declared winner of table 1 (declared in time) needs no confirmation;
	// one that names another winner does.
	fix := sheet(1, 0, "")
	fix.Version, fix.Reason = 1, "VP typo"
	fix.Scores[1].VP = 7
	must(save(1, fix)).OK(t)
	other := sheet(1, 1, "")
	other.Version, other.Reason = 2, "wrong winner"
	other.Scores[0].VP, other.Scores[1].VP = 6, 10
	if _, err := save(1, other); !errors.As(err, &v) || v.Code != "declared-after-time" {
		t.Errorf("a new winner after the signal: error = %v, want declared-after-time", err)
	}
	// Every table has its result: the round is over (issue 24).
	if rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); rv.Timer.State != tournament.ClockDone {
		t.Errorf("with every table's result in, the clock is %s, want done", rv.Timer.State)
	}
}

// docs/rules.md §12: a game ends only by a declaration or by the time signal,
// so a result ended by time is accepted once the table's time is up; before
// that (the clock not started, or 6 minutes left) it needs the judge's
// reason, recorded with the result like a late declaration.
func TestEndedByTimeBeforeTheSignal(t *testing.T) {
	c := newClockConsole(t)
	tour, _ := c.SetUp(12, 3)
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	sheet := func(table int, reason string) tournament.ResultInput {
		in := tournament.ResultInput{Reason: reason}
		for i, p := range r.Tables[table-1].Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{9, 6, 5, 4}[i]})
		}
		return in
	}
	save := func(table int, in tournament.ResultInput) (tournament.TableResult, error) {
		return c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, table, in)
	}
	early := func(name string, table int, in tournament.ResultInput, started bool, left string) {
		t.Helper()
		_, err := save(table, in)
		var v *referee.Violation
		if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != "ended-by-time-early" {
			t.Fatalf("%s: SaveResult error = %v, want the violation ended-by-time-early", name, err)
		}
		if v.Args["Started"] != started || v.Args["Left"] != left || v.Args["Table"] != table {
			t.Errorf("%s: ended-by-time-early args = %v, want Started %v, Left %q, Table %d", name, v.Args, started, left, table)
		}
		if _, err := c.Svc.PreviewResult(c.Ctx, tour.ID, 1, table, in); !errors.As(err, &v) || v.Code != "ended-by-time-early" {
			t.Errorf("%s: PreviewResult error = %v, want ended-by-time-early as saving", name, err)
		}
	}

	early("the clock never started", 1, sheet(1, ""), false, "")
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	c.At = at(1, 0)
	early("6 minutes left", 1, sheet(1, "  "), true, "6:00")
	if rv := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t); rv.Tables[0].Result != nil {
		t.Fatalf("the refused result was saved: %+v", rv.Tables[0].Result)
	}

	// The judge ended the game: saved, with the reason, marked early.
	res := must(save(1, sheet(1, " 失格のため終了 "))).OK(t)
	if !res.Result.EndedEarly || res.Result.Reason != "失格のため終了" || res.Result.EndedBy != tournament.EndedByTime {
		t.Errorf("the judge's early end: %+v, want ended by time, early, with the reason", res.Result)
	}
	revs := must(c.Svc.Revisions(c.Ctx, tour.ID, 1, 1)).OK(t)
	if len(revs) != 1 || !revs[0].EndedEarly || revs[0].Reason != "失格のため終了" {
		t.Errorf("revisions of table 1 = %+v, want the early end and its reason stored", revs)
	}
	// A correction that keeps the end by time was checked then.
	fix := sheet(1, "VP typo")
	fix.Version = 1
	fix.Scores[1].VP = 7
	if res := must(save(1, fix)).OK(t); !res.Result.EndedEarly {
		t.Errorf("a correction of the early end: %+v, want it still marked early", res.Result)
	}

	// At the signal, time ends the game: no reason asked, nothing early.
	c.At = at(7, 0)
	if res := must(save(2, sheet(2, ""))).OK(t); res.Result.EndedEarly || res.Result.Reason != "" {
		t.Errorf("a game ended at the signal: %+v, want no early end and no reason", res.Result)
	}
	// An extended table's own time is what counts.
	c.At = at(6, 0)
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockExtend, Table: 3, Seconds: 120, Reason: "ruling"})).OK(t)
	c.At = at(7, 30)
	early("an extended table", 3, sheet(3, ""), true, "1:30")
	c.At = at(9, 0)
	must(save(3, sheet(3, ""))).OK(t)
}

// The store keeps the facts the clock is computed from; reopening the
// database (a restart, a power cut) computes the same clock.
func TestClockSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	rulesets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	open := func(now *time.Time) (*store.Store, *tournament.Service) {
		dsn, err := store.FileDSN(dir)
		if err != nil {
			t.Fatal(err)
		}
		st, err := store.Open(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		return st, tournament.NewService(st, rulesets, func() time.Time { return *now })
	}
	now := t0
	st, svc := open(&now)
	tour := must(svc.CreateTournament(t.Context(), "judge-a", tournament.TournamentInput{Name: "x", Rounds: 2, GameMinutes: 10})).OK(t)
	for _, nm := range names[:4] {
		p := must(svc.AddPlayer(t.Context(), "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name})).OK(t)
		must(svc.CheckIn(t.Context(), "judge-a", p.TournamentID, p.ID, true)).OK(t)
	}
	must(svc.PairNextRound(t.Context(), "judge-a", tour.ID)).OK(t)
	must(svc.ClockAction(t.Context(), "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	now = at(3, 0)
	must(svc.ClockAction(t.Context(), "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockPause})).OK(t)
	st.Close()

	// The server is down for an hour, in the middle of the pause.
	now = at(63, 0)
	st, svc = open(&now)
	defer st.Close()
	clk := must(svc.RoundView(t.Context(), tour.ID, 1)).OK(t).Timer
	if clk.State != tournament.ClockPaused || clk.Remaining != 7*time.Minute {
		t.Errorf("after the restart: %s with %v left, want paused with 7m0s", clk.State, clk.Remaining)
	}
	must(svc.ClockAction(t.Context(), "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockResume})).OK(t)
	now = at(64, 0)
	if clk = must(svc.RoundView(t.Context(), tour.ID, 1)).OK(t).Timer; clk.Remaining != 6*time.Minute || !clk.Deadline.Equal(at(70, 0)) {
		t.Errorf("a minute after resuming: %v left to %v, want 6m0s to %v", clk.Remaining, clk.Deadline, at(70, 0))
	}
}

// A judge closes the tournament once every table has its result: the
// standings are final, the clock stops, and every later change is refused
// until a judge reopens it, with a reason; both are audited.
func TestCloseAndReopen(t *testing.T) {
	c := newClockConsole(t)
	tour, ps := c.SetUp(8, 3)
	conflict := func(name string, err error, code string) {
		t.Helper()
		var v *referee.Violation
		if !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || v.Code != code {
			t.Errorf("%s: error = %v, want the conflict %s", name, err, code)
		}
	}
	if got := must(c.Svc.GetTournament(c.Ctx, tour.ID)).OK(t).State(); got != tournament.StateSetup {
		t.Errorf("state before round 1 = %s, want setup", got)
	}
	_, err := c.Svc.CloseTournament(c.Ctx, "judge-a", tour.ID)
	conflict("close before round 1", err, "tournament-not-started")

	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if got := must(c.Svc.GetTournament(c.Ctx, tour.ID)).OK(t).State(); got != tournament.StateRunning {
		t.Errorf("state after pairing = %s, want running", got)
	}
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	save := func(table int) {
		t.Helper()
		in := tournament.ResultInput{Declared: r.Tables[table-1].Players[0]}
		for i, p := range r.Tables[table-1].Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{10, 7, 5, 4}[i]})
		}
		must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, table, in)).OK(t)
	}
	c.At = at(2, 0)
	save(1)
	_, err = c.Svc.CloseTournament(c.Ctx, "judge-a", tour.ID)
	conflict("close with table 2 unrecorded", err, "close-results-missing")
	c.At = at(3, 0)
	save(2)

	// Closed after round 1 of 3 (the organizer ends the event): final.
	closed := must(c.Svc.CloseTournament(c.Ctx, "judge-b", tour.ID)).OK(t)
	if closed.State() != tournament.StateFinished || closed.Closed.Judge != "judge-b" || !closed.Closed.At.Equal(at(3, 0)) {
		t.Errorf("CloseTournament = %+v, want finished by judge-b at 3:00", closed.Closed)
	}
	c.At = at(5, 0)
	clk := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Timer
	if clk.State != tournament.ClockStopped || clk.Remaining != 4*time.Minute {
		t.Errorf("the clock two minutes after the close: %s with %v left, want stopped with the 4m0s left at the close", clk.State, clk.Remaining)
	}
	live := must(c.Svc.Live(c.Ctx, tour.ID)).OK(t)
	if live.Round.Timer.State != tournament.ClockStopped || len(live.Winners) == 0 || live.Winners[0].PlayerID != live.Standings[0].PlayerID || live.StandingsAfter != 1 {
		t.Errorf("Live after the close: clock %s, winners %+v, after round %d; want stopped, the 1st ranked, round 1",
			live.Round.Timer.State, live.Winners, live.StandingsAfter)
	}

	// Nothing changes while closed.
	fix := tournament.ResultInput{Version: 1, Reason: "typo", Declared: r.Tables[0].Players[0]}
	for i, p := range r.Tables[0].Players {
		fix.Scores = append(fix.Scores, tournament.Score{PlayerID: p, VP: []int{10, 8, 5, 4}[i]})
	}
	_, err = c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, fix)
	conflict("a correction", err, "tournament-finished")
	_, err = c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: ps[0].ID, Round: 1, Offence: "note-taking"})
	conflict("a penalty", err, "tournament-finished")
	_, err = c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)
	conflict("pairing round 2", err, "tournament-finished")
	_, err = c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockPause})
	conflict("pausing the clock", err, "tournament-finished")
	_, err = c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "遅刻"})
	conflict("a late entry", err, "tournament-finished")
	_, err = c.Svc.DropPlayer(c.Ctx, "judge-a", ps[0].TournamentID, ps[0].ID)
	conflict("a drop", err, "tournament-finished")
	_, err = c.Svc.EditTournament(c.Ctx, "judge-a", tour.ID, tournament.TournamentInput{Name: "改名", Rounds: 3})
	conflict("an edit", err, "tournament-finished")
	_, err = c.Svc.CloseTournament(c.Ctx, "judge-a", tour.ID)
	conflict("closing twice", err, "tournament-finished")
	if ok := must(c.Svc.CanPair(c.Ctx, tour.ID)).OK(t); ok {
		t.Errorf("CanPair(closed) = true, want false")
	}

	// Reopening needs a reason; then changes are taken again.
	if _, err := c.Svc.ReopenTournament(c.Ctx, "judge-a", tour.ID, "  "); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("ReopenTournament(no reason) error = %v, want ErrInvalid", err)
	}
	c.At = at(6, 0)
	reopened := must(c.Svc.ReopenTournament(c.Ctx, "judge-a", tour.ID, "成績表の訂正")).OK(t)
	if reopened.State() != tournament.StateRunning {
		t.Errorf("state after reopening = %s, want running", reopened.State())
	}
	_, err = c.Svc.ReopenTournament(c.Ctx, "judge-a", tour.ID, "again")
	conflict("reopening an open tournament", err, "tournament-open")
	must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, 1, fix)).OK(t)
	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	if log[1].Action != "tournament.reopen" || !strings.Contains(log[1].After, "成績表の訂正") || log[2].Action != "tournament.close" || log[2].Judge != "judge-b" {
		t.Errorf("audit log starts %s, %s (%s), %s; want the correction, the reopening with its reason, the close by judge-b",
			log[0].Action, log[1].Action, log[1].After, log[2].Action)
	}
}

// Mid-round, the kiosk's standings count only the complete rounds, so that
// nobody is ranked on two games against others' one; the live standings
// count every result so far.
func TestLiveStandingsAfterCompleteRounds(t *testing.T) {
	c := newClockConsole(t)
	tour, _ := c.SetUp(8, 3)
	save := func(r tournament.Round, table int) {
		t.Helper()
		in := tournament.ResultInput{Declared: r.Tables[table-1].Players[0]}
		for i, p := range r.Tables[table-1].Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{10, 7, 5, 4}[i]})
		}
		must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, r.Number, table, in)).OK(t)
	}
	r1 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	save(r1, 1)
	live := must(c.Svc.Live(c.Ctx, tour.ID)).OK(t)
	if live.StandingsAfter != 0 || played(live.Standings) != 0 || played(live.LiveStandings) != 4 {
		t.Errorf("round 1 half recorded: after %d rounds, %d and %d games counted; want 0 rounds, 0 games, 4 live",
			live.StandingsAfter, played(live.Standings), played(live.LiveStandings))
	}
	save(r1, 2)
	r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	save(r2, 1)
	live = must(c.Svc.Live(c.Ctx, tour.ID)).OK(t)
	if live.StandingsAfter != 1 || played(live.Standings) != 8 || played(live.LiveStandings) != 12 {
		t.Errorf("round 2 half recorded: after %d rounds, %d and %d games counted; want 1 round, 8 games, 12 live",
			live.StandingsAfter, played(live.Standings), played(live.LiveStandings))
	}
	if live.Winners != nil {
		t.Errorf("winners of a running tournament = %+v, want none", live.Winners)
	}
}

// played sums the games the standings count.
func played(st []tournament.Standing) int {
	n := 0
	for _, s := range st {
		n += s.Played
	}
	return n
}

// Under a ruleset with a placement phase the time signal comes after every
// phase (national rules): a table's placements, then the play time, then
// its extensions. A result ended by time before then needs the judge's
// reason, as TestEndedByTimeBeforeTheSignal; a final table past its game
// time plays on under the turn limit until the end the judge sets.
func TestEndedByTimeAfterEveryPhase(t *testing.T) {
	c := newClockConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "地区予選", Ruleset: "national-2025", Rounds: 3})).OK(t)
	for _, nm := range names[:7] {
		p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name, Kana: nm.Kana})).OK(t)
		must(c.Svc.CheckIn(c.Ctx, "judge-a", p.TournamentID, p.ID, true)).OK(t)
	}
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	four, three := r.Tables[0], r.Tables[1]
	if len(four.Players) != 4 || len(three.Players) != 3 {
		t.Fatalf("tables of %d and %d players, want 4 and 3", len(four.Players), len(three.Players))
	}
	sheet := func(tb tournament.Table) tournament.ResultInput {
		var in tournament.ResultInput
		for i, p := range tb.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: []int{9, 6, 5, 4}[i]})
		}
		return in
	}
	early := func(name string, tb tournament.Table, left string) {
		t.Helper()
		_, err := c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, tb.Number, sheet(tb))
		var v *referee.Violation
		if !errors.As(err, &v) || v.Code != "ended-by-time-early" || v.Args["Left"] != left {
			t.Errorf("%s: SaveResult error = %v, want ended-by-time-early with %s left", name, err, left)
		}
	}
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	// 60 minutes is the play time alone: the placements are still owed.
	c.At = at(60, 0)
	early("4 players after the play time", four, "8:00")
	early("3 players after the play time", three, "6:00")
	c.At = at(66, 0)
	must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, three.Number, sheet(three))).OK(t)
	early("4 players after 66 minutes", four, "2:00")
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, 1, tournament.ClockInput{Action: tournament.ClockExtend, Table: four.Number, Seconds: 120, Reason: "ruling"})).OK(t)
	c.At = at(68, 0)
	early("4 players, extended, after 68 minutes", four, "2:00")
	c.At = at(70, 0)
	if res := must(c.Svc.SaveResult(c.Ctx, "judge-a", tour.ID, 1, four.Number, sheet(four))).OK(t); res.Result.EndedEarly {
		t.Errorf("the extended table at its signal: %+v, want no early end", res.Result)
	}

	// A final table: its game time over, it plays under the turn limit.
	final := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "全国大会 決勝", Ruleset: "national-2025", Rounds: 1})).OK(t)
	var ids []int64
	for _, nm := range names[:4] {
		ids = append(ids, must(c.Svc.AddPlayer(c.Ctx, "judge-a", final.ID, tournament.PlayerInput{Name: nm.Name})).OK(t).ID)
	}
	fr := tournament.Round{TournamentID: final.ID, Number: 1, Mode: tournament.ModeFinal, PairedBy: "judge-a", PairedAt: c.At,
		Tables: []tournament.Table{{Number: 1, Players: ids}}}
	if err := c.St.AddRound(c.Ctx, &fr, tournament.Change{Judge: "judge-a", At: c.At, Action: "round.final", Subject: "final"}); err != nil {
		t.Fatal(err)
	}
	c.At = t0
	must(c.Svc.ClockAction(c.Ctx, "judge-a", final.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	c.At = at(70, 0)
	in := sheet(fr.Tables[0])
	_, err := c.Svc.SaveResult(c.Ctx, "judge-a", final.ID, 1, 1, in)
	var v *referee.Violation
	if !errors.As(err, &v) || v.Code != "ended-by-time-early" || v.Args["TurnLimit"] != true || v.Args["Left"] != "" {
		t.Errorf("a final table under the turn limit: SaveResult error = %v, want ended-by-time-early under the turn limit", err)
	}
	must(c.Svc.ClockAction(c.Ctx, "judge-a", final.ID, 1, tournament.ClockInput{Action: tournament.ClockEnd, Table: 1, Seconds: 300})).OK(t)
	c.At = at(75, 0)
	if res := must(c.Svc.SaveResult(c.Ctx, "judge-a", final.ID, 1, 1, in)).OK(t); res.Result.EndedEarly {
		t.Errorf("the final table at the end the judge set: %+v, want no early end", res.Result)
	}
}
