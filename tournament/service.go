package tournament

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/referee"
)

// RulesetSource provides the rulesets a server offers, by name
// (config.Rulesets is one).
type RulesetSource interface {
	Get(name string) (referee.Ruleset, bool)
}

// Service holds the use cases. A change validates its input, reads from
// the store only what its decision needs (a table's facts for a change at
// a table), computes with the referee, and makes one Store call that
// writes the change and its audit entry in one transaction. A read asks
// the tournament's Snapshot, which is read from the store once per change
// and shared by every reader (Snapshot). Judge identity is an argument: the
// web layer knows who is logged in (APIActor for the API token).
type Service struct {
	store          Store
	snapshots      *Snapshots
	revisions      tableReads[[]Result]
	rulings        tableReads[[]Ruling]
	games          tableReads[Game]
	calls          tableReads[[]Call] // by tournament
	rulesets       RulesetSource
	now            func() time.Time
	seed           func() uint64
	defaultRuleset string
	leagues        *leagueCache // the reads across events (ratings.go)
}

// Option configures a Service.
type Option func(*Service)

// WithSeeds sets the source of the seeds the service draws for pairings,
// seatings and boards; every seed drawn is recorded, so the outcome replays.
// The default draws from math/rand/v2's randomly seeded generator.
func WithSeeds(seed func() uint64) Option { return func(s *Service) { s.seed = seed } }

// NewService returns the use cases over store, with the rulesets offered
// and a clock.
func NewService(store Store, rulesets RulesetSource, now func() time.Time, opts ...Option) *Service {
	s := &Service{
		store:    store,
		rulesets: rulesets,
		now:      now,
		seed:     NewSeed,
		// The built-in preset of the rulebook (config.DefaultRuleset).
		defaultRuleset: "proshop-2003",
		leagues:        &leagueCache{},
	}
	for _, o := range opts {
		o(s)
	}
	s.snapshots = NewSnapshots(store)
	return s
}

// Snapshot returns a tournament's snapshot for a read: as new as every
// change this server knows of, and at least the version the request's
// client has seen (WithSeen), which it raises to the snapshot's.
func (s *Service) Snapshot(ctx context.Context, tournamentID int64) (*Snapshot, error) {
	seen := SeenFrom(ctx)
	snap, err := s.snapshots.Get(ctx, tournamentID, seen.Version(tournamentID))
	if err != nil {
		return nil, err
	}
	seen.Saw(tournamentID, snap.Version())
	return snap, nil
}

// Snapshots returns the service's snapshots, for the server to tell of the
// changes other servers commit (Snapshots.Committed, Lost, Resync).
func (s *Service) Snapshots() *Snapshots { return s.snapshots }

// change returns the audit description of a change made now by judge.
func (s *Service) change(judge, action, subject string, before, after any) Change {
	return Change{Judge: judge, At: s.now().UTC(), Action: action, Subject: subject, Before: before, After: after}
}

// checkJudge reports a change attempted without a judge, or by a judge
// named with text the audit log must not hold.
func checkJudge(judge string) error {
	_, err := CheckJudgeName(judge)
	return err
}

// pid is a player's ID as the referee knows it.
func pid(id int64) string { return strconv.FormatInt(id, 10) }

func pids(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = pid(id)
	}
	return out
}

// fromPID reads back an ID the service gave the referee.
func fromPID(s string) int64 {
	id, _ := strconv.ParseInt(s, 10, 64)
	return id
}

func fromPIDs(ss []string) []int64 {
	if len(ss) == 0 {
		return nil
	}
	out := make([]int64, len(ss))
	for i, s := range ss {
		out[i] = fromPID(s)
	}
	return out
}

// snapshot copies v for an audit entry's Before, so later edits of v do not show.
func snapshot(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return json.RawMessage(b)
}

// TournamentInput is what an organizer enters for a tournament.
type TournamentInput struct {
	Name        string
	Date        string // YYYY-MM-DD, optional
	Venue       string
	Shop        string // the shop that runs the event, optional
	Ruleset     string // a ruleset name; empty for the default
	Rounds      int
	GameMinutes int // 0 for the ruleset's game time
	SelfCheckIn bool
	SelfReport  string // SelfReportOff (or ""), SelfReportApprove or SelfReportAuto
	// ConfirmResults is the two-person rule (Tournament.ConfirmResults).
	ConfirmResults bool
	// Team makes it a team event (Tournament.Team), until round 1 is paired.
	Team bool
}

func (in TournamentInput) check() (TournamentInput, error) {
	var err error
	if in.Name, err = fieldTournamentName.clean(in.Name); err != nil {
		return in, err
	}
	if in.Venue, err = fieldVenue.clean(in.Venue); err != nil {
		return in, err
	}
	if in.Shop, err = fieldShop.clean(in.Shop); err != nil {
		return in, err
	}
	in.Date = strings.TrimSpace(in.Date)
	if in.SelfReport, err = checkSelfReportMode(in.SelfReport); err != nil {
		return in, err
	}
	switch {
	case in.Name == "":
		return in, invalid("tournament-name-missing", "the tournament needs a name", nil)
	case in.Rounds < 1 || in.Rounds > 30:
		return in, invalid("rounds-out-of-range", fmt.Sprintf("rounds must be between 1 and 30, got %d", in.Rounds),
			map[string]any{"Rounds": in.Rounds, "Min": 1, "Max": 30})
	case in.GameMinutes < 0 || in.GameMinutes > 240:
		return in, invalid("game-minutes-out-of-range", fmt.Sprintf("game minutes must be between 1 and 240, got %d", in.GameMinutes),
			map[string]any{"Minutes": in.GameMinutes, "Min": 1, "Max": 240})
	}
	if in.Date != "" {
		if _, err := time.Parse(time.DateOnly, in.Date); err != nil {
			return in, invalid("date-format", fmt.Sprintf("date %q is not a date like 2025-11-22", in.Date),
				map[string]any{"Date": in.Date})
		}
	}
	return in, nil
}

// CreateTournament creates a tournament under a copy of the named ruleset.
func (s *Service) CreateTournament(ctx context.Context, judge string, in TournamentInput) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	in, err := in.check()
	if err != nil {
		return Tournament{}, err
	}
	name := cmp.Or(strings.TrimSpace(in.Ruleset), s.defaultRuleset)
	rs, ok := s.rulesets.Get(name)
	if !ok {
		return Tournament{}, invalid("unknown-ruleset", fmt.Sprintf("unknown ruleset %q", name), map[string]any{"Ruleset": name})
	}
	t := Tournament{
		Name:        in.Name,
		Date:        in.Date,
		Venue:       in.Venue,
		Shop:        in.Shop,
		Ruleset:     rs,
		Rounds:      in.Rounds,
		GameMinutes: cmp.Or(in.GameMinutes, rs.GameMinutes),
		SelfCheckIn: in.SelfCheckIn,
		SelfReport:  in.SelfReport,
		// The two-person rule (issue 27).
		ConfirmResults: in.ConfirmResults,
		Team:           in.Team,
		CreatedAt:      s.now().UTC(),
	}
	c := s.change(judge, "tournament.create", "tournament "+t.Name, nil, &t)
	if err := s.store.CreateTournament(ctx, &t, c); err != nil {
		return Tournament{}, err
	}
	return t, nil
}

// EditTournament changes a tournament's name, date, venue, rounds, game
// time, whether players check themselves in and what their reports do.
// The ruleset stays the copy made at creation; in.Ruleset is ignored.
func (s *Service) EditTournament(ctx context.Context, judge string, id int64, in TournamentInput) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	in, err := in.check()
	if err != nil {
		return Tournament{}, err
	}
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	prog, err := s.store.Progress(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	if in.Rounds < prog.Paired {
		return Tournament{}, invalid("rounds-below-paired",
			fmt.Sprintf("%d rounds are already paired; rounds cannot be %d", prog.Paired, in.Rounds),
			map[string]any{"Paired": prog.Paired, "Rounds": in.Rounds})
	}
	minutes := cmp.Or(in.GameMinutes, t.Ruleset.GameMinutes)
	if minutes != t.GameMinutes && prog.Clocked {
		// Every round's clock is computed from the game time (§12): a new
		// time would move the deadlines of a running round, and rewrite
		// those of the rounds played.
		return Tournament{}, invalid("game-minutes-clock-started",
			fmt.Sprintf("the game time stays %d minutes once a round's clock has started; %d minutes refused", t.GameMinutes, minutes),
			map[string]any{"Minutes": t.GameMinutes, "Given": minutes})
	}
	if err := checkTeamEventChange(t, in.Team, prog); err != nil {
		return Tournament{}, err
	}
	read := t
	t.Team = in.Team
	t.Name, t.Date, t.Venue, t.Rounds, t.GameMinutes = in.Name, in.Date, in.Venue, in.Rounds, minutes
	t.Shop = in.Shop
	t.SelfCheckIn, t.SelfReport, t.ConfirmResults = in.SelfCheckIn, in.SelfReport, in.ConfirmResults
	// Only what this edit changes is written: another judge's change of
	// another setting since the read stays.
	c := s.change(judge, "tournament.edit", "tournament "+t.Name, snapshot(read), t)
	if err := s.store.UpdateTournament(ctx, read, t, prog, c); err != nil {
		return Tournament{}, err
	}
	return s.store.Tournament(ctx, id)
}

// TournamentPatch is a change of some of a tournament's settings: a nil
// field stays as it is.
type TournamentPatch struct {
	Name, Date, Venue *string
	Shop              *string
	Rounds            *int
	GameMinutes       *int // 0 for the ruleset's game time
	SelfCheckIn       *bool
	SelfReport        *string
	ConfirmResults    *bool
	Team              *bool
}

// PatchTournament changes the settings p gives and keeps the others, by
// EditTournament's rules.
func (s *Service) PatchTournament(ctx context.Context, judge string, id int64, p TournamentPatch) (Tournament, error) {
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	in := TournamentInput{Name: t.Name, Date: t.Date, Venue: t.Venue, Shop: t.Shop, Rounds: t.Rounds, GameMinutes: t.GameMinutes,
		SelfCheckIn: t.SelfCheckIn, SelfReport: t.SelfReport, ConfirmResults: t.ConfirmResults, Team: t.Team}
	set(&in.Name, p.Name)
	set(&in.Date, p.Date)
	set(&in.Venue, p.Venue)
	set(&in.Shop, p.Shop)
	set(&in.Rounds, p.Rounds)
	set(&in.GameMinutes, p.GameMinutes)
	set(&in.SelfCheckIn, p.SelfCheckIn)
	set(&in.SelfReport, p.SelfReport)
	set(&in.ConfirmResults, p.ConfirmResults)
	set(&in.Team, p.Team)
	return s.EditTournament(ctx, judge, id, in)
}

// set sets *to to *from when from is given.
func set[T any](to *T, from *T) {
	if from != nil {
		*to = *from
	}
}

// The audit actions of closing and reopening a tournament: the only
// changes a finished tournament takes.
const (
	ActionClose  = "tournament.close"
	ActionReopen = "tournament.reopen"
)

// closeTournament closes a tournament once every table paired has its
// result: its standings are final, the round's clock stops, and no change
// is taken until a judge reopens it. A tournament may close before all its
// planned rounds are played (the organizer ends the event); the standings
// are those of the rounds played.
func (s *Service) closeTournament(ctx context.Context, judge string, id int64) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	closure := Closure{Judge: judge, At: s.now().UTC()}
	c := s.change(judge, ActionClose, "tournament "+t.Name, nil, closure)
	if err := s.store.SetClosed(ctx, id, &closure, c); err != nil {
		return Tournament{}, err
	}
	t.Closed = &closure
	return t, nil
}

// ReopenTournament reopens a closed tournament, for a correction found
// after the close; the reason is required and recorded with who and when.
func (s *Service) ReopenTournament(ctx context.Context, judge string, id int64, reason string) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Tournament{}, invalid("reopen-reason-missing", "reopening a tournament needs a reason", nil)
	}
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	c := s.change(judge, ActionReopen, "tournament "+t.Name, t.Closed, map[string]string{"reason": reason})
	if err := s.store.SetClosed(ctx, id, nil, c); err != nil {
		return Tournament{}, err
	}
	t.Closed = nil
	return t, nil
}

// GetTournament returns a tournament.
func (s *Service) GetTournament(ctx context.Context, id int64) (Tournament, error) {
	snap, err := s.Snapshot(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	return snap.Tournament(), nil
}

// ListTournaments returns every tournament, newest first.
func (s *Service) ListTournaments(ctx context.Context) ([]Tournament, error) {
	return s.store.Tournaments(ctx)
}

// ListedTournaments returns the tournaments not archived or, when
// archived is true, the archived ones: by the event's date, the latest
// first (one without a date, still being planned, at the top), then the
// newest first.
func (s *Service) ListedTournaments(ctx context.Context, archived bool) ([]Tournament, error) {
	ts, err := s.store.Tournaments(ctx)
	if err != nil {
		return nil, err
	}
	out := ts[:0]
	for _, t := range ts {
		if (t.Archived != nil) == archived {
			out = append(out, t)
		}
	}
	day := func(t Tournament) string {
		if t.Date == "" {
			return "9999-99-99"
		}
		return t.Date
	}
	slices.SortStableFunc(out, func(a, b Tournament) int { return strings.Compare(day(b), day(a)) })
	return out, nil
}

// The audit actions of archiving, listing again and deleting a tournament.
// Archiving takes a finished tournament (it is what is done with one).
const (
	ActionArchive   = "tournament.archive"
	ActionUnarchive = "tournament.unarchive"
	ActionDelete    = "tournament.delete"
)

// ArchiveTournament archives a tournament: it is kept whole, and left off
// the console's list of tournaments and the landing page.
func (s *Service) ArchiveTournament(ctx context.Context, judge string, id int64) (Tournament, error) {
	return s.setArchived(ctx, judge, id, true)
}

// UnarchiveTournament lists an archived tournament again.
func (s *Service) UnarchiveTournament(ctx context.Context, judge string, id int64) (Tournament, error) {
	return s.setArchived(ctx, judge, id, false)
}

func (s *Service) setArchived(ctx context.Context, judge string, id int64, archive bool) (Tournament, error) {
	if err := checkJudge(judge); err != nil {
		return Tournament{}, err
	}
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return Tournament{}, err
	}
	if archive == (t.Archived != nil) {
		return t, nil // already so: nothing to change or log
	}
	var a *Archival
	action := ActionUnarchive
	if archive {
		a, action = &Archival{Judge: judge, At: s.now().UTC()}, ActionArchive
	}
	if err := s.store.SetArchived(ctx, id, a, s.change(judge, action, "tournament "+t.Name, t.Archived, a)); err != nil {
		return Tournament{}, err
	}
	t.Archived = a
	return t, nil
}

// deletedTournament is what the audit log keeps of a deleted tournament.
type deletedTournament struct {
	ID        int64
	Name      string
	Date      string
	Venue     string
	Players   int
	CreatedAt time.Time
}

// DeleteTournament deletes a tournament that never started (no round
// paired), with its players; one that started is refused with the Conflict
// tournament-started: archive it instead. The audit log keeps who deleted
// which tournament (its ID, name, date, venue and player count) in the
// entries outside any tournament.
func (s *Service) DeleteTournament(ctx context.Context, judge string, id int64) error {
	if err := checkJudge(judge); err != nil {
		return err
	}
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return err
	}
	if t.Paired > 0 {
		return StartedConflict(id, t.Paired)
	}
	if err := t.checkDeletable(); err != nil {
		return err
	}
	ps, err := s.store.Players(ctx, id)
	if err != nil {
		return err
	}
	gone := deletedTournament{ID: t.ID, Name: t.Name, Date: t.Date, Venue: t.Venue, Players: len(ps), CreatedAt: t.CreatedAt}
	return s.store.DeleteTournament(ctx, id, s.change(judge, ActionDelete, "tournament "+t.Name, gone, nil))
}

// StartedConflict is the refusal to delete tournament id, which has paired
// rounds (the service checks first; the store again under the lock).
func StartedConflict(id int64, paired int) error {
	return Conflict("tournament-started",
		fmt.Sprintf("tournament %d has %d rounds paired: only a tournament that never started can be deleted; archive it instead", id, paired),
		map[string]any{"Paired": paired})
}

// AuditLog returns a tournament's audit log, newest first.
func (s *Service) AuditLog(ctx context.Context, tournamentID int64) ([]AuditEntry, error) {
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return nil, err
	}
	return s.store.AuditLog(ctx, tournamentID)
}

// sortedIDs returns ids sorted, without repeats.
func sortedIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// describe names a player for people: "player 12 (青木)".
func describe(p Player) string { return fmt.Sprintf("player %d (%s)", p.ID, p.Name) }

// NewSeed draws a seed for a pairing, a board or a seating that nobody
// chose, within JavaScript's exact integers (53 bits), so that a seed read
// from the JSON API by a browser replays the same outcome.
func NewSeed() uint64 { return rand.Uint64() >> 11 }
