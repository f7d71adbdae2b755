package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// addPerson registers a player of tournament tid as a new person of the
// registry, as the service does, and returns the player.
func addPerson(t *testing.T, s *store.Store, tid int64, name, kana, member string) tournament.Player {
	t.Helper()
	p := tournament.Player{TournamentID: tid, Name: name, Kana: kana, Person: &tournament.Person{Name: name, Kana: kana, Member: member}}
	if err := s.AddPlayer(context.Background(), &p, tournament.Progress{}, change("player.add")); err != nil {
		t.Fatal(err)
	}
	if p.PersonID == 0 || p.Person.ID != p.PersonID || p.Person.CreatedAt.IsZero() {
		t.Fatalf("AddPlayer(a new person) set PersonID %d, Person %+v; want the new person's ID on both", p.PersonID, p.Person)
	}
	return p
}

// addTournament creates a tournament dated date.
func addTournament(t *testing.T, s *store.Store, name, date string) tournament.Tournament {
	t.Helper()
	tr := tournament.Tournament{Name: name, Date: date, Ruleset: preset(t), Rounds: 3, GameMinutes: 60}
	if err := s.CreateTournament(context.Background(), &tr, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	return tr
}

// monthly creates the events of October and November.
func monthly(t *testing.T, s *store.Store) (oct, nov tournament.Tournament) {
	t.Helper()
	return addTournament(t, s, "10月定例会", "2025-10-18"), addTournament(t, s, "11月定例会", "2025-11-15")
}

// The registry on both engines: a new person is added with the player,
// a returning one is linked (and given a member number, and brought back
// from the archive), one person is never two players of one tournament,
// the search folds and pages, and the events come newest first.
func TestPeopleRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	oct, nov := monthly(t, s)
	sato := addPerson(t, s, oct.ID, "佐藤 太郎", "さとう たろう", "")
	tanaka := addPerson(t, s, oct.ID, "田中", "", "A-1")
	// Sato returns in November with a member number; archived meanwhile.
	before := sato.Person
	archived := *before
	archived.Archived = &tournament.Archival{Judge: "山田", At: t0}
	if err := s.UpdatePerson(ctx, *before, archived, change(tournament.ActionPersonArchive)); err != nil {
		t.Fatal(err)
	}
	joining := archived
	joining.Member, joining.Archived = "B-2", nil
	again := tournament.Player{TournamentID: nov.ID, Name: "佐藤 太郎", Kana: "サトウ タロウ", PersonID: sato.PersonID, Person: &joining}
	if err := s.AddPlayer(ctx, &again, tournament.Progress{}, change("player.add")); err != nil {
		t.Fatal(err)
	}
	got, err := s.Person(ctx, sato.PersonID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Member != "B-2" || got.Archived != nil || !slices.Equal(got.Tournaments, []int64{nov.ID, oct.ID}) || got.Last.TournamentID != nov.ID || got.Last.PlayerID != again.ID {
		t.Errorf("Person(sato) = %+v, want member B-2, listed, played November then October", got)
	}
	// Twice in one tournament: refused, and nothing is written.
	twice := tournament.Player{TournamentID: nov.ID, Name: "佐藤 太郎", PersonID: sato.PersonID}
	if err := s.AddPlayer(ctx, &twice, tournament.Progress{}, change("player.add")); !errors.Is(err, tournament.ErrConflict) || !hasCode(err, "person-already-registered") {
		t.Errorf("AddPlayer(the same person twice) error = %v, want the conflict person-already-registered", err)
	}
	gone := tournament.Player{TournamentID: nov.ID, Name: "誰か", PersonID: 99999}
	if err := s.AddPlayer(ctx, &gone, tournament.Progress{}, change("player.add")); !hasCode(err, "person-gone") {
		t.Errorf("AddPlayer(a person who is gone) error = %v, want the conflict person-gone", err)
	}
	dup := tournament.Player{TournamentID: nov.ID, Name: "別人", Person: &tournament.Person{Name: "別人", Member: "A-1"}}
	if err := s.AddPlayer(ctx, &dup, tournament.Progress{}, change("player.add")); !hasCode(err, "member-taken-meanwhile") {
		t.Errorf("AddPlayer(a new person with a member number taken) error = %v, want the conflict member-taken-meanwhile", err)
	}
	ps, err := s.Players(ctx, nov.ID)
	if err != nil || len(ps) != 1 || ps[0].PersonID != sato.PersonID {
		t.Errorf("Players(November) = %+v, %v; want Sato alone, linked", ps, err)
	}

	// The search folds as the service folds it; the order is by reading.
	addPerson(t, s, nov.ID, "あいだ", "", "")
	for _, tt := range []struct {
		q        string
		archived bool
		want     []string
	}{
		{"", false, []string{"あいだ", "佐藤 太郎", "田中"}},
		{tournament.FoldReading("タロウ"), false, []string{"佐藤 太郎"}},
		{"田", false, []string{"田中"}},
		{"%", false, nil},
		{"", true, nil},
	} {
		people, total, err := s.People(ctx, tournament.PeopleQuery{Q: tt.q, Archived: tt.archived, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range people {
			names = append(names, p.Name)
		}
		if !slices.Equal(names, tt.want) || total != len(tt.want) {
			t.Errorf("People(%q, archived %v) = %q of %d, want %q", tt.q, tt.archived, names, total, tt.want)
		}
	}
	if people, total, err := s.People(ctx, tournament.PeopleQuery{Offset: 1, Limit: 1}); err != nil || total != 3 || len(people) != 1 || people[0].Name != "佐藤 太郎" {
		t.Errorf("People(page 2 of 1) = %+v of %d, %v; want 佐藤 太郎 of 3", people, total, err)
	}
	match, err := s.MatchPeople(ctx, []string{tournament.FoldReading("田中")}, []string{tournament.FoldReading("サトウタロウ")}, []string{"B-2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(match) != 2 || match[0].ID != sato.PersonID || match[1].ID != tanaka.PersonID {
		t.Errorf("MatchPeople = %+v, want Sato and Tanaka by ID", match)
	}
	events, total, err := s.PersonEvents(ctx, sato.PersonID, 1, 5)
	if err != nil || total != 2 || len(events) != 1 || events[0].TournamentID != oct.ID || events[0].Name != "10月定例会" || events[0].PlayerID != sato.ID {
		t.Errorf("PersonEvents(sato, from 1) = %+v of %d, %v; want October alone of 2", events, total, err)
	}
}

// hasCode reports whether err is a coded refusal of code.
func hasCode(err error, code string) bool {
	var v *referee.Violation
	return errors.As(err, &v) && v.Code == code
}

// A person edited by two judges at once: the second edit, decided on the
// person as they were, is a conflict and changes nothing.
func TestUpdatePersonConflict(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	tr := addTournament(t, s, "定例会", "2025-11-15")
	p := addPerson(t, s, tr.ID, "佐藤", "さとう", "")
	read := *p.Person
	first := read
	first.Name = "佐藤 太郎"
	if err := s.UpdatePerson(ctx, read, first, change(tournament.ActionPersonEdit)); err != nil {
		t.Fatal(err)
	}
	second := read
	second.Kana = "さとう たろう"
	if err := s.UpdatePerson(ctx, read, second, change(tournament.ActionPersonEdit)); !hasCode(err, "person-changed") {
		t.Errorf("UpdatePerson(from a person changed since) error = %v, want the conflict person-changed", err)
	}
	got, err := s.Person(ctx, p.PersonID)
	if err != nil || got.Name != "佐藤 太郎" || got.Kana != "さとう" {
		t.Errorf("Person = %+v, %v; want the first edit alone", got, err)
	}
	log, err := s.AuditLog(ctx, 0)
	if err != nil || len(log) != 1 || log[0].Action != tournament.ActionPersonEdit || log[0].TournamentID != 0 {
		t.Errorf("AuditLog(0) = %+v, %v; want the one edit, outside any tournament", log, err)
	}
}

// Merging moves the players and removes the merged person, in one
// transaction with its audit entry; two people of one tournament are
// refused, and nothing changes.
func TestMergePeople(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	oct, nov := monthly(t, s)
	a := addPerson(t, s, oct.ID, "佐藤 太郎", "さとう たろう", "")
	b := addPerson(t, s, nov.ID, "佐藤太郎", "", "A-7")
	c := addPerson(t, s, nov.ID, "佐藤 次郎", "", "")
	after := *a.Person
	after.Member = "A-7"
	if err := s.MergePeople(ctx, *a.Person, *b.Person, after, change(tournament.ActionPersonMerge)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Person(ctx, a.PersonID)
	if err != nil || got.Member != "A-7" || !slices.Equal(got.Tournaments, []int64{nov.ID, oct.ID}) {
		t.Errorf("Person(kept) = %+v, %v; want member A-7, both tournaments", got, err)
	}
	if _, err := s.Person(ctx, b.PersonID); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("Person(merged) error = %v, want ErrNotFound", err)
	}
	if p, err := s.Player(ctx, b.ID); err != nil || p.PersonID != a.PersonID {
		t.Errorf("Player(b) = %+v, %v; want person %d", p, err, a.PersonID)
	}
	// c played November too, as a now does.
	kept := *a.Person
	kept.Member = "A-7"
	err = s.MergePeople(ctx, kept, *c.Person, kept, change(tournament.ActionPersonMerge))
	if !hasCode(err, "people-share-tournament") {
		t.Errorf("MergePeople(two players of November) error = %v, want the conflict people-share-tournament", err)
	}
	if p, err := s.Person(ctx, c.PersonID); err != nil || len(p.Tournaments) != 1 {
		t.Errorf("Person(c) after the refusal = %+v, %v; want them as they were", p, err)
	}
	// A merge decided on a person another judge changed since.
	if err := s.MergePeople(ctx, *a.Person, *c.Person, *a.Person, change(tournament.ActionPersonMerge)); !hasCode(err, "person-changed") {
		t.Errorf("MergePeople(from a stale person) error = %v, want the conflict person-changed", err)
	}
	log, err := s.AuditLog(ctx, 0)
	if err != nil || len(log) != 1 || log[0].Action != tournament.ActionPersonMerge {
		t.Errorf("AuditLog(0) = %+v, %v; want the one merge", log, err)
	}
}

// A merge of a person whom a registration links at that moment, on
// PostgreSQL, where both run at once: the registration holds the person's
// lock when the merge starts, so the merge waits for it and moves the
// player it added. Without the lock the merge would remove the person
// under the registration, leaving its player naming nobody. (On SQLite
// the two never run at once.)
func TestMergeWaitsForRegistration(t *testing.T) {
	if !tournamenttest.OnPostgres() {
		t.Skip("SQLite runs one write at a time")
	}
	ctx := context.Background()
	s := openStore(t)
	oct, nov := monthly(t, s)
	dec := addTournament(t, s, "12月定例会", "2025-12-20")
	a := addPerson(t, s, oct.ID, "佐藤", "さとう", "")
	b := addPerson(t, s, nov.ID, "佐藤", "さとう", "")
	merged := make(chan error, 1)
	store.OnPersonLocked(t, func(id int64) {
		go func() {
			merged <- s.MergePeople(ctx, *a.Person, *b.Person, *a.Person, change(tournament.ActionPersonMerge))
		}()
		// Until the merge waits for a lock, or is done without waiting.
		for {
			if n, err := store.Waiting(s); err != nil || n > 0 || len(merged) > 0 {
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	late := tournament.Player{TournamentID: dec.ID, Name: "佐藤", Kana: "さとう", PersonID: b.PersonID}
	if err := s.AddPlayer(ctx, &late, tournament.Progress{}, change("player.add")); err != nil {
		t.Fatal(err)
	}
	if err := <-merged; err != nil {
		t.Fatalf("MergePeople: %v", err)
	}
	if p, err := s.Player(ctx, late.ID); err != nil || p.PersonID != a.PersonID {
		t.Errorf("the player registered during the merge = %+v, %v; want them moved to person %d", p, err, a.PersonID)
	}
}

// Migration step 8 gives every player of a database from before the
// registry a person, matched across tournaments as the JSON API matches a
// registration. testdata/schema-6.sql was written by the program at schema
// version 6: three events in which 佐藤 太郎 plays each time (his reading in
// hiragana, katakana, without the space), 伊藤 美咲 twice (once in
// half-width katakana), 田中 花子 twice without a reading, 鈴木 一郎 read
// two ways, and 山本 健 twice in November and once more in December.
func TestOpenLinksPlayersToPeople(t *testing.T) {
	ctx := context.Background()
	s, _ := openDump(t, "testdata/schema-6.sql")
	if got, err := s.AppliedMigrations(ctx); err != nil || !slices.Equal(got, allVersions()) {
		t.Fatalf("AppliedMigrations() = %v, %v; want %v", got, err, allVersions())
	}
	checkLinked(t, s)
}

// LinkPeople (migration step 8's work) on the tests' engine, over the
// same events as testdata/schema-6.sql made through the service, their
// people removed.
func TestLinkPeopleOnEitherEngine(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	at := time.Date(2025, 10, 18, 13, 0, 0, 0, time.UTC)
	svc := tournamenttest.NewServiceOn(t, s, func() time.Time { at = at.Add(time.Second); return at })
	for _, ev := range []struct {
		name, date string
		players    [][2]string
	}{
		{"10月定例会", "2025-10-18", [][2]string{{"佐藤 太郎", "さとう たろう"}, {"田中 花子", ""}, {"鈴木 一郎", "すずき いちろう"}, {"山本 健", "やまもと けん"}, {"伊藤 美咲", "いとう みさき"}}},
		{"11月定例会", "2025-11-15", [][2]string{{"佐藤 太郎", "サトウ タロウ"}, {"田中 花子", ""}, {"鈴木 一郎", "すずき かずお"}, {"山本 健", "やまもと けん"}, {"山本 健", "やまもと けん"}, {"伊藤 美咲", "ｲﾄｳ ﾐｻｷ"}}},
		{"12月定例会", "2025-12-20", [][2]string{{"山本 健", "やまもと けん"}, {"佐藤太郎", "さとうたろう"}}},
	} {
		tr, err := svc.CreateTournament(ctx, "山田", tournament.TournamentInput{Name: ev.name, Date: ev.date, Rounds: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ev.players {
			if _, err := svc.AddPlayer(ctx, "山田", tr.ID, tournament.PlayerInput{Name: p[0], Kana: p[1], Person: tournament.PersonChoice{New: true}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, q := range []string{"UPDATE players SET person_id = NULL", "DELETE FROM people"} {
		if err := store.Exec(s, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.LinkPeople(s); err != nil {
		t.Fatal(err)
	}
	checkLinked(t, s)
}

// checkLinked checks the people of the events of testdata/schema-6.sql.
func checkLinked(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	person := map[string][]int64{} // "tournament/name/kana" → person IDs
	var all []tournament.Player
	for tid := int64(1); tid <= 3; tid++ {
		ps, err := s.Players(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(ps, func(a, b tournament.Player) int { return int(a.ID - b.ID) })
		for _, p := range ps {
			if p.PersonID == 0 {
				t.Errorf("player %d (%s) has no person", p.ID, p.Name)
			}
			all = append(all, p)
		}
	}
	if len(all) != 13 {
		t.Fatalf("%d players, want the 13 of the three events", len(all))
	}
	for _, p := range all {
		person[p.Name] = append(person[p.Name], p.PersonID)
	}
	same := func(ids ...int64) bool {
		return !slices.ContainsFunc(ids, func(id int64) bool { return id != ids[0] })
	}
	by := func(i int) int64 { return all[i].PersonID }
	for _, tt := range []struct {
		what string
		ok   bool
	}{
		{"佐藤 太郎 is one person in all three events", same(by(0), by(5), by(12))},
		{"伊藤 美咲 is one person, half-width katakana or not", same(by(4), by(10))},
		{"田中 花子 without a reading is two people", by(1) != by(6)},
		{"鈴木 一郎 read two ways is two people", by(2) != by(7)},
		{"山本 健 of October is the first of November", same(by(3), by(8))},
		{"the second 山本 健 of November is someone else", by(9) != by(8)},
		{"山本 健 of December, who may be either, is a new person", by(11) != by(3) && by(11) != by(9)},
	} {
		if !tt.ok {
			t.Errorf("%s: people %v", tt.what, person)
		}
	}
	people, total, err := s.People(ctx, tournament.PeopleQuery{Limit: 100})
	if err != nil || total != 9 {
		t.Fatalf("People() = %d people, %v; want 9", total, err)
	}
	var sato tournament.PersonEntry
	for _, p := range people {
		if p.ID == by(0) {
			sato = p
		}
	}
	if diff := cmp.Diff([]int64{3, 2, 1}, sato.Tournaments); diff != "" || sato.Name != "佐藤 太郎" || sato.Kana != "さとう たろう" {
		t.Errorf("佐藤 太郎's person = %+v, want as first registered, with the three events newest first (-want +got):\n%s", sato, diff)
	}
}
