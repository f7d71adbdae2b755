package tournament

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The kinds of ClockEvent.
const (
	ClockStart  = "start"  // the judge's start signal, after set-up (§3 is not counted)
	ClockPause  = "pause"  // the whole room stops, e.g. for a judge call
	ClockResume = "resume" // the whole room plays on
	ClockExtend = "extend" // more time for one table (a long ruling) or for the whole round
	// ClockTurn passes the turn at a final table under the turn limit: the
	// turn of PlayerID begins, or of the next player in play order when 0.
	ClockTurn = "turn"
	// ClockEnd sets a final table's end: Seconds of running time from the
	// event (national rules: the judge sets an end time).
	ClockEnd = "end"
	// ClockPlacementEnd ends a table's placement phase early: its play
	// time starts at the event (placement.go). Seconds records the
	// placement time it took off, as a negative extension.
	ClockPlacementEnd = "placement-end"
)

// The states of a round's clock.
const (
	ClockReady   = "ready"   // not started
	ClockRunning = "running" // counting down
	ClockPaused  = "paused"  // stopped by the judge; no table's time passes
	ClockOver    = "over"    // time is up for the round and for every table still playing
	ClockStopped = "stopped" // the tournament is finished: the clock no longer counts
	// ClockDone says every table of the round has its result: the round is
	// over, and its clock stands where it did at the last of them.
	ClockDone = "done"
)

// The statuses of a table on the round's clock.
const (
	TableReady    = "ready"    // the clock has not started
	TablePlaying  = "playing"  // time left and no result yet
	TableFinished = "finished" // a result is recorded
	TableOver     = "over"     // time is up without a result: the game ended by time (§12)
)

// The phases of a game's time (referee.Timing).
const (
	PhasePlacement = "placement" // initial placement, paced by settlement
	PhasePlay      = "play"      // the play time (§12)
	PhaseTurns     = "turns"     // a final table after its game time: every turn limited
)

// GameTime is a game's time on the clock, phase by phase (referee.Timing):
// an initial placement paced by settlement, then the play time; and for a
// final table, a limit on every turn once that is over.
type GameTime struct {
	PerSettlement time.Duration // each settlement's placement; 0 for no placement phase
	Play          time.Duration // the play time (§12 game time)
	TurnLimit     time.Duration // each turn's limit after the game time; 0 for none
	EndNotice     time.Duration // how long before a final table's end it is announced
}

// Placements is the number of initial placements at a table of seats
// players: two settlements each (national rules: 8 at 4 players, 6 at 3);
// 0 without a placement phase.
func (g GameTime) Placements(seats int) int {
	if g.PerSettlement <= 0 {
		return 0
	}
	return 2 * seats
}

// Total is the game time of a table of seats players: every placement,
// then the play time.
func (g GameTime) Total(seats int) time.Duration {
	return time.Duration(g.Placements(seats))*g.PerSettlement + g.Play
}

// Clock is a round's clock as of one moment, computed by ClockAt from the
// recorded facts. Nothing of it is stored, so a restart of the server loses
// no time and adds none.
type Clock struct {
	State      string
	At         time.Time     // the moment the clock was computed for
	GameLength time.Duration // the game time of the round's largest table, every phase (§12)
	Extension  time.Duration // the whole round's extensions
	Started    time.Time     // the start signal; zero while ready
	// Deadline is the round's time signal: zero while ready, and while
	// paused the signal as if play resumed at At.
	Deadline  time.Time
	Remaining time.Duration // the round's time left, every phase; 0 once it is up
	Phase                   // the round's phase, paced for its largest table
	Tables    []TableClock  // by table number
}

// Phase is where a count of the clock (the round's or a table's) stands in
// the phases of the game time.
type Phase struct {
	Phase string // PhasePlacement, PhasePlay or PhaseTurns
	// Placement is the placement under way (1-based) of Placements, while
	// Phase is PhasePlacement.
	Placement, Placements int
	// PhaseLeft is the time left of the placement under way, or of the
	// play time; 0 in PhaseTurns.
	PhaseLeft time.Duration
}

// TableClock is one table's time on the round's clock: the round's time
// plus the table's own extensions.
type TableClock struct {
	TableID   int64
	Number    int
	Extension time.Duration // this table's own extensions
	// Deadline is as Clock.Deadline, for this table; under the turn limit,
	// the end the judge set, or zero before one is set.
	Deadline  time.Time
	Remaining time.Duration
	TimeUp    bool   // the table's time signal has passed
	Status    string // TableReady, TablePlaying, TableFinished or TableOver
	Phase
	Turns *TurnClock // the turn limit once a final table's game time is over; nil before
}

// TurnClock is a final table's turn limit after its game time (national
// rules: 2 minutes a turn), from the turns passed at the table.
type TurnClock struct {
	Limit time.Duration
	// Turn counts the turns limited: 0 until the judge names whose turn
	// it is, the turn under way when the game time ran out being the 1st,
	// whose limit counts from then.
	Turn int
	// Player is whose turn it is: 0 until a pass names a player (the turn
	// under way at the end of the game time is not recorded).
	Player int64
	// Next is who plays after Player in the table's play order (§3 オ),
	// whom a pass without a name gives the turn to; 0 while Player is.
	Next      int64
	Started   time.Time     // when this turn began; zero before the 1st
	Remaining time.Duration // of this turn's limit; 0 once over
	Over      time.Duration // how far this turn is past its limit
	Overruns  []Overrun     // the turns before this one that ran past the limit
	// End is the end the judge set (a deadline like Clock.Deadline); zero
	// when none is set. Announce says it is within the notice of it.
	End      time.Time
	EndLeft  time.Duration
	Announce bool
}

// Overrun is a turn that ran past the limit, for the judge.
type Overrun struct {
	Turn   int
	Player int64 // 0 when not known
	By     time.Duration
}

// Table returns the clock of the table with the given number.
func (c Clock) Table(number int) (TableClock, bool) {
	i := slices.IndexFunc(c.Tables, func(t TableClock) bool { return t.Number == number })
	if i < 0 {
		return TableClock{}, false
	}
	return c.Tables[i], true
}

// budget is the time left on one count of the clock (the round's, a
// table's, or a final table's end), phase by phase, and when it ran out.
type budget struct {
	left []time.Duration // of each phase: the placements, then the play time
	cur  int             // the phase under way
	out  bool
	at   time.Time // when the last phase reached 0
}

func newBudget(g GameTime, seats int) budget {
	n := g.Placements(seats)
	b := budget{left: make([]time.Duration, n+1)}
	for i := range n {
		b.left[i] = g.PerSettlement
	}
	b.left[n] = g.Play
	return b
}

// spend takes d of running time, from from on, and returns the part of it
// after the time ran out.
func (b *budget) spend(from time.Time, d time.Duration) time.Duration {
	for !b.out {
		left := b.left[b.cur]
		if d < left {
			b.left[b.cur] -= d
			return 0
		}
		// National rules: a placement not made in its time is skipped;
		// the next begins.
		b.left[b.cur] = 0
		d -= left
		from = from.Add(left)
		if b.cur == len(b.left)-1 {
			b.out, b.at = true, from
			break
		}
		b.cur++
	}
	return d
}

func (b *budget) extend(d time.Duration) {
	// §12: once a table's signal is given its game has ended at once; more
	// time given afterwards does not bring it back. An extension lengthens
	// the phase under way (the placement a ruling interrupted).
	if !b.out {
		b.left[b.cur] += d
	}
}

// remaining is the time left over every phase.
func (b budget) remaining() time.Duration {
	var d time.Duration
	for _, l := range b.left[b.cur:] {
		d += l
	}
	return d
}

// phase says where the count stands; placements is how many it has.
func (b budget) phase(placements int) Phase {
	switch {
	case b.out:
		return Phase{Phase: PhaseTurns}
	case b.cur < placements:
		return Phase{Phase: PhasePlacement, Placement: b.cur + 1, Placements: placements, PhaseLeft: b.left[b.cur]}
	}
	return Phase{Phase: PhasePlay, PhaseLeft: b.left[b.cur]}
}

// turnLimit is a final table's turn limit as the facts build it up.
type turnLimit struct {
	on       bool // the game time is over: turns are limited
	turn     int
	player   int64
	started  time.Time
	used     time.Duration
	overruns []Overrun
	end      *budget // the judge's end, once set
}

// ClockAt computes a round's clock at now from its recorded events, the
// game time and the round's tables. Each table has the game time of its
// size (its placements, then the play time) plus the extensions it was
// given; time passes only while the clock runs, so a pause shifts every
// deadline not yet reached, and a deadline already passed stays passed.
// When g has a turn limit (a final round), a table's game time running out
// starts its limited turns rather than ending it; it ends at the end the
// judge sets. Events after now do not count, nor do a second start, a pause
// while paused or a resume while running, which the Service never records.
// Once every table has its result the round is over (ClockDone): the clock
// stands where it did when the last result was recorded.
func ClockAt(events []ClockEvent, g GameTime, tables []Table, now time.Time) Clock {
	done, doneAt := roundDone(tables)
	if done && doneAt.Before(now) {
		now = doneAt
	}
	events = slices.Clone(events)
	slices.SortStableFunc(events, func(a, b ClockEvent) int { return a.At.Compare(b.At) })
	seats := 4 // the round's own count is paced for its largest table
	if len(tables) > 0 {
		seats = 0
		for _, t := range tables {
			seats = max(seats, len(t.Players))
		}
	}
	c := Clock{State: ClockReady, At: now, GameLength: g.Total(seats)}
	round := newBudget(g, seats)
	each := make([]budget, len(tables))
	turns := make([]turnLimit, len(tables))
	ext := make([]time.Duration, len(tables))
	for i, t := range tables {
		each[i] = newBudget(g, len(t.Players))
	}
	index := map[int64]int{}
	for i, t := range tables {
		index[t.ID] = i
	}
	started, running := false, false
	var last time.Time
	advance := func(to time.Time) {
		if running && to.After(last) {
			d := to.Sub(last)
			round.spend(last, d)
			for i := range each {
				over := each[i].spend(last, d)
				if g.TurnLimit <= 0 || !each[i].out {
					continue
				}
				tl := &turns[i]
				// National rules: after the game time every turn of a
				// final table is limited, the one under way included;
				// ruling (issue 24): its limit counts from when the judge
				// names whose turn it is (turnLimit.pass), the time taken
				// to find that out is no one's turn.
				tl.on = true
				tl.used += over
				if tl.end != nil {
					tl.end.spend(to.Add(-over), over)
				}
			}
		}
		if to.After(last) {
			last = to
		}
	}
	for _, e := range events {
		if e.At.After(now) {
			break
		}
		advance(e.At)
		switch e.Kind {
		case ClockStart:
			if !started {
				started, running, last = true, true, e.At
				c.Started = e.At
			}
		case ClockPause:
			running = false
		case ClockResume:
			running = started
		case ClockExtend:
			d := time.Duration(e.Seconds) * time.Second
			if e.TableID == 0 {
				if !round.out {
					c.Extension += d
				}
				round.extend(d)
				for i := range each {
					each[i].extend(d)
				}
			} else if i, ok := index[e.TableID]; ok {
				if !each[i].out {
					ext[i] += d
				}
				each[i].extend(d)
			}
		case ClockTurn:
			if i, ok := index[e.TableID]; ok && turns[i].on && !turns[i].ended() {
				turns[i].pass(e, g.TurnLimit, tables[i])
			}
		case ClockEnd:
			if i, ok := index[e.TableID]; ok && turns[i].on && !turns[i].ended() {
				turns[i].end = &budget{left: []time.Duration{time.Duration(e.Seconds) * time.Second}}
			}
		case ClockPlacementEnd:
			if i, ok := index[e.TableID]; ok {
				endPlacement(&round, each, i, g, seats, tables)
			}
		}
	}
	if started {
		advance(now)
	}
	c.Deadline, c.Remaining = deadline(started, round, now)
	c.Phase = round.phase(g.Placements(seats))
	playing := false
	for i, t := range tables {
		tc := TableClock{TableID: t.ID, Number: t.Number, Extension: ext[i], TimeUp: started && each[i].out}
		tc.Deadline, tc.Remaining = deadline(started, each[i], now)
		tc.Phase = each[i].phase(g.Placements(len(t.Players)))
		if tl := turns[i]; tl.on {
			tc.Turns = tl.clock(g, now)
			tc.Turns.Next = nextInOrder(t, tl.player)
			tc.TimeUp = tl.ended()
			tc.Deadline, tc.Remaining = time.Time{}, 0
			if tl.end != nil {
				tc.Deadline, tc.Remaining = tc.Turns.End, tc.Turns.EndLeft
			}
		}
		switch {
		case t.Latest() != nil:
			tc.Status = TableFinished
		case !started:
			tc.Status = TableReady
		case tc.TimeUp:
			tc.Status = TableOver
		default:
			tc.Status = TablePlaying
			playing = true
		}
		c.Tables = append(c.Tables, tc)
	}
	slices.SortFunc(c.Tables, func(a, b TableClock) int { return cmp.Compare(a.Number, b.Number) })
	switch {
	case done:
		c.State = ClockDone
	case !started:
	case round.out && !playing:
		c.State = ClockOver
	case running:
		c.State = ClockRunning
	default:
		c.State = ClockPaused
	}
	return c
}

// roundDone reports whether every table of a round has its result (the
// round is over, whatever time is left on its clock: each game ended by
// its declaration or its time signal, §11 and §12), and when the last of
// them was recorded.
func roundDone(tables []Table) (bool, time.Time) {
	var last time.Time
	for _, t := range tables {
		if t.Result == nil {
			return false, time.Time{}
		}
		at := t.ResultAt
		if at.IsZero() {
			at = t.Result.At
		}
		if at.After(last) {
			last = at
		}
	}
	return len(tables) > 0, last
}

// ended reports whether the end the judge set has come.
func (tl *turnLimit) ended() bool { return tl.end != nil && tl.end.out }

// pass ends the turn under way at e and begins the next: e's player's, or
// the next in play order after the player of the turn ending.
func (tl *turnLimit) pass(e ClockEvent, limit time.Duration, t Table) {
	if tl.turn > 0 && tl.used > limit {
		tl.overruns = append(tl.overruns, Overrun{Turn: tl.turn, Player: tl.player, By: tl.used - limit})
	}
	next := e.PlayerID
	if next == 0 {
		next = nextInOrder(t, tl.player)
	}
	tl.turn, tl.player, tl.started, tl.used = tl.turn+1, next, e.At, 0
}

// nextInOrder is the player after p in the table's play order (§3 オ), or
// its pairing order before it is seated; 0 when p is not known.
func nextInOrder(t Table, p int64) int64 {
	order := t.Players
	if t.Seating != nil {
		seats := slices.Clone(t.Seating.Seats)
		slices.SortFunc(seats, func(a, b Seat) int { return cmp.Compare(a.Order, b.Order) })
		order = make([]int64, len(seats))
		for i, s := range seats {
			order[i] = s.PlayerID
		}
	}
	i := slices.Index(order, p)
	if i < 0 {
		return 0
	}
	return order[(i+1)%len(order)]
}

// clock is the turn limit as of now.
func (tl turnLimit) clock(g GameTime, now time.Time) *TurnClock {
	tc := &TurnClock{Limit: g.TurnLimit, Turn: tl.turn, Player: tl.player, Started: tl.started,
		Overruns: slices.Clone(tl.overruns)}
	switch {
	case tl.turn == 0:
		tc.Remaining = g.TurnLimit // not counting yet
	case tl.used < g.TurnLimit:
		tc.Remaining = g.TurnLimit - tl.used
	default:
		tc.Over = tl.used - g.TurnLimit
	}
	if tl.end != nil {
		tc.End, tc.EndLeft = deadline(true, *tl.end, now)
		tc.Announce = !tl.end.out && tc.EndLeft <= g.EndNotice
	}
	return tc
}

func deadline(started bool, b budget, now time.Time) (time.Time, time.Duration) {
	switch {
	case !started:
		return time.Time{}, b.remaining()
	case b.out:
		return b.at, 0
	}
	return now.Add(b.remaining()), b.remaining()
}

// ClockInput is a judge's action on a round's clock.
type ClockInput struct {
	Action  string // ClockStart, ClockPause, ClockResume, ClockExtend, ClockTurn, ClockEnd or ClockPlacementEnd
	Table   int    // for ClockExtend: the table number, or 0 for the whole round; for ClockTurn, ClockEnd and ClockPlacementEnd, the table
	Seconds int    // for ClockExtend: the time added; for ClockEnd: the running time from now to the end
	Reason  string // for ClockExtend: why, e.g. the ruling that took the time
	Player  int64  // for ClockTurn: whose turn begins, or 0 for the next in play order
}

// maxExtension bounds one extension, and a final table's end from now:
// more is a typing slip, not a ruling.
const maxExtension = 3600

// gameTime is the game time of round r of t, phase by phase: the ruleset's
// placement phase (referee.Timing), then the play time (§12,
// t.GameMinutes); a final round's tables play on under the ruleset's turn
// limit once their game time is over.
func gameTime(t Tournament, r Round) GameTime {
	g := GameTime{
		PerSettlement: time.Duration(t.Ruleset.Timing.PlacementSeconds) * time.Second,
		Play:          time.Duration(t.GameMinutes) * time.Minute,
	}
	if r.Mode == ModeFinal {
		g.TurnLimit = time.Duration(t.Ruleset.Timing.FinalTurnSeconds) * time.Second
		g.EndNotice = time.Duration(t.Ruleset.Timing.EndNoticeMinutes) * time.Minute
	}
	return g
}

// clockAt computes the clock of round r of t at now, as ClockAt does with
// the round's game time (gameTime), over tables (the round's, or its tables
// as read for a view); once t is finished the clock stops where it stood
// when the judge closed it.
func clockAt(t Tournament, r Round, events []ClockEvent, tables []Table, now time.Time) Clock {
	if t.Closed == nil {
		return ClockAt(events, gameTime(t, r), tables, now)
	}
	if t.Closed.At.Before(now) {
		now = t.Closed.At
	}
	c := ClockAt(events, gameTime(t, r), tables, now)
	c.State = ClockStopped
	return c
}

// clockOf returns round r's clock at now from the events of the record.
func (e record) clockOf(r Round, now time.Time) Clock {
	return clockAt(e.t, r, e.clocks[r.ID], r.Tables, now)
}

// storedClock returns round r's clock at now with the events recorded for
// it, read from the store.
func (s *Service) storedClock(ctx context.Context, t Tournament, r Round, now time.Time) (Clock, []ClockEvent, error) {
	events, err := s.store.ClockEvents(ctx, r.ID)
	if err != nil {
		return Clock{}, nil, err
	}
	return clockAt(t, r, events, r.Tables, now), events, nil
}

// clockAction records the judge's start, pause, resumption or extension of
// round n's clock, and returns the clock after it. The clock starts once,
// after set-up (§3 is not counted); it pauses only while running and resumes
// only while paused; an extension needs a reason, a positive number of
// seconds and a table (or the whole round) whose time is not up.
func (s *Service) clockAction(ctx context.Context, judge string, tournamentID int64, n int, in ClockInput) (Clock, error) {
	if err := checkJudge(judge); err != nil {
		return Clock{}, err
	}
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return Clock{}, err
	}
	if err := t.checkOpen(); err != nil {
		return Clock{}, err
	}
	r, err := s.store.Round(ctx, tournamentID, n)
	if err != nil {
		return Clock{}, err
	}
	now := s.now().UTC()
	c, events, err := s.storedClock(ctx, t, r, now)
	if err != nil {
		return Clock{}, err
	}
	e := ClockEvent{RoundID: r.ID, Kind: in.Action, Judge: judge, At: now}
	subject := fmt.Sprintf("round %d", n)
	args := map[string]any{"Round": n}
	if c.State == ClockDone {
		return Clock{}, Conflict("round-done", fmt.Sprintf("every table of round %d has its result: the round is over", n), map[string]any{"Round": n})
	}
	switch in.Action {
	case ClockStart:
		if c.State != ClockReady {
			return Clock{}, invalid("clock-started", fmt.Sprintf("the clock of round %d has already started", n), args)
		}
	case ClockPause:
		if c.State != ClockRunning {
			return Clock{}, invalid("clock-not-running", fmt.Sprintf("the clock of round %d is not running", n), args)
		}
	case ClockResume:
		if c.State != ClockPaused {
			return Clock{}, invalid("clock-not-paused", fmt.Sprintf("the clock of round %d is not paused", n), args)
		}
	case ClockExtend:
		if err := checkExtension(c, n, in, &e); err != nil {
			return Clock{}, err
		}
		if in.Table != 0 {
			subject = tableSubject(n, in.Table)
		}
	case ClockTurn, ClockEnd:
		if err := checkTurnLimit(c, r, in, &e); err != nil {
			return Clock{}, err
		}
		subject = tableSubject(n, in.Table)
	case ClockPlacementEnd:
		if err := checkPlacementEnd(c, gameTime(t, r), n, in, &e); err != nil {
			return Clock{}, err
		}
		subject = tableSubject(n, in.Table)
	default:
		return Clock{}, invalid("clock-action", fmt.Sprintf("%q is not a clock action (start, pause, resume, extend, turn, end or placement-end)", in.Action),
			map[string]any{"Action": in.Action})
	}
	if err := s.store.AddClockEvent(ctx, &e, s.change(judge, "clock."+in.Action, subject, nil, &e)); err != nil {
		return Clock{}, err
	}
	return clockAt(t, r, append(events, e), r.Tables, now), nil
}

// checkExtension validates an extension and fills it into e.
func checkExtension(c Clock, n int, in ClockInput, e *ClockEvent) error {
	var err error
	if in.Reason, err = fieldReason.clean(in.Reason); err != nil {
		return err
	}
	switch {
	case in.Seconds < 1 || in.Seconds > maxExtension:
		return invalid("extension-seconds", fmt.Sprintf("an extension must be between 1 and %d seconds, got %d", maxExtension, in.Seconds),
			map[string]any{"Seconds": in.Seconds, "Min": 1, "Max": maxExtension})
	case in.Reason == "":
		return invalid("extension-reason", "an extension needs a reason", nil)
	}
	e.Seconds, e.Reason = in.Seconds, in.Reason
	if in.Table == 0 {
		if c.State == ClockOver || (c.State != ClockReady && c.Remaining == 0) {
			return invalid("clock-over", fmt.Sprintf("the time of round %d is up", n), map[string]any{"Round": n})
		}
		return nil
	}
	tc, ok := c.Table(in.Table)
	if !ok {
		return invalid("clock-no-table", fmt.Sprintf("round %d has no table %d", n, in.Table), map[string]any{"Round": n, "Table": in.Table})
	}
	args := map[string]any{"Round": n, "Table": in.Table}
	switch {
	case tc.Status == TableFinished:
		return invalid("extension-finished", fmt.Sprintf("%s already has a result", tableSubject(n, in.Table)), args)
	case tc.Status == TableOver:
		return invalid("extension-time-up", fmt.Sprintf("the time of %s is up (§12)", tableSubject(n, in.Table)), args)
	case tc.Turns != nil:
		return invalid("extension-turn-limit", fmt.Sprintf("%s plays under the turn limit: set its end instead", tableSubject(n, in.Table)), args)
	}
	e.TableID = tc.TableID
	return nil
}

// checkTurnLimit validates a turn passed or an end set at a final table
// under the turn limit (national rules: after the game time every turn is
// limited, and the judge sets an end time), and fills it into e.
func checkTurnLimit(c Clock, r Round, in ClockInput, e *ClockEvent) error {
	args := map[string]any{"Round": r.Number, "Table": in.Table}
	tc, ok := c.Table(in.Table)
	if !ok {
		return invalid("clock-no-table", fmt.Sprintf("round %d has no table %d", r.Number, in.Table), args)
	}
	switch {
	case tc.Status == TableFinished:
		return invalid("extension-finished", fmt.Sprintf("%s already has a result", tableSubject(r.Number, in.Table)), args)
	case tc.Status == TableOver:
		return invalid("extension-time-up", fmt.Sprintf("the time of %s is up (§12)", tableSubject(r.Number, in.Table)), args)
	case tc.Turns == nil:
		return invalid("turn-limit-not-running", fmt.Sprintf("%s does not play under a turn limit now: only a final table does, once its game time is over", tableSubject(r.Number, in.Table)), args)
	case c.State != ClockRunning:
		return invalid("clock-not-running", fmt.Sprintf("the clock of round %d is not running", r.Number), map[string]any{"Round": r.Number})
	}
	e.TableID = tc.TableID
	if in.Action == ClockEnd {
		if in.Seconds < 1 || in.Seconds > maxExtension {
			return invalid("end-seconds", fmt.Sprintf("a final table's end must be between 1 and %d seconds from now, got %d", maxExtension, in.Seconds),
				map[string]any{"Seconds": in.Seconds, "Max": maxExtension})
		}
		e.Seconds = in.Seconds
		return nil
	}
	i := slices.IndexFunc(r.Tables, func(t Table) bool { return t.ID == tc.TableID })
	switch {
	case in.Player != 0 && !slices.Contains(r.Tables[i].Players, in.Player):
		return invalid("turn-player-not-at-table", fmt.Sprintf("player %d does not play at %s", in.Player, tableSubject(r.Number, in.Table)),
			map[string]any{"Round": r.Number, "Table": in.Table, "Player": in.Player})
	case in.Player == 0 && tc.Turns.Player == 0:
		// The turn under way when the game time ran out is not recorded,
		// so the first pass names whose turn begins.
		return invalid("turn-player-needed", fmt.Sprintf("%s: say whose turn begins; the turn under way is not known", tableSubject(r.Number, in.Table)), args)
	}
	e.PlayerID = in.Player
	return nil
}

// checkDeclaredInTime applies §12 to a declared win: anything done after
// the time signal does not count, so a declaration recorded after the
// table's deadline is refused unless the judge confirms, with lateReason,
// that it was made before the signal. A correction that keeps the declared
// winner of the latest revision was checked when that revision was saved.
// It returns the reason to record, "" when the declaration was in time.
func (s *Service) checkDeclaredInTime(ctx context.Context, e record, r Round, t Table, in ResultInput, now time.Time) (string, error) {
	if latest := t.Latest(); in.Declared == 0 || (latest != nil && latest.Declared == in.Declared) {
		return "", nil
	}
	tc, ok := e.clockOf(r, now).Table(t.Number)
	if !ok || !tc.TimeUp {
		return "", nil
	}
	reason, err := fieldReason.clean(in.LateReason)
	if err != nil || reason != "" {
		return reason, err
	}
	return "", invalid("declared-after-time", fmt.Sprintf("%s: the time signal was given at %s; a declaration recorded after it needs the judge's confirmation that it came before the signal (§12)",
		tableSubject(r.Number, t.Number), tc.Deadline.Format(time.RFC3339)),
		map[string]any{"Round": r.Number, "Table": t.Number, "Deadline": tc.Deadline.Local().Format("15:04:05")})
}

// checkEndedInTime applies §12 to a game recorded as ended by time: a game
// ends only by a declaration or by the time signal, so a result marked
// "ended by time" is accepted once that table's time is up; before that
// (the clock not started, or time left) it needs the judge's reason (a game
// the judge ended, a disqualification), recorded with the result like a late
// declaration (docs/rules.md §12). A correction that keeps the latest
// revision's end by time was checked when that revision was saved. It
// reports whether the game ended before its signal.
func (s *Service) checkEndedInTime(ctx context.Context, e record, r Round, t Table, in ResultInput, now time.Time) (bool, error) {
	if latest := t.Latest(); latest != nil && latest.EndedBy == EndedByTime {
		return latest.EndedEarly, nil
	}
	tc, ok := e.clockOf(r, now).Table(t.Number)
	if ok && tc.TimeUp {
		return false, nil
	}
	if strings.TrimSpace(in.Reason) != "" {
		return true, nil
	}
	started := ok && tc.Status != TableReady
	// A final table past its game time plays under the turn limit until
	// the end the judge sets (national rules): its time is up only then.
	turns := ok && tc.Turns != nil && tc.Turns.End.IsZero()
	left := ""
	if started && !turns {
		sec := int(tc.Remaining.Round(time.Second) / time.Second)
		left = fmt.Sprintf("%d:%02d", sec/60, sec%60)
	}
	what := "the clock of round " + fmt.Sprint(r.Number) + " has not started"
	switch {
	case turns:
		what = "it plays under the turn limit until the judge sets its end"
	case started:
		what = left + " of the table's time is left"
	}
	return false, invalid("ended-by-time-early",
		fmt.Sprintf("%s: a game ends by time only at its time signal, and %s; a result ended by time before it needs the judge's reason (§12)",
			tableSubject(r.Number, t.Number), what),
		map[string]any{"Round": r.Number, "Table": t.Number, "Started": started, "Left": left, "TurnLimit": turns})
}
