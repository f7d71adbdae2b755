package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/pairing"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

var t0 = time.Date(2025, 11, 22, 13, 0, 0, 0, time.UTC)

// openStore opens a store on a new database of the tests' engine: SQLite,
// or PostgreSQL when CATANJUDGE_TEST_DATABASE is postgres (tournamenttest).
func openStore(t *testing.T) *store.Store {
	t.Helper()
	return tournamenttest.NewStore(t)
}

// openSQLite opens a store on a new SQLite file, for the tests of what only
// SQLite does (its pragmas, its backups).
func openSQLite(t *testing.T) *store.Store {
	t.Helper()
	dsn, err := store.FileDSN(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return tournamenttest.OpenDSN(t, dsn)
}

func preset(t *testing.T) referee.Ruleset {
	t.Helper()
	rs, err := config.LoadRulesets()
	if err != nil {
		t.Fatal(err)
	}
	r, ok := rs.Get(config.DefaultRuleset)
	if !ok {
		t.Fatalf("no built-in ruleset %q", config.DefaultRuleset)
	}
	return r
}

func change(action string) tournament.Change {
	return tournament.Change{Judge: "judge-a", At: t0, Action: action, Subject: "test"}
}

// fixture is a tournament with n players and round 1 paired into tables of
// the given sizes, the rest on a bye.
type fixture struct {
	s       *store.Store
	t       tournament.Tournament
	players []int64
	round   tournament.Round
}

func newFixture(t *testing.T, n int, sizes ...int) fixture {
	t.Helper()
	return newFixtureOn(t, openStore(t), n, sizes...)
}

// newFixtureOn is newFixture on the store s.
func newFixtureOn(t *testing.T, s *store.Store, n int, sizes ...int) fixture {
	t.Helper()
	ctx := context.Background()
	tour := tournament.Tournament{Name: "11月定例会", Date: "2025-11-22", Venue: "カードショップ", Ruleset: preset(t), Rounds: 3, GameMinutes: 7}
	if err := s.CreateTournament(ctx, &tour, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	f := fixture{s: s, t: tour}
	for i := range n {
		p := tournament.Player{TournamentID: tour.ID, Name: fmt.Sprintf("player %d", i+1), Kana: fmt.Sprintf("ぷれいやー%02d", i+1)}
		if err := s.AddPlayer(ctx, &p, tournament.Progress{}, change("player.add")); err != nil {
			t.Fatal(err)
		}
		f.players = append(f.players, p.ID)
	}
	r := tournament.Round{TournamentID: tour.ID, Number: 1, Mode: "random", Seed: 1 << 63, PairedBy: "judge-a", PairedAt: t0,
		Cost: pairing.Cost{Meetings: 1, Exposure: 2, Standings: 3}, Repeats: 1}
	at := 0
	for i, size := range sizes {
		r.Tables = append(r.Tables, tournament.Table{Number: i + 1, Players: f.players[at : at+size]})
		at += size
	}
	if at < n {
		r.Byes = f.players[at:]
	}
	c := change("round.pair")
	c.After = &r
	if err := s.AddRound(ctx, &r, c); err != nil {
		t.Fatal(err)
	}
	f.round = r
	return f
}

func TestOpenSetsPragmas(t *testing.T) {
	dir := t.TempDir() + "/data"
	dsn, err := store.FileDSN(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		t.Errorf("data folder permissions = %o, want 700", perm)
	}
	s, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct{ pragma, want string }{
		{"foreign_keys", "1"},
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"busy_timeout", "5000"},
	} {
		got, err := store.Pragma(s, tc.pragma)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s = %s, want %s", tc.pragma, got, tc.want)
		}
	}
}

func TestTournamentRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	in := tournament.Tournament{Name: "定例会", Date: "2025-11-22", Venue: "秋葉原", Ruleset: preset(t), Rounds: 3, GameMinutes: 7, CreatedAt: t0}
	if err := s.CreateTournament(ctx, &in, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	if in.ID == 0 {
		t.Fatal("CreateTournament left the ID 0")
	}
	got, err := s.Tournament(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("Tournament(%d) mismatch (-want +got):\n%s", in.ID, diff)
	}

	read := in
	in.Name, in.Venue, in.Rounds = "定例会 改", "新宿", 4
	in.Ruleset.Name = "edited" // the copied ruleset never changes
	if err := s.UpdateTournament(ctx, read, in, tournament.Progress{}, change("tournament.update")); err != nil {
		t.Fatal(err)
	}
	got, err = s.Tournament(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "定例会 改" || got.Venue != "新宿" || got.Rounds != 4 || got.Ruleset.Name != config.DefaultRuleset {
		t.Errorf("after UpdateTournament: %+v", got)
	}
	list, err := s.Tournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != in.ID {
		t.Errorf("Tournaments() = %v, want just tournament %d", list, in.ID)
	}
	if _, err := s.Tournament(ctx, in.ID+1); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("Tournament(missing) error = %v, want ErrNotFound", err)
	}
	if err := s.UpdateTournament(ctx, tournament.Tournament{ID: in.ID + 1}, tournament.Tournament{ID: in.ID + 1}, tournament.Progress{}, change("tournament.update")); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("UpdateTournament(missing) error = %v, want ErrNotFound", err)
	}
}

// A tournament whose ruleset copy was stored before the board, time and
// event settings existed keeps the rulebook's behaviour: it reads as the
// preset reads today.
func TestOldRulesetCopy(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	in := tournament.Tournament{Name: "定例会", Ruleset: preset(t), Rounds: 3, GameMinutes: 7, CreatedAt: t0}
	if err := s.CreateTournament(ctx, &in, change("tournament.create")); err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("testdata/ruleset-copy-2003.2.json")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(old), `"Board"`) || strings.Contains(string(old), `"Timing"`) || strings.Contains(string(old), `"Event"`) {
		t.Fatal("the old copy holds settings that came after it")
	}
	if err := store.SetRulesetCopy(s, in.ID, string(old)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Tournament(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := preset(t)
	want.Description = "" // nor was the description copied then
	// The copy keeps what version 2003.2 said; 2003.3 lets repeats climb
	// from a caution (docs/rules.md, Penalties).
	want.Version, want.EscalateFrom = "2003.2", referee.Warning
	// and its offences' names as they were written then, in half-width
	// parentheses.
	for i, o := range want.Penalties {
		want.Penalties[i].NameJA = strings.NewReplacer("（", "(", "）", ")").Replace(o.NameJA)
	}
	if diff := cmp.Diff(want, got.Ruleset); diff != "" {
		t.Errorf("old copy read back (-preset +got):\n%s", diff)
	}
	if got.Ruleset.Board.Method != referee.CapsuleBoard || got.Ruleset.Timing != (referee.Timing{}) {
		t.Errorf("old copy: board %q, timing %+v, want the capsule roll and no phases", got.Ruleset.Board.Method, got.Ruleset.Timing)
	}
	if _, err := referee.NewBoard(got.Ruleset, referee.CapsuleRoll{White: 1, Blue: 2}, 3); err != nil {
		t.Errorf("NewBoard(old copy) = %v", err)
	}
}

func TestPlayersRoundTrip(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	a, b, c, d := f.players[0], f.players[1], f.players[2], f.players[3]
	p, err := f.s.Player(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	read := p
	p.Name, p.Kana, p.CheckedIn, p.DroppedRound, p.FixedTable = "青木", "あおき", true, 3, 2
	p.CodeHash = "00ff:abcd" // a code issued: the hash round-trips
	p.KeepApart = []int64{c, b, b}
	if err := f.s.UpdatePlayer(ctx, read, p, nil, change("player.update")); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.Player(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	want := p
	want.KeepApart = []int64{b, c}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Player(%d) mismatch (-want +got):\n%s", a, diff)
	}
	// A keep-apart request holds both ways.
	other, err := f.s.Player(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{a}, other.KeepApart); diff != "" {
		t.Errorf("Player(%d).KeepApart mismatch (-want +got):\n%s", c, diff)
	}
	late := tournament.Player{TournamentID: f.t.ID, Name: "遅刻", Kana: "ちこく", LateEntryRound: 2, KeepApart: []int64{d}}
	if err := f.s.AddPlayer(ctx, &late, tournament.Progress{Paired: 1}, change("player.add")); err != nil {
		t.Fatal(err)
	}
	all, err := f.s.Players(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range all {
		names = append(names, p.Kana)
	}
	wantNames := []string{"あおき", "ちこく", "ぷれいやー02", "ぷれいやー03", "ぷれいやー04"}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("Players() not sorted by kana (-want +got):\n%s", diff)
	}
	if got := all[len(all)-1].KeepApart; !cmp.Equal(got, []int64{late.ID}) {
		t.Errorf("player %d KeepApart = %v, want [%d]", d, got, late.ID)
	}

	self := late
	self.KeepApart = []int64{late.ID}
	if err := f.s.UpdatePlayer(ctx, late, self, nil, change("player.update")); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("UpdatePlayer(keep apart from self) error = %v, want ErrInvalid", err)
	}
	if _, err := f.s.Player(ctx, 9999); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("Player(missing) error = %v, want ErrNotFound", err)
	}
}

func TestRoundRoundTrip(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 9, 3, 3, 3)
	t1 := f.round.Tables[0]
	seating := tournament.Seating{
		Rolls: [][]tournament.Roll{
			{{PlayerID: t1.Players[0], CapsuleRoll: referee.CapsuleRoll{White: 6, Blue: 6}}, {PlayerID: t1.Players[1], CapsuleRoll: referee.CapsuleRoll{White: 1, Blue: 2}}, {PlayerID: t1.Players[2], CapsuleRoll: referee.CapsuleRoll{White: 2, Blue: 1}}},
			{{PlayerID: t1.Players[1], CapsuleRoll: referee.CapsuleRoll{White: 5, Blue: 5}}, {PlayerID: t1.Players[2], CapsuleRoll: referee.CapsuleRoll{White: 1, Blue: 1}}},
		},
		Seats: []tournament.Seat{{PlayerID: t1.Players[0], Order: 1, Color: referee.Red}, {PlayerID: t1.Players[1], Order: 2, Color: referee.Blue}, {PlayerID: t1.Players[2], Order: 3, Color: referee.Yellow}},
		Judge: "judge-a", At: t0,
	}
	if err := f.s.SetSeating(ctx, t1.ID, &seating, nil, change("table.seat")); err != nil {
		t.Fatal(err)
	}
	board := tournament.BoardRecord{Roll: referee.CapsuleRoll{White: 3, Blue: 4}, Seed: 1<<64 - 1, Judge: "judge-a", At: t0,
		Deal: []referee.Chip{{Hex: referee.Hex{Q: 0, R: -2}, Number: 5}, {Hex: referee.Hex{Q: -1, R: 2}, Number: 8}}}
	if err := f.s.SetBoard(ctx, t1.ID, &board, nil, nil, change("table.board")); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.Round(ctx, f.t.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := f.round
	want.Tables[0].Seating, want.Tables[0].Board = &seating, &board
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Round(1) mismatch (-want +got):\n%s", diff)
	}
	rounds, err := f.s.Rounds(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]tournament.Round{want}, rounds); diff != "" {
		t.Errorf("Rounds() mismatch (-want +got):\n%s", diff)
	}

	dup := tournament.Round{TournamentID: f.t.ID, Number: 1, Mode: "swiss", PairedBy: "judge-a", PairedAt: t0}
	if err := f.s.AddRound(ctx, &dup, change("round.pair")); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("AddRound(round 1 again) error = %v, want ErrConflict", err)
	}
	if _, err := f.s.Round(ctx, f.t.ID, 2); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("Round(2) error = %v, want ErrNotFound", err)
	}
}

func TestReplaceRound(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 7, 4, 3)
	p := f.players
	board := tournament.BoardRecord{Roll: referee.CapsuleRoll{White: 1, Blue: 2}, Seed: 7, Judge: "judge-a", At: t0}
	if err := f.s.SetBoard(ctx, f.round.Tables[1].ID, &board, nil, nil, change("table.board")); err != nil {
		t.Fatal(err)
	}
	re := tournament.Round{TournamentID: f.t.ID, Number: 1, Mode: "random", Seed: 99, PairedBy: "judge-b", PairedAt: t0.Add(time.Minute),
		Tables: []tournament.Table{{Number: 1, Players: []int64{p[6], p[5], p[4], p[3]}}, {Number: 2, Players: []int64{p[2], p[1], p[0]}}}}
	if err := f.s.ReplaceRound(ctx, &re, f.round, nil, change("round.repair")); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.Round(ctx, f.t.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != f.round.ID || got.Seed != 99 || !cmp.Equal(got.Tables[0].Players, re.Tables[0].Players) {
		t.Errorf("Round(1) after ReplaceRound = %+v", got)
	}
	// The board of table 2 does not depend on who sits there: it stays.
	if diff := cmp.Diff(&board, got.Tables[1].Board); diff != "" {
		t.Errorf("table 2 board after ReplaceRound mismatch (-want +got):\n%s", diff)
	}
	r := tournament.Result{Scores: []tournament.Score{{PlayerID: p[6], VP: 5}, {PlayerID: p[5], VP: 4}, {PlayerID: p[4], VP: 3}, {PlayerID: p[3], VP: 2}},
		EndedBy: tournament.EndedByTime, Judge: "judge-a", At: t0}
	if err := f.s.SaveResult(ctx, got.Tables[0].ID, 0, &r, change("result.save")); err != nil {
		t.Fatal(err)
	}
	if err := f.s.ReplaceRound(ctx, &re, got, nil, change("round.repair")); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("ReplaceRound(after a result) error = %v, want ErrConflict", err)
	}
}

func TestAmendRound(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 9, 4, 4) // player 9 has a bye
	p := f.players
	from := f.round
	r := f.round
	r.Tables = slices.Clone(f.round.Tables)
	// Player 9 takes player 1's seat; player 1 gets the bye.
	r.Tables[0].Players = []int64{p[8], p[1], p[2], p[3]}
	r.Byes = []int64{p[0]}
	r.Repeats, r.Cost = 0, pairing.Cost{Exposure: 1000}
	a := tournament.Amendment{A: p[0], B: p[8], Reason: "late", Judge: "judge-a", At: t0}
	if err := f.s.AmendRound(ctx, &r, from, a, nil, change("round.amend")); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.Round(ctx, f.t.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.Amendments = []tournament.Amendment{a}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("Round(1) after AmendRound mismatch (-want +got):\n%s", diff)
	}

	// Swap between tables 1 and 2 once table 2 is seated: refused.
	seating := tournament.Seating{Seats: []tournament.Seat{
		{PlayerID: p[4], Order: 1, Color: referee.Red}, {PlayerID: p[5], Order: 2, Color: referee.Blue},
		{PlayerID: p[6], Order: 3, Color: referee.Yellow}, {PlayerID: p[7], Order: 4, Color: referee.Green},
	}, Judge: "judge-a", At: t0}
	if err := f.s.SetSeating(ctx, r.Tables[1].ID, &seating, nil, change("table.seat")); err != nil {
		t.Fatal(err)
	}
	r2 := got
	r2.Tables = slices.Clone(got.Tables)
	r2.Tables[0].Players = []int64{p[4], p[1], p[2], p[3]}
	r2.Tables[1].Players = []int64{p[8], p[5], p[6], p[7]}
	err = f.s.AmendRound(ctx, &r2, got, tournament.Amendment{A: p[8], B: p[4], Reason: "x", Judge: "judge-a", At: t0}, nil, change("round.amend"))
	if !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("AmendRound(seated table) error = %v, want ErrConflict", err)
	}
}

func TestSaveResultRevisions(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	p := f.players
	table := f.round.Tables[0].ID
	v1 := tournament.Result{Scores: []tournament.Score{{PlayerID: p[0], VP: 10}, {PlayerID: p[1], VP: 8}, {PlayerID: p[2], VP: 8}, {PlayerID: p[3], VP: 5}},
		Declared: p[0], EndedBy: tournament.EndedByDeclaration, Judge: "judge-a", At: t0}
	if err := f.s.SaveResult(ctx, table, 0, &v1, change("result.save")); err != nil {
		t.Fatal(err)
	}
	if v1.Version != 1 || v1.TableID != table {
		t.Errorf("first save: version %d table %d, want 1 and %d", v1.Version, v1.TableID, table)
	}
	v2 := v1
	// A revision may carry breakdowns: they are stored with it, and the
	// lines without one read back without.
	v2.Scores = []tournament.Score{{PlayerID: p[0], VP: 10, Breakdown: &referee.Breakdown{Settlements: 2, Cities: 3, LongestRoad: true}},
		{PlayerID: p[1], VP: 9, Breakdown: &referee.Breakdown{Cities: 2, LargestArmy: true, PointCards: 1}}, {PlayerID: p[2], VP: 8}, {PlayerID: p[3], VP: 5}}
	v2.Judge, v2.At, v2.Reason = "judge-b", t0.Add(5*time.Minute), "miscounted longest road"
	if err := f.s.SaveResult(ctx, table, 1, &v2, change("result.correct")); err != nil {
		t.Fatal(err)
	}

	// A judge who edited version 1 is refused, and told what changed.
	stale := v1
	stale.Scores = []tournament.Score{{PlayerID: p[0], VP: 10}, {PlayerID: p[1], VP: 8}, {PlayerID: p[2], VP: 7}, {PlayerID: p[3], VP: 5}}
	err := f.s.SaveResult(ctx, table, 1, &stale, change("result.correct"))
	var ce *tournament.ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, tournament.ErrConflict) {
		t.Fatalf("SaveResult(stale) error = %v, want a *ConflictError", err)
	}
	if diff := cmp.Diff(v2, ce.Current); diff != "" {
		t.Errorf("ConflictError.Current mismatch (-want +got):\n%s", diff)
	}
	if ce.Base == nil || ce.Base.Version != 1 {
		t.Errorf("ConflictError.Base = %v, want version 1", ce.Base)
	}
	if want := fmt.Sprintf("player %d 8 → 9 VP", p[1]); !cmp.Equal(ce.Changes(), []string{want}) {
		t.Errorf("ConflictError.Changes() = %q, want [%q]", ce.Changes(), want)
	}
	if err := f.s.SaveResult(ctx, table, 5, &stale, change("result.correct")); !errors.As(err, &ce) {
		t.Errorf("SaveResult(future version) error = %v, want a *ConflictError", err)
	}

	revs, err := f.s.Revisions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]tournament.Result{v1, v2}, revs); diff != "" {
		t.Errorf("Revisions(%d) mismatch (-want +got):\n%s", table, diff)
	}
	round, err := f.s.Round(ctx, f.t.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := round.Tables[0]; got.Revisions != 2 || got.Result == nil || got.Result.Version != 2 {
		t.Errorf("table after two revisions: Revisions %d, Result %v; want 2 and version 2", got.Revisions, got.Result)
	}
	// Seating or board changes after a result would no longer match the game.
	if err := f.s.SetBoard(ctx, table, &tournament.BoardRecord{}, nil, nil, change("table.board")); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("SetBoard(after a result) error = %v, want ErrConflict", err)
	}
	if _, err := f.s.Revisions(ctx, 9999); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("Revisions(missing) error = %v, want ErrNotFound", err)
	}
}

// Two judges saving the same version at once: exactly one wins.
func TestSaveResultRace(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	table := f.round.Tables[0].ID
	raceFirstSave(t, f.round.Tables[0], f.s)
	revs, err := f.s.Revisions(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != 1 {
		t.Errorf("Revisions() = %d revisions, want 1", len(revs))
	}
	log, err := f.s.AuditLog(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := countAction(log, "result.save"); n != 1 {
		t.Errorf("audit log has %d result.save lines, want 1", n)
	}
}

func TestPenalties(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	p := f.players
	pen := tournament.Penalty{TournamentID: f.t.ID, PlayerID: p[1], Round: 1, Table: 1, Offence: "note-taking",
		Level: referee.Warning, Judge: "judge-a", At: t0, Note: "メモ"}
	if err := f.s.AddPenalty(ctx, &pen, 0, nil, change("penalty.add")); err != nil {
		t.Fatal(err)
	}
	rev := tournament.Revocation{Judge: "judge-b", At: t0.Add(time.Hour), Reason: "wrong player"}
	if err := f.s.RevokePenalty(ctx, pen.ID, rev, change("penalty.revoke")); err != nil {
		t.Fatal(err)
	}
	if err := f.s.RevokePenalty(ctx, pen.ID, rev, change("penalty.revoke")); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("RevokePenalty(twice) error = %v, want ErrConflict", err)
	}
	if err := f.s.RevokePenalty(ctx, 9999, rev, change("penalty.revoke")); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("RevokePenalty(missing) error = %v, want ErrNotFound", err)
	}
	dq := tournament.Penalty{TournamentID: f.t.ID, PlayerID: p[2], Round: 1, Table: 1, Offence: "ignored-judge",
		Level: referee.Disqualification, Judge: "judge-a", At: t0}
	if err := f.s.AddPenalty(ctx, &dq, 2, &tournament.Progress{Paired: 1}, change("penalty.add")); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.Penalties(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := pen
	want.Revoked = &rev
	if diff := cmp.Diff([]tournament.Penalty{want, dq}, got); diff != "" {
		t.Errorf("Penalties() mismatch (-want +got):\n%s", diff)
	}
	pl, err := f.s.Player(ctx, p[2])
	if err != nil {
		t.Fatal(err)
	}
	if pl.DroppedRound != 2 {
		t.Errorf("disqualified player DroppedRound = %d, want 2", pl.DroppedRound)
	}
	one, err := f.s.Penalty(ctx, pen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, one); diff != "" {
		t.Errorf("Penalty(%d) mismatch (-want +got):\n%s", pen.ID, diff)
	}
}

// A change and its audit line are written together or not at all.
func TestAuditInSameTransaction(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 8, 4, 4)
	p := f.players
	before, err := f.s.AuditLog(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	// 1 tournament + 8 players + 1 round.
	if len(before) != 10 {
		t.Fatalf("audit log has %d lines, want 10", len(before))
	}
	if e := before[0]; e.Action != "round.pair" || e.Judge != "judge-a" || !e.At.Equal(t0) || !strings.Contains(e.After, fmt.Sprintf(`"ID":%d`, f.round.ID)) {
		t.Errorf("latest audit entry = %+v, want round.pair by judge-a with the round and its ID as After", e)
	}

	// Round 2 fails on its second table (player 1 seated twice), after the
	// round and its first table were written.
	bad := tournament.Round{TournamentID: f.t.ID, Number: 2, Mode: "swiss", PairedBy: "judge-a", PairedAt: t0,
		Tables: []tournament.Table{{Number: 1, Players: p[:4]}, {Number: 2, Players: []int64{p[0], p[5], p[6], p[7]}}}}
	if err := f.s.AddRound(ctx, &bad, change("round.pair")); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("AddRound(player twice) error = %v, want ErrConflict", err)
	}
	if _, err := f.s.Round(ctx, f.t.ID, 2); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("Round(2) after a failed AddRound: error = %v, want ErrNotFound", err)
	}
	// A result naming a player not at the table is refused.
	r := tournament.Result{Scores: []tournament.Score{{PlayerID: p[0], VP: 3}, {PlayerID: p[1], VP: 2}, {PlayerID: p[2], VP: 1}, {PlayerID: p[4], VP: 0}},
		EndedBy: tournament.EndedByTime, Judge: "judge-a", At: t0}
	if err := f.s.SaveResult(ctx, f.round.Tables[0].ID, 0, &r, change("result.save")); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SaveResult(player from another table) error = %v, want ErrInvalid", err)
	}
	// Changes without a judge fail at their audit line, after the revision
	// and the penalty rows were written: the changes are undone.
	r.Scores[3].PlayerID = p[3]
	if err := f.s.SaveResult(ctx, f.round.Tables[0].ID, 0, &r, tournament.Change{Action: "result.save"}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("SaveResult(no judge in audit) error = %v, want ErrInvalid", err)
	}
	pen := tournament.Penalty{TournamentID: f.t.ID, PlayerID: p[0], Offence: "note-taking", Level: referee.Warning, Judge: "judge-a", At: t0}
	if err := f.s.AddPenalty(ctx, &pen, 0, nil, tournament.Change{Action: "penalty.add"}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("AddPenalty(no judge in audit) error = %v, want ErrInvalid", err)
	}

	after, err := f.s.AuditLog(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("audit log grew from %d to %d lines after failed writes", len(before), len(after))
	}
	revs, err := f.s.Revisions(ctx, f.round.Tables[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	pens, err := f.s.Penalties(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != 0 || len(pens) != 0 {
		t.Errorf("after failed writes: %d revisions, %d penalties; want none", len(revs), len(pens))
	}
}

func TestClockAndSettings(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 4, 4)
	e := tournament.ClockEvent{RoundID: f.round.ID, Kind: "start", Judge: "judge-a", At: t0}
	if err := f.s.AddClockEvent(ctx, &e, change("clock.start")); err != nil {
		t.Fatal(err)
	}
	ext := tournament.ClockEvent{RoundID: f.round.ID, TableID: f.round.Tables[0].ID, Kind: "extend", Seconds: 60, Judge: "judge-a", At: t0.Add(time.Minute)}
	if err := f.s.AddClockEvent(ctx, &ext, change("clock.extend")); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.ClockEvents(ctx, f.round.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]tournament.ClockEvent{e, ext}, got); diff != "" {
		t.Errorf("ClockEvents() mismatch (-want +got):\n%s", diff)
	}
	// Once the clock has started, the round is no longer re-paired.
	re := f.round
	if err := f.s.ReplaceRound(ctx, &re, f.round, nil, change("round.repair")); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("ReplaceRound(clock started) error = %v, want ErrConflict", err)
	}

	if _, err := f.s.GetSetting(ctx, "judge_password"); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("GetSetting(unset) error = %v, want ErrNotFound", err)
	}
	for _, v := range []string{"hash-1", "hash-2"} {
		if err := f.s.SetSetting(ctx, "judge_password", v); err != nil {
			t.Fatal(err)
		}
		got, err := f.s.GetSetting(ctx, "judge_password")
		if err != nil {
			t.Fatal(err)
		}
		if got != v {
			t.Errorf("GetSetting() = %q, want %q", got, v)
		}
	}
}

// raceFirstSave has 8 judges save the first result of table at once, on
// the stores in turn: exactly one wins, and each of the others gets a
// *ConflictError holding version 1.
func raceFirstSave(t *testing.T, table tournament.Table, stores ...*store.Store) {
	t.Helper()
	ctx := context.Background()
	const savers = 8
	var wg sync.WaitGroup
	errs := make([]error, savers)
	for i := range savers {
		wg.Go(func() {
			r := tournament.Result{EndedBy: tournament.EndedByTime, Judge: fmt.Sprintf("judge-%d", i), At: t0}
			for k, p := range table.Players {
				vp := 1
				if k == 0 {
					vp = i // each saver's sheet differs
				}
				r.Scores = append(r.Scores, tournament.Score{PlayerID: p, VP: vp})
			}
			errs[i] = stores[i%len(stores)].SaveResult(ctx, table.ID, 0, &r, tournament.Change{Judge: r.Judge, At: t0, Action: "result.save"})
		})
	}
	wg.Wait()
	wins := 0
	for i, err := range errs {
		var ce *tournament.ConflictError
		switch {
		case err == nil:
			wins++
		case errors.As(err, &ce):
			if ce.Current.Version != 1 {
				t.Errorf("saver %d: conflict with version %d, want 1", i, ce.Current.Version)
			}
		default:
			t.Errorf("saver %d: error = %v, want nil or a *ConflictError", i, err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d of %d concurrent saves of version 1 on %d servers won, want exactly 1", wins, savers, len(stores))
	}
}

func countAction(log []tournament.AuditEntry, action string) int {
	n := 0
	for _, e := range log {
		if e.Action == action {
			n++
		}
	}
	return n
}

// A final stage keeps its cut: who advanced, the drawn order of those tied
// at the line, and the draw's seed (all 64 bits), in the same round row.
func TestFinalCutRoundTrip(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 9, 3, 3, 3)
	ps := f.players
	final := tournament.Round{TournamentID: f.t.ID, Number: 2, Mode: tournament.ModeFinal, Seed: 1<<64 - 1, PairedBy: "judge-a", PairedAt: t0,
		Tables: []tournament.Table{{Number: 1, Players: []int64{ps[0], ps[4], ps[2], ps[7]}}},
		Cut:    &tournament.Cut{Stage: 1, Advancing: []int64{ps[0], ps[4], ps[2], ps[7]}, Draw: []int64{ps[7], ps[3]}, Seed: 1<<64 - 1}}
	if err := f.s.AddRound(ctx, &final, change("final.make")); err != nil {
		t.Fatal(err)
	}
	rounds, err := f.s.Rounds(ctx, f.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 2 || rounds[0].Cut != nil {
		t.Fatalf("Rounds() = %+v, want round 1 without a cut and the final", rounds)
	}
	if diff := cmp.Diff(final, rounds[1]); diff != "" {
		t.Errorf("Rounds()[1] mismatch (-want +got):\n%s", diff)
	}
}

// Re-pairing deletes the round's open reports with its tables, and only
// the ones the judge's change was decided with: a report made since is a
// conflict, and nothing changes.
func TestReplaceRoundDiscardsOpenReports(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 7, 4, 3)
	p := f.players
	tb := f.round.Tables[0]
	rep := tournament.Report{TournamentID: f.t.ID, TableID: tb.ID, Round: 1, Table: tb.Number, ReportedBy: tb.Players[0],
		Confirmed: []int64{tb.Players[0]}, Status: tournament.ReportAwaiting, At: t0}
	for _, id := range tb.Players {
		rep.Scores = append(rep.Scores, tournament.Score{PlayerID: id, VP: 5})
	}
	if err := f.s.AddReport(ctx, &rep, change("report.add")); err != nil {
		t.Fatal(err)
	}
	re := tournament.Round{TournamentID: f.t.ID, Number: 1, Mode: "random", Seed: 99, PairedBy: "judge-b", PairedAt: t0.Add(time.Minute),
		Tables: []tournament.Table{{Number: 1, Players: []int64{p[6], p[5], p[4], p[3]}}, {Number: 2, Players: []int64{p[2], p[1], p[0]}}}}
	var v *referee.Violation
	if err := f.s.ReplaceRound(ctx, &re, f.round, nil, change("round.repair")); !errors.As(err, &v) || v.Code != "round-reports-changed" {
		t.Fatalf("ReplaceRound(not knowing the report) error = %v, want the conflict round-reports-changed", err)
	}
	if _, err := f.s.Report(ctx, rep.ID); err != nil {
		t.Fatalf("the report after the refused re-pairing: %v", err)
	}
	if err := f.s.ReplaceRound(ctx, &re, f.round, []int64{rep.ID}, change("round.repair")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Report(ctx, rep.ID); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("the report after the re-pairing: %v, want ErrNotFound", err)
	}
}
