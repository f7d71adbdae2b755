package tournament

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/catanjudge/catanjudge/referee/season"
)

// The audit actions of the reads across events' writes, outside any
// tournament but an imported event's.
const (
	ActionSeasonCreate = "season.create"
	ActionRealName     = "person.real_name"
	ActionImportEvent  = "tournament.import"
)

// The bounds of a season's lists.
const (
	maxSeasonShops  = 50
	maxSeasonEvents = 500
	MaxSeasonRunes  = 100
)

var (
	fieldSeasonName = textField{name: "season-name", max: MaxSeasonRunes}
	fieldRealName   = textField{name: "real-name", max: MaxNameRunes}
)

// SeasonInput is what a head judge enters for a season.
type SeasonInput struct {
	Name, From, To string
	Shops          []string
	Events         []int64
	Formula        season.Formula
	// Qualification, when given, makes the season a qualification; its
	// zero Attempts and Rank take the defaults (season.DefaultAttempts,
	// 1st).
	Qualification *Qualification
}

// checkHeadJudge refuses a season's change by a judge who may not make
// it. Every judge is the head judge until the console knows roles (issue
// 27): the role check goes here, for every change of a season.
func checkHeadJudge(judge string) error { return checkJudge(judge) }

// CreateSeason adds a season: its name, its dates (both days included),
// the shops or the events it gathers and its formula, checked as the
// referee scores them; optionally its qualification.
func (s *Service) CreateSeason(ctx context.Context, judge string, in SeasonInput) (Season, error) {
	if err := checkHeadJudge(judge); err != nil {
		return Season{}, err
	}
	se, err := s.checkSeason(ctx, in)
	if err != nil {
		return Season{}, err
	}
	se.CreatedBy, se.CreatedAt = judge, s.now().UTC()
	if err := s.store.CreateSeason(ctx, &se, s.change(judge, ActionSeasonCreate, "season "+se.Name, nil, &se)); err != nil {
		return Season{}, err
	}
	return se, nil
}

func (s *Service) checkSeason(ctx context.Context, in SeasonInput) (Season, error) {
	name, err := fieldSeasonName.clean(in.Name)
	if err != nil {
		return Season{}, err
	}
	if name == "" {
		return Season{}, invalid("season-name-missing", "the season needs a name", nil)
	}
	se := Season{Name: name, From: strings.TrimSpace(in.From), To: strings.TrimSpace(in.To), Formula: in.Formula}
	for _, d := range []string{se.From, se.To} {
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			return Season{}, invalid("date-format", fmt.Sprintf("date %q is not a date like 2025-11-22", d), map[string]any{"Date": d})
		}
	}
	if se.To < se.From {
		return Season{}, invalid("season-dates-reversed", fmt.Sprintf("the season ends on %s, before it starts on %s", se.To, se.From),
			map[string]any{"From": se.From, "To": se.To})
	}
	if len(in.Shops) > maxSeasonShops || len(in.Events) > maxSeasonEvents {
		return Season{}, invalid("season-too-long", fmt.Sprintf("a season names at most %d shops and %d events", maxSeasonShops, maxSeasonEvents),
			map[string]any{"Shops": maxSeasonShops, "Events": maxSeasonEvents})
	}
	for _, shop := range in.Shops {
		shop, err := fieldShop.clean(shop)
		if err != nil {
			return Season{}, err
		}
		if shop != "" && !slices.Contains(se.Shops, shop) {
			se.Shops = append(se.Shops, shop)
		}
	}
	if err := in.Formula.Check(); err != nil {
		return Season{}, err
	}
	stamps, err := s.store.EventStamps(ctx)
	if err != nil {
		return Season{}, err
	}
	known := func(ids []int64) ([]int64, error) {
		var out []int64
		for _, id := range ids {
			if !slices.ContainsFunc(stamps, func(e EventStamp) bool { return e.ID == id }) {
				return nil, invalid("season-event-unknown", fmt.Sprintf("tournament %d does not exist", id), map[string]any{"ID": id})
			}
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out, nil
	}
	if se.Events, err = known(in.Events); err != nil {
		return Season{}, err
	}
	if q := in.Qualification; q != nil {
		sq := *q
		if sq.Attempts == 0 {
			sq.Attempts = season.DefaultAttempts
		}
		if sq.Rank == 0 {
			sq.Rank = 1
		}
		if err := sq.rule().Check(); err != nil {
			return Season{}, err
		}
		if sq.Events, err = known(q.Events); err != nil {
			return Season{}, err
		}
		se.Qualification = &sq
	}
	return se, nil
}

// rule is the qualification as the referee keeps it.
func (q Qualification) rule() season.Qualification {
	out := season.Qualification{Attempts: q.Attempts, Rank: q.Rank, RealName: q.RealName}
	for _, id := range q.Events {
		out.Events = append(out.Events, eventKey(id))
	}
	return out
}

// Season returns a season.
func (s *Service) Season(ctx context.Context, id int64) (Season, error) {
	return s.store.Season(ctx, id)
}

// Seasons lists every season, the latest first.
func (s *Service) Seasons(ctx context.Context) ([]Season, error) { return s.store.Seasons(ctx) }

// SeasonStandings is a season's standings as its page and sheet show them.
type SeasonStandings struct {
	Season Season
	// Events are the season's finished events, by date; Pending those
	// not finished yet, which do not count until they are.
	Events, Pending []EventStamp
	Lines           []SeasonLine
}

// SeasonLine is a person's line of a season's standings.
type SeasonLine struct {
	Rank    int
	Person  Person
	Points  *big.Rat
	Events  int
	Results []SeasonResult // best first: the counted ones lead
}

// SeasonResult is one event of a person's season.
type SeasonResult struct {
	Event   EventStamp
	Rank    int
	Points  *big.Rat
	Counted bool
}

// SeasonStandings scores a season's finished events by its formula.
func (s *Service) SeasonStandings(ctx context.Context, id int64) (SeasonStandings, error) {
	se, err := s.store.Season(ctx, id)
	if err != nil {
		return SeasonStandings{}, err
	}
	v, err := s.finishedEvents(ctx)
	if err != nil {
		return SeasonStandings{}, err
	}
	out := SeasonStandings{Season: se}
	events, err := s.seasonEvents(ctx, se, v, &out.Pending)
	if err != nil {
		return SeasonStandings{}, err
	}
	for _, o := range events {
		out.Events = append(out.Events, o.stamp)
	}
	lines := season.Standings(se.Formula, refereeEvents(events))
	people, err := s.peopleOf(ctx, lineIDs(lines))
	if err != nil {
		return SeasonStandings{}, err
	}
	for _, l := range lines {
		sl := SeasonLine{Rank: l.Rank, Person: people[l.Player], Points: l.Points, Events: l.Events}
		for _, r := range l.Results {
			sl.Results = append(sl.Results, SeasonResult{Event: v.byID[eventID(r.Event)].stamp, Rank: r.Rank, Points: r.Points, Counted: r.Counted})
		}
		out.Lines = append(out.Lines, sl)
	}
	return out, nil
}

// seasonEvents returns the outcomes of the season's finished events by
// date, and adds the season's events not finished to pending.
func (s *Service) seasonEvents(ctx context.Context, se Season, v *finished, pending *[]EventStamp) ([]*outcome, error) {
	var out []*outcome
	for _, o := range v.events {
		if se.Holds(o.stamp) {
			out = append(out, o)
		}
	}
	stamps, err := s.store.EventStamps(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range stamps {
		if e.Closed == nil && se.Holds(e) {
			*pending = append(*pending, e)
		}
	}
	slices.SortStableFunc(*pending, compareEvents)
	return out, nil
}

func refereeEvents(events []*outcome) []season.Event {
	out := make([]season.Event, len(events))
	for i, o := range events {
		out[i] = season.Event{ID: eventKey(o.stamp.ID), Date: o.stamp.Day(), Seq: o.stamp.CreatedAt.UnixNano(), Ranks: o.ranks, Games: o.games}
	}
	return out
}

func lineIDs(lines []season.Line) []int64 {
	out := make([]int64, len(lines))
	for i, l := range lines {
		out[i] = l.Player
	}
	return out
}

func eventID(key string) int64 {
	var id int64
	fmt.Sscan(key, &id)
	return id
}

// peopleOf reads the people ids of the registry, by ID.
func (s *Service) peopleOf(ctx context.Context, ids []int64) (map[int64]Person, error) {
	people, err := s.store.PeopleByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]Person, len(people))
	for _, p := range people {
		out[p.ID] = p
	}
	return out, nil
}

// RoundPoints is a season's points as every page and sheet shows them: to
// 2 decimals (the standings compare them exactly).
func RoundPoints(r *big.Rat) float64 {
	f, _ := r.Float64()
	return math.Round(f*100) / 100
}
