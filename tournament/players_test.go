package tournament_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

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
	tour, ps := c.setUp(3, 1)
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
			_, err := c.svc.AddPlayer(c.ctx, "judge-a", tour.ID, tc.in)
			if v := violationOf(t, "AddPlayer", err, tc.code); v.Args["Max"] != tournament.MaxNameRunes {
				t.Errorf("AddPlayer violation args %v, want Max %d", v.Args, tournament.MaxNameRunes)
			}
			_, err = c.svc.UpdatePlayer(c.ctx, "judge-a", ps[0].ID, tc.in)
			violationOf(t, "UpdatePlayer", err, tc.code)
			_, err = c.svc.EditPlayer(c.ctx, "judge-a", ps[0].ID, tournament.PlayerEdit{PlayerInput: tc.in})
			violationOf(t, "EditPlayer", err, tc.code)
		})
	}
	must(c.svc.AddPlayer(c.ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: most, Kana: most})).ok(t)
}

// A fixed-table request is checked when it is set, not when the next round
// is paired: a table seats 4, and the players registered fill only so many
// tables. The refusal names the players already at the table.
func TestFixedTableCheckedWhenSet(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.setUp(13, 2) // 13 players: tables 1 to 4
	for _, p := range ps[:4] {
		must(c.svc.SetFixedTable(c.ctx, "judge-a", p.ID, 1)).ok(t)
	}
	_, err := c.svc.SetFixedTable(c.ctx, "judge-a", ps[4].ID, 1)
	v := violationOf(t, "SetFixedTable(a fifth player at table 1)", err, "fixed-table-full")
	var want []string
	for _, p := range ps[:4] {
		want = append(want, p.Name)
	}
	slices.Sort(want)
	if got, _ := v.Args["Players"].([]string); !slices.Equal(got, want) || v.Args["Player"] != ps[4].Name {
		t.Errorf("fixed-table-full args %v, want Player %s and Players %v", v.Args, ps[4].Name, want)
	}
	_, err = c.svc.SetFixedTable(c.ctx, "judge-a", ps[4].ID, 5)
	v = violationOf(t, "SetFixedTable(table 5 of 4)", err, "fixed-table-beyond-players")
	if v.Args["Tables"] != 4 || v.Args["Count"] != 13 {
		t.Errorf("fixed-table-beyond-players args %v, want Tables 4 and Count 13", v.Args)
	}
	must(c.svc.SetFixedTable(c.ctx, "judge-a", ps[4].ID, 4)).ok(t)
	// Setting a player's own table again is no fifth player.
	must(c.svc.SetFixedTable(c.ctx, "judge-a", ps[0].ID, 1)).ok(t)
	_, err = c.svc.EditPlayer(c.ctx, "judge-a", ps[5].ID, tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: ps[5].Name}, FixedTable: 1})
	violationOf(t, "EditPlayer(a fifth player at table 1)", err, "fixed-table-full")
	// The pairing honours what was accepted.
	r := must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
	for _, p := range ps[:4] {
		if !slices.Contains(r.Tables[0].Players, p.ID) {
			t.Errorf("round 1 table 1 = %v, want fixed player %d", r.Tables[0].Players, p.ID)
		}
	}
	// The first player registered may already ask for table 1.
	other := must(c.svc.CreateTournament(c.ctx, "judge-a", tournament.TournamentInput{Name: "別大会", Rounds: 1})).ok(t)
	p := must(c.svc.AddPlayer(c.ctx, "judge-a", other.ID, tournament.PlayerInput{Name: "車椅子"})).ok(t)
	must(c.svc.SetFixedTable(c.ctx, "judge-a", p.ID, 1)).ok(t)
	_, err = c.svc.SetFixedTable(c.ctx, "judge-a", p.ID, 2)
	violationOf(t, "SetFixedTable(table 2 of 1)", err, "fixed-table-beyond-players")
}

// Registering a player checked in is one change, so a failure leaves no
// half-registered player behind and a retry no duplicate.
func TestAddPlayerCheckedIn(t *testing.T) {
	c := newConsole(t)
	tour := must(c.svc.CreateTournament(c.ctx, "judge-a", tournament.TournamentInput{Name: "定例会", Rounds: 1})).ok(t)
	p := must(c.svc.AddPlayer(c.ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "青木", CheckedIn: true})).ok(t)
	if got := must(c.svc.GetPlayer(c.ctx, p.ID)).ok(t); !got.CheckedIn {
		t.Errorf("player added checked in = %+v, want CheckedIn", got)
	}
	if log := must(c.svc.AuditLog(c.ctx, tour.ID)).ok(t); len(log) != 2 || log[0].Action != "player.add" {
		t.Errorf("audit log %+v, want the creation and one player.add", log)
	}
}

// The edit form of a player is one change: name, kana, fixed table and
// keep-apart requests are saved together, or not at all.
func TestEditPlayer(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.setUp(8, 1)
	in := tournament.PlayerEdit{PlayerInput: tournament.PlayerInput{Name: " 青木 一郎 ", Kana: "あおき いちろう"}, FixedTable: 2, KeepApart: []int64{ps[2].ID, ps[1].ID}}
	p := must(c.svc.EditPlayer(c.ctx, "judge-b", ps[0].ID, in)).ok(t)
	want := ps[0]
	want.Name, want.Kana, want.FixedTable, want.KeepApart = "青木 一郎", "あおき いちろう", 2, []int64{ps[1].ID, ps[2].ID}
	if got := must(c.svc.GetPlayer(c.ctx, p.ID)).ok(t); got.Name != want.Name || got.Kana != want.Kana || got.FixedTable != 2 || !slices.Equal(got.KeepApart, want.KeepApart) || !got.CheckedIn {
		t.Errorf("after EditPlayer: %+v, want %+v", got, want)
	}
	log := must(c.svc.AuditLog(c.ctx, tour.ID)).ok(t)
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
		if _, err := c.svc.EditPlayer(c.ctx, "judge-b", ps[0].ID, bad); !errors.Is(err, tournament.ErrInvalid) {
			t.Errorf("EditPlayer(%+v) error = %v, want ErrInvalid", bad, err)
		}
		if got := must(c.svc.GetPlayer(c.ctx, ps[0].ID)).ok(t); got.Name != want.Name || got.FixedTable != 2 {
			t.Errorf("after the refused EditPlayer(%+v): %+v, want nothing changed", bad, got)
		}
	}
}

// An import refuses a fifth player fixed to a table, as SetFixedTable
// does, counting the players registered and the rows before.
func TestImportChecksFixedTables(t *testing.T) {
	c := newConsole(t)
	tour, ps := c.setUp(6, 1)
	for _, p := range ps[:3] {
		must(c.svc.SetFixedTable(c.ctx, "judge-a", p.ID, 1)).ok(t)
	}
	rows := []tournament.ImportRow{
		{Line: 2, Name: "新人1", FixedTable: 1},
		{Line: 3, Name: "新人2", FixedTable: 1},
		{Line: 4, Name: "新人3", FixedTable: 2},
	}
	plan := must(c.svc.ImportPlayers(c.ctx, "judge-a", tour.ID, rows)).ok(t)
	var got []string
	for _, l := range plan.Lines {
		got = append(got, l.Action+" "+l.Problem)
	}
	want := []string{"add ", "refuse fixed_table_full", "add "}
	if !slices.Equal(got, want) || plan.Add != 2 || plan.Refused != 1 {
		t.Errorf("import plan %q (add %d, refused %d), want %q", got, plan.Add, plan.Refused, want)
	}
	must(c.svc.PairNextRound(c.ctx, "judge-a", tour.ID)).ok(t)
}
