package tournament_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/text/width"

	"github.com/catanjudge/catanjudge/tournament"
)

// codeShape is a code as printed: two groups of four of the alphabet,
// which has no 0, O, 1, I or l.
var codeShape = regexp.MustCompile(`^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{4}$`)

// A player gets a code at registration, shown once; it is checked as a
// phone types it, a judge's new code voids the old one, and neither the
// code nor its hash reaches the audit log.
func TestPlayerCodes(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(0, 1)
	other, _ := c.SetUp(0, 1)
	p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "青木", Kana: "あおき"})).OK(t)
	q := must(c.Svc.AddPlayer(c.Ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "井上"})).OK(t)
	x := must(c.Svc.AddPlayer(c.Ctx, "judge-a", other.ID, tournament.PlayerInput{Name: "上田"})).OK(t)
	for _, pl := range []tournament.Player{p, q, x} {
		if !codeShape.MatchString(pl.Code) {
			t.Fatalf("code %q of %s is not of the alphabet's shape", pl.Code, pl.Name)
		}
	}
	if p.Code == q.Code {
		t.Fatalf("two players share the code %q", p.Code)
	}
	stored := must(c.Svc.GetPlayer(c.Ctx, tour.ID, p.ID)).OK(t)
	if stored.Code != "" || stored.CodeHash == "" || strings.Contains(stored.CodeHash, strings.ReplaceAll(p.Code, "-", "")) {
		t.Fatalf("stored player: code %q, hash %q; want no code, a hash without it", stored.Code, stored.CodeHash)
	}
	plain := strings.ReplaceAll(p.Code, "-", "")
	for _, tc := range []struct {
		name    string
		tid, id int64
		code    string
		ok      bool
	}{
		{"as printed", tour.ID, p.ID, p.Code, true},
		{"lower case, no hyphen", tour.ID, p.ID, strings.ToLower(plain), true},
		{"full width with spaces", tour.ID, p.ID, width.Widen.String(plain[:4] + " " + plain[4:]), true},
		{"another player's code", tour.ID, p.ID, q.Code, false},
		{"one character off", tour.ID, p.ID, plain[:7] + string(next(plain[7])), false},
		{"too short", tour.ID, p.ID, plain[:7], false},
		{"empty", tour.ID, p.ID, "", false},
		{"the player of another tournament", tour.ID, x.ID, x.Code, false},
		{"no such player", tour.ID, 9999, p.Code, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Svc.CheckCode(c.Ctx, tc.tid, tc.id, tc.code)
			if tc.ok {
				if err != nil || got.ID != tc.id {
					t.Fatalf("CheckCode = %d, %v; want player %d", got.ID, err, tc.id)
				}
				return
			}
			violationOf(t, "CheckCode", err, "player-code-wrong")
		})
	}

	n := must(c.Svc.IssueCode(c.Ctx, "judge-b", tour.ID, p.ID)).OK(t)
	if !codeShape.MatchString(n.Code) || n.Code == p.Code {
		t.Fatalf("new code %q (old %q)", n.Code, p.Code)
	}
	violationOf(t, "the old code", must(c.Svc.CheckCode(c.Ctx, tour.ID, p.ID, p.Code)).Err, "player-code-wrong")
	must(c.Svc.CheckCode(c.Ctx, tour.ID, p.ID, n.Code)).OK(t)

	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	if log[0].Action != "player.code" || log[0].Judge != "judge-b" {
		t.Fatalf("latest audit entry %+v, want judge-b's player.code", log[0])
	}
	hash := must(c.Svc.GetPlayer(c.Ctx, tour.ID, p.ID)).OK(t).CodeHash
	for _, e := range log {
		for _, secret := range []string{p.Code, n.Code, hash, strings.ReplaceAll(n.Code, "-", "")} {
			if strings.Contains(e.Before+e.After+e.Subject, secret) {
				t.Errorf("audit entry %s holds a code or its hash: %s %s", e.Action, e.Before, e.After)
			}
		}
	}
}

// An import gives every player it adds a code of their own.
func TestImportIssuesCodes(t *testing.T) {
	c := newConsole(t)
	tour, _ := c.SetUp(0, 1)
	plan := must(c.Svc.ImportPlayers(c.Ctx, "judge-a", tour.ID, []tournament.ImportRow{
		{Line: 2, Name: "新人1"}, {Line: 3, Name: "新人2"}, {Line: 4, Name: "新人3"},
	})).OK(t)
	seen := map[string]bool{}
	for _, p := range plan.Added {
		if !codeShape.MatchString(p.Code) || seen[p.Code] {
			t.Fatalf("imported %s with code %q (seen %v)", p.Name, p.Code, seen)
		}
		seen[p.Code] = true
		must(c.Svc.CheckCode(c.Ctx, tour.ID, p.ID, p.Code)).OK(t)
	}
	if len(seen) != 3 {
		t.Fatalf("%d codes for 3 players", len(seen))
	}
}

// next is the alphabet's character after b, so a code one character off.
func next(b byte) byte {
	i := strings.IndexByte(tournament.CodeAlphabet, b)
	return tournament.CodeAlphabet[(i+1)%len(tournament.CodeAlphabet)]
}

// A player checks themselves in with their code when the tournament
// allows it, once; a wrong code, a dropped player or a tournament that
// checks in at the desk changes nothing.
func TestSelfCheckIn(t *testing.T) {
	c := newConsole(t)
	desk := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "受付の大会", Rounds: 1})).OK(t)
	self := must(c.Svc.CreateTournament(c.Ctx, "judge-a", tournament.TournamentInput{Name: "セルフの大会", Rounds: 1, SelfCheckIn: true})).OK(t)
	if !must(c.Svc.GetTournament(c.Ctx, self.ID)).OK(t).SelfCheckIn {
		t.Fatalf("the tournament does not keep its self check-in")
	}
	d := must(c.Svc.AddPlayer(c.Ctx, "judge-a", desk.ID, tournament.PlayerInput{Name: "青木"})).OK(t)
	p := must(c.Svc.AddPlayer(c.Ctx, "judge-a", self.ID, tournament.PlayerInput{Name: "井上"})).OK(t)
	q := must(c.Svc.AddPlayer(c.Ctx, "judge-a", self.ID, tournament.PlayerInput{Name: "上田"})).OK(t)
	must(c.Svc.DropPlayer(c.Ctx, "judge-a", self.ID, q.ID)).OK(t)

	violationOf(t, "at the desk's tournament", must(c.Svc.SelfCheckIn(c.Ctx, desk.ID, d.ID, d.Code)).Err, "self-checkin-off")
	err := must(c.Svc.SelfCheckIn(c.Ctx, self.ID, p.ID, q.Code)).Err
	violationOf(t, "a wrong code", err, "player-code-wrong")
	if !errors.Is(err, tournament.ErrWrongCode) {
		t.Errorf("a wrong code is not ErrWrongCode: %v", err)
	}
	violationOf(t, "a dropped player", must(c.Svc.SelfCheckIn(c.Ctx, self.ID, q.ID, q.Code)).Err, "self-checkin-dropped")
	before := len(must(c.Svc.AuditLog(c.Ctx, self.ID)).OK(t))
	for range 2 {
		got := must(c.Svc.SelfCheckIn(c.Ctx, self.ID, p.ID, strings.ToLower(p.Code))).OK(t)
		if !got.CheckedIn || got.Code != "" {
			t.Fatalf("self check-in = %+v, want checked in, no code", got)
		}
	}
	log := must(c.Svc.AuditLog(c.Ctx, self.ID)).OK(t)
	if len(log) != before+1 || log[0].Action != "player.self_check_in" || log[0].Judge != tournament.PlayerActor {
		t.Fatalf("audit after two check-ins: %d new entries, latest %+v; want one player.self_check_in by the player", len(log)-before, log[0])
	}
	if !must(c.Svc.GetPlayer(c.Ctx, self.ID, p.ID)).OK(t).CheckedIn || must(c.Svc.GetPlayer(c.Ctx, desk.ID, d.ID)).OK(t).CheckedIn {
		t.Errorf("check-ins stored wrong")
	}
	// The judge's edit form keeps or turns off self check-in.
	edited := must(c.Svc.EditTournament(c.Ctx, "judge-a", self.ID, tournament.TournamentInput{Name: "セルフの大会", Rounds: 1})).OK(t)
	if edited.SelfCheckIn || must(c.Svc.GetTournament(c.Ctx, self.ID)).OK(t).SelfCheckIn {
		t.Errorf("self check-in still on after the judge turned it off")
	}
}
