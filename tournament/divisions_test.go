package tournament_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// kids are the players of the children's division.
var kids = []struct{ name, kana string }{
	{"あおい", "あおい"}, {"いつき", "いつき"}, {"うた", "うた"}, {"えま", "えま"},
	{"かい", "かい"}, {"きら", "きら"}, {"そら", "そら"}, {"ひなた", "ひなた"},
}

// twoDivisions makes an event of 12 players in its main (open) division,
// named 一般の部, and 8 in 小学生の部, registered through the main
// tournament, each of 2 rounds and a final of the top 4.
func (c *console) twoDivisions(rs referee.Ruleset) (open, kid tournament.Tournament, players []tournament.Player) {
	c.T.Helper()
	open, players = c.enter(rs, 12, 2)
	must(c.Svc.NameDivision(c.Ctx, "judge-a", open.ID, "一般の部")).OK(c.T)
	kid = must(c.Svc.AddDivision(c.Ctx, "judge-a", open.ID, " 小学生の部 ")).OK(c.T)
	for _, k := range kids {
		p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", open.ID, tournament.PlayerInput{
			Name: k.name, Kana: k.kana, CheckedIn: true, Division: "小学生の部"})).OK(c.T)
		if p.TournamentID != kid.ID {
			c.T.Fatalf("%s registered in tournament %d, want the division's %d", k.name, p.TournamentID, kid.ID)
		}
		players = append(players, p)
	}
	open = must(c.Svc.GetTournament(c.Ctx, open.ID)).OK(c.T)
	return open, kid, players
}

// Two divisions of one event, each with its rounds, clock, standings and
// final (testdata/divisions.golden): each pairs among its own players, its
// clock runs alone, and its standings and final results are its own.
func TestTwoDivisionsWithTheirFinals(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) {})
	c := newEventConsole(t, rs)
	open, kid, players := c.twoDivisions(rs)
	var clocks []string
	want := []tournament.Division{{Name: "一般の部", TournamentID: open.ID}, {Name: "小学生の部", TournamentID: kid.ID}}
	if !slices.Equal(open.Divisions, want) || open.EventID != open.ID || kid.EventID != open.ID || !kid.IsDivision() || open.IsDivision() {
		t.Fatalf("open = %d %q %+v, kids = %d %q: want the event's two divisions", open.EventID, open.Division, open.Divisions, kid.EventID, kid.Division)
	}
	if kid.Name != "地区予選 小学生の部" || kid.Rounds != 2 || kid.Ruleset.Name != rs.Name || kid.GameMinutes != open.GameMinutes {
		t.Errorf("kids' division = %+v, want the main's settings and its name", kid)
	}
	for n := 1; n <= 2; n++ {
		for _, d := range []tournament.Tournament{open, kid} {
			must(c.Svc.PairNextRound(c.Ctx, "judge-a", d.ID)).OK(t)
		}
		if n == 2 {
			// The kids' round 2 clock runs while the open's stays ready.
			must(c.Svc.ClockAction(c.Ctx, "judge-b", kid.ID, 2, tournament.ClockInput{Action: tournament.ClockStart})).OK(t)
			c.At = c.At.Add(5 * time.Minute)
			for _, d := range []tournament.Tournament{open, kid} {
				clock, _, err := must(c.Svc.Snapshot(c.Ctx, d.ID)).OK(t).Clock(2, c.At)
				if err != nil {
					t.Fatal(err)
				}
				clocks = append(clocks, fmt.Sprintf("%s round 2 clock: %s, %s left", d.Division, clock.State, clock.Remaining))
			}
		}
		for _, d := range []tournament.Tournament{open, kid} {
			c.play(d, n, []int{10, 8, 6, 4}, nil)
		}
	}
	for _, d := range []tournament.Tournament{open, kid} {
		must(c.Svc.MakeFinal(c.Ctx, "judge-a", d.ID)).OK(t)
		c.play(d, 3, []int{10, 7, 5, 3}, nil)
	}
	var b strings.Builder
	b.WriteString(strings.Join(clocks, "\n") + "\n")
	for _, d := range []tournament.Tournament{open, kid} {
		mine := map[int64]bool{}
		for _, p := range must(c.Svc.Players(c.Ctx, d.ID)).OK(t) {
			mine[p.ID] = true
		}
		for _, r := range must(c.Svc.Rounds(c.Ctx, d.ID)).OK(t) {
			for _, tb := range r.Tables {
				for _, id := range tb.Players {
					if !mine[id] {
						t.Errorf("%s round %d table %d seats player %d of another division", d.Division, r.Number, tb.Number, id)
					}
				}
			}
		}
		fmt.Fprintf(&b, "== %s (%d players)\n", d.Division, len(mine))
		b.WriteString(c.report(d, players))
	}
	tournamenttest.Golden(t, filepath.Join("testdata", "divisions.golden"), b.String(), *update)
}

// A division's standings are found by its name through any division of
// the event; an unknown name is a coded not found, never an empty list.
func TestDivisionNamed(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) {})
	c := newEventConsole(t, rs)
	open, kid, _ := c.twoDivisions(rs)
	kid = must(c.Svc.GetTournament(c.Ctx, kid.ID)).OK(t)
	for _, tc := range []struct {
		from tournament.Tournament
		name string
		want int64
	}{{open, "", open.ID}, {open, "小学生の部", kid.ID}, {kid, "一般の部", open.ID}, {kid, "", kid.ID}} {
		if got, err := tc.from.DivisionNamed(tc.name); err != nil || got != tc.want {
			t.Errorf("%s.DivisionNamed(%q) = %d, %v; want %d", tc.from.Division, tc.name, got, err, tc.want)
		}
	}
	if _, err := open.DivisionNamed("中学生の部"); !errors.Is(err, tournament.ErrNotFound) || code(err) != "unknown-division" {
		t.Errorf("DivisionNamed(unknown) error = %v, want the not found unknown-division", err)
	}
}

// Bad divisions are refused with their codes and change nothing.
func TestDivisionRefusals(t *testing.T) {
	rs := nationalWith(t, func(e *referee.EventFormat) {})
	c := newEventConsole(t, rs)
	open, kid, _ := c.twoDivisions(rs)
	before := must(c.Svc.ListTournaments(c.Ctx)).OK(t)
	audit := len(must(c.Svc.AuditLog(c.Ctx, open.ID)).OK(t))
	for _, tc := range []struct {
		tid        int64
		name, code string
	}{
		{open.ID, "  ", "division-name-missing"},
		{open.ID, strings.Repeat("部", 41), "division-name-too-long"},
		{open.ID, "小学生の部", "division-name-taken"},
		{open.ID, "一般の部", "division-name-taken"},
		{kid.ID, "中学生の部", "division-of-division"},
	} {
		if _, err := c.Svc.AddDivision(c.Ctx, "judge-a", tc.tid, tc.name); code(err) != tc.code || !errors.Is(err, tournament.ErrInvalid) {
			t.Errorf("AddDivision(%d, %q) error = %v, want %s", tc.tid, tc.name, err, tc.code)
		}
	}
	if _, err := c.Svc.NameDivision(c.Ctx, "judge-a", kid.ID, "一般の部"); code(err) != "division-name-taken" {
		t.Errorf("NameDivision(the main's name) error = %v, want division-name-taken", err)
	}
	_, err := c.Svc.AddPlayer(c.Ctx, "judge-a", open.ID, tournament.PlayerInput{Name: "山田", Division: "中学生の部"})
	if code(err) != "unknown-division" || !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("AddPlayer(unknown division) error = %v, want the invalid unknown-division", err)
	}
	if got := must(c.Svc.ListTournaments(c.Ctx)).OK(t); len(got) != len(before) {
		t.Errorf("%d tournaments after the refusals, want %d", len(got), len(before))
	}
	if got := len(must(c.Svc.AuditLog(c.Ctx, open.ID)).OK(t)); got != audit {
		t.Errorf("%d audit entries after the refusals, want %d", got, audit)
	}
	for _, d := range []int64{open.ID, kid.ID} {
		for _, p := range must(c.Svc.Players(c.Ctx, d)).OK(t) {
			if p.Name == "山田" {
				t.Errorf("the refused player was registered in tournament %d", d)
			}
		}
	}
	// The main goes only once its divisions are gone; a division that
	// never started is deleted as any tournament, and leaves the event's list.
	if err := c.Svc.DeleteTournament(c.Ctx, "judge-a", open.ID); code(err) != "division-main-has-divisions" || !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("DeleteTournament(the main) error = %v, want division-main-has-divisions", err)
	}
	if err := c.Svc.DeleteTournament(c.Ctx, "judge-a", kid.ID); err != nil {
		t.Fatal(err)
	}
	open = must(c.Svc.GetTournament(c.Ctx, open.ID)).OK(t)
	if len(open.Divisions) != 1 || open.Divisions[0].TournamentID != open.ID {
		t.Errorf("the event's divisions after deleting 小学生の部 = %+v, want the main alone", open.Divisions)
	}
	// Closed, the event takes no division.
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", open.ID)).OK(t)
	c.play(open, 1, []int{10, 8, 6, 4}, nil)
	must(c.Svc.CloseTournament(c.Ctx, "judge-a", open.ID)).OK(t)
	if _, err := c.Svc.AddDivision(c.Ctx, "judge-a", open.ID, "中学生の部"); code(err) != "tournament-finished" {
		t.Errorf("AddDivision(closed) error = %v, want tournament-finished", err)
	}
}
