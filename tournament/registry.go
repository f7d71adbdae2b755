package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The audit actions of the registry of people, written outside any
// tournament.
const (
	ActionPersonEdit      = "person.edit"
	ActionPersonMerge     = "person.merge"
	ActionPersonArchive   = "person.archive"
	ActionPersonUnarchive = "person.unarchive"
)

// PeopleQuery is a search of the registry.
type PeopleQuery struct {
	// Q is the search, folded as FoldReading folds it: the people whose
	// name or reading holds it; "" for everyone.
	Q string
	// Archived lists the archived people instead of the listed ones.
	Archived      bool
	Offset, Limit int
}

// PeoplePage is one page of the registry's list.
type PeoplePage struct {
	People      []PersonEntry
	Total       int // the people the search finds
	Page, Pages int // from 1
}

// PeoplePageSize is how many people a page of the registry lists.
const PeoplePageSize = 50

// maxPeopleSearch bounds the search a request folds and compares: a name
// and its kana are MaxNameRunes each, so no longer search finds anyone.
const maxPeopleSearch = 2*MaxNameRunes + 1

// People lists a page of the registry (from 1): everyone not archived, or
// with archived the archived people, whose name or reading holds q (folded
// as FoldReading folds them), by reading.
func (s *Service) People(ctx context.Context, q string, archived bool, page int) (PeoplePage, error) {
	if r := []rune(strings.TrimSpace(q)); len(r) > maxPeopleSearch {
		q = string(r[:maxPeopleSearch])
	}
	page = max(page, 1)
	people, total, err := s.store.People(ctx, PeopleQuery{Q: FoldReading(q), Archived: archived,
		Offset: (page - 1) * PeoplePageSize, Limit: PeoplePageSize})
	if err != nil {
		return PeoplePage{}, err
	}
	return PeoplePage{People: people, Total: total, Page: page, Pages: max(1, (total+PeoplePageSize-1)/PeoplePageSize)}, nil
}

// GetPerson returns a person of the registry with the tournaments they
// played.
func (s *Service) GetPerson(ctx context.Context, id int64) (PersonEntry, error) {
	return s.store.Person(ctx, id)
}

// MaxPersonEvents bounds the events a person's page lists at once.
const MaxPersonEvents = 20

// PersonRecord is a person of the registry as the console shows them.
type PersonRecord struct {
	PersonEntry
	Events []PersonEvent // every tournament they played, newest first
	// History is what judges changed of them in the registry (edits,
	// merges, archiving), newest first.
	History []AuditEntry
	// Alike are the other people of the registry of the same name or the
	// same reading (folded), archived ones too: whom a judge may merge
	// them with.
	Alike []PersonEntry
	// Refused says, by person ID, why one of Alike cannot be merged with
	// them (MergePeople would refuse it with this error).
	Refused map[int64]error
}

// Person returns a person of the registry with every event they played
// and the registry's history of them.
func (s *Service) Person(ctx context.Context, id int64) (PersonRecord, error) {
	p, err := s.store.Person(ctx, id)
	if err != nil {
		return PersonRecord{}, err
	}
	r := PersonRecord{PersonEntry: p}
	if r.Events, _, err = s.store.PersonEvents(ctx, id, 0, max(len(p.Tournaments), 1)); err != nil {
		return PersonRecord{}, err
	}
	var kanas []string
	if k := FoldReading(p.Kana); k != "" {
		kanas = []string{k}
	}
	alike, err := s.store.MatchPeople(ctx, []string{FoldReading(p.Name)}, kanas, nil)
	if err != nil {
		return PersonRecord{}, err
	}
	for _, o := range alike {
		if o.ID != id && len(r.Alike) < MaxCandidates {
			r.Alike = append(r.Alike, o)
			if err := s.mergeRefusal(ctx, p, o); err != nil {
				if r.Refused == nil {
					r.Refused = map[int64]error{}
				}
				r.Refused[o.ID] = err
			}
		}
	}
	log, err := s.RegistryLog(ctx)
	if err != nil {
		return PersonRecord{}, err
	}
	for _, e := range log {
		if slices.Contains(registryPeople(e), id) {
			r.History = append(r.History, e)
		}
	}
	return r, nil
}

// PersonEventsPage is a page of the events a person played, for their
// public page.
type PersonEventsPage struct {
	Person      Person
	Events      []PersonEvent // newest first
	Total       int
	Page, Pages int
}

// PersonEvents returns a page (from 1) of the events person id played,
// MaxPersonEvents to a page, newest first.
func (s *Service) PersonEvents(ctx context.Context, id int64, page int) (PersonEventsPage, error) {
	p, err := s.store.Person(ctx, id)
	if err != nil {
		return PersonEventsPage{}, err
	}
	page = max(page, 1)
	events, total, err := s.store.PersonEvents(ctx, id, (page-1)*MaxPersonEvents, MaxPersonEvents)
	if err != nil {
		return PersonEventsPage{}, err
	}
	return PersonEventsPage{Person: p.Person, Events: events, Total: total, Page: page,
		Pages: max(1, (total+MaxPersonEvents-1)/MaxPersonEvents)}, nil
}

// MatchPerson tells whom a registration of name, kana and member number
// in tournament tid may be in the registry, as AddPlayer decides it.
func (s *Service) MatchPerson(ctx context.Context, tid int64, name, kana, member string) (PersonMatch, error) {
	member, err := checkMember(member)
	if err != nil {
		return PersonMatch{}, err
	}
	x, err := s.personIndex(ctx, []ImportRow{{Name: name, Kana: kana, Member: member}})
	if err != nil {
		return PersonMatch{}, err
	}
	return x.Match(tid, name, kana, member), nil
}

// personIndex indexes the people of the registry the rows may be, and
// the people the rows choose.
func (s *Service) personIndex(ctx context.Context, rows []ImportRow) (*PersonIndex, error) {
	var names, kanas, members []string
	for _, r := range rows {
		names = append(names, FoldReading(r.Name))
		if k := FoldReading(r.Kana); k != "" {
			kanas = append(kanas, k)
		}
		if r.Member != "" {
			members = append(members, r.Member)
		}
	}
	people, err := s.store.MatchPeople(ctx, names, kanas, members)
	if err != nil {
		return nil, err
	}
	x := NewPersonIndex(people)
	for _, r := range rows {
		if r.Person.ID == 0 {
			continue
		}
		if _, ok := x.Entry(r.Person.ID); ok {
			continue
		}
		switch p, err := s.store.Person(ctx, r.Person.ID); {
		case errors.Is(err, ErrNotFound):
			// Register refuses it as unknown.
		case err != nil:
			return nil, err
		default:
			x.Add(p)
		}
	}
	return x, nil
}

// checkMember normalizes a member number typed, "" for none.
func checkMember(member string) (string, error) {
	if strings.TrimSpace(member) == "" {
		return "", nil
	}
	return NormalizeMember(member)
}

// PersonInput is what a judge enters for a person of the registry.
type PersonInput struct {
	Name, Kana, Member string
}

func (in PersonInput) check() (PersonInput, error) {
	var err error
	if in.Name, err = fieldPlayerName.clean(in.Name); err != nil {
		return in, err
	}
	if in.Name == "" {
		return in, invalid("person-name-missing", "the person needs a name", nil)
	}
	if in.Kana, err = fieldKana.clean(in.Kana); err != nil {
		return in, err
	}
	in.Member, err = checkMember(in.Member)
	return in, err
}

// EditPerson changes a person's name, kana and member number in the
// registry (the players of past tournaments keep the names they played
// under). A member number another person has is refused.
func (s *Service) EditPerson(ctx context.Context, judge string, id int64, in PersonInput) (Person, error) {
	if err := checkJudge(judge); err != nil {
		return Person{}, err
	}
	in, err := in.check()
	if err != nil {
		return Person{}, err
	}
	p, err := s.store.Person(ctx, id)
	if err != nil {
		return Person{}, err
	}
	if in.Member != "" && in.Member != p.Member {
		others, err := s.store.MatchPeople(ctx, nil, nil, []string{in.Member})
		if err != nil {
			return Person{}, err
		}
		for _, o := range others {
			if o.ID != id && o.Member == in.Member {
				return Person{}, memberTaken(in.Member, o.Person)
			}
		}
	}
	after := p.Person
	after.Name, after.Kana, after.Member = in.Name, in.Kana, in.Member
	if after == p.Person {
		return after, nil
	}
	c := s.change(judge, ActionPersonEdit, describePerson(after), p.Person, after)
	if err := s.store.UpdatePerson(ctx, p.Person, after, c); err != nil {
		return Person{}, err
	}
	return after, nil
}

// ArchivePerson archives a person: kept whole with their history, left off
// the registry's list and never offered to a registration.
func (s *Service) ArchivePerson(ctx context.Context, judge string, id int64) (Person, error) {
	return s.setPersonArchived(ctx, judge, id, true)
}

// UnarchivePerson lists an archived person again.
func (s *Service) UnarchivePerson(ctx context.Context, judge string, id int64) (Person, error) {
	return s.setPersonArchived(ctx, judge, id, false)
}

func (s *Service) setPersonArchived(ctx context.Context, judge string, id int64, archive bool) (Person, error) {
	if err := checkJudge(judge); err != nil {
		return Person{}, err
	}
	p, err := s.store.Person(ctx, id)
	if err != nil {
		return Person{}, err
	}
	if archive == (p.Archived != nil) {
		return p.Person, nil // already so: nothing to change or log
	}
	after, action := p.Person, ActionPersonUnarchive
	after.Archived = nil
	if archive {
		after.Archived, action = &Archival{Judge: judge, At: s.now().UTC()}, ActionPersonArchive
	}
	if err := s.store.UpdatePerson(ctx, p.Person, after, s.change(judge, action, describePerson(after), p.Person, after)); err != nil {
		return Person{}, err
	}
	return after, nil
}

// mergeRecord is what the audit log keeps of a merge.
type mergeRecord struct {
	Kept   Person
	Merged Person
	// Tournaments are those the merged person had played, now the kept
	// person's.
	Tournaments []int64 `json:",omitempty"`
}

// MergePeople makes two entries of the registry one person: every player
// of gone becomes keep's, and gone is removed. keep keeps its name and
// reading, takes gone's member number when it has none, and is listed
// unless both were archived. Two people who played one tournament are
// refused (one person is never two players of one event), and so are two
// member numbers: those are two members, one of them to be corrected first.
func (s *Service) MergePeople(ctx context.Context, judge string, keep, gone int64) (Person, error) {
	if err := checkJudge(judge); err != nil {
		return Person{}, err
	}
	if keep == gone {
		return Person{}, invalid("merge-same-person", fmt.Sprintf("person %d cannot be merged with themselves", keep), nil)
	}
	k, err := s.store.Person(ctx, keep)
	if err != nil {
		return Person{}, err
	}
	g, err := s.store.Person(ctx, gone)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return Person{}, invalid("person-unknown", fmt.Sprintf("person %d is not in the registry", gone), map[string]any{"ID": gone})
		}
		return Person{}, err
	}
	if err := s.mergeRefusal(ctx, k, g); err != nil {
		return Person{}, err
	}
	after := k.Person
	if after.Member == "" {
		after.Member = g.Member
	}
	if g.Archived == nil {
		after.Archived = nil
	}
	c := s.change(judge, ActionPersonMerge, describePerson(k.Person)+" ← "+describePerson(g.Person),
		mergeRecord{Kept: k.Person, Merged: g.Person}, mergeRecord{Kept: after, Merged: g.Person, Tournaments: g.Tournaments})
	if err := s.store.MergePeople(ctx, k.Person, g.Person, after, c); err != nil {
		return Person{}, err
	}
	return after, nil
}

// mergeRefusal is why k and g cannot be merged into one person, or nil:
// two people who played one tournament are two people, and so are two
// member numbers. The refusal names each by their label (PersonLabel),
// as two entries of one name are told apart only by it.
func (s *Service) mergeRefusal(ctx context.Context, k, g PersonEntry) error {
	for _, tid := range k.Tournaments {
		if slices.Contains(g.Tournaments, tid) {
			return s.sharedTournament(ctx, k.Person, g.Person, tid)
		}
	}
	if k.Member != "" && g.Member != "" && k.Member != g.Member {
		return invalid("merge-different-members",
			fmt.Sprintf("%s has member number %s and %s has %s: two members", describePerson(k.Person), k.Member, describePerson(g.Person), g.Member),
			map[string]any{"Person": PersonLabel(k.Person), "Member": k.Member, "Other": PersonLabel(g.Person), "OtherMember": g.Member})
	}
	return nil
}

// PersonLabel is a person of the registry as a message names them: the
// name with the reading (in hiragana) and the person no., 佐藤 太郎（さとう
// たろう・12）, so that two entries of one name read apart. Like Labels, it
// is the same in both languages.
func PersonLabel(p Person) string {
	tag := []string{fmt.Sprint(p.ID)}
	if kana := Hiragana(strings.TrimSpace(p.Kana)); kana != "" {
		tag = append([]string{kana}, tag...)
	}
	return p.Name + "（" + strings.Join(tag, "・") + "）"
}

// sharedTournament is the refusal to merge a and b, who both played
// tournament tid.
func (s *Service) sharedTournament(ctx context.Context, a, b Person, tid int64) error {
	name := fmt.Sprint(tid)
	if t, err := s.store.Tournament(ctx, tid); err == nil {
		name = t.Name
	}
	return SharedTournamentConflict(a, b, tid, name)
}

// SharedTournamentConflict is the refusal to merge people a and b, who
// both played tournament tid (named name): one person is never two players
// of one event (the service checks first; the store again as it writes).
func SharedTournamentConflict(a, b Person, tid int64, name string) error {
	return Conflict("people-share-tournament",
		fmt.Sprintf("%s and %s both played tournament %d: they are two people", describePerson(a), describePerson(b), tid),
		map[string]any{"Person": PersonLabel(a), "Other": PersonLabel(b), "Tournament": name})
}

// maxRegistryLog bounds the registry's history a page shows.
const maxRegistryLog = 200

// RegistryLog returns the judges' changes of the registry (edits, merges,
// archiving), newest first, the latest maxRegistryLog.
func (s *Service) RegistryLog(ctx context.Context) ([]AuditEntry, error) {
	all, err := s.store.AuditLog(ctx, 0)
	if err != nil {
		return nil, err
	}
	var out []AuditEntry
	for _, e := range all {
		if strings.HasPrefix(e.Action, "person.") {
			out = append(out, e)
			if len(out) == maxRegistryLog {
				break
			}
		}
	}
	return out, nil
}

// registryPeople returns the people a registry entry is about.
func registryPeople(e AuditEntry) []int64 {
	var out []int64
	for _, text := range []string{e.Before, e.After} {
		var v struct {
			ID           int64
			Kept, Merged struct{ ID int64 }
		}
		if json.Unmarshal([]byte(text), &v) == nil {
			for _, id := range []int64{v.ID, v.Kept.ID, v.Merged.ID} {
				if id != 0 && !slices.Contains(out, id) {
					out = append(out, id)
				}
			}
		}
	}
	return out
}
