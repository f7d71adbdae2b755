package tournament_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
)

// violationOf returns the violation in err, or fails the test.
func violationOf(t *testing.T, what string, err error, code string) *referee.Violation {
	t.Helper()
	var v *referee.Violation
	if !errors.Is(err, tournament.ErrInvalid) || !errors.As(err, &v) || v.Code != code {
		t.Fatalf("%s error = %v, want the violation %s", what, err, code)
	}
	return v
}

// A name or kana is as long as an import allows (MaxNameRunes), however
// the player is registered or edited.
func TestPlayerNameLength(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(3, 1)
	long := strings.Repeat("あ", tournament.MaxNameRunes+1)
	most := strings.Repeat("あ", tournament.MaxNameRunes)
	for _, tc := range []struct {
		name string
		in   tournament.PlayerInput
		code string
	}{
		{"name", tournament.PlayerInput{Name: long}, "player-name-too-long"},
		{"5000 characters", tournament.PlayerInput{Name: strings.Repeat("x", 5000)}, "player-name-too-long"},
		{"kana", tournament.PlayerInput{Name: "青木", Kana: long}, "player-kana-too-long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tc.in)
			if v := violationOf(t, "AddPlayer", err, tc.code); v.Args["Max"] != tournament.MaxNameRunes {
				t.Errorf("AddPlayer violation args %v, want Max %d", v.Args, tournament.MaxNameRunes)
			}
			_, err = rename(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, ps[0].ID, tc.in)
			violationOf(t, "UpdatePlayer", err, tc.code)
			_, err = c.Svc.EditPlayer(c.Ctx, "judge-a", ps[0].TournamentID, ps[0].ID, tournament.PlayerEdit{PlayerInput: tc.in})
			violationOf(t, "EditPlayer", err, tc.code)
		})
	}
	must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: most, Kana: most})).OK(t)
}

// A fixed-table request is checked when it is set, not when the next round
// is paired: a table seats 4, and the players registered fill only so many
// tables. The refusal names the players already at the table.
func TestFixedTableCheckedWhenSet(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(13, 2) // 13 players: tables 1 to 4
	for _, p := range ps[:4] {
		must(fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, p.ID, 1)).OK(t)
	}
	_, err := fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, ps[4].ID, 1)
	v := violationOf(t, "SetFixedTable(a fifth player at table 1)", err, "fixed-table-full")
	var want []string
	for _, p := range ps[:4] {
		want = append(want, p.Name)
	}
	slices.Sort(want)
	if got, _ := v.Args["Players"].([]string); !slices.Equal(got, want) || v.Args["Player"] != ps[4].Name {
		t.Errorf("fixed-table-full args %v, want Player %s and Players %v", v.Args, ps[4].Name, want)
	}
	_, err = fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, ps[4].ID, 5)
	v = violationOf(t, "SetFixedTable(table 5 of 4)", err, "fixed-table-beyond-players")
	if v.Args["Tables"] != 4 || v.Args["Count"] != 13 {
		t.Errorf("fixed-table-beyond-players args %v, want Tables 4 and Count 13", v.Args)
	}
	must(fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, ps[4].ID, 4)).OK(t)
	// Setting a player's own table again is no fifth player.
	must(fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, ps[0].ID, 1)).OK(t)
	_, err = c.Svc.EditPlayer(c.Ctx, "judge-a", ps[5].TournamentID, ps[5].ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: ps[5].Name}, FixedTable: 1})
	violationOf(t, "EditPlayer(a fifth player at table 1)", err, "fixed-table-full")
	// The pairing honours what was accepted.
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	for _, p := range ps[:4] {
		if !slices.Contains(r.Tables[0].Players, p.ID) {
			t.Errorf("round 1 table 1 = %v, want fixed player %d", r.Tables[0].Players, p.ID)
		}
	}
	// The first player registered may already ask for table 1.
	other := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "別大会", Rounds: 1})).OK(t)
	p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", other.ID, tournament.PlayerInput{Name: "車椅子"})).OK(t)
	must(fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", other.ID, p.ID, 1)).OK(t)
	_, err = fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", other.ID, p.ID, 2)
	violationOf(t, "SetFixedTable(table 2 of 1)", err, "fixed-table-beyond-players")
}

// Registering a player checked in is one change, so a failure leaves no
// half-registered player behind and a retry no duplicate.
func TestAddPlayerCheckedIn(t *testing.T) {
	c := newConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "定例会", Rounds: 1})).OK(t)
	p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "青木", CheckedIn: true})).OK(t)
	if got := must(c.Svc.GetPlayer(c.Ctx, p.TournamentID, p.ID)).OK(t); !got.CheckedIn {
		t.Errorf("player added checked in = %+v, want CheckedIn", got)
	}
	if log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t); len(log) != 2 || log[0].Action != "player.add" {
		t.Errorf("audit log %+v, want the creation and one player.add", log)
	}
}

// The edit form of a player is one change: name, kana, fixed table and
// keep-apart requests are saved together, or not at all.
func TestEditPlayer(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(8, 1)
	in := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: " 青木 一郎 ", Kana: "あおき いちろう"}, FixedTable: 2, KeepApart: []int64{ps[2].ID, ps[1].ID}}
	p := must(c.Svc.EditPlayer(c.Ctx, "judge-b", ps[0].TournamentID, ps[0].ID, in)).OK(t)
	want := ps[0]
	want.Name, want.Kana, want.FixedTable, want.KeepApart = "青木 一郎", "あおき いちろう", 2, []int64{ps[1].ID, ps[2].ID}
	if got := must(c.Svc.GetPlayer(c.Ctx, p.TournamentID, p.ID)).OK(t); got.Name != want.Name || got.Kana != want.Kana || got.FixedTable != 2 || !slices.Equal(got.KeepApart, want.KeepApart) || !got.CheckedIn {
		t.Errorf("after EditPlayer: %+v, want %+v", got, want)
	}
	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	if log[0].Action != "player.edit" || log[1].Action == "player.edit" {
		t.Errorf("audit log starts %s, %s; want one player.edit", log[0].Action, log[1].Action)
	}
	// A refused part refuses the whole form.
	for _, bad := range []tournament.PlayerEdit{
		{PlayerInput: tournament.PlayerInput{Name: "別名"}, FixedTable: 3},
		{PlayerInput: tournament.PlayerInput{Name: "別名"}, KeepApart: []int64{999}},
		{PlayerInput: tournament.PlayerInput{Name: "別名"}, KeepApart: []int64{ps[0].ID}},
		{PlayerInput: tournament.PlayerInput{Name: "別名"}, FixedTable: -1},
	} {
		if _, err := c.Svc.EditPlayer(c.Ctx, "judge-b", ps[0].TournamentID, ps[0].ID, bad); !errors.Is(err, tournament.ErrInvalid) {
			t.Errorf("EditPlayer(%+v) error = %v, want ErrInvalid", bad, err)
		}
		if got := must(c.Svc.GetPlayer(c.Ctx, ps[0].TournamentID, ps[0].ID)).OK(t); got.Name != want.Name || got.FixedTable != 2 {
			t.Errorf("after the refused EditPlayer(%+v): %+v, want nothing changed", bad, got)
		}
	}
}

// An import refuses a fifth player fixed to a table, as SetFixedTable
// does, counting the players registered and the rows before.
func TestImportChecksFixedTables(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(6, 1)
	for _, p := range ps[:3] {
		must(fixTable(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, p.ID, 1)).OK(t)
	}
	rows := []tournament.ImportRow{
		{Line: 2, Name: "新人1", FixedTable: 1},
		{Line: 3, Name: "新人2", FixedTable: 1},
		{Line: 4, Name: "新人3", FixedTable: 2},
	}
	plan := must(c.Svc.ImportPlayers(c.Ctx, "judge-a", tour.ID, rows)).OK(t)
	var got []string
	for _, l := range plan.Lines {
		got = append(got, l.Action+" "+l.Problem)
	}
	want := []string{"add ", "refuse fixed_table_full", "add "}
	if !slices.Equal(got, want) || plan.Add != 2 || plan.Refused != 1 {
		t.Errorf("import plan %q (add %d, refused %d), want %q", got, plan.Add, plan.Refused, want)
	}
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
}

// A roster in katakana, half-width kana or with other spacing adds nobody
// registered in hiragana: names and readings are compared as FoldReading
// folds them. The same name read another way, or the same reading under
// another name, is added with a warning for the judge.
func TestImportFoldsKana(t *testing.T) {
	c := newConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "名簿", Rounds: 1})).OK(t)
	misaki := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "伊藤 美咲", Kana: "いとう みさき"})).OK(t)
	kenta := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "佐藤健太"})).OK(t)
	rows := []tournament.ImportRow{
		{Line: 2, Name: "伊藤 美咲", Kana: "イトウ ミサキ"}, // the row: the same person in katakana
		{Line: 3, Name: "伊藤　美咲", Kana: "ｲﾄｳﾐｻｷ"},  // full-width space, half-width kana
		{Line: 4, Name: "伊藤美咲"},                   // no reading: the name decides
		{Line: 5, Name: "佐藤 健太", Kana: "さとう けんた"}, // registered without a reading
		{Line: 6, Name: "伊藤 美咲", Kana: "いとう みさ"},  // the same name read another way
		{Line: 7, Name: "井藤 美咲", Kana: "イトウ　ミサキ"}, // the same reading under another name
		{Line: 8, Name: "山田 花子", Kana: "やまだ はなこ"}, // new
		{Line: 9, Name: "山田花子", Kana: "ヤマダハナコ"},   // the row before, in katakana
		{Line: 10, Name: "山田 花子", Kana: "やまだ はな"}, // the row before's name, read another way
	}
	plan := must(c.Svc.PlanImport(c.Ctx, tour.ID, rows)).OK(t)
	type line struct {
		action, problem, warning string
		player                   int64
		same                     int
	}
	var got []line
	for _, l := range plan.Lines {
		got = append(got, line{l.Action, l.Problem, l.Warning, l.SamePlayer, l.SameLine})
	}
	want := []line{
		{tournament.ImportSkip, "", "", misaki.ID, 0},
		{tournament.ImportRefuse, tournament.ProblemDuplicateRow, "", 0, 2}, // row 2 again, folded
		{tournament.ImportSkip, "", "", misaki.ID, 0},
		{tournament.ImportSkip, "", "", kenta.ID, 0},
		{tournament.ImportAdd, "", tournament.WarnSameNameOtherReading, misaki.ID, 0},
		{tournament.ImportAdd, "", tournament.WarnSameReadingOtherName, misaki.ID, 0},
		{tournament.ImportAdd, "", "", 0, 0},
		{tournament.ImportRefuse, tournament.ProblemDuplicateRow, "", 0, 8},
		{tournament.ImportAdd, "", tournament.WarnSameNameOtherReading, 0, 8},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(line{})); diff != "" {
		t.Errorf("import plan (-want +got):\n%s", diff)
	}
	added := must(c.Svc.ImportPlayers(c.Ctx, "judge-a", tour.ID, rows)).OK(t)
	if added.Add != 4 || len(added.Added) != 4 {
		t.Errorf("ImportPlayers added %d, want the 4 rows the plan adds", len(added.Added))
	}
	// Importing the file again adds nobody.
	if again := must(c.Svc.PlanImport(c.Ctx, tour.ID, rows)).OK(t); again.Add != 0 {
		t.Errorf("a second import would add %d players, want none", again.Add)
	}
}

// A registration made by mistake is deleted, audited; a player with a game,
// a bye or a penalty on record is refused (ErrConflict): they are dropped.
func TestDeletePlayer(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.SetUp(5, 2)
	mistake := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "誤登録", Kana: "ごとうろく"})).OK(t)
	must(keepApart(c.Ctx, c.Svc, c.Svc, "judge-a", tour.ID, ps[0].ID, []int64{mistake.ID})).OK(t)
	if err := c.Svc.CheckDelete(c.Ctx, mistake.TournamentID, mistake.ID); err != nil {
		t.Fatalf("CheckDelete(never played) = %v, want nil", err)
	}
	must(c.Svc.DeletePlayer(c.Ctx, "judge-b", mistake.TournamentID, mistake.ID)).OK(t)
	if _, err := c.Svc.GetPlayer(c.Ctx, mistake.TournamentID, mistake.ID); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("GetPlayer(deleted) error = %v, want ErrNotFound", err)
	}
	if p := must(c.Svc.GetPlayer(c.Ctx, ps[0].TournamentID, ps[0].ID)).OK(t); len(p.KeepApart) != 0 {
		t.Errorf("keep-apart of the other player = %v, want the deleted one gone", p.KeepApart)
	}
	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	if log[0].Action != "player.delete" || log[0].Judge != "judge-b" || !strings.Contains(log[0].Before, "誤登録") {
		t.Errorf("audit log starts %+v, want player.delete by judge-b with the registration as it was", log[0])
	}
	for _, st := range must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t) {
		if st.PlayerID == mistake.ID {
			t.Errorf("the deleted player is in the standings: %+v", st)
		}
	}

	// Five players: round 1 pairs four and gives one a bye.
	r := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	codes := map[int64]string{}
	for _, id := range append(slices.Clone(r.Tables[0].Players), r.Byes...) {
		codes[id] = "player-in-pairing"
	}
	late := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "遅刻"})).OK(t)
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: late.ID, Offence: "unsporting-conduct"})).OK(t)
	codes[late.ID] = "player-has-penalty"
	for id, code := range codes {
		for _, err := range []error{c.Svc.CheckDelete(c.Ctx, tour.ID, id), func() error { _, err := c.Svc.DeletePlayer(c.Ctx, "judge-a", tour.ID, id); return err }()} {
			var v *referee.Violation
			if !errors.Is(err, tournament.ErrConflict) || !errors.As(err, &v) || v.Code != code {
				t.Errorf("deleting player %d: error = %v, want the conflict %s", id, err, code)
			}
		}
		if _, err := c.Svc.GetPlayer(c.Ctx, tour.ID, id); err != nil {
			t.Errorf("player %d after the refused deletion: %v", id, err)
		}
	}
}

// The desk's bulk check-in checks in the players named, each as its own
// audited change, leaves those already checked in and those who dropped
// as they are, and changes nothing for an ID of another tournament.
func TestCheckInPlayers(t *testing.T) {
	c := newConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "受付", Rounds: 1})).OK(t)
	other := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "別の大会", Rounds: 1})).OK(t)
	var ids []int64
	for _, n := range []string{"青木", "井上", "上田", "江藤"} {
		ids = append(ids, must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: n})).OK(t).ID)
	}
	must(c.Svc.CheckIn(c.Ctx, "judge-a", tour.ID, ids[1], true)).OK(t)
	must(c.Svc.DropPlayer(c.Ctx, "judge-a", tour.ID, ids[3])).OK(t)
	stranger := must(c.Svc.AddPlayer(c.Ctx, "judge-a", other.ID, tournament.PlayerInput{Name: "部外者"})).OK(t)

	if _, err := c.Svc.CheckInPlayers(c.Ctx, "judge-a", tour.ID, []int64{ids[0], stranger.ID}, true); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("bulk check-in with another tournament's player: err %v, want ErrNotFound", err)
	}
	if p := must(c.Svc.GetPlayer(c.Ctx, tour.ID, ids[0])).OK(t); p.CheckedIn {
		t.Error("a refused bulk check-in checked a player in")
	}
	done := must(c.Svc.CheckInPlayers(c.Ctx, "judge-a", tour.ID, ids, true)).OK(t)
	var names []string
	for _, p := range done {
		names = append(names, p.Name)
	}
	if want := []string{"青木", "上田"}; !slices.Equal(names, want) {
		t.Errorf("bulk check-in changed %q, want %q", names, want)
	}
	for i, want := range []bool{true, true, true, false} {
		if p := must(c.Svc.GetPlayer(c.Ctx, tour.ID, ids[i])).OK(t); p.CheckedIn != want {
			t.Errorf("%s checked in = %v, want %v", p.Name, p.CheckedIn, want)
		}
	}
	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	n := 0
	for _, e := range log {
		if e.Action == "player.check_in" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("audit log has %d check-ins, want 3 (one by hand, two in bulk)", n)
	}
}

// An import may check in everyone it adds; by default nobody is.
func TestImportCheckedIn(t *testing.T) {
	c := newConsole(t)
	tour := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "名簿", Rounds: 1})).OK(t)
	plain := must(c.Svc.ImportPlayers(c.Ctx, "judge-a", tour.ID, []tournament.ImportRow{{Line: 2, Name: "青木"}})).OK(t)
	in := must(c.Svc.ImportPlayersCheckedIn(c.Ctx, "judge-a", tour.ID, []tournament.ImportRow{{Line: 2, Name: "井上"}})).OK(t)
	for _, p := range []struct {
		id   int64
		want bool
	}{{plain.Added[0].ID, false}, {in.Added[0].ID, true}} {
		if got := must(c.Svc.GetPlayer(c.Ctx, tour.ID, p.id)).OK(t); got.CheckedIn != p.want {
			t.Errorf("%s checked in = %v, want %v", got.Name, got.CheckedIn, p.want)
		}
	}
}
