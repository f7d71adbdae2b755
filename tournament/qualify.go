package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/season"
)

// QualificationLedger is a qualification season's attempts, person by
// person: for judges (it carries the real names).
type QualificationLedger struct {
	Season Season
	Rule   season.Qualification
	Events []EventStamp // the events that count as attempts, by date; open ones too
	People []QualificationEntry
}

// QualificationEntry is a person's line of the ledger.
type QualificationEntry struct {
	Person     Person
	RealName   *RealName // nil while none is recorded
	Attempts   []QualificationAttempt
	Used, Left int
	Qualified  *QualificationAttempt // the attempt that qualified them; nil for none
}

// QualificationAttempt is one counting event a person entered.
type QualificationAttempt struct {
	Event  EventStamp
	Number int
	Rank   int // the final rank; 0 while the event is open
	Over   bool
}

// errNotQualification refuses the qualification of a season that has none.
func errNotQualification(se Season) error {
	return invalid("season-not-qualification", fmt.Sprintf("season %d (%s) is no qualification", se.ID, se.Name), map[string]any{"Season": se.Name})
}

// Qualification returns the ledger of a qualification season: who used
// which attempts, in the order the events were played, and who qualified
// by which result.
func (s *Service) Qualification(ctx context.Context, id int64) (QualificationLedger, error) {
	se, err := s.store.Season(ctx, id)
	if err != nil {
		return QualificationLedger{}, err
	}
	if se.Qualification == nil {
		return QualificationLedger{}, errNotQualification(se)
	}
	v, err := s.finishedEvents(ctx)
	if err != nil {
		return QualificationLedger{}, err
	}
	stamps, err := s.store.EventStamps(ctx)
	if err != nil {
		return QualificationLedger{}, err
	}
	rule := se.Qualification.rule()
	out := QualificationLedger{Season: se, Rule: rule}
	var events []season.Event
	var ids []int64
	byID := map[int64]EventStamp{}
	for _, e := range stamps {
		if !se.Holds(e) || !rule.Counts(eventKey(e.ID)) {
			continue
		}
		out.Events, ids, byID[e.ID] = append(out.Events, e), append(ids, e.ID), e
		ev := season.Event{ID: eventKey(e.ID), Date: e.Day(), Seq: e.CreatedAt.UnixNano()}
		if o, ok := v.byID[e.ID]; ok {
			ev.Ranks = o.ranks
		}
		events = append(events, ev)
	}
	slices.SortStableFunc(out.Events, compareEvents)
	entrants, err := s.store.Entrants(ctx, ids)
	if err != nil {
		return QualificationLedger{}, err
	}
	byKey := map[string][]int64{}
	for id, people := range entrants {
		byKey[eventKey(id)] = people
	}
	entries := rule.Ledger(events, byKey)
	people := make([]int64, len(entries))
	for i, en := range entries {
		people[i] = en.Player
	}
	named, err := s.peopleOf(ctx, people)
	if err != nil {
		return QualificationLedger{}, err
	}
	real, err := s.store.RealNames(ctx, people)
	if err != nil {
		return QualificationLedger{}, err
	}
	attempt := func(a season.Attempt) QualificationAttempt {
		return QualificationAttempt{Event: byID[eventID(a.Event)], Number: a.Number, Rank: a.Rank, Over: a.Over}
	}
	for _, en := range entries {
		qe := QualificationEntry{Person: named[en.Player], Used: en.Used, Left: en.Left}
		if r, ok := real[en.Player]; ok {
			qe.RealName = &r
		}
		for _, a := range en.Attempts {
			qe.Attempts = append(qe.Attempts, attempt(a))
		}
		if en.Qualified != nil {
			a := attempt(*en.Qualified)
			qe.Qualified = &a
		}
		out.People = append(out.People, qe)
	}
	return out, nil
}

// QualificationNote is where a person stands in a qualification that an
// event counts for, as the desk says it at check-in.
type QualificationNote struct {
	Season   Season
	Attempt  int // this event's attempt: the events entered before, plus this one
	Attempts int // allowed
	Used     int // the counting events entered before this one
	// Refused is the refusal of a check-in: every attempt used.
	Refused error
	// RealNameMissing says the qualification wants a real name the
	// registry does not have of the person yet.
	RealNameMissing bool
}

// qualifying is the qualification seasons event tid counts for, with the
// events each counts as attempts.
type qualifying struct {
	season Season
	rule   season.Qualification
	events []int64
}

// qualificationsOf returns the qualifications event tid is an attempt of.
func (s *Service) qualificationsOf(ctx context.Context, tid int64) ([]qualifying, error) {
	seasons, err := s.store.Seasons(ctx)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(seasons, func(se Season) bool { return se.Qualification != nil }) {
		return nil, nil
	}
	stamps, err := s.store.EventStamps(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(stamps, func(e EventStamp) bool { return e.ID == tid })
	if i < 0 {
		return nil, nil
	}
	var out []qualifying
	for _, se := range seasons {
		if se.Qualification == nil {
			continue
		}
		q := qualifying{season: se, rule: se.Qualification.rule()}
		if !se.Holds(stamps[i]) || !q.rule.Counts(eventKey(tid)) {
			continue
		}
		for _, e := range stamps {
			if e.ID != tid && se.Holds(e) && q.rule.Counts(eventKey(e.ID)) {
				q.events = append(q.events, e.ID)
			}
		}
		out = append(out, q)
	}
	return out, nil
}

// QualificationNotes returns, for each of people (of the registry) playing
// event tid, where they stand in each qualification the event counts for;
// nothing when it counts for none.
func (s *Service) QualificationNotes(ctx context.Context, tid int64, people []int64) (map[int64][]QualificationNote, error) {
	qs, err := s.qualificationsOf(ctx, tid)
	if err != nil || len(qs) == 0 {
		return nil, err
	}
	real, err := s.store.RealNames(ctx, people)
	if err != nil {
		return nil, err
	}
	out := map[int64][]QualificationNote{}
	for _, q := range qs {
		entrants, err := s.store.Entrants(ctx, q.events)
		if err != nil {
			return nil, err
		}
		used := map[int64]int{}
		for _, ps := range entrants {
			for _, p := range ps {
				used[p]++
			}
		}
		for _, p := range people {
			n := QualificationNote{Season: q.season, Attempts: q.rule.Attempts, Used: used[p]}
			n.Attempt, n.Refused = q.rule.NextAttempt(used[p])
			if n.Refused != nil {
				n.Refused = attemptsUsed(q, n.Refused)
			}
			_, has := real[p]
			n.RealNameMissing = q.rule.RealName && !has
			out[p] = append(out[p], n)
		}
	}
	return out, nil
}

// attemptsUsed is the refusal of a check-in past the attempts allowed
// (the referee's attempts-used), naming the season.
func attemptsUsed(q qualifying, err error) error {
	var v *referee.Violation
	if !errors.As(err, &v) {
		return err
	}
	return invalid("qualification-attempts-used", fmt.Sprintf("%s: %s", q.season.Name, v.Error()),
		map[string]any{"Season": q.season.Name, "Used": v.Args["Used"], "Attempts": v.Args["Attempts"]})
}

// checkAttempts refuses to check person in to event tid when it would be
// an attempt past a qualification's allowed (season.Qualification): the
// rule is the check-in's, wherever it is made (the desk, the list, the
// player's code, a registration checked in).
func (s *Service) checkAttempts(ctx context.Context, tid, person int64) error {
	return s.checkAttemptsOf(ctx, tid, []int64{person})
}

// checkAttemptsOf is checkAttempts for several people at once (an import
// checked in): the first refusal, naming the person.
func (s *Service) checkAttemptsOf(ctx context.Context, tid int64, people []int64) error {
	people = slices.DeleteFunc(slices.Clone(people), func(p int64) bool { return p == 0 })
	if len(people) == 0 {
		return nil
	}
	notes, err := s.QualificationNotes(ctx, tid, people)
	if err != nil {
		return err
	}
	for _, p := range people {
		for _, n := range notes[p] {
			if n.Refused != nil {
				return n.Refused
			}
		}
	}
	return nil
}

// RecordRealName records person id's real name, for the qualifications
// that require one (prizes, the final): judges alone see it.
func (s *Service) RecordRealName(ctx context.Context, judge string, id int64, name string) (RealName, error) {
	if err := checkJudge(judge); err != nil {
		return RealName{}, err
	}
	name, err := fieldRealName.clean(name)
	if err != nil {
		return RealName{}, err
	}
	if name == "" {
		return RealName{}, invalid("real-name-missing", "the real name is empty", nil)
	}
	p, err := s.store.Person(ctx, id)
	if err != nil {
		return RealName{}, err
	}
	was, err := s.store.RealNames(ctx, []int64{id})
	if err != nil {
		return RealName{}, err
	}
	r := RealName{PersonID: id, Name: name, RecordedBy: judge, At: s.now().UTC()}
	if old, ok := was[id]; ok && old.Name == name {
		return old, nil
	}
	// The audit names the person, not the real name: the log is read by
	// more eyes than the ledger.
	c := s.change(judge, ActionRealName, describePerson(p.Person), nil, map[string]int64{"ID": id})
	if err := s.store.SetRealName(ctx, r, c); err != nil {
		return RealName{}, err
	}
	return r, nil
}

// RealNames returns the real names recorded of people, by person: for
// judges' pages only.
func (s *Service) RealNames(ctx context.Context, people []int64) (map[int64]RealName, error) {
	return s.store.RealNames(ctx, people)
}

// personsOf returns the people of players (0 for one not yet linked).
func personsOf(ps []*Player) []int64 {
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = p.PersonID
	}
	return out
}
