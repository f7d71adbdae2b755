package tournament

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/catanjudge/catanjudge/referee/rating"
	"github.com/catanjudge/catanjudge/referee/season"
)

// RatingModel is the model every rating is computed by: OpenSkill's
// Plackett–Luce with its defaults (a new person μ 25, σ 25/3, ordinal 0).
var RatingModel = rating.Default()

// Day returns the day an event counts on: its date, or for an event
// without one the day it was created (in the server's time zone).
func (e EventStamp) Day() string {
	return cmp.Or(e.Date, e.CreatedAt.Local().Format(time.DateOnly))
}

// outcome is what the reads across events keep of one finished event:
// its games and final ranks by person, read from its record once per
// closing (a finished event changes only by being reopened).
type outcome struct {
	stamp  EventStamp
	rounds [][]rating.Game
	ranks  []season.Ranked
	games  [][]season.Seat
}

// outcomeKey names an outcome: the event, as closed, with the registry's
// merges as they were (a merge moves players to another person).
type outcomeKey struct {
	id     int64
	closed time.Time
	merges int64
}

// finished is every finished event's outcome and the ratings they give,
// as of one stamp of the database: immutable once built.
type finished struct {
	stamp    uint64
	events   []*outcome // by day, then by creation
	byID     map[int64]*outcome
	ledger   *rating.Ledger
	outcomes map[outcomeKey]*outcome
}

// leagueCache keeps the latest finished view. One request rebuilds it at a
// time; the others wait for it rather than read every event again.
type leagueCache struct {
	mu   sync.Mutex
	view *finished
}

// finishedEvents returns the finished events' view, rebuilt when an event
// was closed, reopened or imported, or people merged, since the last: a
// stamp of the events and merges decides, on every server of a database
// alike. Events that did not change keep their outcome.
func (s *Service) finishedEvents(ctx context.Context) (*finished, error) {
	stamps, err := s.store.EventStamps(ctx)
	if err != nil {
		return nil, err
	}
	merges, err := s.store.MergeCount(ctx)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "m%d;", merges)
	var done []EventStamp
	for _, e := range stamps {
		if e.Closed != nil {
			done = append(done, e)
			fmt.Fprintf(h, "%d@%d/%s;", e.ID, e.Closed.UnixNano(), e.Day())
		}
	}
	c := s.leagues
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.view != nil && c.view.stamp == h.Sum64() {
		return c.view, nil
	}
	old := map[outcomeKey]*outcome{}
	if c.view != nil {
		old = c.view.outcomes
	}
	v := &finished{stamp: h.Sum64(), byID: map[int64]*outcome{}, outcomes: map[outcomeKey]*outcome{}}
	for _, e := range done {
		k := outcomeKey{e.ID, *e.Closed, merges}
		o, ok := old[k]
		if !ok {
			if o, err = s.outcomeOf(ctx, e); err != nil {
				return nil, err
			}
		}
		v.outcomes[k], v.byID[e.ID] = o, o
		v.events = append(v.events, o)
	}
	slices.SortStableFunc(v.events, func(a, b *outcome) int { return compareEvents(a.stamp, b.stamp) })
	games := make([]rating.Event, len(v.events))
	for i, o := range v.events {
		games[i] = rating.Event{ID: eventKey(o.stamp.ID), Date: o.stamp.Day(), Seq: o.stamp.CreatedAt.UnixNano(), Rounds: o.rounds}
	}
	if v.ledger, err = rating.Replay(RatingModel, games); err != nil {
		return nil, err
	}
	c.view = v
	return v, nil
}

// compareEvents orders events as they were played: by day, then in the
// order they were entered.
func compareEvents(a, b EventStamp) int {
	return cmp.Or(cmp.Compare(a.Day(), b.Day()), a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
}

// eventKey is an event's ID as the referee's season and rating packages
// name events.
func eventKey(id int64) string { return strconv.FormatInt(id, 10) }

// outcomeOf reads a finished event's record into its outcome: every table
// with a result is a game, the final's included; each person's final rank.
func (s *Service) outcomeOf(ctx context.Context, e EventStamp) (*outcome, error) {
	er, err := s.EventResults(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	person := func(pid int64) int64 {
		p, _ := er.Player(pid)
		return p.PersonID
	}
	o := &outcome{stamp: e}
	for _, rr := range er.Rounds {
		var round []rating.Game
		for _, tv := range rr.Tables {
			if tv.Result == nil || len(tv.Places) < 2 {
				continue
			}
			var g rating.Game
			var seats []season.Seat
			for _, pl := range tv.Places {
				if p := person(pl.PlayerID); p != 0 {
					g.Players, g.Places = append(g.Players, p), append(g.Places, pl.Place)
					seats = append(seats, season.Seat{Player: p, Place: pl.Place, VP: pl.VP})
				}
			}
			if len(g.Players) >= 2 {
				round = append(round, g)
				o.games = append(o.games, seats)
			}
		}
		if len(round) > 0 {
			o.rounds = append(o.rounds, round)
		}
	}
	for _, p := range er.Players {
		if r := er.Rank(p.ID); r > 0 && p.PersonID != 0 {
			o.ranks = append(o.ranks, season.Ranked{Player: p.PersonID, Rank: r})
		}
	}
	return o, nil
}

// PersonRating is a person's rating, with the history that led to it.
type PersonRating struct {
	PersonID int64
	Rating   rating.Rating
	Games    int
	History  []RatingPoint // one point per event, in the order rated
}

// RatingPoint is what one event did to a person's rating.
type RatingPoint struct {
	Event         EventStamp
	Before, After rating.Rating
	Games         int
}

// Rating returns person id's rating from every finished event's games,
// with its history; a person without a game has a new player's rating.
func (s *Service) Rating(ctx context.Context, id int64) (PersonRating, error) {
	if _, err := s.store.Person(ctx, id); err != nil {
		return PersonRating{}, err
	}
	v, err := s.finishedEvents(ctx)
	if err != nil {
		return PersonRating{}, err
	}
	return v.rating(id), nil
}

func (v *finished) rating(id int64) PersonRating {
	out := PersonRating{PersonID: id, Rating: v.ledger.Rating(id), Games: v.ledger.Games(id)}
	for _, p := range v.ledger.History(id) {
		tid, _ := strconv.ParseInt(p.Event, 10, 64)
		out.History = append(out.History, RatingPoint{Event: v.byID[tid].stamp, Before: p.Before, After: p.After, Games: p.Games})
	}
	return out
}

// RatingsPageSize is how many people a page of the ratings lists.
const RatingsPageSize = 100

// RatedPerson is a line of the ratings list.
type RatedPerson struct {
	Rank   int // by ordinal; equal ordinals share a rank
	Person Person
	Rating rating.Rating
	Games  int
}

// RatingsPage is one page of the ratings list.
type RatingsPage struct {
	People      []RatedPerson
	Total       int
	Page, Pages int // from 1
}

// Ratings lists the people of the registry (not archived) who played at
// least minGames rated games (1 at least), by ordinal, best first, a page
// at a time (from 1).
func (s *Service) Ratings(ctx context.Context, minGames, page int) (RatingsPage, error) {
	v, err := s.finishedEvents(ctx)
	if err != nil {
		return RatingsPage{}, err
	}
	var ids []int64
	for _, p := range v.ledger.Players() {
		if v.ledger.Games(p) >= max(minGames, 1) {
			ids = append(ids, p)
		}
	}
	people, err := s.store.PeopleByID(ctx, ids)
	if err != nil {
		return RatingsPage{}, err
	}
	var all []RatedPerson
	for _, p := range people {
		if g := v.ledger.Games(p.ID); p.Archived == nil {
			all = append(all, RatedPerson{Person: p, Rating: v.ledger.Rating(p.ID), Games: g})
		}
	}
	slices.SortStableFunc(all, func(a, b RatedPerson) int {
		return cmp.Or(cmp.Compare(b.Rating.Ordinal(), a.Rating.Ordinal()), cmp.Compare(a.Person.ID, b.Person.ID))
	})
	for i := range all {
		all[i].Rank = i + 1
		if i > 0 && all[i].Rating.Ordinal() == all[i-1].Rating.Ordinal() {
			all[i].Rank = all[i-1].Rank
		}
	}
	page = max(page, 1)
	out := RatingsPage{Total: len(all), Page: page, Pages: max(1, (len(all)+RatingsPageSize-1)/RatingsPageSize)}
	if from := (page - 1) * RatingsPageSize; from < len(all) {
		out.People = all[from:min(len(all), from+RatingsPageSize)]
	}
	return out, nil
}

// RatingsOf returns the ratings of people, by person: what the registry's
// pages show beside each.
func (s *Service) RatingsOf(ctx context.Context, people []int64) (map[int64]PersonRating, error) {
	v, err := s.finishedEvents(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]PersonRating, len(people))
	for _, id := range people {
		out[id] = PersonRating{PersonID: id, Rating: v.ledger.Rating(id), Games: v.ledger.Games(id)}
	}
	return out, nil
}

// maxRegistrySort bounds the people a registry's list sorts by rating at
// once: the judges' list, never a public one.
const maxRegistrySort = 100_000

// PeopleByRating lists a page of the registry as People does (the same
// search, the same people), by rating: the ordinal, best first; people
// without a game last, by reading.
func (s *Service) PeopleByRating(ctx context.Context, q string, archived bool, page int) (PeoplePage, error) {
	if r := []rune(strings.TrimSpace(q)); len(r) > maxPeopleSearch {
		q = string(r[:maxPeopleSearch])
	}
	all, total, err := s.store.People(ctx, PeopleQuery{Q: FoldReading(q), Archived: archived, Limit: maxRegistrySort})
	if err != nil {
		return PeoplePage{}, err
	}
	v, err := s.finishedEvents(ctx)
	if err != nil {
		return PeoplePage{}, err
	}
	slices.SortStableFunc(all, func(a, b PersonEntry) int {
		ga, gb := v.ledger.Games(a.ID) > 0, v.ledger.Games(b.ID) > 0
		if ga != gb {
			if ga {
				return -1
			}
			return 1
		}
		return cmp.Compare(v.ledger.Rating(b.ID).Ordinal(), v.ledger.Rating(a.ID).Ordinal())
	})
	page = max(page, 1)
	out := PeoplePage{Total: total, Page: page, Pages: max(1, (total+PeoplePageSize-1)/PeoplePageSize)}
	if from := (page - 1) * PeoplePageSize; from < len(all) {
		out.People = all[from:min(len(all), from+PeoplePageSize)]
	}
	return out, nil
}
