package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Person is someone in the registry of the people who played here, across
// events (issue 18): each tournament's player is one person (Player.PersonID),
// so that a person's page lists every event they played. A registration
// finds its person by name and reading, folded as the duplicate check folds
// them, or by member number; merging two entries of one person and editing
// one are judges' actions, audited outside any tournament.
type Person struct {
	ID   int64
	Name string
	Kana string
	// Member is the person's member number as NormalizeMember writes it,
	// "" for none; no two people share one. It is never shown on a public
	// page.
	Member    string
	CreatedAt time.Time
	// Archived records a judge's archiving of the person: kept whole with
	// their history, but left off the registry's list and never offered
	// to a registration. Nil while listed.
	Archived *Archival
}

// PersonEntry is a person of the registry with the tournaments they played.
type PersonEntry struct {
	Person
	// Tournaments are the IDs of the tournaments the person played, newest
	// first (by date, then by creation).
	Tournaments []int64
	// Last is the latest of them; zero when the person played none.
	Last PersonEvent
}

// EventsPlayed returns how many tournaments the person played.
func (p PersonEntry) EventsPlayed() int { return len(p.Tournaments) }

// PersonEvent is a tournament a person played, as one of its players.
type PersonEvent struct {
	TournamentID int64
	Name         string
	Date         string
	CreatedAt    time.Time
	PlayerID     int64
	Closed       bool
}

// MaxMemberRunes is the longest member number, in characters.
const MaxMemberRunes = 20

// NormalizeMember returns a member number as the registry keeps it:
// full-width letters and digits as ASCII (an IME's ０１２３ is 0123),
// letters in upper case, without spaces. A number may hold letters, digits
// and hyphens; anything else is refused with the code member-invalid.
func NormalizeMember(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", invalid("member-invalid", "a member number is letters, digits and hyphens", map[string]any{"Member": ""})
	}
	var b strings.Builder
	for _, r := range norm.NFKC.String(s) {
		switch {
		case r == ' ' || r == '\t' || r == '\u3000':
		case r >= '0' && r <= '9', r >= 'A' && r <= 'Z', r == '-':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		default:
			return "", invalid("member-invalid", fmt.Sprintf("member number %q: letters, digits and hyphens only", s), map[string]any{"Member": s})
		}
	}
	out := b.String()
	if utf8.RuneCountInString(out) > MaxMemberRunes {
		return "", invalid("member-too-long", fmt.Sprintf("member number %q is longer than %d characters", out, MaxMemberRunes),
			map[string]any{"Member": out, "Max": MaxMemberRunes})
	}
	return out, nil
}

// PersonChoice is the judge's word on whom a registration is in the
// registry. The zero value leaves it to the name, the reading and the
// member number (PersonMatch.Sure), and a new person when they name nobody
// surely: what the JSON API and an import do unless told.
type PersonChoice struct {
	ID  int64 // this person of the registry
	New bool  // a new person, whoever the name may match
	// Ask refuses a registration that may be someone of the registry but
	// surely is nobody, with a *PersonQuestion naming the candidates, so
	// that the judge chooses (the console's form).
	Ask bool
}

// The ways a registration may be someone of the registry, surest first.
const (
	MatchMember  = "member"  // the member number given is theirs
	MatchExact   = "exact"   // the same name and reading
	MatchName    = "name"    // the same name, read another way or without a reading
	MatchReading = "reading" // the same reading under another name
)

// PersonCandidate is someone of the registry a registration may be.
type PersonCandidate struct {
	PersonEntry
	How string // MatchMember, MatchExact, MatchName or MatchReading
}

// PersonMatch is whom a registration may be in the registry.
type PersonMatch struct {
	// Sure is the one person the registration surely is: the member
	// number's, else the only person of the same name and reading; 0 for
	// nobody. Two people of one name and reading are nobody surely: when
	// in doubt, a new person.
	Sure int64
	// Candidates are the people it may be, surest first, at most
	// MaxCandidates.
	Candidates []PersonCandidate
}

// MaxCandidates bounds the people a registration is offered.
const MaxCandidates = 10

// PersonQuestion refuses a registration (PersonChoice.Ask) that may be
// someone of the registry, none surely: the judge chooses one of the
// candidates, or a new person. It matches ErrInvalid, and its Violation
// says so in words (person-choice-needed).
type PersonQuestion struct {
	Match PersonMatch
	err   error
}

func (q *PersonQuestion) Error() string { return q.err.Error() }

// Unwrap gives the coded refusal.
func (q *PersonQuestion) Unwrap() error { return q.err }

// personKey is what registration compares of a person: the name and the
// reading, folded as FoldReading folds them.
type personKey struct{ name, kana string }

func keyOf(name, kana string) personKey { return personKey{FoldReading(name), FoldReading(kana)} }

// PersonIndex finds the people of the registry a registration may be. It
// holds the people it is given (a registration's candidates, or the whole
// registry for the migration that links the players registered before
// the registry) and the tournaments each played.
type PersonIndex struct {
	people   map[int64]*PersonEntry
	byName   map[string][]int64
	byKana   map[string][]int64
	byMember map[string]int64
}

// NewPersonIndex indexes people.
func NewPersonIndex(people []PersonEntry) *PersonIndex {
	x := &PersonIndex{people: map[int64]*PersonEntry{}, byName: map[string][]int64{}, byKana: map[string][]int64{}, byMember: map[string]int64{}}
	for _, p := range people {
		x.Add(p)
	}
	return x
}

// Add indexes p; a person indexed already stays as indexed.
func (x *PersonIndex) Add(p PersonEntry) {
	if _, ok := x.people[p.ID]; ok {
		return
	}
	p.Tournaments = slices.Clone(p.Tournaments)
	x.people[p.ID] = &p
	k := keyOf(p.Name, p.Kana)
	x.byName[k.name] = append(x.byName[k.name], p.ID)
	if k.kana != "" {
		x.byKana[k.kana] = append(x.byKana[k.kana], p.ID)
	}
	if p.Member != "" {
		x.byMember[p.Member] = p.ID
	}
}

// Played records that person id plays tournament tid.
func (x *PersonIndex) Played(id, tid int64) {
	if p, ok := x.people[id]; ok && !slices.Contains(p.Tournaments, tid) {
		p.Tournaments = append(p.Tournaments, tid)
	}
}

// Entry returns the person id, as indexed.
func (x *PersonIndex) Entry(id int64) (PersonEntry, bool) {
	p, ok := x.people[id]
	if !ok {
		return PersonEntry{}, false
	}
	return *p, true
}

// Member returns the person whose member number is member.
func (x *PersonIndex) Member(member string) (PersonEntry, bool) {
	id, ok := x.byMember[member]
	if !ok {
		return PersonEntry{}, false
	}
	return x.Entry(id)
}

// Match finds whom a registration of name, kana and member (normalized)
// in tournament tid may be. Nobody who plays tid already is a candidate
// (one person is never two players of one event), nor anybody archived,
// nor a person whose member number is another than member. Only a member
// number or one person of the same name and the same reading, both given,
// is sure: a name alone may be a namesake.
func (x *PersonIndex) Match(tid int64, name, kana, member string) PersonMatch {
	var m PersonMatch
	if member != "" {
		if p, ok := x.Member(member); ok {
			m.Sure = p.ID
			m.Candidates = []PersonCandidate{{PersonEntry: p, How: MatchMember}}
			return m
		}
	}
	k := keyOf(name, kana)
	fits := func(id int64) (PersonEntry, bool) {
		p, ok := x.Entry(id)
		ok = ok && p.Archived == nil && !slices.Contains(p.Tournaments, tid) && (member == "" || p.Member == "")
		return p, ok
	}
	var exact, byName, byKana []PersonCandidate
	for _, id := range x.byName[k.name] {
		p, ok := fits(id)
		switch {
		case !ok:
		case k.kana != "" && FoldReading(p.Kana) == k.kana:
			exact = append(exact, PersonCandidate{PersonEntry: p, How: MatchExact})
		default:
			byName = append(byName, PersonCandidate{PersonEntry: p, How: MatchName})
		}
	}
	if k.kana != "" {
		for _, id := range x.byKana[k.kana] {
			if p, ok := fits(id); ok && FoldReading(p.Name) != k.name {
				byKana = append(byKana, PersonCandidate{PersonEntry: p, How: MatchReading})
			}
		}
	}
	if len(exact) == 1 {
		m.Sure = exact[0].ID
	}
	// The people who played last come first among equals: a regular
	// before someone who came once years ago.
	for _, group := range [][]PersonCandidate{exact, byName, byKana} {
		slices.SortStableFunc(group, func(a, b PersonCandidate) int { return laterFirst(a.Last, b.Last) })
		m.Candidates = append(m.Candidates, group...)
	}
	if len(m.Candidates) > MaxCandidates {
		m.Candidates = m.Candidates[:MaxCandidates]
	}
	return m
}

// Register decides whom a registration of name, kana and member
// (normalized) in tournament tid is, as choice says: the person it links
// to (0 for a new one) and the registry's side of it to write
// (Player.Person), nil when the registration changes nobody. Without a
// choice it takes Match's sure person, else a new person, or, when the
// choice asks, a *PersonQuestion if someone may be them. A person chosen
// who plays tid already, a member number another person has, or one
// other than the chosen person's, is refused. The index then counts the
// person as playing tid, so that an import's next rows do not take them
// again.
func (x *PersonIndex) Register(tid int64, name, kana, member string, choice PersonChoice) (int64, *Person, error) {
	var id int64
	var joining *Person
	var err error
	switch m := x.Match(tid, name, kana, member); {
	case choice.ID != 0:
		p, ok := x.Entry(choice.ID)
		if !ok {
			return 0, nil, invalid("person-unknown", fmt.Sprintf("person %d is not in the registry", choice.ID), map[string]any{"ID": choice.ID})
		}
		id, joining, err = x.join(tid, p, member)
	case choice.New:
		if o, ok := x.Member(member); ok {
			return 0, nil, memberTaken(member, o.Person)
		}
	case m.Sure != 0:
		p, _ := x.Entry(m.Sure)
		id, joining, err = x.join(tid, p, member)
	case choice.Ask && len(m.Candidates) > 0:
		return 0, nil, &PersonQuestion{Match: m, err: invalid("person-choice-needed",
			fmt.Sprintf("%s may be one of %d people of the registry: choose one, or a new person", name, len(m.Candidates)),
			map[string]any{"Name": name, "Count": len(m.Candidates)})}
	}
	if err != nil {
		return 0, nil, err
	}
	if id == 0 {
		return 0, &Person{Name: name, Kana: kana, Member: member}, nil
	}
	x.Played(id, tid)
	return id, joining, nil
}

// join links a registration in tournament tid with member to p: the
// person as the registration leaves them, nil when it changes nothing.
func (x *PersonIndex) join(tid int64, p PersonEntry, member string) (int64, *Person, error) {
	if slices.Contains(p.Tournaments, tid) {
		return 0, nil, invalid("person-already-registered", fmt.Sprintf("%s is a player of this tournament already", describePerson(p.Person)),
			map[string]any{"Person": p.Name})
	}
	after := p.Person
	if member != "" {
		if o, ok := x.Member(member); ok && o.ID != p.ID {
			return 0, nil, memberTaken(member, o.Person)
		}
		if p.Member != "" && p.Member != member {
			return 0, nil, invalid("member-mismatch", fmt.Sprintf("%s has member number %s, not %s", describePerson(p.Person), p.Member, member),
				map[string]any{"Person": p.Name, "Member": p.Member, "Given": member})
		}
		after.Member = member
	}
	// Someone archived who plays again is back in the registry's list.
	after.Archived = nil
	if after.Member == p.Member && p.Archived == nil {
		return p.ID, nil, nil
	}
	return p.ID, &after, nil
}

// memberTaken refuses a member number that is p's for another person.
func memberTaken(member string, p Person) error {
	return invalid("member-taken", fmt.Sprintf("member number %s is %s's", member, describePerson(p)),
		map[string]any{"Member": member, "Person": p.Name})
}

// describePerson names a person for the log: "person 12 (青木)".
func describePerson(p Person) string { return fmt.Sprintf("person %d (%s)", p.ID, p.Name) }

// laterFirst orders events newest first: by date, then by creation.
func laterFirst(a, b PersonEvent) int {
	return cmp.Or(strings.Compare(b.Date, a.Date), b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.TournamentID, a.TournamentID))
}
