package tournament_test

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catanjudge/catanjudge/config"
	"github.com/catanjudge/catanjudge/referee"
	"github.com/catanjudge/catanjudge/tournament"
	"github.com/catanjudge/catanjudge/tournament/tournamenttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// console is the judges' console of tournamenttest (a service on a real
// database with a clock that moves a minute per call), with this package's
// helpers as its methods.
type console struct{ *tournamenttest.Console }

func newConsole(t *testing.T) *console { return &console{tournamenttest.NewConsole(t)} }

// newClockConsole is a console whose clock moves only when the test moves it.
func newClockConsole(t *testing.T) *console { return &console{tournamenttest.NewClockConsole(t)} }

// must holds a call's result for OK: must(f()).OK(t).
func must[T any](v T, err error) tournamenttest.Outcome[T] { return tournamenttest.Must(v, err) }

var (
	names     = tournamenttest.Names
	fixTable  = tournamenttest.FixTable
	keepApart = tournamenttest.KeepApart
	rename    = tournamenttest.Rename
	conflict  = tournamenttest.Conflict
)

// timeUp starts round n's clock and moves the console's clock past the
// game time, so the tables without a result end by time (§12).
func (c *console) timeUp(tour tournament.Tournament, n int) {
	c.T.Helper()
	must(c.Svc.ClockAction(c.Ctx, "judge-a", tour.ID, n, tournament.ClockInput{Action: tournament.ClockStart})).OK(c.T)
	c.At = c.At.Add(time.Duration(tour.GameMinutes+1) * time.Minute)
}

// The scenario of a 13-player, 3-round event: a declared win, a shared
// place, time-ended games, a correction, a stale save, penalties (an
// escalated warning, a game loss, a revoked one) and a drop. The rounds and
// standings are checked against testdata/scenario13.golden.
func TestScenario13(t *testing.T) {
	c := newConsole(t)
	tour, players := c.SetUp(13, 3)
	if tour.GameMinutes != 7 || tour.Ruleset.Name != config.DefaultRuleset {
		t.Errorf("tournament = %+v, want the default ruleset's 7 minutes", tour)
	}

	// Round 1: 4, 3, 3, 3 players.
	r1 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if got := tableSizes(r1); !slices.Equal(got, []int{4, 3, 3, 3}) || len(r1.Byes) != 0 {
		t.Fatalf("round 1 tables %v byes %v, want [4 3 3 3] and none", got, r1.Byes)
	}
	if _, err := c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID); !errors.Is(err, tournament.ErrConflict) {
		t.Errorf("PairNextRound(round 1 unfinished) error = %v, want ErrConflict", err)
	}
	c.Save(tour, 1, 1, 0, []int{10, 7, 7, 4}, 0, "") // declared win, shared 2nd
	c.timeUp(tour, 1)
	c.Save(tour, 1, 2, 0, []int{8, 8, 6}, -1, "")     // time, shared 1st
	c.Save(tour, 1, 3, 0, []int{9, 6, 5}, -1, "")     // time
	c.Save(tour, 1, 4, 0, []int{6, 5, 11}, -1, "")    // time, 11 VP recorded as 10 (§11)
	c.Save(tour, 1, 3, 1, []int{9, 7, 5}, -1, "数え直し") // correction: version 2

	// A judge still looking at version 1 of table 3 is refused and told what changed.
	r := must(c.Svc.RoundView(c.Ctx, tour.ID, 1)).OK(t).Round
	t3 := r.Tables[2]
	_, err := c.Svc.SaveResult(c.Ctx, "judge-b", tour.ID, 1, 3, tournament.ResultInput{
		Version: 1, Reason: "typo",
		Scores: []tournament.Score{{PlayerID: t3.Players[0], VP: 9}, {PlayerID: t3.Players[1], VP: 6}, {PlayerID: t3.Players[2], VP: 4}},
	})
	var ce *tournament.ConflictError
	if !errors.As(err, &ce) || ce.Current.Version != 2 {
		t.Fatalf("SaveResult(stale version 1) error = %v, want a *ConflictError at version 2", err)
	}
	p1 := players[slices.IndexFunc(players, func(p tournament.Player) bool { return p.ID == t3.Players[1] })]
	if want := fmt.Sprintf("%s 6 → 7 VP", p1.Name); !strings.Contains(err.Error(), want) {
		t.Errorf("conflict message %q does not say %q", err, want)
	}

	// Round 2: Swiss.
	r2 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if r2.Mode != tournament.ModeSwiss {
		t.Errorf("round 2 mode = %q, want swiss", r2.Mode)
	}
	// Note-taking twice at table 3: the second warning escalates (docs/rules.md).
	offender := r2.Tables[2].Players[0]
	first := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: offender, Round: 2, Offence: "note-taking", Note: "メモ"})).OK(t)
	second := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: offender, Round: 2, Offence: "note-taking", Note: "再度"})).OK(t)
	if first.Level != referee.Warning || second.Level != referee.VPDeduction || second.Table != 3 {
		t.Errorf("note-taking twice: levels %s, %s at table %d; want warning, vp_deduction at table 3", first.Level, second.Level, second.Table)
	}
	// A game loss at table 2, given by the judge's decision.
	loser := r2.Tables[1].Players[0]
	must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: loser, Round: 2, Offence: "ignored-judge", Level: referee.GameLoss})).OK(t)
	c.Save(tour, 2, 1, 0, []int{9, 10, 5, 3}, 1, "")
	c.timeUp(tour, 2)
	res := c.Save(tour, 2, 2, 0, []int{9, 6, 6}, -1, "")
	if res.Places[2].PlayerID != loser || res.Places[2].Place != 3 || res.Places[2].VP != 0 {
		t.Errorf("round 2 table 2 placings %+v, want player %d last with 0 VP (game loss)", res.Places, loser)
	}
	c.Save(tour, 2, 3, 0, []int{8, 7, 2}, -1, "")
	c.Save(tour, 2, 4, 0, []int{4, 4, 4}, -1, "")

	// 田中 drops after round 2: round 3 has 12 players.
	tanaka := players[12]
	dropped := must(c.Svc.DropPlayer(c.Ctx, "judge-a", tanaka.TournamentID, tanaka.ID)).OK(t)
	if dropped.DroppedRound != 3 {
		t.Errorf("DropPlayer after round 2 started: DroppedRound = %d, want 3", dropped.DroppedRound)
	}
	r3 := must(c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID)).OK(t)
	if got := tableSizes(r3); !slices.Equal(got, []int{4, 4, 4}) || slices.ContainsFunc(r3.Tables, func(tb tournament.Table) bool { return slices.Contains(tb.Players, tanaka.ID) }) {
		t.Errorf("round 3 tables %v, want [4 4 4] without %s", got, tanaka.Name)
	}
	// A game loss given to the wrong player, then revoked: no effect.
	wrong := must(c.Svc.RecordPenalty(c.Ctx, "judge-a", tour.ID, tournament.PenaltyInput{PlayerID: r3.Tables[0].Players[0], Round: 3, Offence: "ignored-judge"})).OK(t)
	must(c.Svc.RevokePenalty(c.Ctx, "judge-b", wrong.TournamentID, wrong.ID, "別の卓の選手と取り違えた")).OK(t)
	c.Save(tour, 3, 2, 0, []int{3, 10, 9, 9}, 1, "")
	c.timeUp(tour, 3)
	c.Save(tour, 3, 1, 0, []int{8, 7, 6, 5}, -1, "")
	c.Save(tour, 3, 3, 0, []int{9, 9, 4, 4}, -1, "")
	if _, err := c.Svc.PairNextRound(c.Ctx, "judge-a", tour.ID); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("PairNextRound(after the last round) error = %v, want ErrInvalid", err)
	}

	var b strings.Builder
	for n := 1; n <= 3; n++ {
		v := must(c.Svc.RoundView(c.Ctx, tour.ID, n)).OK(t)
		fmt.Fprintf(&b, "round %d (%s, seed %d, repeats %d)\n", n, v.Round.Mode, v.Round.Seed, v.Round.Repeats)
		for _, tv := range v.Tables {
			fmt.Fprintf(&b, "  table %d v%d %s:", tv.Table.Number, tv.Result.Version, tv.Result.EndedBy)
			for _, pl := range tv.Places {
				fmt.Fprintf(&b, " %d.%s(%d)", pl.Place, nameOf(players, pl.PlayerID), pl.VP)
			}
			b.WriteString("\n")
		}
	}
	pens := must(c.Svc.Penalties(c.Ctx, tour.ID)).OK(t)
	for _, p := range pens {
		revoked := ""
		if p.Revoked != nil {
			revoked = " revoked: " + p.Revoked.Reason
		}
		fmt.Fprintf(&b, "penalty round %d table %d %s %s %s%s\n", p.Round, p.Table, nameOf(players, p.PlayerID), p.Offence, p.Level, revoked)
	}
	standings := must(c.Svc.Standings(c.Ctx, tour.ID)).OK(t)
	b.WriteString("rank  player      firsts  vp   share  played  dropped\n")
	for _, s := range standings {
		fmt.Fprintf(&b, "%4d  %-8s %6d  %3d  %6.4f  %6d  %7d\n", s.Rank, s.Name, s.Firsts, s.VP, s.Share, s.Played, s.DroppedRound)
	}
	tournamenttest.Golden(t, filepath.Join("testdata", "scenario13.golden"), b.String(), *update)

	// Every change left one audit line; a correction records who and why.
	log := must(c.Svc.AuditLog(c.Ctx, tour.ID)).OK(t)
	var corrections int
	for _, e := range log {
		if e.Action == "result.correct" {
			corrections++
			if e.Judge != "judge-a" || !strings.Contains(e.After, "数え直し") || !strings.Contains(e.Before, `"Version":1`) {
				t.Errorf("correction audit entry = %+v, want judge-a, the reason and version 1 as before", e)
			}
		}
	}
	if corrections != 1 {
		t.Errorf("audit log has %d corrections, want 1", corrections)
	}
	// 1 tournament, 13 players, 13 check-ins, 3 pairings, 3 clock starts,
	// 4 penalties, 1 revocation, 11 results, 1 correction, 1 drop.
	if want := 1 + 13 + 13 + 3 + 3 + 4 + 1 + 11 + 1 + 1; len(log) != want {
		t.Errorf("audit log has %d lines, want %d", len(log), want)
	}
}

// tableSizes returns the sizes of a round's tables, largest first.
func tableSizes(r tournament.Round) []int {
	var out []int
	for _, t := range r.Tables {
		out = append(out, len(t.Players))
	}
	slices.SortFunc(out, func(a, b int) int { return b - a })
	return out
}

func nameOf(players []tournament.Player, id int64) string {
	for _, p := range players {
		if p.ID == id {
			return p.Name
		}
	}
	return fmt.Sprint(id)
}
