package tournament

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// The kinds of ClockEvent.
const (
	ClockStart  = "start"  // the judge's start signal, after set-up (§3 is not counted)
	ClockPause  = "pause"  // the whole room stops, e.g. for a judge call
	ClockResume = "resume" // the whole room plays on
	ClockExtend = "extend" // more time for one table (a long ruling) or for the whole round
)

// The states of a round's clock.
const (
	ClockReady   = "ready"   // not started
	ClockRunning = "running" // counting down
	ClockPaused  = "paused"  // stopped by the judge; no table's time passes
	ClockOver    = "over"    // time is up for the round and for every table still playing
)

// The statuses of a table on the round's clock.
const (
	TableReady    = "ready"    // the clock has not started
	TablePlaying  = "playing"  // time left and no result yet
	TableFinished = "finished" // a result is recorded
	TableOver     = "over"     // time is up without a result: the game ended by time (§12)
)

// Clock is a round's clock as of one moment, computed by ClockAt from the
// recorded facts. Nothing of it is stored, so a restart of the server loses
// no time and adds none.
type Clock struct {
	State      string
	At         time.Time     // the moment the clock was computed for
	GameLength time.Duration // the tournament's game time (§12)
	Extension  time.Duration // the whole round's extensions
	Started    time.Time     // the start signal; zero while ready
	// Deadline is the round's time signal: zero while ready, and while
	// paused the signal as if play resumed at At.
	Deadline  time.Time
	Remaining time.Duration // the round's time left; 0 once it is up
	Tables    []TableClock  // by table number
}

// TableClock is one table's time on the round's clock: the round's time
// plus the table's own extensions.
type TableClock struct {
	TableID   int64
	Number    int
	Extension time.Duration // this table's own extensions
	Deadline  time.Time     // as Clock.Deadline, for this table
	Remaining time.Duration
	TimeUp    bool   // the table's time signal has passed
	Status    string // TableReady, TablePlaying, TableFinished or TableOver
}

// Table returns the clock of the table with the given number.
func (c Clock) Table(number int) (TableClock, bool) {
	i := slices.IndexFunc(c.Tables, func(t TableClock) bool { return t.Number == number })
	if i < 0 {
		return TableClock{}, false
	}
	return c.Tables[i], true
}

// budget is the time left on one count of the clock (the round's, or a
// table's), and when it ran out.
type budget struct {
	left time.Duration
	out  bool
	at   time.Time // when left reached 0
}

func (b *budget) spend(from time.Time, d time.Duration) {
	if b.out {
		return
	}
	if d >= b.left {
		b.out, b.at, b.left = true, from.Add(b.left), 0
		return
	}
	b.left -= d
}

func (b *budget) extend(d time.Duration) {
	// §12: once a table's signal is given its game has ended at once; more
	// time given afterwards does not bring it back.
	if !b.out {
		b.left += d
	}
}

// ClockAt computes a round's clock at now from its recorded events, the
// game length and the round's tables. Each table has the game length plus
// the extensions it was given; time passes only while the clock runs, so a
// pause shifts every deadline not yet reached, and a deadline already
// passed stays passed. Events after now do not count, nor do a second
// start, a pause while paused or a resume while running, which the Service
// never records.
func ClockAt(events []ClockEvent, gameLength time.Duration, tables []Table, now time.Time) Clock {
	events = slices.Clone(events)
	slices.SortStableFunc(events, func(a, b ClockEvent) int { return a.At.Compare(b.At) })
	c := Clock{State: ClockReady, At: now, GameLength: gameLength}
	round := budget{left: gameLength}
	each := make([]budget, len(tables))
	ext := make([]time.Duration, len(tables))
	for i := range each {
		each[i].left = gameLength
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
				each[i].spend(last, d)
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
		}
	}
	if started {
		advance(now)
	}
	c.Deadline, c.Remaining = deadline(started, round, now)
	playing := false
	for i, t := range tables {
		tc := TableClock{TableID: t.ID, Number: t.Number, Extension: ext[i], TimeUp: started && each[i].out}
		tc.Deadline, tc.Remaining = deadline(started, each[i], now)
		switch {
		case t.Result != nil:
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

func deadline(started bool, b budget, now time.Time) (time.Time, time.Duration) {
	switch {
	case !started:
		return time.Time{}, b.left
	case b.out:
		return b.at, 0
	}
	return now.Add(b.left), b.left
}

// ClockInput is a judge's action on a round's clock.
type ClockInput struct {
	Action  string // ClockStart, ClockPause, ClockResume or ClockExtend
	Table   int    // for ClockExtend: the table number, or 0 for the whole round
	Seconds int    // for ClockExtend: the time added
	Reason  string // for ClockExtend: why, e.g. the ruling that took the time
}

// maxExtension bounds one extension: more is a typing slip, not a ruling.
const maxExtension = 3600

// gameLength is a tournament's game time (§12).
func gameLength(t Tournament) time.Duration { return time.Duration(t.GameMinutes) * time.Minute }

// clockOf returns round r's clock at now with the events recorded for it.
func (s *Service) clockOf(ctx context.Context, t Tournament, r Round, now time.Time) (Clock, []ClockEvent, error) {
	events, err := s.store.ClockEvents(ctx, r.ID)
	if err != nil {
		return Clock{}, nil, err
	}
	return ClockAt(events, gameLength(t), r.Tables, now), events, nil
}

// Clock returns round n's clock now.
func (s *Service) Clock(ctx context.Context, tournamentID int64, n int) (Clock, error) {
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return Clock{}, err
	}
	r, err := s.store.Round(ctx, tournamentID, n)
	if err != nil {
		return Clock{}, err
	}
	c, _, err := s.clockOf(ctx, t, r, s.now().UTC())
	return c, err
}

// ClockAction records the judge's start, pause, resumption or extension of
// round n's clock, and returns the clock after it. The clock starts once,
// after set-up (§3 is not counted); it pauses only while running and resumes
// only while paused; an extension needs a reason, a positive number of
// seconds and a table (or the whole round) whose time is not up.
func (s *Service) ClockAction(ctx context.Context, judge string, tournamentID int64, n int, in ClockInput) (Clock, error) {
	if err := checkJudge(judge); err != nil {
		return Clock{}, err
	}
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return Clock{}, err
	}
	r, err := s.store.Round(ctx, tournamentID, n)
	if err != nil {
		return Clock{}, err
	}
	now := s.now().UTC()
	c, events, err := s.clockOf(ctx, t, r, now)
	if err != nil {
		return Clock{}, err
	}
	e := ClockEvent{RoundID: r.ID, Kind: in.Action, Judge: judge, At: now}
	subject := fmt.Sprintf("round %d", n)
	args := map[string]any{"Round": n}
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
	default:
		return Clock{}, invalid("clock-action", fmt.Sprintf("%q is not a clock action (start, pause, resume or extend)", in.Action),
			map[string]any{"Action": in.Action})
	}
	if err := s.store.AddClockEvent(ctx, &e, s.change(judge, "clock."+in.Action, subject, nil, &e)); err != nil {
		return Clock{}, err
	}
	return ClockAt(append(events, e), gameLength(t), r.Tables, now), nil
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
			map[string]any{"Seconds": in.Seconds, "Max": maxExtension})
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
	switch tc.Status {
	case TableFinished:
		return invalid("extension-finished", fmt.Sprintf("%s already has a result", tableSubject(n, in.Table)), args)
	case TableOver:
		return invalid("extension-time-up", fmt.Sprintf("the time of %s is up (§12)", tableSubject(n, in.Table)), args)
	}
	e.TableID = tc.TableID
	return nil
}

// checkDeclaredInTime applies §12 to a declared win: anything done after
// the time signal does not count, so a declaration recorded after the
// table's deadline is refused unless the judge confirms, with lateReason,
// that it was made before the signal. A correction that keeps the declared
// winner of the latest revision was checked when that revision was saved.
// It returns the reason to record, "" when the declaration was in time.
func (s *Service) checkDeclaredInTime(ctx context.Context, e event, r Round, t Table, in ResultInput, now time.Time) (string, error) {
	if in.Declared == 0 || (t.Result != nil && t.Result.Declared == in.Declared) {
		return "", nil
	}
	c, _, err := s.clockOf(ctx, e.t, r, now)
	if err != nil {
		return "", err
	}
	tc, ok := c.Table(t.Number)
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
