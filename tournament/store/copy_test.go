package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/referee/game"
	"github.com/catanjudge/catanjudge/referee/season"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/store"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// event runs a small event on s through the service, so that every table
// of the schema has rows: players with a keep-apart request, a round with
// a bye and an amendment, a seating and a board, clock events, results and
// a correction, a recorded game and a result saved from it, a penalty and
// a revoked one, a players' report disputed with another version, the
// tournament closed, a setting and a session logged out; and a batch of
// players' cards, which is not copied. The service's clock ticks by
// 1.000001 s, so that the times have microseconds.
func event(t *testing.T, s *store.Store) int64 {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2025, 11, 22, 13, 0, 0, 123456789, time.UTC)
	now := func() time.Time { at = at.Add(time.Second + time.Microsecond); return at }
	svc := tournamenttest.NewServiceOn(t, s, now)
	ok := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	tr, err := svc.CreateTournament(ctx, "山田", tournament.TournamentInput{Name: "移行テスト大会", Venue: "秋葉原", Rounds: 2, SelfReport: tournament.SelfReportApprove})
	ok(err)
	var ids []int64
	for i := range 5 {
		p, err := svc.AddPlayer(ctx, "山田", tr.ID, tournament.PlayerInput{Name: fmt.Sprintf("選手%d", i+1), Kana: fmt.Sprintf("せんしゅ%d", i+1)})
		ok(err)
		_, err = svc.CheckIn(ctx, "山田", tr.ID, p.ID, true)
		ok(err)
		ids = append(ids, p.ID)
	}
	r, err := svc.PairNextRound(ctx, "山田", tr.ID)
	ok(err)
	_, err = svc.SwapPlayers(ctx, "鈴木", tr.ID, 1, r.Tables[0].Players[0], r.Byes[0], "遅刻")
	ok(err)
	_, err = svc.EditPlayer(ctx, "山田", tr.ID, ids[0], tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: "選手1", Kana: "せんしゅ1"}, KeepApart: []int64{ids[1]}})
	ok(err)
	_, err = svc.SetSeating(ctx, "鈴木", tr.ID, 1, 1, tournament.SeatingInput{Auto: true})
	ok(err)
	_, err = svc.SetBoard(ctx, "鈴木", tr.ID, 1, 1, tournament.BoardInput{Roll: referee.CapsuleRoll{White: 3, Blue: 5}})
	ok(err)
	_, err = svc.ClockAction(ctx, "山田", tr.ID, 1, tournament.ClockInput{Action: tournament.ClockStart})
	ok(err)
	_, err = svc.ClockAction(ctx, "山田", tr.ID, 1, tournament.ClockInput{Action: tournament.ClockExtend, Table: 1, Seconds: 60, Reason: "長い裁定"})
	ok(err)
	at = at.Add(time.Hour)
	rounds, err := svc.Rounds(ctx, tr.ID)
	ok(err)
	r = rounds[0]
	// A player's report of table 1, before the judges' sheets.
	first := r.Tables[0].Players
	reporter, err := svc.IssueCode(ctx, "山田", tr.ID, first[0])
	ok(err)
	var report tournament.ReportInput
	for i, p := range first {
		report.Scores = append(report.Scores, tournament.Score{PlayerID: p, VP: 9 - i})
	}
	rep, err := svc.ReportResult(ctx, tr.ID, 1, 1, first[0], reporter.Code, report)
	ok(err)
	// Disputed with another version, which the copy keeps too.
	disputer, err := svc.IssueCode(ctx, "山田", tr.ID, first[1])
	ok(err)
	version := tournament.DisputeInput{Note: "4番目は5点"}
	version.Scores = append(version.Scores, report.Scores...)
	version.Scores[len(version.Scores)-1].VP--
	_, err = svc.DisputeReport(ctx, tr.ID, rep.ID, first[1], disputer.Code, version)
	ok(err)
	// Table 1's game, recorded move by move and ended by the judge before
	// any result (a result locks the record).
	for i, m := range append(slices.Clone(tournamenttest.Placements), game.MoveSpec{Do: "time_up"}) {
		_, _, err = svc.AppendMove(ctx, "鈴木", tr.ID, 1, 1, tournament.MoveInput{Move: m, Expected: i})
		ok(err)
	}
	_, err = svc.UndoMove(ctx, "鈴木", tr.ID, 1, 1, 9)
	ok(err)
	_, _, err = svc.AppendMove(ctx, "鈴木", tr.ID, 1, 1, tournament.MoveInput{Move: game.MoveSpec{Do: "time_up"}, Expected: 8})
	ok(err)
	for _, table := range r.Tables {
		in := tournament.ResultInput{}
		for i, p := range table.Players {
			in.Scores = append(in.Scores, tournament.Score{PlayerID: p, VP: 9 - i})
			if i == 0 {
				// 9 VP: a breakdown's columns are copied too.
				in.Scores[0].Breakdown = &referee.Breakdown{Settlements: 1, Cities: 3, LongestRoad: true}
			}
		}
		_, err = svc.SaveResult(ctx, "鈴木", tr.ID, 1, table.Number, in)
		ok(err)
		if table.Number == 1 {
			in.Version, in.Reason, in.Scores[1].VP = 1, "数え直し", 3
			_, err = svc.SaveResult(ctx, "山田", tr.ID, 1, 1, in)
			ok(err)
		}
	}
	p1, err := svc.RecordPenalty(ctx, "鈴木", tr.ID, tournament.PenaltyInput{PlayerID: r.Tables[0].Players[1], Round: 1, Offence: "note-taking", Note: "メモ"})
	ok(err)
	_, err = svc.RevokePenalty(ctx, "山田", tr.ID, p1.ID, "別の選手だった")
	ok(err)
	_, err = svc.RecordPenalty(ctx, "鈴木", tr.ID, tournament.PenaltyInput{PlayerID: r.Tables[0].Players[2], Round: 1, Offence: "needless-talk"})
	ok(err)
	// Its result is saved from table 1's record, over the judges' sheets.
	_, err = svc.SaveGameResult(ctx, "鈴木", tr.ID, 1, 1, tournament.GameResultInput{Moves: 9, Version: 2, Reason: "棋譜から"})
	ok(err)
	_, _, err = svc.SaveRuling(ctx, "鈴木", tr.ID, 1, 1, tournament.RulingInput{Note: "道の長さ", Steps: []game.Step{
		{Do: "settlement", Player: strconv.FormatInt(r.Tables[0].Players[0], 10), At: "N(0,0)"},
		{Do: "road", Player: strconv.FormatInt(r.Tables[0].Players[0], 10), Edge: []string{"N(0,0)", "S(1,-1)"}}}})
	ok(err)
	// A staff account, and a device left at table 1.
	_, err = svc.AddStaff(ctx, "山田", tournament.StaffInput{Name: "佐藤", Role: tournament.RoleScorekeeper}, "$2a$04$hash")
	ok(err)
	_, err = svc.OpenDevice(ctx, "鈴木", tr.ID, 1, 1, tournament.DeviceInput{Hash: []byte("device-hash"), Sealed: []byte("sealed"), Record: true})
	ok(err)
	_, err = svc.CloseTournament(ctx, "山田", tr.ID)
	ok(err)
	// A batch of players' cards, sealed: a print buffer, not copied.
	ok(s.KeepCards(ctx, "0123456789abcdef0123456789abcdef", tr.ID, []byte("sealed cards"), at.Add(30*time.Minute), at))
	// The registry: a member number, a merge with the entry of another
	// event's player, an archived person.
	players, err := svc.Players(ctx, tr.ID)
	ok(err)
	_, err = svc.EditPerson(ctx, "山田", players[0].PersonID, tournament.PersonInput{Name: players[0].Name, Kana: players[0].Kana, Member: "ＪＣＳ－００１"})
	ok(err)
	other, err := svc.CreateTournament(ctx, "山田", tournament.TournamentInput{Name: "別の大会", Rounds: 1})
	ok(err)
	again, err := svc.AddPlayer(ctx, "山田", other.ID, tournament.PlayerInput{Name: "せんしゅ いち", Kana: players[0].Kana})
	ok(err)
	_, err = svc.MergePeople(ctx, "山田", players[0].PersonID, again.PersonID)
	ok(err)
	_, err = svc.ArchivePerson(ctx, "山田", players[4].PersonID)
	ok(err)
	// A season of the event's shop, and a real name for its qualification.
	_, err = svc.CreateSeason(ctx, "山田", tournament.SeasonInput{Name: "秋リーグ", From: "2025-10-01", To: "2025-12-31", Events: []int64{tr.ID},
		Formula: season.Formula{Kind: season.KindPlacement, Points: []int{10, 7, 5}, Best: 2}, Qualification: &tournament.Qualification{RealName: true}})
	ok(err)
	_, err = svc.RecordRealName(ctx, "山田", players[1].PersonID, "選手 二郎")
	ok(err)
	ok(s.SetSetting(ctx, "judge_password_hash", "$2a$10$hash"))
	ok(s.EndSession(ctx, "session-1", at.Add(24*time.Hour)))
	// A team event's team with its line-up for round 1 (schema version 22).
	cup, err := svc.CreateTournament(ctx, "山田", tournament.TournamentInput{Name: "チーム戦", Rounds: 1, Team: true})
	ok(err)
	var members []int64
	for i := range 5 {
		p, err := svc.AddPlayer(ctx, "山田", cup.ID, tournament.PlayerInput{Name: fmt.Sprintf("東京%d", i+1)})
		ok(err)
		members = append(members, p.ID)
	}
	team, err := svc.RegisterTeam(ctx, "山田", cup.ID, tournament.TeamInput{Name: "東京", Players: members})
	ok(err)
	_, err = svc.NameLineup(ctx, "山田", cup.ID, team.ID, 1, members[1:])
	ok(err)
	return tr.ID
}

// contents is everything the store gives of tournament tid.
type contents struct {
	Tournaments []tournament.Tournament
	Players     []tournament.Player
	Rounds      []tournament.Round
	Revisions   [][]tournament.Result
	Penalties   []tournament.Penalty
	Clock       [][]tournament.ClockEvent
	Audit       []tournament.AuditEntry
	Setting     string
	Reports     []tournament.Report
	Moves       [][]tournament.GameMove
	Ended       map[string]time.Time
	People      []tournament.PersonEntry
	Registry    []tournament.AuditEntry
	Staff       []tournament.Staff
	Devices     []tournament.Device
	Calls       []tournament.Call
}

func contentsOf(t *testing.T, s *store.Store, tid int64) contents {
	t.Helper()
	ctx := context.Background()
	var c contents
	var err error
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	c.Tournaments, err = s.Tournaments(ctx)
	must(err)
	c.Players, err = s.Players(ctx, tid)
	must(err)
	c.Rounds, err = s.Rounds(ctx, tid)
	must(err)
	for _, r := range c.Rounds {
		for _, table := range r.Tables {
			revs, err := s.Revisions(ctx, table.ID)
			must(err)
			c.Revisions = append(c.Revisions, revs)
			moves, err := s.GameMoves(ctx, table.ID)
			must(err)
			c.Moves = append(c.Moves, moves)
		}
		events, err := s.ClockEvents(ctx, r.ID)
		must(err)
		c.Clock = append(c.Clock, events)
	}
	c.Penalties, err = s.Penalties(ctx, tid)
	must(err)
	c.Audit, err = s.AuditLog(ctx, tid)
	must(err)
	c.Reports, err = s.Reports(ctx, tid)
	must(err)
	c.Setting, err = s.GetSetting(ctx, "judge_password_hash")
	must(err)
	c.Ended, err = s.EndedSessions(ctx, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	must(err)
	for _, archived := range []bool{false, true} {
		people, _, err := s.People(ctx, tournament.PeopleQuery{Archived: archived, Limit: 100})
		must(err)
		c.People = append(c.People, people...)
	}
	c.Registry, err = s.AuditLog(ctx, 0)
	must(err)
	c.Staff, err = s.StaffMembers(ctx)
	must(err)
	c.Devices, err = s.Devices(ctx, tid, 1, 1)
	must(err)
	c.Calls, err = s.Calls(ctx, tid)
	must(err)
	return c
}

// CopyInto copies an event from SQLite into an empty PostgreSQL database
// (created, not yet migrated: what createdb leaves) and verifies it: the
// copy gives everything the original gives, to the microsecond, keeps
// taking writes with new IDs, and a second copy into it is refused.
func TestCopyIntoPostgres(t *testing.T) {
	ctx := context.Background()
	src := openSQLite(t)
	tid := event(t, src)
	c := tournamenttest.Postgres(t)
	dsn, err := c.CreateDatabase(ctx, "copy_target", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.DropDatabase(context.Background(), "copy_target") })

	copied, err := src.CopyInto(ctx, dsn)
	if err != nil {
		t.Fatalf("CopyInto: %v", err)
	}
	got := map[string]int64{}
	for _, tc := range copied {
		got[tc.Table] = tc.Rows
	}
	// Every table of the schema was copied, and had rows to copy.
	for _, table := range []string{"tournaments", "people", "players", "keep_aparts", "rounds", "round_tables", "table_players", "round_byes",
		"amendments", "results", "result_scores", "penalties", "rulings", "game_moves", "clock_events", "audit_entries", "settings", "ended_sessions", "reports", "seasons", "real_names", "tournament_versions",
		"staff", "calls", "table_devices", "teams", "team_members", "team_lineups"} {
		if got[table] == 0 {
			t.Errorf("CopyInto copied %d rows of %s, want some", got[table], table)
		}
	}
	if len(got) != 28 {
		t.Errorf("CopyInto reported %d tables, want the schema's 28 but the cards: %v", len(got), copied)
	}

	dst := tournamenttest.OpenDSN(t, dsn)
	if dst.Engine() != "PostgreSQL" {
		t.Fatalf("the copy opened on %s", dst.Engine())
	}
	// The batches of players' cards stay behind (store.copied says why).
	if n, err := store.Count(dst, "card_batches"); err != nil || n != 0 {
		t.Errorf("the copy holds %d batches of cards (%v), want none", n, err)
	}
	want := contentsOf(t, src, tid)
	// PostgreSQL keeps times to the microsecond; the service's clock gave
	// nanoseconds (the times inside the seating and board, JSON text, keep
	// theirs).
	microseconds := cmp.Transformer("µs", func(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) })
	if diff := cmp.Diff(want, contentsOf(t, dst, tid), microseconds); diff != "" {
		t.Errorf("the copy differs from the original (-sqlite +postgres):\n%s", diff)
	}
	// The copy goes on where the original stopped: new rows, new IDs.
	if _, err := tournamenttest.NewServiceOn(t, dst, time.Now).ReopenTournament(ctx, "山田", tid, "入力漏れ"); err != nil {
		t.Fatal(err)
	}
	log, err := dst.AuditLog(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if log[0].Action != tournament.ActionReopen || log[0].ID <= want.Audit[0].ID {
		t.Errorf("the first audit line written on the copy = %+v, want the reopening after line %d", log[0], want.Audit[0].ID)
	}

	// A second copy into the same database is refused, and changes nothing.
	if _, err := src.CopyInto(ctx, dsn); !errors.Is(err, store.ErrNotEmpty) || !strings.Contains(err.Error(), "tournaments: 3 rows") {
		t.Errorf("CopyInto(a database with an event) error = %v, want ErrNotEmpty naming what it holds", err)
	}
	if n, _ := dst.AuditLog(ctx, tid); len(n) != len(log) {
		t.Errorf("the refused copy changed the audit log: %d lines, was %d", len(n), len(log))
	}
}

// A database that holds tables of something else is not a target either.
func TestCopyIntoRefusesAnotherApplicationsDatabase(t *testing.T) {
	ctx := context.Background()
	src := openSQLite(t)
	event(t, src)
	dsn := tournamenttest.NewPostgresDSN(t)
	raw := tournamenttest.OpenDSN(t, dsn)
	if err := store.Exec(raw, "CREATE TABLE invoices (id serial PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	if _, err := src.CopyInto(ctx, dsn); !errors.Is(err, store.ErrNotEmpty) || !strings.Contains(err.Error(), "invoices") {
		t.Errorf("CopyInto(a database with other tables) error = %v, want ErrNotEmpty naming them", err)
	}
}
