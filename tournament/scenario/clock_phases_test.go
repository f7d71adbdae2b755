package scenario_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
)

// national is the national rules' game time: one minute per settlement,
// then 60 minutes of play.
var national = tournament.GameTime{PerSettlement: time.Minute, Play: 60 * time.Minute}

// placing is where a count of the clock stands in the placement phase.
func placing(k, of int, left time.Duration) tournament.Phase {
	return tournament.Phase{Phase: tournament.PhasePlacement, Placement: k, Placements: of, PhaseLeft: left}
}

func playing(left time.Duration) tournament.Phase {
	return tournament.Phase{Phase: tournament.PhasePlay, PhaseLeft: left}
}

// The national rules' clock: placement paced one minute per settlement (8
// at a 4-player table, 6 at a 3-player one), then the play time; pauses
// and extensions work in each phase.
func TestClockPhases(t *testing.T) {
	// Table 1 (ID 11) has 4 players, table 2 (ID 12) has 3.
	tables := []tournament.Table{
		{ID: 11, Number: 1, Players: []int64{1, 2, 3, 4}},
		{ID: 12, Number: 2, Players: []int64{5, 6, 7}},
	}
	start := ev(tournament.ClockStart, at(0, 0))
	tests := []struct {
		name      string
		events    []tournament.ClockEvent
		now       time.Time
		round     tournament.Phase
		remaining time.Duration // the round's, every phase
		tables    [2]tournament.Phase
		left      [2]time.Duration // each table's, every phase
	}{
		{
			name: "ready: the first placement, 68 and 66 minutes", now: at(0, 0),
			round: placing(1, 8, time.Minute), remaining: 68 * time.Minute,
			tables: [2]tournament.Phase{placing(1, 8, time.Minute), placing(1, 6, time.Minute)},
			left:   [2]time.Duration{68 * time.Minute, 66 * time.Minute},
		},
		{
			name: "配置 5/8・残り0:41", events: []tournament.ClockEvent{start}, now: at(4, 19),
			round: placing(5, 8, 41*time.Second), remaining: 63*time.Minute + 41*time.Second,
			tables: [2]tournament.Phase{placing(5, 8, 41*time.Second), placing(5, 6, 41*time.Second)},
			left:   [2]time.Duration{63*time.Minute + 41*time.Second, 61*time.Minute + 41*time.Second},
		},
		{
			name: "the 3-player table plays after its 6 placements", events: []tournament.ClockEvent{start}, now: at(6, 30),
			round: placing(7, 8, 30*time.Second), remaining: 61*time.Minute + 30*time.Second,
			tables: [2]tournament.Phase{placing(7, 8, 30*time.Second), playing(59*time.Minute + 30*time.Second)},
			left:   [2]time.Duration{61*time.Minute + 30*time.Second, 59*time.Minute + 30*time.Second},
		},
		{
			name: "a placement's minute ends: the next begins", events: []tournament.ClockEvent{start}, now: at(7, 0),
			round: placing(8, 8, time.Minute), remaining: 61 * time.Minute,
			tables: [2]tournament.Phase{placing(8, 8, time.Minute), playing(59 * time.Minute)},
			left:   [2]time.Duration{61 * time.Minute, 59 * time.Minute},
		},
		{
			name: "play after 8 minutes", events: []tournament.ClockEvent{start}, now: at(8, 0),
			round: playing(60 * time.Minute), remaining: 60 * time.Minute,
			tables: [2]tournament.Phase{playing(60 * time.Minute), playing(58 * time.Minute)},
			left:   [2]time.Duration{60 * time.Minute, 58 * time.Minute},
		},
		{
			name:   "a pause in the placement holds the placement's time",
			events: []tournament.ClockEvent{start, ev(tournament.ClockPause, at(4, 30)), ev(tournament.ClockResume, at(6, 30))}, now: at(7, 0),
			round: placing(6, 8, time.Minute), remaining: 63 * time.Minute,
			tables: [2]tournament.Phase{placing(6, 8, time.Minute), placing(6, 6, time.Minute)},
			left:   [2]time.Duration{63 * time.Minute, 61 * time.Minute},
		},
		{
			name:   "a table's extension lengthens the placement a ruling interrupted",
			events: []tournament.ClockEvent{start, extend(11, 90, at(4, 10))}, now: at(5, 30),
			round: placing(6, 8, 30*time.Second), remaining: 62*time.Minute + 30*time.Second,
			tables: [2]tournament.Phase{placing(5, 8, time.Minute), placing(6, 6, 30*time.Second)},
			left:   [2]time.Duration{64 * time.Minute, 60*time.Minute + 30*time.Second},
		},
		{
			name:   "the round's extension in the play time",
			events: []tournament.ClockEvent{start, extend(0, 120, at(20, 0))}, now: at(30, 0),
			round: playing(40 * time.Minute), remaining: 40 * time.Minute,
			tables: [2]tournament.Phase{playing(40 * time.Minute), playing(38 * time.Minute)},
			left:   [2]time.Duration{40 * time.Minute, 38 * time.Minute},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tournament.ClockAt(tt.events, national, tables, tt.now)
			if diff := cmp.Diff(tt.round, c.Phase); diff != "" {
				t.Errorf("round phase (-want +got):\n%s", diff)
			}
			if c.Remaining != tt.remaining || c.GameLength != 68*time.Minute {
				t.Errorf("round: %v left of %v, want %v of 68m0s", c.Remaining, c.GameLength, tt.remaining)
			}
			for i, tc := range c.Tables {
				if diff := cmp.Diff(tt.tables[i], tc.Phase); diff != "" {
					t.Errorf("table %d phase (-want +got):\n%s", tc.Number, diff)
				}
				if tc.Remaining != tt.left[i] || tc.Turns != nil {
					t.Errorf("table %d: %v left, turns %+v; want %v and no turn limit", tc.Number, tc.Remaining, tc.Turns, tt.left[i])
				}
			}
		})
	}
	// Every table's time is up at its own signal: 66 and 68 minutes.
	c := tournament.ClockAt([]tournament.ClockEvent{start}, national, tables, at(67, 0))
	if t1, t2 := c.Tables[0], c.Tables[1]; t1.Status != tournament.TablePlaying || t2.Status != tournament.TableOver || !t2.Deadline.Equal(at(66, 0)) {
		t.Errorf("at 67:00: table 1 %s, table 2 %s (signal %v); want playing, over at %v", t1.Status, t2.Status, t2.Deadline, at(66, 0))
	}
}

// A final table's turn limit after its game time: the countdown of each
// turn from when the judge names whose it is (issue 24: the time to find
// out counts as no one's turn), passes, overruns, a pause, and the end the
// judge sets.
func TestClockTurnLimit(t *testing.T) {
	g := tournament.GameTime{Play: 10 * time.Minute, TurnLimit: 2 * time.Minute, EndNotice: 10 * time.Minute}
	// Play order: 3, 1, 4, 2.
	final := tournament.Table{ID: 21, Number: 1, Players: []int64{1, 2, 3, 4}, Seating: &tournament.Seating{Seats: []tournament.Seat{
		{PlayerID: 1, Order: 2}, {PlayerID: 3, Order: 1}, {PlayerID: 2, Order: 4}, {PlayerID: 4, Order: 3},
	}}}
	turn := func(player int64, when time.Time) tournament.ClockEvent {
		return tournament.ClockEvent{Kind: tournament.ClockTurn, TableID: 21, PlayerID: player, At: when}
	}
	events := []tournament.ClockEvent{
		ev(tournament.ClockStart, at(0, 0)),
		turn(4, at(12, 40)), // the judge names whose turn is under way: player 4's, the 1st
		turn(0, at(13, 40)), // the next in play order: player 2
		ev(tournament.ClockPause, at(14, 0)), ev(tournament.ClockResume, at(15, 0)),
		turn(0, at(17, 0)), // player 2's turn took 20 s + 2:00 after the pause: 20 s over; player 3's turn
		{Kind: tournament.ClockEnd, TableID: 21, Seconds: 15 * 60, At: at(17, 0)},
	}
	tests := []struct {
		name   string
		now    time.Time
		status string
		turns  *tournament.TurnClock
		state  string
	}{
		{name: "in the game time", now: at(9, 0), status: tournament.TablePlaying, state: tournament.ClockRunning},
		{name: "the game time over, whose turn is not named: nothing counts", now: at(11, 30), status: tournament.TablePlaying, state: tournament.ClockRunning,
			turns: &tournament.TurnClock{Limit: 2 * time.Minute, Remaining: 2 * time.Minute}},
		{name: "still not named, more than a turn later: no overrun", now: at(12, 30), status: tournament.TablePlaying, state: tournament.ClockRunning,
			turns: &tournament.TurnClock{Limit: 2 * time.Minute, Remaining: 2 * time.Minute}},
		{name: "named: the 1st turn counts from then", now: at(13, 0), status: tournament.TablePlaying, state: tournament.ClockRunning,
			turns: &tournament.TurnClock{Limit: 2 * time.Minute, Turn: 1, Player: 4, Next: 2, Started: at(12, 40), Remaining: 100 * time.Second}},
		{name: "a pause holds the turn's countdown", now: at(14, 30), status: tournament.TablePlaying, state: tournament.ClockPaused,
			turns: &tournament.TurnClock{Limit: 2 * time.Minute, Turn: 2, Player: 2, Next: 3, Started: at(13, 40), Remaining: 100 * time.Second}},
		{name: "the end is set and announced", now: at(17, 30), status: tournament.TablePlaying, state: tournament.ClockRunning,
			turns: &tournament.TurnClock{Limit: 2 * time.Minute, Turn: 3, Player: 3, Next: 1, Started: at(17, 0), Remaining: 90 * time.Second,
				Overruns: []tournament.Overrun{{Turn: 2, Player: 2, By: 20 * time.Second}},
				End:      at(32, 0), EndLeft: 14*time.Minute + 30*time.Second}},
		{name: "ten minutes before the end", now: at(22, 0), status: tournament.TablePlaying, state: tournament.ClockRunning,
			turns: &tournament.TurnClock{Limit: 2 * time.Minute, Turn: 3, Player: 3, Next: 1, Started: at(17, 0), Over: 3 * time.Minute,
				Overruns: []tournament.Overrun{{Turn: 2, Player: 2, By: 20 * time.Second}},
				End:      at(32, 0), EndLeft: 10 * time.Minute, Announce: true}},
		{name: "the end", now: at(32, 0), status: tournament.TableOver, state: tournament.ClockOver,
			turns: &tournament.TurnClock{Limit: 2 * time.Minute, Turn: 3, Player: 3, Next: 1, Started: at(17, 0), Over: 13 * time.Minute,
				Overruns: []tournament.Overrun{{Turn: 2, Player: 2, By: 20 * time.Second}},
				End:      at(32, 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tournament.ClockAt(events, g, []tournament.Table{final}, tt.now)
			tc := c.Tables[0]
			if tc.Status != tt.status || c.State != tt.state || tc.TimeUp != (tt.status == tournament.TableOver) {
				t.Errorf("table %s (time up %v), clock %s; want %s, %s", tc.Status, tc.TimeUp, c.State, tt.status, tt.state)
			}
			if diff := cmp.Diff(tt.turns, tc.Turns); diff != "" {
				t.Errorf("turns (-want +got):\n%s", diff)
			}
			if tt.turns != nil && tc.Phase.Phase != tournament.PhaseTurns {
				t.Errorf("phase %q, want %q", tc.Phase.Phase, tournament.PhaseTurns)
			}
		})
	}
	// Outside a final (no turn limit) the same table's game ends at its signal.
	c := tournament.ClockAt(events[:1], tournament.GameTime{Play: 10 * time.Minute}, []tournament.Table{final}, at(11, 0))
	if tc := c.Tables[0]; tc.Status != tournament.TableOver || tc.Turns != nil {
		t.Errorf("without a turn limit: %s, turns %+v; want over, none", tc.Status, tc.Turns)
	}
}

// The national rules' phased clock across restarts: the placement phase,
// the play time, then a final table's turn limit, each read again from
// the stored facts after the database is reopened.
func TestPhasedClockSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	rulesets, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	var st *store.Store
	var svc *tournament.Service
	reopen := func() {
		t.Helper()
		if st != nil {
			st.Close()
		}
		dsn, err := store.FileDSN(dir)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = store.Open(t.Context(), dsn); err != nil {
			t.Fatal(err)
		}
		svc = tournament.NewService(st, rulesets, func() time.Time { return now })
	}
	reopen()
	defer func() { st.Close() }()
	tour := must(svc.CreateTournament(t.Context(), "judge-a", tournament.TournamentInput{Name: "全国大会 決勝", Ruleset: "national-2025", Rounds: 1})).OK(t)
	for _, nm := range names[:4] {
		must(svc.AddPlayer(t.Context(), "judge-a", tour.ID, tournament.PlayerInput{Name: nm.Name, CheckedIn: true})).OK(t)
	}
	// One qualifying round, then the final table the judge makes.
	q := must(svc.PairNextRound(t.Context(), "judge-a", tour.ID)).OK(t)
	in := tournament.ResultInput{Declared: q.Tables[0].Players[0]}
	for i, id := range q.Tables[0].Players {
		in.Scores = append(in.Scores, tournament.Score{PlayerID: id, VP: []int{10, 8, 6, 4}[i]})
	}
	must(svc.SaveResult(t.Context(), "judge-a", tour.ID, 1, 1, in)).OK(t)
	r := must(svc.MakeFinal(t.Context(), "judge-a", tour.ID)).OK(t)
	ids := r.Tables[0].Players
	act := func(in tournament.ClockInput) error {
		_, err := svc.ClockAction(t.Context(), "judge-a", tour.ID, r.Number, in)
		return err
	}
	table := func() tournament.TableClock {
		t.Helper()
		clk := must(svc.RoundView(t.Context(), tour.ID, r.Number)).OK(t).Timer
		tc, _ := clk.Table(1)
		return tc
	}
	code := func(err error) string {
		var v *referee.Violation
		if errors.As(err, &v) {
			return v.Code
		}
		return ""
	}

	must(0, act(tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
	if err := act(tournament.ClockInput{Action: tournament.ClockTurn, Table: 1, Player: ids[0]}); code(err) != "turn-limit-not-running" {
		t.Errorf("a pass in the placement phase: %v, want turn-limit-not-running", err)
	}
	now = at(4, 19)
	reopen()
	if tc := table(); tc.Phase != placing(5, 8, 41*time.Second) {
		t.Errorf("after a restart at 4:19: %+v, want 配置 5/8・残り0:41", tc.Phase)
	}
	now = at(30, 0)
	must(0, act(tournament.ClockInput{Action: tournament.ClockPause})).OK(t)
	now = at(45, 0) // down for a quarter of an hour, mid-pause
	reopen()
	must(0, act(tournament.ClockInput{Action: tournament.ClockResume})).OK(t)
	now = at(46, 0)
	if tc := table(); tc.Phase != playing(37*time.Minute) || !tc.Deadline.Equal(at(83, 0)) {
		t.Errorf("after the pause: %+v to %v, want play with 37m0s to %v", tc.Phase, tc.Deadline, at(83, 0))
	}
	if err := act(tournament.ClockInput{Action: tournament.ClockEnd, Table: 1, Seconds: 600}); code(err) != "turn-limit-not-running" {
		t.Errorf("an end in the play time: %v, want turn-limit-not-running", err)
	}

	// 68 minutes of game time (plus the pause): the turn limit.
	now = at(84, 0)
	if tc := table(); tc.Turns == nil || tc.Turns.Turn != 0 || tc.Turns.Remaining != 2*time.Minute || tc.Status != tournament.TablePlaying {
		t.Fatalf("a minute after the game time: %s, turns %+v; want playing, whose turn not named yet, nothing counted", tc.Status, tc.Turns)
	}
	if err := act(tournament.ClockInput{Action: tournament.ClockTurn, Table: 1}); code(err) != "turn-player-needed" {
		t.Errorf("a pass naming nobody while the turn's player is not known: %v, want turn-player-needed", err)
	}
	if err := act(tournament.ClockInput{Action: tournament.ClockTurn, Table: 1, Player: 999}); code(err) != "turn-player-not-at-table" {
		t.Errorf("a pass to a stranger: %v, want turn-player-not-at-table", err)
	}
	if err := act(tournament.ClockInput{Action: tournament.ClockExtend, Table: 1, Seconds: 60, Reason: "ruling"}); code(err) != "extension-turn-limit" {
		t.Errorf("an extension under the turn limit: %v, want extension-turn-limit", err)
	}
	now = at(85, 30)
	must(0, act(tournament.ClockInput{Action: tournament.ClockTurn, Table: 1, Player: ids[2]})).OK(t)
	now = at(86, 0)
	must(0, act(tournament.ClockInput{Action: tournament.ClockTurn, Table: 1})).OK(t)
	must(0, act(tournament.ClockInput{Action: tournament.ClockEnd, Table: 1, Seconds: 900})).OK(t)
	reopen()
	now = at(87, 0)
	want := &tournament.TurnClock{Limit: 2 * time.Minute, Turn: 2, Player: ids[3], Next: ids[0], Started: at(86, 0), Remaining: time.Minute,
		End: at(101, 0), EndLeft: 14 * time.Minute}
	if diff := cmp.Diff(want, table().Turns); diff != "" {
		t.Errorf("after a restart under the turn limit (-want +got):\n%s", diff)
	}
	now = at(91, 0)
	if tc := table(); !tc.Turns.Announce || tc.Remaining != 10*time.Minute {
		t.Errorf("ten minutes before the end: announce %v, %v left; want the announcement", tc.Turns.Announce, tc.Remaining)
	}
	now = at(101, 0)
	reopen()
	if tc := table(); tc.Status != tournament.TableOver || !tc.TimeUp || !tc.Deadline.Equal(at(101, 0)) {
		t.Errorf("at the end: %s (time up %v, deadline %v), want over at %v", tc.Status, tc.TimeUp, tc.Deadline, at(101, 0))
	}
}
