package tournament

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

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
			if p.CheckedIn && p.Active(n) {
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
	if err := checkJudge(judge); err != nil {
		return Round{}, err
	}
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return Round{}, err
	}
	if err := e.t.checkOpen(); err != nil {
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

// roundChange is a pairing as the audit log records its change: the round,
// and how many open reports of its tables the change discarded.
type roundChange struct {
	*Round
	DiscardedReports int
}

// openReports lists the IDs of the open reports (OpenReportStatuses) of
// the given tables, by ID, among the event's reports.
func (e record) openReports(tables []Table) []int64 {
	var out []int64
	for _, r := range e.reports {
		at := slices.ContainsFunc(tables, func(t Table) bool { return t.ID == r.TableID })
		if at && slices.Contains(OpenReportStatuses, r.Status) {
			out = append(out, r.ID)
		}
	}
	return out
}

// SwapPlayers trades the places of players a and b in round n (either may
// have the bye). The pairing must still honour its rules (pairing.Amend);
// the reason is required and recorded.
func (s *Service) SwapPlayers(ctx context.Context, judge string, tournamentID int64, n int, a, b int64, reason string) (Round, error) {
	am := Amendment{A: a, B: b, Reason: reason}
	return s.amend(ctx, judge, tournamentID, n, am, pairing.Change{A: pid(a), B: pid(b), Reason: reason})
}

// MovePlayer moves player a to table in round n, as SwapPlayers does.
func (s *Service) MovePlayer(ctx context.Context, judge string, tournamentID int64, n int, a int64, table int, reason string) (Round, error) {
	am := Amendment{A: a, Table: table, Reason: reason}
	return s.amend(ctx, judge, tournamentID, n, am, pairing.Change{A: pid(a), Table: table, Reason: reason})
}

func (s *Service) amend(ctx context.Context, judge string, tournamentID int64, n int, am Amendment, ch pairing.Change) (Round, error) {
	if err := checkJudge(judge); err != nil {
		return Round{}, err
	}
	var err error
	if am.Reason, err = fieldReason.clean(am.Reason); err != nil {
		return Round{}, err
	}
	if am.Reason == "" {
		return Round{}, invalid("amend-reason-missing", "a change to the pairing needs a reason", nil)
	}
	e, old, r, err := s.planAmend(ctx, tournamentID, n, ch)
	if err != nil {
		return Round{}, err
	}
	am.Judge, am.At = judge, s.now().UTC()
	r.Amendments = append(slices.Clone(old.Amendments), am)
	// A report names the players of its table: one of a table whose
	// players change no longer fits it.
	var moved []Table
	for i, t := range old.Tables {
		if !sameMembers(t.Players, r.Tables[i].Players) {
			moved = append(moved, t)
		}
	}
	discard := e.openReports(moved)
	c := s.change(judge, "round.amend", fmt.Sprintf("round %d", n), old, &roundChange{Round: &r, DiscardedReports: len(discard)})
	if err := s.store.AmendRound(ctx, &r, old, am, discard, c); err != nil {
		return Round{}, err
	}
	return s.store.Round(ctx, tournamentID, n)
}

// planAmend is round n with the change ch made (pairing.Amend), not
// recorded: the event it was planned in, the round as recorded and the
// round changed.
func (s *Service) planAmend(ctx context.Context, tournamentID int64, n int, ch pairing.Change) (record, Round, Round, error) {
	e, err := s.load(ctx, tournamentID)
	if err != nil {
		return record{}, Round{}, Round{}, err
	}
	old, err := e.round(n)
	if err != nil {
		return record{}, Round{}, Round{}, err
	}
	who := slices.Clone(old.Byes)
	pr := pairing.Round{Byes: pids(old.Byes), Seed: old.Seed}
	for _, t := range old.Tables {
		who = append(who, t.Players...)
		pr.Tables = append(pr.Tables, pids(t.Players))
	}
	req, err := e.request(n, who, old.Seed)
	if err != nil {
		return record{}, Round{}, Round{}, err
	}
	out, err := pairing.Amend(req, pr, ch)
	if err != nil {
		return record{}, Round{}, Round{}, fmt.Errorf("round %d: %w", n, e.named(err))
	}
	if len(out.Tables) != len(old.Tables) {
		return record{}, Round{}, Round{}, fmt.Errorf("round %d: the amended pairing has %d tables, want %d", n, len(out.Tables), len(old.Tables))
	}
	r := old
	r.Tables = slices.Clone(old.Tables)
	for i, t := range out.Tables {
		r.Tables[i].Players = fromPIDs(t)
	}
	r.Byes, r.Cost, r.Repeats = fromPIDs(out.Byes), out.Cost, out.Repeats
	return e, old, r, nil
}

// CheckSwap is what SwapPlayers would do to round n's repeat meetings,
// recording nothing: the repeats the swap adds, for the judge to confirm
// before swapping. An error is the swap's refusal, as SwapPlayers gives it.
func (s *Service) CheckSwap(ctx context.Context, tournamentID int64, n int, a, b int64) ([]Repeat, error) {
	return s.checkAmend(ctx, tournamentID, n, pairing.Change{A: pid(a), B: pid(b), Reason: "check"})
}

// CheckMove is CheckSwap for MovePlayer.
func (s *Service) CheckMove(ctx context.Context, tournamentID int64, n int, a int64, table int) ([]Repeat, error) {
	return s.checkAmend(ctx, tournamentID, n, pairing.Change{A: pid(a), Table: table, Reason: "check"})
}

func (s *Service) checkAmend(ctx context.Context, tournamentID int64, n int, ch pairing.Change) ([]Repeat, error) {
	e, old, r, err := s.planAmend(ctx, tournamentID, n, ch)
	if err != nil {
		return nil, err
	}
	before := map[[2]int64]bool{}
	for _, rp := range e.repeats(old) {
		before[[2]int64{rp.A, rp.B}] = true
	}
	var added []Repeat
	for _, rp := range e.repeats(r) {
		if !before[[2]int64{rp.A, rp.B}] {
			added = append(added, rp)
		}
	}
	return added, nil
}

// SamePairing says rounds a and b seat the same players at each table
// number and give the same byes: a round paired again that changed
// nothing.
func SamePairing(a, b Round) bool {
	if len(a.Tables) != len(b.Tables) || !sameMembers(a.Byes, b.Byes) {
		return false
	}
	for i := range a.Tables {
		if a.Tables[i].Number != b.Tables[i].Number || !sameMembers(a.Tables[i].Players, b.Tables[i].Players) {
			return false
		}
	}
	return true
}

// Repeat is two players seated at one table of a round who had met at a
// table in earlier rounds: the pairing avoids it, a judge's change may
// make it.
type Repeat struct {
	Table  int
	A, B   int64 // A < B
	Rounds []int // the earlier rounds in which they met
}

// repeats lists the repeat meetings of round r, by table, among the rounds
// of e before it; none at a stage of the final, whose players come from
// the cut: meeting again there is the point (issue 24).
func (e record) repeats(r Round) []Repeat {
	if r.Mode == ModeFinal {
		return nil
	}
	met := map[[2]int64][]int{}
	for _, er := range e.rounds {
		if er.Number >= r.Number {
			continue
		}
		for _, t := range er.Tables {
			for i, a := range t.Players {
				for _, b := range t.Players[i+1:] {
					k := [2]int64{min(a, b), max(a, b)}
					met[k] = append(met[k], er.Number)
				}
			}
		}
	}
	var out []Repeat
	for _, t := range r.Tables {
		for i, a := range t.Players {
			for _, b := range t.Players[i+1:] {
				k := [2]int64{min(a, b), max(a, b)}
				if rounds := met[k]; len(rounds) > 0 {
					out = append(out, Repeat{Table: t.Number, A: k[0], B: k[1], Rounds: rounds})
				}
			}
		}
	}
	return out
}

// Rounds returns every round as recorded, by number.
func (s *Service) Rounds(ctx context.Context, tournamentID int64) ([]Round, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	return snap.Rounds(), nil
}

// RoundView is a round as the console and the kiosk show it.
type RoundView struct {
	Round  Round
	Tables []TableView
	Byes   []Player
	Clock  []ClockEvent // the facts the round's clock is computed from
	Timer  Clock        // the clock computed from Clock at the time of the view
	// Started says something is recorded at a table (a seating, a result)
	// or on the clock: the round is no longer paired again (RepairRound).
	Started bool
	// Missing lists players active in the round who are not in its pairing
	// (late entries, players checked in since); Withdrawn lists players in
	// the pairing who no longer play it. Either calls for RepairRound.
	// Both are by CollationKey.
	Missing, Withdrawn []Player
	// Repeats are the round's repeat meetings, by table.
	Repeats []Repeat
	// Labels are the tournament's players' labels by ID (Labels), for the
	// byes and every player named.
	Labels map[int64]string
}

// TableView is one table with its players, board and placings.
type TableView struct {
	Table   Table
	Players []SeatView     // in play order once seated, else in pairing order
	Board   *referee.Board // nil until the board is set
	Result  *Result        // the latest revision, or nil (and while it waits for confirmation)
	Places  []Placing      // computed from Result and the penalties given in the game
	// Entered is the latest revision while it waits for a second
	// account's confirmation (Table.Entered), placed as EnteredPlaces.
	Entered       *Result
	EnteredPlaces []Placing
	Clock         TableClock // the table's time on the round's clock
	// Locked says the table's seating and board no longer change: a
	// result was played on them (SetSeating, SetBoard, SetDeal refuse).
	Locked bool
}

// SeatView is a player at a table.
type SeatView struct {
	PlayerID int64
	Name     string
	Kana     string
	Label    string // the name, told apart from the same names (Labels)
	Seat     int    // play order, 0 before seating
	Color    referee.Color
}

// Placing is a player's place in one game, computed from the latest result
// revision and the penalties given in the game.
type Placing struct {
	PlayerID int64
	VP       int // what counts: capped (§11) and after penalties
	Place    int
	Reported int // the VP written on the score sheet, before the cap
	// Deducted is what the game's penalties took off the capped VP: a VP
	// deduction's points, or every point for a game loss (docs/rules.md,
	// Penalties), so that VP = min(Reported, cap) - Deducted.
	Deducted int
	// Penalties are the standing penalties given to the player in the game
	// that change its score or place (a VP deduction, a game loss, a
	// disqualification), oldest first: what a deduction comes from.
	Penalties []Penalty
}

// Sum is the arithmetic from the VP on the score sheet to what counts, as
// every page shows it (docs/rules.md, Penalties: a deduction shows as such,
// not just the lower number): the cap (§11), then a game loss (0) or the
// deduction: "6 − 2 = 4", "12 → 10", "6 → 0". It is "" when nothing
// changed the sheet's VP.
func (p Placing) Sum() string {
	capped := p.VP + p.Deducted
	sum := fmt.Sprint(p.Reported)
	if capped != p.Reported {
		sum += fmt.Sprintf(" → %d", capped)
	}
	switch {
	case p.Lost():
		if capped != 0 {
			sum += " → 0"
		}
	case p.Deducted > 0:
		sum += fmt.Sprintf(" − %d = %d", p.Deducted, p.VP)
	}
	if sum == fmt.Sprint(p.VP) {
		return ""
	}
	return sum
}

// Lost reports whether a penalty made the game a loss for the player.
func (p Placing) Lost() bool {
	return slices.ContainsFunc(p.Penalties, func(x Penalty) bool {
		return x.Level == referee.GameLoss || x.Level == referee.Disqualification
	})
}

// RoundView returns round n with its tables' players, boards and placings.
func (s *Service) RoundView(ctx context.Context, tournamentID int64, n int) (RoundView, error) {
	snap, err := s.Snapshot(ctx, tournamentID)
	if err != nil {
		return RoundView{}, err
	}
	return snap.RoundView(n, s.Now())
}

// roundView builds RoundView for round n of the event, its clock at now.
func (e record) roundView(n int, now time.Time) (RoundView, error) {
	r, err := e.round(n)
	if err != nil {
		return RoundView{}, err
	}
	v := RoundView{Round: r, Repeats: e.repeats(r), Labels: e.labels, Clock: e.clocks[r.ID]}
	v.Timer = clockAt(e.t, r, v.Clock, r.Tables, now)
	v.Started = started(r, v.Clock)
	paired := map[int64]bool{}
	for _, t := range r.Tables {
		tv, err := e.tableView(r, t)
		if err != nil {
			return RoundView{}, err
		}
		tv.Clock, _ = v.Timer.Table(t.Number)
		v.Tables = append(v.Tables, tv)
		for _, id := range t.Players {
			paired[id] = true
		}
	}
	for _, id := range r.Byes {
		paired[id] = true
		if p, ok := e.player(id); ok {
			v.Byes = append(v.Byes, p)
		}
	}
	for _, p := range e.players {
		switch {
		case paired[p.ID] && !p.Active(n):
			v.Withdrawn = append(v.Withdrawn, p)
		case !paired[p.ID] && p.Active(n) && p.CheckedIn && r.Mode != ModeFinal:
			// A final stage seats the players of its cut alone.
			v.Missing = append(v.Missing, p)
		}
	}
	sortPlayers(v.Missing)
	sortPlayers(v.Withdrawn)
	return v, nil
}

func (e record) tableView(r Round, t Table) (TableView, error) {
	tv := TableView{Table: t, Result: t.Result, Entered: t.Entered, Locked: t.checkUnlocked(r.Number) != nil}
	for _, id := range t.Players {
		p, _ := e.player(id)
		tv.Players = append(tv.Players, SeatView{PlayerID: id, Name: p.Name, Kana: p.Kana, Label: e.labels[id]})
	}
	if t.Seating != nil {
		for i := range tv.Players {
			for _, st := range t.Seating.Seats {
				if st.PlayerID == tv.Players[i].PlayerID {
					tv.Players[i].Seat, tv.Players[i].Color = st.Order, st.Color
				}
			}
		}
		slices.SortStableFunc(tv.Players, func(a, b SeatView) int { return a.Seat - b.Seat })
	}
	if t.Board != nil {
		b, err := boardOf(e.t.Ruleset, *t.Board)
		if err != nil {
			return TableView{}, fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
		}
		tv.Board = &b
	}
	if t.Result != nil {
		ps, err := e.placings(r.Number, *t.Result)
		if err != nil {
			return TableView{}, fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
		}
		tv.Places = ps
	}
	if t.Entered != nil {
		var err error
		if tv.EnteredPlaces, err = e.placings(r.Number, *t.Entered); err != nil {
			return TableView{}, fmt.Errorf("round %d table %d: %w", r.Number, t.Number, err)
		}
	}
	return tv, nil
}

// placings places a game of round n from a result revision, as place does,
// with each player's score as written, what the penalties took off and the
// penalties that did (docs/rules.md, Penalties: a deduction shows as such).
func (e record) placings(n int, res Result) ([]Placing, error) {
	ps, err := e.place(n, res)
	if err != nil {
		return nil, err
	}
	out := make([]Placing, len(ps))
	for i, p := range ps {
		id := fromPID(p.Player)
		pl := Placing{PlayerID: id, VP: p.VP, Place: p.Place}
		for _, sc := range res.Scores {
			if sc.PlayerID == id {
				pl.Reported = sc.VP
			}
		}
		pl.Deducted = e.t.Ruleset.CapVP(pl.Reported) - p.VP
		for _, x := range e.gamePenalties[entry{n, id}] {
			if x.Level == referee.VPDeduction || x.Level == referee.GameLoss || x.Level == referee.Disqualification {
				pl.Penalties = append(pl.Penalties, x)
			}
		}
		out[i] = pl
	}
	return out, nil
}
