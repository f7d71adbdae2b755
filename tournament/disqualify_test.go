package tournament_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

// dqEvent plays two rounds of a 7-player event (a table of 4 and one of 3
// each round) and disqualifies the winner of round 1's table of 4 after
// round 2 with the given effect ("" for the ruleset's).
func (c *console) dqEvent(rs referee.Ruleset, effect referee.DQEffect) (tournament.Tournament, tournament.Player) {
	c.T.Helper()
	tour, cheat := c.twoRounds(rs)
	p := must(c.Svc.Disqualify(c.Ctx, "judge-b", tour.ID, cheat, tournament.DisqualifyInput{Reason: "サイコロの細工", Effect: effect})).OK(c.T)
	return tour, p
}

// twoRounds plays dqEvent's two rounds and returns the player it
// disqualifies.
func (c *console) twoRounds(rs referee.Ruleset) (tournament.Tournament, int64) {
	c.T.Helper()
	tour, _ := c.enter(rs, 7, 3)
	// Round 1: a declared win with a shared 2nd; a game ended by time.
	r1 := c.playBySize(tour, 1, []int{10, 7, 7, 4}, []int{8, 6, 5})
	// Round 2: the disqualified player wins again; a shared 1st by time.
	c.playBySize(tour, 2, []int{10, 9, 6, 3}, []int{7, 7, 9})
	i := slices.IndexFunc(r1.Tables, func(tb tournament.Table) bool { return len(tb.Players) == 4 })
	return tour, r1.Tables[i].Players[0]
}

// playBySize pairs round n and saves its results: at the table of 4 a
// declared win of its first player with vp4, at the table of 3 a game
// ended by time with vp3, each in the table's pairing order.
func (c *console) playBySize(tour tournament.Tournament, n int, vp4, vp3 []int) tournament.Round {
	c.T.Helper()
	must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(c.T)
	r := must(c.Svc.RoundView(c.Ctx, tour.ID, n)).OK(c.T).Round
	for _, tb := range r.Tables {
		if len(tb.Players) == 4 {
			c.Save(tour, n, tb.Number, 0, vp4, 0, "")
		}
	}
	c.timeUp(tour, n)
	for _, tb := range r.Tables {
		if len(tb.Players) == 3 {
			c.Save(tour, n, tb.Number, 0, vp3, -1, "")
		}
	}
	return r
}

// standingsText is the standings for a golden file.
func (c *console) standingsText(tour tournament.Tournament) string {
	c.T.Helper()
	var b strings.Builder
	b.WriteString("rank  player   firsts  vp   share  played  dropped  dq\n")
	for _, s := range must(c.Svc.Standings(c.Ctx, tour.ID)).OK(c.T) {
		fmt.Fprintf(&b, "%4d  %-6s %6d  %3d  %6.4f  %6d  %7d  %s\n", s.Rank, s.Name, s.Firsts, s.VP, s.Share, s.Played, s.DroppedRound, s.Disqualified)
	}
	return b.String()
}

// Each effect of a disqualification, with its standings: the results
// stand, the player's places are removed and the others placed again, or
// the player's games are void (testdata/dq-*.golden).
func TestDisqualifyEffects(t *testing.T) {
	for _, effect := range referee.DQEffects {
		t.Run(string(effect), func(t *testing.T) {
			rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
			c := newConsole(t)
			tour, p := c.dqEvent(rs, effect)
			if p.DQEffect != effect || p.DQReason != "サイコロの細工" || p.DroppedRound != 3 {
				t.Errorf("disqualified player = %+v, want effect %s, the reason and dropped from round 3", p, effect)
			}
			got := c.standingsText(tour)
			tournamenttest.Golden(t, filepath.Join("testdata", "dq-"+string(effect)+".golden"), got, *update)
			// The audit says which effect applied, with the reason.
			var found bool
			for _, e := range must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t) {
				if e.Action == "player.disqualify" {
					found = true
					if e.Judge != "judge-b" || !strings.Contains(e.Subject, "("+string(effect)+")") || !strings.Contains(e.After, `"DQEffect":"`+string(effect)+`"`) {
						t.Errorf("audit entry = %+v, want judge-b and the effect %s", e, effect)
					}
				}
			}
			if !found {
				t.Error("no player.disqualify audit entry")
			}
			// The record carries the effect: it checks, and imported it
			// ranks everyone as the event does.
			c.recordChecksAndImports(t, tour)
			// The next round is paired without the disqualified player.
			r3 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
			for _, tb := range r3.Tables {
				for _, id := range tb.Players {
					if id == p.ID {
						t.Errorf("round 3 seats the disqualified player at table %d", tb.Number)
					}
				}
			}
		})
	}
}

// An effect left out takes the ruleset's; reinstating the player undoes
// the disqualification and its effect.
func TestDisqualifyTakesTheRulesetsEffect(t *testing.T) {
	rs, _ := tournamenttest.Rulesets(t).Get(config.DefaultRuleset)
	rs.Name, rs.Disqualification = "proshop-void", referee.DQVoid
	c := newEventConsole(t, rs)
	tour, cheat := c.twoRounds(rs)
	in := tournament.DisqualifyInput{Reason: "サイコロの細工"}
	pv := must(c.Svc.PreviewDisqualify(c.Ctx, tour.ID, cheat, in)).OK(t)
	if pv.Ruleset != referee.DQVoid || pv.Effect != referee.DQVoid || len(pv.Games) != 2 || pv.DropFrom != 3 {
		t.Errorf("preview = %+v, want the ruleset's void over 2 games, dropped from round 3", pv)
	}
	p := must(c.Svc.Disqualify(c.Ctx, "judge-b", tour.ID, cheat, in)).OK(t)
	if p.DQEffect != referee.DQVoid {
		t.Errorf("effect left out = %q, want the ruleset's void", p.DQEffect)
	}
	voided := c.standingsText(tour)
	must(c.Svc.ReinstatePlayer(c.Ctx, "judge-a", tour.ID, p.ID)).OK(t)
	back := must(c.Svc.GetPlayer(c.Ctx, tour.ID, p.ID)).OK(t)
	if back.DQEffect != "" || back.DroppedRound != 0 {
		t.Errorf("reinstated player = %+v, want neither disqualified nor dropped", back)
	}
	if c.standingsText(tour) == voided {
		t.Error("standings after reinstating are still those of the void disqualification")
	}
}

// A disqualification without a reason, with an unknown effect, or twice
// is refused and changes nothing.
func TestDisqualifyRefusals(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(4, 3)
	p := players[0]
	for _, tc := range []struct {
		in   tournament.DisqualifyInput
		code string
	}{
		{tournament.DisqualifyInput{Reason: "  "}, "dq-reason-missing"},
		{tournament.DisqualifyInput{Reason: "不正", Effect: "erase"}, "unknown-dq-effect"},
	} {
		_, err := c.Svc.Disqualify(c.Ctx, "judge-a", tour.ID, p.ID, tc.in)
		if !errors.Is(err, tournament.ErrInvalid) || code(err) != tc.code {
			t.Errorf("Disqualify(%+v) error = %v, want %s", tc.in, err, tc.code)
		}
	}
	if got := must(c.Svc.GetPlayer(c.Ctx, tour.ID, p.ID)).OK(t); got.DQEffect != "" || got.DroppedRound != 0 {
		t.Errorf("after refusals player = %+v, want unchanged", got)
	}
	must(c.Svc.Disqualify(c.Ctx, "judge-a", tour.ID, p.ID, tournament.DisqualifyInput{Reason: "不正"})).OK(t)
	if _, err := c.Svc.Disqualify(c.Ctx, "judge-a", tour.ID, p.ID, tournament.DisqualifyInput{Reason: "不正"}); code(err) != "already-disqualified" {
		t.Errorf("second Disqualify error = %v, want already-disqualified", err)
	}
}
