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
	tour, _ := c.setUp(0, 1)
	other, _ := c.setUp(0, 1)
	p := must(c.svc.AddPlayer(c.ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "青木", Kana: "あおき"})).ok(t)
	q := must(c.svc.AddPlayer(c.ctx, "judge-a", tour.ID, tournament.PlayerInput{Name: "井上"})).ok(t)
	x := must(c.svc.AddPlayer(c.ctx, "judge-a", other.ID, tournament.PlayerInput{Name: "上田"})).ok(t)
	for _, pl := range []tournament.Player{p, q, x} {
		if !codeShape.MatchString(pl.Code) {
			t.Fatalf("code %q of %s is not of the alphabet's shape", pl.Code, pl.Name)
		}
	}
	if p.Code == q.Code {
		t.Fatalf("two players share the code %q", p.Code)
	}
	stored := must(c.svc.GetPlayer(c.ctx, tour.ID, p.ID)).ok(t)
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
			got, err := c.svc.CheckCode(c.ctx, tc.tid, tc.id, tc.code)
			if tc.ok {
				if err != nil || got.ID != tc.id {
					t.Fatalf("CheckCode = %d, %v; want player %d", got.ID, err, tc.id)
				}
				return
			}
			violationOf(t, "CheckCode", err, "player-code-wrong")
		})
	}

	n := must(c.svc.IssueCode(c.ctx, "judge-b", tour.ID, p.ID)).ok(t)
	if !codeShape.MatchString(n.Code) || n.Code == p.Code {
		t.Fatalf("new code %q (old %q)", n.Code, p.Code)
	}
	violationOf(t, "the old code", must(c.svc.CheckCode(c.ctx, tour.ID, p.ID, p.Code)).err, "player-code-wrong")
	must(c.svc.CheckCode(c.ctx, tour.ID, p.ID, n.Code)).ok(t)

	log := must(c.svc.AuditLog(c.ctx, tour.ID)).ok(t)
	if log[0].Action != "player.code" || log[0].Judge != "judge-b" {
		t.Fatalf("latest audit entry %+v, want judge-b's player.code", log[0])
	}
	hash := must(c.svc.GetPlayer(c.ctx, tour.ID, p.ID)).ok(t).CodeHash
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
	tour, _ := c.setUp(0, 1)
	plan := must(c.svc.ImportPlayers(c.ctx, "judge-a", tour.ID, []tournament.ImportRow{
		{Line: 2, Name: "新人1"}, {Line: 3, Name: "新人2"}, {Line: 4, Name: "新人3"},
	})).ok(t)
	seen := map[string]bool{}
	for _, p := range plan.Added {
		if !codeShape.MatchString(p.Code) || seen[p.Code] {
			t.Fatalf("imported %s with code %q (seen %v)", p.Name, p.Code, seen)
		}
		seen[p.Code] = true
		must(c.svc.CheckCode(c.ctx, tour.ID, p.ID, p.Code)).ok(t)
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
	desk := must(c.svc.CreateTournament(c.ctx, "judge-a", tournament.TournamentInput{Name: "受付の大会", Rounds: 1})).ok(t)
	self := must(c.svc.CreateTournament(c.ctx, "judge-a", tournament.TournamentInput{Name: "セルフの大会", Rounds: 1, SelfCheckIn: true})).ok(t)
	if !must(c.svc.GetTournament(c.ctx, self.ID)).ok(t).SelfCheckIn {
		t.Fatalf("the tournament does not keep its self check-in")
	}
	d := must(c.svc.AddPlayer(c.ctx, "judge-a", desk.ID, tournament.PlayerInput{Name: "青木"})).ok(t)
	p := must(c.svc.AddPlayer(c.ctx, "judge-a", self.ID, tournament.PlayerInput{Name: "井上"})).ok(t)
	q := must(c.svc.AddPlayer(c.ctx, "judge-a", self.ID, tournament.PlayerInput{Name: "上田"})).ok(t)
	must(c.svc.DropPlayer(c.ctx, "judge-a", self.ID, q.ID)).ok(t)

	violationOf(t, "at the desk's tournament", must(c.svc.SelfCheckIn(c.ctx, desk.ID, d.ID, d.Code)).err, "self-checkin-off")
	err := must(c.svc.SelfCheckIn(c.ctx, self.ID, p.ID, q.Code)).err
	violationOf(t, "a wrong code", err, "player-code-wrong")
	if !errors.Is(err, tournament.ErrWrongCode) {
		t.Errorf("a wrong code is not ErrWrongCode: %v", err)
	}
	violationOf(t, "a dropped player", must(c.svc.SelfCheckIn(c.ctx, self.ID, q.ID, q.Code)).err, "self-checkin-dropped")
	before := len(must(c.svc.AuditLog(c.ctx, self.ID)).ok(t))
	for range 2 {
		got := must(c.svc.SelfCheckIn(c.ctx, self.ID, p.ID, strings.ToLower(p.Code))).ok(t)
		if !got.CheckedIn || got.Code != "" {
			t.Fatalf("self check-in = %+v, want checked in, no code", got)
		}
	}
	log := must(c.svc.AuditLog(c.ctx, self.ID)).ok(t)
	if len(log) != before+1 || log[0].Action != "player.self_check_in" || log[0].Judge != tournament.PlayerActor {
		t.Fatalf("audit after two check-ins: %d new entries, latest %+v; want one player.self_check_in by the player", len(log)-before, log[0])
	}
	if !must(c.svc.GetPlayer(c.ctx, self.ID, p.ID)).ok(t).CheckedIn || must(c.svc.GetPlayer(c.ctx, desk.ID, d.ID)).ok(t).CheckedIn {
		t.Errorf("check-ins stored wrong")
	}
	// The judge's edit form keeps or turns off self check-in.
	edited := must(c.svc.EditTournament(c.ctx, "judge-a", self.ID, tournament.TournamentInput{Name: "セルフの大会", Rounds: 1})).ok(t)
	if edited.SelfCheckIn || must(c.svc.GetTournament(c.ctx, self.ID)).ok(t).SelfCheckIn {
		t.Errorf("self check-in still on after the judge turned it off")
	}
}
