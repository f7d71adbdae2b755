package tournament_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// event creates a tournament named name on date.
func (c *console) event(name, date string) tournament.Tournament {
	c.T.Helper()
	return must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: name, Date: date, Rounds: 3})).OK(c.T)
}

// register adds a player, as in says, and fails the test on a refusal.
func (c *console) register(tid int64, in tournament.PlayerInput) tournament.Player {
	c.T.Helper()
	return must(c.Svc.AddPlayer(c.Ctx, "judge-a", tid, in)).OK(c.T)
}

// codeOf is the code of the rule err breaks, "" for none.
func codeOf(err error) string {
	var v *referee.Violation
	if errors.As(err, &v) {
		return v.Code
	}
	return ""
}

// A registration finds its person of the registry as a judge would: the
// same name and reading, however the reading is written, is the same
// person; anything less sure is a new person through the API and the
// import, and a question on the console's form; a member number names
// its person; nobody is two players of one event, and nobody archived is
// offered.
func TestRegistrationFindsPerson(t *testing.T) {
	c := newConsole(t)
	oct := c.event("10月定例会", "2025-10-18")
	sato := c.register(oct.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	tanaka := c.register(oct.ID, tournament.PlayerInput{Name: "田中", Kana: "たなか"})
	tanaka2 := c.register(oct.ID, tournament.PlayerInput{Name: "田中", Kana: "たなか"})
	suzuki := c.register(oct.ID, tournament.PlayerInput{Name: "鈴木", Kana: "すずき", Member: "ｊｃｓ－０４２"})
	ito := c.register(oct.ID, tournament.PlayerInput{Name: "伊藤", Kana: "いとう"})
	if tanaka.PersonID == tanaka2.PersonID {
		t.Fatalf("two players of one name and reading in one event are one person %d", tanaka.PersonID)
	}
	nov := c.event("11月定例会", "2025-11-15")
	tests := []struct {
		name string
		in   tournament.PlayerInput
		// want is the person linked: a player registered in October, or
		// nil for a new person; code is a refusal's.
		want *tournament.Player
		code string
	}{
		{"the same name and reading, in katakana", tournament.PlayerInput{Name: "佐藤太郎", Kana: "ｻﾄｳ ﾀﾛｳ"}, &sato, ""},
		{"a member number, whatever the name", tournament.PlayerInput{Name: "すずき", Member: "JCS-042"}, &suzuki, ""},
		{"two people of that name and reading", tournament.PlayerInput{Name: "田中", Kana: "タナカ"}, nil, ""},
		{"the same name, another reading", tournament.PlayerInput{Name: "伊藤", Kana: "いとう じゅん"}, nil, ""},
		{"the same reading, another name", tournament.PlayerInput{Name: "伊東", Kana: "イトウ"}, nil, ""},
		{"the name without a reading", tournament.PlayerInput{Name: "伊藤"}, nil, ""},
		{"asked, when someone may be them", tournament.PlayerInput{Name: "伊藤", Person: tournament.PersonChoice{Ask: true}}, nil, "person-choice-needed"},
		{"chosen by the judge", tournament.PlayerInput{Name: "伊藤", Person: tournament.PersonChoice{ID: ito.PersonID}}, &ito, ""},
		{"a member number of someone else", tournament.PlayerInput{Name: "伊藤", Member: "JCS-042", Person: tournament.PersonChoice{ID: ito.PersonID}}, nil, "member-taken"},
		{"a new person with a member number taken", tournament.PlayerInput{Name: "新人", Member: "jcs-042", Person: tournament.PersonChoice{New: true}}, nil, "member-taken"},
		{"a member number that is no number", tournament.PlayerInput{Name: "新人", Member: "会員1"}, nil, "member-invalid"},
		{"a person who is not in the registry", tournament.PlayerInput{Name: "新人", Person: tournament.PersonChoice{ID: 99999}}, nil, "person-unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := c.Svc.AddPlayer(c.Ctx, "judge-a", nov.ID, tt.in)
			if tt.code != "" {
				if codeOf(err) != tt.code || !errors.Is(err, tournament.ErrInvalid) {
					t.Fatalf("AddPlayer(%+v) error = %v, want the refusal %s", tt.in, err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatalf("AddPlayer(%+v): %v", tt.in, err)
			}
			// Undone for the next case, which must not find them taken.
			defer func() { must(c.Svc.DeletePlayer(c.Ctx, "judge-a", nov.ID, p.ID)).OK(t) }()
			switch {
			case tt.want != nil && p.PersonID != tt.want.PersonID:
				t.Errorf("AddPlayer(%+v) linked person %d, want %d (%s)", tt.in, p.PersonID, tt.want.PersonID, tt.want.Name)
			case tt.want == nil && slices.Contains([]int64{sato.PersonID, tanaka.PersonID, tanaka2.PersonID, suzuki.PersonID, ito.PersonID}, p.PersonID):
				t.Errorf("AddPlayer(%+v) linked person %d of October, want a new person", tt.in, p.PersonID)
			}
		})
	}

	// The question names the candidates, the surest first, with their events.
	_, err := c.Svc.AddPlayer(c.Ctx, "judge-a", nov.ID, tournament.PlayerInput{Name: "伊藤", Kana: "イトウ ジュン", Person: tournament.PersonChoice{Ask: true}})
	var q *tournament.PersonQuestion
	if !errors.As(err, &q) || len(q.Match.Candidates) != 1 || q.Match.Candidates[0].ID != ito.PersonID ||
		q.Match.Candidates[0].How != tournament.MatchName || q.Match.Candidates[0].EventsPlayed() != 1 || q.Match.Candidates[0].Last.Name != "10月定例会" {
		t.Fatalf("AddPlayer(asking) error = %v (%+v), want a question offering 伊藤 by name, who played 10月定例会", err, q)
	}
	// One person is never two players of one event.
	c.register(nov.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	if _, err := c.Svc.AddPlayer(c.Ctx, "judge-a", nov.ID, tournament.PlayerInput{Name: "佐藤", Person: tournament.PersonChoice{ID: sato.PersonID}}); codeOf(err) != "person-already-registered" {
		t.Errorf("AddPlayer(Sato again in November) error = %v, want person-already-registered", err)
	}
	again := c.register(nov.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	if again.PersonID == sato.PersonID {
		t.Errorf("a second 佐藤 太郎 in November was linked to the first's person %d, want a new person", sato.PersonID)
	}
	// Archived: offered to nobody, named only by their member number,
	// which brings them back to the list.
	must(c.Svc.ArchivePerson(c.Ctx, "judge-a", suzuki.PersonID)).OK(t)
	dec := c.event("12月定例会", "2025-12-20")
	m := must(c.Svc.MatchPerson(c.Ctx, dec.ID, "鈴木", "すずき", "")).OK(t)
	if m.Sure != 0 || len(m.Candidates) != 0 {
		t.Errorf("MatchPerson(鈴木, archived) = %+v, want nobody offered", m)
	}
	back := c.register(dec.ID, tournament.PlayerInput{Name: "鈴木", Member: "JCS-042"})
	if p := must(c.Svc.Person(c.Ctx, back.PersonID)).OK(t); back.PersonID != suzuki.PersonID || p.Archived != nil || p.EventsPlayed() != 2 {
		t.Errorf("鈴木 by member number = person %d %+v, want %d listed again, with two events", back.PersonID, p.PersonEntry, suzuki.PersonID)
	}
	// A member number given to someone without one is theirs from then on.
	withMember := c.register(dec.ID, tournament.PlayerInput{Name: "伊藤", Kana: "イトウ", Member: "77"})
	if p := must(c.Svc.Person(c.Ctx, ito.PersonID)).OK(t); withMember.PersonID != ito.PersonID || p.Member != "77" {
		t.Errorf("伊藤 with member number 77 = person %d, member %q; want %d, 77", withMember.PersonID, p.Member, ito.PersonID)
	}
	// Two people of 佐藤 太郎's name and reading now (November's second):
	// nobody surely.
	if p := c.register(dec.ID, tournament.PlayerInput{Name: "佐藤太郎", Kana: "サトウタロウ"}); p.PersonID == sato.PersonID || p.PersonID == again.PersonID {
		t.Errorf("佐藤 太郎 in December = person %d, want a new person: two may be him", p.PersonID)
	}
}

// The import finds each row's person as the API does, offers the judge
// the candidates of the doubtful rows, and takes the judge's choice.
func TestImportFindsPeople(t *testing.T) {
	c := newConsole(t)
	oct := c.event("10月定例会", "2025-10-18")
	sato := c.register(oct.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	ito := c.register(oct.ID, tournament.PlayerInput{Name: "伊藤", Kana: "いとう", Member: "9"})
	nov := c.event("11月定例会", "2025-11-15")
	rows := []tournament.ImportRow{
		{Line: 2, Name: "佐藤 太郎", Kana: "サトウ タロウ"},
		{Line: 3, Name: "伊藤", Kana: "いとう じゅん"},
		{Line: 4, Name: "新人", Kana: "しんじん", Member: "x-1"},
		{Line: 5, Name: "会員", Member: "会員番号"},
		{Line: 6, Name: "伊藤 純", Member: "９"},
	}
	plan := must(c.Svc.PlanImport(c.Ctx, nov.ID, rows)).OK(t)
	line := func(n int) tournament.ImportLine {
		for _, l := range plan.Lines {
			if l.Line == n {
				return l
			}
		}
		t.Fatalf("no line %d in the plan", n)
		return tournament.ImportLine{}
	}
	if l := line(2); l.Action != tournament.ImportAdd || l.PersonID != sato.PersonID {
		t.Errorf("line 2 (佐藤 in katakana) = %s person %d, want added as %d", l.Action, l.PersonID, sato.PersonID)
	}
	if l := line(3); l.PersonID != 0 || len(l.Candidates) != 1 || l.Candidates[0].ID != ito.PersonID {
		t.Errorf("line 3 (伊藤 read otherwise) = person %d, candidates %+v; want a new person, 伊藤 offered", l.PersonID, l.Candidates)
	}
	if l := line(4); l.PersonID != 0 || l.Person == nil || l.Person.Member != "X-1" {
		t.Errorf("line 4 (a new member) = person %d %+v, want a new person with member number X-1", l.PersonID, l.Person)
	}
	if l := line(5); l.Action != tournament.ImportRefuse || l.Problem != tournament.ProblemMember {
		t.Errorf("line 5 (a member number that is none) = %s %s, want refused as %s", l.Action, l.Problem, tournament.ProblemMember)
	}
	// Line 6's member number is 伊藤's: line 3 cannot also be 伊藤.
	if l := line(6); l.PersonID != ito.PersonID {
		t.Errorf("line 6 (伊藤's member number) = person %d, want %d", l.PersonID, ito.PersonID)
	}
	rows[1].Person = tournament.PersonChoice{ID: ito.PersonID}
	if _, err := c.Svc.ImportPlayers(c.Ctx, "judge-a", nov.ID, rows); codeOf(err) != "person-already-registered" {
		t.Errorf("ImportPlayers(伊藤 chosen for line 3 and named by line 6) error = %v, want person-already-registered", err)
	}
	rows[4].Member, rows[4].Person = "", tournament.PersonChoice{New: true}
	done := must(c.Svc.ImportPlayers(c.Ctx, "judge-a", nov.ID, rows)).OK(t)
	got := map[string]int64{}
	for _, p := range done.Added {
		got[p.Name] = p.PersonID
		if p.PersonID == 0 {
			t.Errorf("imported player %s has no person", p.Name)
		}
	}
	if got["佐藤 太郎"] != sato.PersonID || got["伊藤"] != ito.PersonID || got["伊藤 純"] == ito.PersonID || len(done.Added) != 4 {
		t.Errorf("imported people = %v, want 佐藤 as %d, 伊藤 as chosen %d, 伊藤 純 new", got, sato.PersonID, ito.PersonID)
	}
}

// Merging two entries of one person is a judge's action, refused for two
// players of one tournament, audited outside any tournament, and shown in
// the history of the person kept.
func TestMergePeople(t *testing.T) {
	c := newConsole(t)
	oct := c.event("10月定例会", "2025-10-18")
	nov := c.event("11月定例会", "2025-11-15")
	a := c.register(oct.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "さとう たろう"})
	b := c.register(nov.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "", Member: "5"})
	other := c.register(nov.ID, tournament.PlayerInput{Name: "佐藤 次郎", Kana: "さとう じろう"})
	if a.PersonID == b.PersonID {
		t.Fatalf("佐藤 太郎 without a reading was linked to the one with: want two entries to merge")
	}
	if _, err := c.Svc.MergePeople(c.Ctx, "judge-a", a.PersonID, a.PersonID); codeOf(err) != "merge-same-person" {
		t.Errorf("MergePeople(a, a) error = %v, want merge-same-person", err)
	}
	kept := must(c.Svc.MergePeople(c.Ctx, "judge-b", a.PersonID, b.PersonID)).OK(t)
	if kept.ID != a.PersonID || kept.Member != "5" || kept.Kana != "さとう たろう" {
		t.Errorf("MergePeople = %+v, want the first entry with the second's member number", kept)
	}
	if p := must(c.Svc.GetPlayer(c.Ctx, nov.ID, b.ID)).OK(t); p.PersonID != a.PersonID {
		t.Errorf("November's 佐藤 太郎 = person %d, want %d", p.PersonID, a.PersonID)
	}
	_, err := c.Svc.MergePeople(c.Ctx, "judge-a", a.PersonID, other.PersonID)
	if !errors.Is(err, tournament.ErrConflict) || codeOf(err) != "people-share-tournament" {
		t.Fatalf("MergePeople(two players of November) error = %v, want the conflict people-share-tournament", err)
	}
	var v *referee.Violation
	errors.As(err, &v)
	// Each named by their label: the reading and the person no. tell two
	// entries of one name apart.
	if v.Args["Tournament"] != "11月定例会" || v.Args["Person"] != fmt.Sprintf("佐藤 太郎（さとう たろう・%d）", a.PersonID) ||
		v.Args["Other"] != fmt.Sprintf("佐藤 次郎（さとう じろう・%d）", other.PersonID) {
		t.Errorf("the refusal names %v, want both people by their labels and 11月定例会", v.Args)
	}
	// Another 佐藤 太郎 of November is alike, but one person is never two
	// players of one event: the record says so before a judge tries.
	twin := c.register(nov.ID, tournament.PlayerInput{Name: "佐藤 太郎", Kana: "サトウ タロウ", Person: tournament.PersonChoice{New: true}})
	rec0 := must(c.Svc.Person(c.Ctx, a.PersonID)).OK(t)
	if err := rec0.Refused[twin.PersonID]; codeOf(err) != "people-share-tournament" {
		t.Errorf("Person(kept).Refused[the other 佐藤 太郎 of November] = %v, want people-share-tournament", err)
	}
	if err := rec0.Refused[other.PersonID]; err != nil {
		t.Errorf("Person(kept).Refused[佐藤 次郎] = %v, want nothing: not alike", err)
	}
	rec := must(c.Svc.Person(c.Ctx, a.PersonID)).OK(t)
	if len(rec.Events) != 2 || rec.Events[0].TournamentID != nov.ID || rec.Events[1].TournamentID != oct.ID {
		t.Errorf("Person(kept).Events = %+v, want November then October", rec.Events)
	}
	if len(rec.History) != 1 || rec.History[0].Action != tournament.ActionPersonMerge || rec.History[0].Judge != "judge-b" ||
		!strings.Contains(rec.History[0].Subject, "佐藤 太郎") || rec.History[0].TournamentID != 0 {
		t.Errorf("Person(kept).History = %+v, want judge-b's merge, outside any tournament", rec.History)
	}
	if log := must(c.St.AuditLog(c.Ctx, nov.ID)).OK(t); slices.ContainsFunc(log, func(e tournament.AuditEntry) bool { return e.Action == tournament.ActionPersonMerge }) {
		t.Errorf("the merge is in November's own log: %+v", log)
	}
}

// Editing and archiving a person: audited, a member number another has
// refused, the archived hidden from the list and listed under the switch.
func TestEditAndArchivePerson(t *testing.T) {
	c := newConsole(t)
	oct := c.event("10月定例会", "2025-10-18")
	a := c.register(oct.ID, tournament.PlayerInput{Name: "佐藤", Kana: "さとう", Member: "1"})
	b := c.register(oct.ID, tournament.PlayerInput{Name: "田中", Kana: "たなか"})
	if _, err := c.Svc.EditPerson(c.Ctx, "judge-a", b.PersonID, tournament.PersonInput{Name: "田中 一郎", Member: "１"}); codeOf(err) != "member-taken" {
		t.Errorf("EditPerson(a member number taken) error = %v, want member-taken", err)
	}
	if _, err := c.Svc.EditPerson(c.Ctx, "judge-a", b.PersonID, tournament.PersonInput{Name: " "}); codeOf(err) != "person-name-missing" {
		t.Errorf("EditPerson(no name) error = %v, want person-name-missing", err)
	}
	p := must(c.Svc.EditPerson(c.Ctx, "judge-a", b.PersonID, tournament.PersonInput{Name: "田中 一郎", Kana: "たなか いちろう", Member: "2"})).OK(t)
	if p.Name != "田中 一郎" || p.Member != "2" {
		t.Errorf("EditPerson = %+v, want 田中 一郎, member 2", p)
	}
	if pl := must(c.Svc.GetPlayer(c.Ctx, oct.ID, b.ID)).OK(t); pl.Name != "田中" {
		t.Errorf("the player of October renamed to %q, want the name they played under kept", pl.Name)
	}
	must(c.Svc.ArchivePerson(c.Ctx, "judge-a", a.PersonID)).OK(t)
	listed := must(c.Svc.People(c.Ctx, "", false, 1)).OK(t)
	archived := must(c.Svc.People(c.Ctx, "さとう", true, 1)).OK(t)
	if listed.Total != 1 || listed.People[0].ID != b.PersonID || archived.Total != 1 || archived.People[0].ID != a.PersonID {
		t.Errorf("People() = %+v; archived = %+v; want 田中 listed and 佐藤 archived", listed, archived)
	}
	must(c.Svc.UnarchivePerson(c.Ctx, "judge-a", a.PersonID)).OK(t)
	var actions []string
	for _, e := range must(c.Svc.RegistryLog(c.Ctx)).OK(t) {
		actions = append(actions, e.Action)
	}
	want := []string{tournament.ActionPersonUnarchive, tournament.ActionPersonArchive, tournament.ActionPersonEdit}
	if !slices.Equal(actions, want) {
		t.Errorf("RegistryLog() = %v, want %v", actions, want)
	}
}
