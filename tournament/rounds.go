package tournament

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
)

// The pairing methods a round records.
const (
	ModeRandom = "random" // a seeded draw, as by lot (round 1 by default)
	ModeSwiss  = "swiss"  // by the standings (the rounds after round 1 by default)
	// ModeSchedule is one of the leading rounds drawn together in advance
	// by the whole-schedule solver, for the fewest repeat meetings
	// (referee.ScheduleRound).
	ModeSchedule = "schedule"
	// ModeFinal is a final table of the top players by the standings (the
	// ruleset's cut); its tables play under the ruleset's turn limit once
	// their game time is over.
	ModeFinal = "final"
	// ModeImported is a round of a past event imported from its results
	// (ImportPastEvents): nobody paired it here.
	ModeImported = "imported"
)

// record is everything recorded for a tournament that a use case decides
// from: a Snapshot's facts (every round, with its clock, and the reports),
// or the facts of one table (Service.tableFacts) for a change at it.
type record struct {
	t         Tournament
	players   []Player
	rounds    []Round
	penalties []Penalty
	// byID indexes players by ID, so that a lookup per seat of every table
	// (an export of thousands of players) is not a scan of the whole list.
	// It is only looked up: decisions iterate players, in the store's order.
	byID map[int64]int
	// labels are the players' labels (Labels), for the read models.
	labels map[int64]string
	// sanctions holds each player's standing penalties of each round,
	// oldest first, so that placing every table does not scan every penalty;
	// gamePenalties holds the same penalties as recorded.
	sanctions     map[entry][]referee.Sanction
	gamePenalties map[entry][]Penalty
	// clocks are the rounds' clock events by round ID, oldest first, and
	// reports the players' reports: a snapshot's, or of a table's facts
	// what its change decides from.
	clocks  map[int64][]ClockEvent
	reports []Report
	// teams are a team event's teams (Team), in the order registered.
	teams []Team
}

// entry is a player in a round. A penalty's effect belongs to the game the
// player plays in the penalty's round, wherever a swap or a move has seated
// them since; the table it was given at is only a record.
type entry struct {
	round  int
	player int64
}

// load returns the tournament's facts for a use case that decides from the
// whole event (a pairing, a final, a penalty's escalation): those of the
// snapshot, as new as the store's version of the tournament now (a change
// another server committed a moment ago included), so that the decision
// starts from what the store holds; the store's race guards catch what
// changes between this and the write. The record is the snapshot's, shared:
// it must not be changed.
func (s *Service) load(ctx context.Context, tournamentID int64) (record, error) {
	snap, err := s.snapshots.current(ctx, tournamentID)
	if err != nil {
		return record{}, err
	}
	return snap.e, nil
}

// loadOpen reads the event for a judge's change to it: a judge named, and
// the tournament not closed.
func (s *Service) loadOpen(ctx context.Context, judge string, tournamentID int64) (record, error) {
	if err := checkJudge(judge); err != nil {
		return record{}, err
	}
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return record{}, err
	}
	if err := e.t.checkOpen(); err != nil {
		return record{}, err
	}
	return e, nil
}

// round returns round n of the event.
func (e record) round(n int) (Round, error) {
	if n >= 1 && n <= len(e.rounds) && e.rounds[n-1].Number == n {
		return e.rounds[n-1], nil
	}
	// A table's facts hold its round alone.
	if len(e.rounds) == 1 && e.rounds[0].Number == n {
		return e.rounds[0], nil
	}
	return Round{}, fmt.Errorf("round %d: %w", n, ErrNotFound)
}

// player returns a player of the event.
func (e record) player(id int64) (Player, bool) {
	i, ok := e.byID[id]
	if !ok {
		return Player{}, false
	}
	return e.players[i], true
}

// request builds the pairing request for round n among the given players,
// from the rounds before it.
func (e record) request(n int, who []int64, seed uint64) (pairing.Request, error) {
	earlier := e.rounds[:n-1]
	req := pairing.Request{Seed: seed}
	rank := map[int64]int{}
	if n > 1 {
		st, err := e.standingsOf(earlier)
		if err != nil {
			return req, err
		}
		for _, x := range st {
			rank[fromPID(x.Player)] = x.Rank
		}
	}
	in := map[int64]bool{}
	for _, id := range who {
		in[id] = true
	}
	for _, p := range e.players {
		if !in[p.ID] {
			continue
		}
		req.Players = append(req.Players, pairing.Player{ID: pid(p.ID), Standing: rank[p.ID], FixedTable: p.FixedTable})
		for _, o := range p.KeepApart {
			if p.ID < o && in[o] {
				req.KeepApart = append(req.KeepApart, [2]string{pid(p.ID), pid(o)})
			}
		}
	}
	// docs/rules.md, Team events: team-mates never sit at one table.
	req.KeepApart = append(req.KeepApart, e.teamApart(in)...)
	for _, r := range earlier {
		for _, t := range r.Tables {
			req.History = append(req.History, pids(t.Players))
		}
		for _, b := range r.Byes {
			// pairing.Request: a table of one player records a bye.
			req.History = append(req.History, []string{pid(b)})
		}
	}
	return req, nil
}

// pair draws round n among the players active in it.
func (s *Service) pair(e record, n int, judge string) (Round, error) {
	var who []int64
	if e.t.Team {
		// A team event plays the players its teams named for the round
		// (docs/rules.md, Team events).
		teams, err := e.lineups(n)
		if err != nil {
			return Round{}, err
		}
		who = slices.Concat(teams...)
		slices.Sort(who)
	} else {
		for _, p := range e.players {
			if p.CheckedIn && p.Active(n) && !p.Substitute {
				who = append(who, p.ID)
			}
		}
	}
	if len(who) < 3 {
		return Round{}, invalid("too-few-players", fmt.Sprintf("round %d needs at least 3 checked-in players, got %d", n, len(who)),
			map[string]any{"Round": n, "Count": len(who), "Min": 3})
	}
	seed := s.seed()
	var pr pairing.Round
	var mode string
	var err error
	// The ruleset's format of round n (referee.Ruleset.RoundFormat).
	switch e.t.Ruleset.RoundFormat(n) {
	case referee.ScheduleRound:
		mode = ModeSchedule
		pr, err = e.scheduled(n, who, seed)
	case referee.RandomRound:
		mode = ModeRandom
		pr, err = e.drawRound(n, who, seed, pairing.Random)
	default:
		mode = ModeSwiss
		pr, err = e.drawRound(n, who, seed, pairing.Swiss)
	}
	if err != nil {
		return Round{}, fmt.Errorf("pair round %d: %w", n, e.named(err))
	}
	seed = pr.Seed
	r := Round{
		TournamentID: e.t.ID,
		Number:       n,
		Mode:         mode,
		Seed:         seed,
		Cost:         pr.Cost,
		Repeats:      pr.Repeats,
		PairedBy:     judge,
		PairedAt:     s.now().UTC(),
		Byes:         fromPIDs(pr.Byes),
	}
	for i, t := range pr.Tables {
		r.Tables = append(r.Tables, Table{Number: i + 1, Players: fromPIDs(t)})
	}
	return r, nil
}

// drawRound draws round n among who with draw (pairing.Random or Swiss).
func (e record) drawRound(n int, who []int64, seed uint64, draw func(pairing.Request) (pairing.Round, error)) (pairing.Round, error) {
	req, err := e.request(n, who, seed)
	if err != nil {
		return pairing.Round{}, err
	}
	return draw(req)
}

// scheduleRounds is how many leading rounds the ruleset draws together in
// advance (referee.ScheduleRound), at most the rounds planned.
func (e record) scheduleRounds() int {
	k := 0
	for k < e.t.Rounds && e.t.Ruleset.RoundFormat(k+1) == referee.ScheduleRound {
		k++
	}
	return k
}

// scheduled draws schedule round n. The whole schedule is drawn with
// round 1 (pairing.DrawSchedule, for the fewest repeat meetings over all
// its rounds), from round 1's seed, so a later schedule round is the same
// draw replayed: its tables as drawn then. When the draw no longer
// replays (a player dropped or entered late, a judge amended a table),
// the schedule's remaining rounds are drawn again from the rounds played,
// with seed. The ruleset says what the schedule puts first (an even
// spread of 3-player tables, or the fewest repeats).
func (e record) scheduled(n int, who []int64, seed uint64) (pairing.Round, error) {
	k := e.scheduleRounds()
	priority := e.t.Ruleset.WithDefaults().Event.SchedulePriority
	if n > 1 {
		first := e.rounds[0]
		req, err := e.request(1, who, first.Seed)
		if err != nil {
			return pairing.Round{}, err
		}
		req.Priority = priority
		if sched, err := pairing.DrawSchedule(req, k); err == nil && drawnAs(sched.Rounds[:n-1], e.rounds[:n-1]) {
			r := sched.Rounds[n-1]
			// Repeats within the schedule count the rounds before it.
			return r, nil
		}
	}
	req, err := e.request(n, who, seed)
	if err != nil {
		return pairing.Round{}, err
	}
	req.Priority = priority
	sched, err := pairing.DrawSchedule(req, k-n+1)
	if err != nil {
		return pairing.Round{}, err
	}
	return sched.Rounds[0], nil
}

// drawnAs reports whether the drawn rounds seat everyone as the rounds
// played did: the same tables (in any order, players in any order) and
// the same byes.
func drawnAs(drawn []pairing.Round, played []Round) bool {
	key := func(tables [][]string, byes []string) string {
		out := make([]string, 0, len(tables)+1)
		for _, t := range tables {
			t = slices.Clone(t)
			slices.Sort(t)
			out = append(out, strings.Join(t, ","))
		}
		slices.Sort(out)
		b := slices.Clone(byes)
		slices.Sort(b)
		return strings.Join(out, ";") + "|" + strings.Join(b, ",")
	}
	for i, r := range played {
		tables := make([][]string, len(r.Tables))
		for j, t := range r.Tables {
			tables[j] = pids(t.Players)
		}
		if key(drawn[i].Tables, drawn[i].Byes) != key(tables, pids(r.Byes)) {
			return false
		}
	}
	return true
}

// PairNextRound pairs the next round in the ruleset's format of it
// (referee.Ruleset.RoundFormat): by a seeded random draw (round 1 by
// default), drawn in advance with the other leading schedule rounds, or
// Swiss by the standings (the later rounds by default), avoiding repeat meetings and honouring
// keep-apart and fixed-table requests. Only checked-in players active in the
// round are paired. Every table of the earlier rounds must have a result.
func (s *Service) PairNextRound(ctx context.Context, judge string, tournamentID int64) (Round, error) {
	e, err := s.loadOpen(ctx, judge, tournamentID)
	if err != nil {
		return Round{}, err
	}
	if err := nextRound(e.t, e.rounds); err != nil {
		return Round{}, err
	}
	n := len(e.rounds) + 1
	r, err := s.pair(e, n, judge)
	if err != nil {
		return Round{}, err
	}
	if err := s.store.AddRound(ctx, &r, s.change(judge, "round.pair", fmt.Sprintf("round %d", n), nil, &r)); err != nil {
		return Round{}, err
	}
	return r, nil
}

// nextRound reports why the next round of t, with rounds paired, cannot
// be paired yet: every round is paired, or a table has no result.
func nextRound(t Tournament, rounds []Round) error {
	if i := slices.IndexFunc(rounds, func(r Round) bool { return r.Mode == ModeFinal }); i >= 0 {
		return Conflict("final-made", fmt.Sprintf("round %d is the final: no qualifying round follows it", rounds[i].Number),
			map[string]any{"Round": rounds[i].Number})
	}
	if len(rounds) >= t.Rounds {
		return invalid("all-rounds-paired", fmt.Sprintf("all %d rounds are paired", t.Rounds), map[string]any{"Rounds": t.Rounds})
	}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			if tb.Result == nil {
				return Conflict("results-missing", fmt.Sprintf("round %d table %d has no result yet", r.Number, tb.Number),
					map[string]any{"Round": r.Number, "Table": tb.Number})
			}
		}
	}
	return nil
}

// CanPair reports whether the rounds let PairNextRound pair the next round
// now: a round is left to pair and every table paired so far has its
// result. (Enough players checked in shows when pairing.)
func (s *Service) CanPair(ctx context.Context, tournamentID int64) (bool, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return false, err
	}
	return snap.CanPair(), nil
}

// repairRound pairs the latest round again with a new seed, among the
// players active in it now (taking in drops and late entries since it was
// paired). It is refused once the round has started: a seating or a result
// at any table, or a clock event. Boards already set up stay with their table numbers;
// players' reports not yet accepted are discarded with the tables they
// name, and the audit log says how many.
func (s *Service) repairRound(ctx context.Context, judge string, tournamentID int64, n int) (Round, error) {
	if err := checkJudge(judge); err != nil {
		return Round{}, err
	}
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Round{}, err
	}
	old, err := e.round(n)
	if err != nil {
		return Round{}, err
	}
	if old.Mode == ModeFinal {
		return Round{}, invalid("repair-final", fmt.Sprintf("round %d is a final stage: its players come from the cut, not a draw", n),
			map[string]any{"Round": n})
	}
	if n != len(e.rounds) {
		return Round{}, invalid("repair-not-latest", fmt.Sprintf("only the latest round (%d) can be paired again", len(e.rounds)),
			map[string]any{"Round": n, "Latest": len(e.rounds)})
	}
	if started(old, e.clocks[old.ID]) {
		return Round{}, Conflict("round-started", fmt.Sprintf("round %d has started", n), map[string]any{"Round": n})
	}
	r, err := s.pair(e, n, judge)
	if err != nil {
		return Round{}, err
	}
	// Players may report before the round starts; their reports name the
	// tables being replaced, so they go with them.
	discard := e.openReports(old.Tables)
	c := s.change(judge, "round.repair", fmt.Sprintf("round %d", n), old, &roundChange{Round: &r, DiscardedReports: len(discard)})
	if err := s.store.ReplaceRound(ctx, &r, old, discard, c); err != nil {
		return Round{}, err
	}
	return s.store.Round(ctx, tournamentID, n)
}
